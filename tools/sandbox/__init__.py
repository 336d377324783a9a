"""What runs apart from the run: the OS sandbox for model-written figure code (a warm
worker, a supervisor and a confined figure process, in namespaces with seccomp), TeX in
bubblewrap, the child processes a run starts, and the one writer below OUT.
"""
