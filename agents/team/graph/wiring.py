"""The support team's graph, wiring only. Read top to bottom:

    classify -+-> specialist (xN lanes in parallel, Send) -> execute -+-> specialist ...
              +-> review <--------------------------------------------+
              +-> ask (the reading is too unsure to act on: a confirming question)
              +-> finalize (the supervisor failed: straight to a person)
    review -+-> acknowledge -> await_approval -> act_on_decisions -+-> merge
            |        ^  (an action failed: a person may retry it)      |
            |        +-------------------------------------------------+
            |                         ^ (approvals short of a lowered limit: wait again,
            |                         |  the customer is not told twice)
            +-> merge (writes the reply and settles the status)
            +-> ask (a specialist stopped to ask: the question goes out, the run waits for
                     the customer, whose answer starts the next turn)

``classify`` plans and starts the first wave itself, and ``merge`` ends the run: each step of
the graph costs its engine's work, so the common path takes no more of them than it needs.
``finalize`` settles the runs that get no reply from the team: a supervisor failure, and a
take-over (the operator's reply is the reply).
One compiled graph per checkpointer; the thread id is the inquiry id.
"""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from agents.team.graph import approval_nodes, supervisor
from agents.team.graph.lanes import run_lane
from agents.team.graph.state import InquiryInput, InquiryState


def build_graph(checkpointer: BaseCheckpointSaver | None) -> CompiledStateGraph:
    graph = StateGraph(InquiryState, input_schema=InquiryInput)

    graph.add_node("classify", supervisor.classify)
    graph.add_node("execute", supervisor.execute)
    graph.add_node("specialist", run_lane)  # type: ignore[arg-type]  # a Send payload, not the state
    graph.add_node("review", supervisor.review)
    graph.add_node("acknowledge", supervisor.acknowledge)
    graph.add_node("await_approval", approval_nodes.await_approval)
    graph.add_node("act_on_decisions", approval_nodes.act_on_decisions)
    graph.add_node("ask", supervisor.ask)
    graph.add_node("merge", supervisor.merge)
    graph.add_node("finalize", supervisor.finalize)

    graph.add_edge(START, "classify")
    graph.add_conditional_edges(
        "classify", supervisor.route_after_classify, ["specialist", "review", "ask", "finalize"]
    )
    graph.add_conditional_edges("execute", supervisor.route_steps, ["specialist", "review"])
    graph.add_edge("specialist", "execute")
    graph.add_conditional_edges(
        "review", supervisor.route_after_review, ["acknowledge", "merge", "ask"]
    )
    graph.add_edge("acknowledge", "await_approval")
    graph.add_edge("await_approval", "act_on_decisions")
    graph.add_conditional_edges(
        "act_on_decisions",
        approval_nodes.route_after_decisions,
        ["merge", "acknowledge", "await_approval", "finalize"],
    )
    graph.add_edge("ask", END)
    graph.add_edge("merge", END)
    graph.add_edge("finalize", END)

    return graph.compile(checkpointer=checkpointer, name="netshop_support")
