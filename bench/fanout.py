"""Benchmark 3: parallel fan-out with a slow model, against the critical path and the seed's
sequential design.

    python -m bench.fanout [--count 10] [--latency 0.2] [--reuse-db]

The local OpenAI-compatible server (``bench.fake_model``, its own process) answers every call
after ``--latency`` seconds; the graph uses the real ``ChatOpenAI`` (NETSHOP_MODEL_PROVIDER
=openai) in this process. Inquiries ask for tracking, payment status and order details, so
they need order -> (shipping, payment) and finish without waiting for approval.

* ours: ``inquiry_run`` (the real graph, PostgresSaver), one inquiry at a time;
* critical path: the longest chain of dependent model calls in that very run, counted from
  its plan and transcripts (classify 1 + order 2 + max(shipping 2, payment 2) + writer 1 = 6
  calls), x latency;
* sequential: the seed 000 design (classify, ``execute_next_agent`` over the agents one after
  another, aggregate) as a small StateGraph calling the same specialist sub-graphs through
  ``agents.team.graph.delegation.run_handoff``, on the same checkpointer and model server.

Targets: ours / critical path <= 1.15; sequential / ours >= 1.5. A second shape adds the FAQ
agent (four specialists) to show how the gain grows with the width of the fan-out.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, StateGraph

from bench import harness

TARGET_CRITICAL = 1.15
TARGET_SPEEDUP = 1.5
SHAPES = {
    "3 specialists": ("{n}の配送状況と支払い状況、注文内容を教えてください。", 3),
    "4 specialists (+faq)": (
        "{n}の配送状況と支払い状況、注文内容、返品の期限を教えてください。",
        4,
    ),
}


# Node state: our ``InquiryState`` plus the seed's cursor (``current_agent_index``); the class
# is made in ``sequential_graph``, as importing the state reads Django's settings, which must
# not load before ``harness.configure`` has pointed them at the model under test.
SeedState = dict[str, Any]


def supervisor_classify(state: SeedState) -> dict[str, Any]:
    from agents.contract.schemas import Classification
    from agents.team.graph import planner, supervisor

    update = supervisor.classify(state)
    classification = Classification.model_validate(update["classification"])
    # The plan orders the agents as the seed does: order first, the rest after it.
    return {**update, "plan": planner.make_plan(classification), "current_agent_index": 0}


def execute_next_agent(state: SeedState, config: RunnableConfig) -> dict[str, Any]:
    """The seed's loop body: run the next agent, wait for it, move the cursor on."""
    from agents.team.graph.delegation import build_handoff, run_handoff

    index = state["current_agent_index"]
    step = {**state["plan"][index], "status": "running", "attempts": 1}
    update = run_handoff(build_handoff(state, step), config)  # type: ignore[arg-type]
    return {**update, "current_agent_index": index + 1}


def should_continue_agents(
    state: SeedState,
) -> Literal["execute_next_agent", "supervisor_aggregate"]:
    if state["current_agent_index"] < len(state["plan"]):
        return "execute_next_agent"
    return "supervisor_aggregate"


def supervisor_aggregate(state: SeedState) -> dict[str, Any]:
    from agents.team.graph import supervisor

    return supervisor.merge(state)


def sequential_graph(checkpointer: Any) -> Any:
    """The seed 000 graph: classify, then each agent in turn, then aggregate."""
    from agents.team.graph.state import InquiryState

    class SeedGraphState(InquiryState, total=False):
        """Our state plus the seed's cursor over the agents to run."""

        current_agent_index: int

    workflow = StateGraph(SeedGraphState)
    workflow.add_node("supervisor_classify", supervisor_classify)
    workflow.add_node("execute_next_agent", execute_next_agent)
    workflow.add_node("supervisor_aggregate", supervisor_aggregate)
    workflow.set_entry_point("supervisor_classify")
    workflow.add_edge("supervisor_classify", "execute_next_agent")
    workflow.add_conditional_edges("execute_next_agent", should_continue_agents)
    workflow.add_edge("supervisor_aggregate", END)
    return workflow.compile(checkpointer=checkpointer, name="seed000_sequential")


