"""Benchmark 1: orchestration overhead, our full runs against a bare LangGraph floor.

    python -m bench.overhead [--count 50] [--reuse-db] [--profile]

Ours: ``inquiry_run`` on ``--count`` mixed inquiries (offline model, PostgresSaver, the real
graph, tools and database work) in this process. Floor: the seed 000 graph shape
(classify -> execute_next_agent x3 -> aggregate) with no-op nodes on the SAME PostgresSaver
(``agents.team.runs.checkpointer.get_checkpointer()``), invoked the same number of times, writing a
checkpoint after every step (``durability="sync"``): what a LangGraph app pays to resume from
any step, the reference the target was set against. Ours checkpoints when a leg of the run
ends (``agents.team.runs.driver.RUN_DURABILITY``); the floor run that way is reported beside it.
The runs are interleaved, one of each in turn, so machine load drifts hit both.
CPU is ``time.process_time`` (all threads of this process; PostgreSQL's own CPU is not in
either figure). Target: ours / floor <= 3.
"""

from __future__ import annotations

import argparse
import uuid
from collections import defaultdict
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END, StateGraph
from langgraph.graph.message import add_messages

from bench import harness

TARGET_RATIO = 3.0
WARMUP = 12  # one cycle of the mix: imports, compiled graphs and connection pools are warm


class SeedState(TypedDict, total=False):
    """The seed 000 ``MultiAgentState``."""

    messages: Annotated[list[Any], add_messages]
    intent: str | None
    required_agents: list[str]
    agent_results: dict[str, Any]
    current_agent_index: int
    final_response: str | None


def floor_graph(checkpointer: Any) -> Any:
    """The seed 000 graph with no-op nodes, on ``checkpointer``."""

    def supervisor_classify(state: SeedState) -> dict[str, Any]:
        return {
            "intent": "track_shipment",
            "required_agents": ["order_agent", "shipping_agent", "payment_agent"],
            "current_agent_index": 0,
            "agent_results": {},
        }

    def execute_next_agent(state: SeedState) -> dict[str, Any]:
        index = state["current_agent_index"]
        name = state["required_agents"][index]
        results = {**state["agent_results"], name: {"status": "completed", "data": {}}}
        return {"agent_results": results, "current_agent_index": index + 1}

    def should_continue_agents(state: SeedState) -> str:
        if state["current_agent_index"] < len(state["required_agents"]):
            return "execute_next_agent"
        return "supervisor_aggregate"

    def supervisor_aggregate(state: SeedState) -> dict[str, Any]:
        return {"final_response": "ok", "messages": [AIMessage("ok")]}

    workflow = StateGraph(SeedState)
    workflow.add_node("supervisor_classify", supervisor_classify)
    workflow.add_node("execute_next_agent", execute_next_agent)
    workflow.add_node("supervisor_aggregate", supervisor_aggregate)
    workflow.set_entry_point("supervisor_classify")
    workflow.add_edge("supervisor_classify", "execute_next_agent")
    workflow.add_conditional_edges(
        "execute_next_agent",
        should_continue_agents,
        ["execute_next_agent", "supervisor_aggregate"],
    )
    workflow.add_edge("supervisor_aggregate", END)
    return workflow.compile(checkpointer=checkpointer, name="seed000_floor")


class Runner:
    """Runs one inquiry either way and records its CPU and wall time."""

    def __init__(self) -> None:
        from agents.team.runs.checkpointer import get_checkpointer

        self.floor = floor_graph(get_checkpointer())
        self.ours_cpu: list[float] = []
        self.ours_wall: list[float] = []
        self.floor_cpu: list[float] = []
        self.floor_wall: list[float] = []
        self.floor_ours_way_cpu: list[float] = []  # the floor at our runs' durability
        self.by_kind: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, int] = defaultdict(int)

    def ours(self, ask: harness.Ask, *, record: bool = True) -> None:
        from agents.support.conversations.intake import inquiry_create
        from agents.team.runs.driver import inquiry_run
        from netshop.models import Customer

        customer = Customer.objects.get(code=ask.customer)
        inquiry = inquiry_create(customer=customer, text=ask.text, start=False)
        with harness.measured() as took:
            outcome = inquiry_run(inquiry=inquiry)
        if record:
            self.ours_cpu.append(took.cpu_s)
            self.ours_wall.append(took.wall_s)
            self.by_kind[ask.kind].append(took.cpu_s)
            self.statuses[outcome.status] += 1

    def bare(self, ask: harness.Ask, *, record: bool = True) -> None:
        from agents.team.runs.driver import RUN_DURABILITY

        config = {"configurable": {"thread_id": f"floor-{uuid.uuid4()}"}}
        with harness.measured() as took:
            self.floor.invoke({"messages": [HumanMessage(ask.text)]}, config, durability="sync")
        config = {"configurable": {"thread_id": f"floor-{uuid.uuid4()}"}}
        with harness.measured() as took_ours_way:
            self.floor.invoke(
                {"messages": [HumanMessage(ask.text)]}, config, durability=RUN_DURABILITY
            )
        if record:
            self.floor_cpu.append(took.cpu_s)
            self.floor_wall.append(took.wall_s)
            self.floor_ours_way_cpu.append(took_ours_way.cpu_s)


