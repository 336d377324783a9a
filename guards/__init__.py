"""Pure policy for labscribe's loop: no LangGraph or LangChain import anywhere below.

Each guard answers (a verdict, a path or None, a list of problems); the nodes act.
"""