class Runs:
    def __init__(self) -> None:
        from agents.team.runs.checkpointer import get_checkpointer

        self.sequential = sequential_graph(get_checkpointer())

    def ours(self, ask: harness.Ask) -> tuple[harness.Measure, int, int, str]:
        from agents.team.runs.driver import inquiry_run

        inquiry = _inquiry(ask)
        with harness.measured() as took:
            outcome = inquiry_run(inquiry=inquiry)
        critical, total = harness.model_calls(outcome.state)
        return took, critical, total, outcome.status

    def seed(self, ask: harness.Ask) -> tuple[harness.Measure, int]:
        from agents.team.run_context import run_config

        inquiry = _inquiry(ask)
        config = run_config(inquiry_id=str(inquiry.pk), customer_id=ask.customer)
        initial = {"inquiry_id": str(inquiry.pk), "customer_id": ask.customer, "text": ask.text}
        with harness.measured() as took:
            state = self.sequential.invoke(initial, config, durability="sync")
        turns = sum(
            1 for messages in state["transcripts"].values() for m in messages if m["type"] == "ai"
        )
        return took, 1 + turns + (1 if state.get("reply") else 0)


def _inquiry(ask: harness.Ask) -> Any:
    from agents.support.conversations.intake import inquiry_create
    from netshop.models import Customer

    customer = Customer.objects.get(code=ask.customer)
    return inquiry_create(customer=customer, text=ask.text, start=False)


def asks_for(template: str, count: int) -> list[harness.Ask]:
    from netshop.models import Order

    orders = list(
        Order.objects.filter(status="shipped", customer__language="ja")
        .order_by("number")
        .values_list("number", "customer__code")
    )
    return [
        harness.Ask(customer=customer, text=template.format(n=number), kind="fanout")
        for number, customer in (orders[i % len(orders)] for i in range(count))
    ]


def measure_shape(runs: Runs, template: str, count: int, latency: float) -> dict[str, Any]:
    asks = asks_for(template, count + 1)
    runs.ours(asks[0])  # warm: connections to the model server, compiled graphs
    runs.seed(asks[0])
    ours: list[float] = []
    seed: list[float] = []
    ours_cpu: list[float] = []
    seed_cpu: list[float] = []
    critical_calls: set[int] = set()
    calls: set[tuple[int, int]] = set()
    statuses: set[str] = set()
    for ask in asks[1:]:  # interleaved, so load drifts hit both designs
        took, critical, total, status = runs.ours(ask)
        seed_took, seed_calls = runs.seed(ask)
        ours.append(took.wall_s)
        seed.append(seed_took.wall_s)
        ours_cpu.append(took.cpu_s)
        seed_cpu.append(seed_took.cpu_s)
        critical_calls.add(critical)
        calls.add((total, seed_calls))
        statuses.add(status)
    critical = max(critical_calls)
    critical_s = critical * latency
    ours_median, seed_median = statistics.median(ours), statistics.median(seed)
    return {
        "inquiries": count,
        "statuses": sorted(statuses),
        "critical_path_calls": sorted(critical_calls),
        "model_calls_ours_vs_sequential": sorted(calls),
        "critical_path_s": round(critical_s, 3),
        "ours": harness.summary_ms(ours),
        "sequential": harness.summary_ms(seed),
        "ours_cpu_ms_per_inquiry": round(statistics.mean(ours_cpu) * 1000, 1),
        "sequential_cpu_ms_per_inquiry": round(statistics.mean(seed_cpu) * 1000, 1),
        "ours_over_critical": round(ours_median / critical_s, 3),
        "sequential_over_ours": round(seed_median / ours_median, 3),
        "best_possible_sequential_over_ours": round(max(s for _, s in calls) / critical, 3),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10, help="inquiries per shape (max 50)")
    parser.add_argument("--latency", type=float, default=0.2, help="model latency, seconds")
    parser.add_argument("--reuse-db", action="store_true", help="skip recreating the bench DB")
    parser.add_argument("--profile", action="store_true", help="profile ours even if met")
    args = parser.parse_args(argv)
    count = max(1, min(args.count, 50))

    with harness.fake_model(args.latency) as model_env:
        harness.configure(fresh=not args.reuse_db, **model_env)
        runs = Runs()
        results = {}
        for shape, (template, _width) in SHAPES.items():
            harness.log(f"{shape}: {count} inquiries each way, interleaved")
            results[shape] = measure_shape(runs, template, count, args.latency)
        missed = results["3 specialists"]["ours_over_critical"] > TARGET_CRITICAL
        profile = profile_ours(runs) if missed or args.profile else None
    report(results, args.latency, profile)


