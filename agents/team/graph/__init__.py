"""The LangGraph graph: state, wiring, supervisor, planner,
escalation policy and approval nodes.
"""
