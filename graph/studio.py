"""The graph LangGraph Studio and `langgraph dev` serve: compiled without a checkpointer,
because the server brings its own."""

from labscribe.graph.builder import build_graph

graph = build_graph()
