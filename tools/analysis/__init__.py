"""The deterministic analysis of a folder (folder.analyse): every table read, fitted and
checked against the assignment, and what the report and the models read of it (the digest,
the facts the number checks hold a draft to, labscribe's own figures).
"""
