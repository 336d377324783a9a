"""The assignment: its tasks read from the handout in any markup (tasks, handout_*),
what each task asks (task_*, requested, role_phrases), and the checklist that sets each task
beside what the analysis found (checklist).
"""