def profile_both(asks: list[harness.Ask]) -> dict[str, Any]:
    """cProfile (thread CPU, every thread) of one cycle of the mix each way, not timed with
    the rest: profiling multiplies the cost, so only the shares mean something."""
    from bench import profiling

    runner = Runner()
    with profiling.profiled() as ours:
        for ask in asks:
            runner.ours(ask, record=False)
    with profiling.profiled() as floor:
        for ask in asks:
            runner.bare(ask, record=False)
    per = 1000 / len(asks)
    floor_parts = dict(profiling.components(floor[0]))
    return {
        "inquiries": len(asks),
        "components_ms_per_inquiry": {
            label: {"ours": round(seconds * per, 2), "floor": round(floor_parts[label] * per, 2)}
            for label, seconds in profiling.components(ours[0])
        },
        "self_ms_per_inquiry_by_package": {
            name: round(seconds * per, 2)
            for name, seconds in profiling.self_time_by_package(ours[0])[:15]
        },
        "top_self": profiling.top_functions(ours[0], sort="tottime"),
        "top_cumulative": profiling.top_functions(ours[0], sort="cumulative"),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50, help="inquiries each way (max 500)")
    parser.add_argument("--reuse-db", action="store_true", help="skip recreating the bench DB")
    parser.add_argument("--profile", action="store_true", help="print the profile even if met")
    args = parser.parse_args(argv)
    count = max(1, min(args.count, 500))

    harness.configure(fresh=not args.reuse_db)
    from agents.team.runs.warm_up import process_warm_up

    asks = harness.mixed_inquiries(WARMUP + count)
    runner = Runner()
    harness.log(f"warming up ({WARMUP} each way)")
    for ask in asks[:WARMUP]:
        runner.ours(ask, record=False)
        runner.bare(ask, record=False)
    process_warm_up()  # what every worker process does before its first task
    harness.log(f"measuring {count} inquiries each way, interleaved")
    for ask in asks[WARMUP:]:
        runner.ours(ask)
        runner.bare(ask)
    report(runner, asks[:WARMUP], force_profile=args.profile)


def report(runner: Runner, profile_asks: list[harness.Ask], *, force_profile: bool) -> None:
    count = len(runner.ours_cpu)
    ours_ms = sum(runner.ours_cpu) * 1000 / count
    floor_ms = sum(runner.floor_cpu) * 1000 / count
    ratio = ours_ms / floor_ms
    ours_wall = harness.summary_ms(runner.ours_wall)
    floor_wall = harness.summary_ms(runner.floor_wall)
    harness.print_table(
        f"Orchestration overhead: {count} inquiries each way (CPU = process_time)",
        [
            ("ours: inquiry_run", f"{ours_ms:.1f}", ours_wall["p50_ms"], ours_wall["p95_ms"]),
            (
                "floor: seed-000 no-op",
                f"{floor_ms:.1f}",
                floor_wall["p50_ms"],
                floor_wall["p95_ms"],
            ),
        ],
        ("run", "CPU ms/inquiry", "wall p50 ms", "wall p95 ms"),
    )
    met = harness.verdict(ratio, TARGET_RATIO, at_most=True)
    print(f"ratio ours/floor = {ratio:.2f}x  (target <= {TARGET_RATIO:.0f}x: {met})")
    floor_ours_way_ms = sum(runner.floor_ours_way_cpu) * 1000 / count
    print(
        f"for reference: the floor checkpointing only when a run ends, as ours does, costs "
        f"{floor_ours_way_ms:.1f} ms (ours / that = {ours_ms / floor_ours_way_ms:.1f}x)"
    )
    kinds = sorted(runner.by_kind.items())
    harness.print_table(
        "ours by inquiry kind",
        [(kind, len(v), f"{sum(v) * 1000 / len(v):.1f}") for kind, v in kinds],
        ("kind", "runs", "CPU ms/inquiry"),
    )
    print(f"outcomes: {dict(runner.statuses)}")
    profile = None
    if met != "met" or force_profile:
        harness.log("profiling one cycle of the mix")
        profile = profile_both(profile_asks)
        parts = profile["components_ms_per_inquiry"]
        total = parts["total"]
        harness.print_table(
            "where the CPU goes (cProfile on thread CPU, all threads; profiling inflates the "
            "figures, so read the shares; ~ms = share x measured CPU)",
            [
                (
                    label,
                    v["ours"],
                    f"{100 * v['ours'] / total['ours']:.0f}%",
                    f"{ours_ms * v['ours'] / total['ours']:.1f}",
                    v["floor"],
                    f"{floor_ms * v['floor'] / total['floor']:.1f}",
                )
                for label, v in parts.items()
            ],
            ("component", "ours prof ms", "share", "ours ~ms", "floor prof ms", "floor ~ms"),
        )
        harness.print_table(
            "ours: self CPU by package (profiled, ms per inquiry)",
            list(profile["self_ms_per_inquiry_by_package"].items()),
            ("package", "ms"),
        )
        print("\ntop 15 by self time (profiled cycle):\n" + profile["top_self"])
        print("\ntop 15 by cumulative time (profiled cycle):\n" + profile["top_cumulative"])
    harness.write_results(
        "overhead",
        {
            "target": {"ratio_at_most": TARGET_RATIO},
            "inquiries": count,
            "ratio": round(ratio, 3),
            "verdict": met,
            "ours_cpu_ms_per_inquiry": round(ours_ms, 2),
            "floor_cpu_ms_per_inquiry": round(floor_ms, 2),
            "floor_at_our_durability_cpu_ms_per_inquiry": round(floor_ours_way_ms, 2),
            "ours_wall": ours_wall,
            "floor_wall": floor_wall,
            "ours_cpu_ms_by_kind": {kind: round(sum(v) * 1000 / len(v), 2) for kind, v in kinds},
            "outcomes": dict(runner.statuses),
            "profile": profile,
        },
    )


if __name__ == "__main__":
    main()