def profile_ours(runs: Runs) -> dict[str, Any]:
    """Where ours spends CPU between model calls (thread CPU, every thread; 3 runs)."""
    from bench import profiling

    asks = asks_for(SHAPES["3 specialists"][0], 3)
    with profiling.profiled() as out:
        for ask in asks:
            runs.ours(ask)
    per = 1000 / len(asks)
    return {
        "components_ms_per_inquiry": {
            label: round(seconds * per, 1) for label, seconds in profiling.components(out[0])
        },
        "top_cumulative": profiling.top_functions(out[0], sort="cumulative"),
    }


def report(
    results: dict[str, dict[str, Any]], latency: float, profile: dict[str, Any] | None
) -> None:
    rows = []
    for shape, r in results.items():
        rows.append(
            (
                shape,
                f"{r['critical_path_calls']} x {latency * 1000:.0f} = {r['critical_path_s']:.2f}",
                f"{r['ours']['p50_ms'] / 1000:.3f}",
                f"{r['ours_cpu_ms_per_inquiry']:.0f}",
                f"{r['sequential']['p50_ms'] / 1000:.3f}",
                f"{r['ours_over_critical']:.3f}",
                f"{r['sequential_over_ours']:.2f} "
                f"(<= {r['best_possible_sequential_over_ours']:.2f})",
            )
        )
    harness.print_table(
        f"Fan-out with a {latency * 1000:.0f} ms model (median of each design)",
        rows,
        (
            "shape",
            "critical path s",
            "ours s",
            "ours CPU ms",
            "sequential s",
            "ours/critical",
            "seq/ours (bound)",
        ),
    )
    main_shape = results["3 specialists"]
    critical_met = harness.verdict(main_shape["ours_over_critical"], TARGET_CRITICAL, at_most=True)
    speedup_met = harness.verdict(main_shape["sequential_over_ours"], TARGET_SPEEDUP, at_most=False)
    print(
        f"3 specialists: ours/critical = {main_shape['ours_over_critical']:.3f} "
        f"(target <= {TARGET_CRITICAL}: {critical_met}); sequential/ours = "
        f"{main_shape['sequential_over_ours']:.2f} (target >= {TARGET_SPEEDUP}: {speedup_met}; "
        f"the call counts cap it at {main_shape['best_possible_sequential_over_ours']:.2f})"
    )
    for shape, r in results.items():
        print(f"{shape}: model calls (ours, sequential) {r['model_calls_ours_vs_sequential']}, "
              f"outcomes {r['statuses']}")  # fmt: skip
    if profile is not None:
        parts = profile["components_ms_per_inquiry"]
        harness.print_table(
            "ours, 3 specialists: CPU between model calls (cProfile on thread CPU, inflated by "
            "profiling: read the shares)",
            [(label, ms, f"{100 * ms / parts['total']:.0f}%") for label, ms in parts.items()],
            ("component", "profiled ms", "share"),
        )
        print("\ntop 15 by cumulative time (3 profiled runs):\n" + profile["top_cumulative"])
    harness.write_results(
        "fanout",
        {
            "target": {
                "ours_over_critical_at_most": TARGET_CRITICAL,
                "sequential_over_ours_at_least": TARGET_SPEEDUP,
            },
            "latency_s": latency,
            "verdict": {"ours_over_critical": critical_met, "sequential_over_ours": speedup_met},
            "shapes": results,
            "profile": profile,
        },
    )


if __name__ == "__main__":
    main()
