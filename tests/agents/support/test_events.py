"""Live events: numbered rows, and what the channel layer carries to whom, how many at a time.

Given a channel layer on the real Redis, when events are published alone, together
(``events_batch``) or held for a run (``steps_held``), then every event keeps its number and
its place, each group gets one message per hand-over however many events it carries, and
publishing from many threads at once loses nothing and reorders nothing of any one thread.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest
from channels.layers import get_channel_layer
from django.db import transaction

from agents.models import ConsoleEvent
from agents.support.events import bus, transport
from agents.support.events.bus import (
    announce_held_steps,
    events_batch,
    publish,
    publish_all,
    steps_held,
)
from agents.support.events.names import CHANNEL_BATCH_TYPE, STAFF_GROUP, inquiry_group
from agents.support.events.transport import channel_events
from tests.support.channel_layers import heard, listener
from tests.support.concurrency import released_together
from tests.support.events import last_seq, published_after
from tests.support.workers import wait_until

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("redis_channel_layer"),
]

INQUIRY = "6f1c2b9e-8d43-4f5a-9a37-2b1d0c4e5f60"


def numbers_after(seq: int) -> list[int]:
    return list(ConsoleEvent.objects.filter(pk__gt=seq).order_by("pk").values_list("pk", flat=True))


def step(node: str, n: int = 0) -> dict[str, Any]:
    return {"inquiry_id": INQUIRY, "node": node, "n": n}


def status(value: str) -> dict[str, Any]:
    return {"id": INQUIRY, "status": value, "reply": "", "human_owned": False, "updated_at": None}


def test_an_event_alone_is_one_message_to_each_group_that_hears_it() -> None:
    staff, customer = listener(STAFF_GROUP), listener(inquiry_group(INQUIRY))
    start = last_seq()

    publish("inquiry.updated", status("running"))

    [row] = published_after(start)
    [to_staff], [to_customer] = heard(staff), heard(customer)
    assert row == ("inquiry.updated", status("running"))
    assert (to_staff["type"], to_staff["seq"]) == ("console.event", numbers_after(start)[0])
    assert to_customer["payload"] == status("running")


def test_events_published_together_reach_each_group_as_one_message_in_order() -> None:
    staff, customer = listener(STAFF_GROUP), listener(inquiry_group(INQUIRY))
    start = last_seq()

    with transaction.atomic(), events_batch():
        publish("run.step", step("merge"))
        publish("inquiry.updated", status("resolved"))

    [to_staff], [to_customer] = heard(staff), heard(customer)
    assert to_staff["type"] == CHANNEL_BATCH_TYPE
    assert [(e["event"], e["seq"]) for e in channel_events(to_staff)] == list(
        zip(["run.step", "inquiry.updated"], numbers_after(start), strict=True)
    )
    assert channel_events(to_customer) == [to_customer]  # the customer hears the status alone
    assert to_customer["payload"] == status("resolved")


def test_a_batch_rolled_back_sends_nothing_and_leaves_no_rows() -> None:
    staff = listener(STAFF_GROUP)
    start = last_seq()

    def record_that_fails() -> None:
        with transaction.atomic(), events_batch():
            publish("run.step", step("merge"))
            raise RuntimeError("the record failed")

    with pytest.raises(RuntimeError):
        record_that_fails()

    assert published_after(start) == []
    assert heard(staff) == []


def test_steps_held_for_a_run_go_out_together_when_it_is_about_to_wait() -> None:
    staff = listener(STAFF_GROUP)
    start = last_seq()

    with steps_held() as held:
        held.add([step("classify")])
        held.add([step("specialist", 1), step("specialist", 2)])
        assert published_after(start) == []  # held: not yet told
        announce_held_steps()  # what a model call does first
        held.add([step("merge")])
        last = held.take()

    assert last == [step("merge")]
    assert published_after(start) == [
        ("run.step", step("classify")),
        ("run.step", step("specialist", 1)),
        ("run.step", step("specialist", 2)),
    ]
    [told] = heard(staff)
    assert [e["payload"]["node"] for e in channel_events(told)] == [
        "classify",
        "specialist",
        "specialist",
    ]


def test_steps_held_while_the_run_waits_on_something_else_are_announced_shortly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run busy with a slow carrier makes no model call: its steps still reach the
    consoles, a moment after the first of them, and the leg's record gets only the rest."""
    monkeypatch.setattr(bus, "ANNOUNCE_AFTER_S", 0.05)
    staff = listener(STAFF_GROUP)
    start = last_seq()

    with steps_held() as held:
        held.add([step("classify")])
        wait_until(lambda: published_after(start) != [], timeout=5)
        held.add([step("merge")])
        last = held.take()

    assert published_after(start) == [("run.step", step("classify"))]
    assert last == [step("merge")]
    [told] = heard(staff)
    assert [e["payload"]["node"] for e in channel_events(told)] == ["classify"]


def test_a_leg_that_ends_at_once_announces_its_steps_only_with_its_record() -> None:
    start = last_seq()

    with steps_held() as held:
        held.add([step("classify")])
        last = held.take()
    time.sleep(bus.ANNOUNCE_AFTER_S + 0.2)  # the timer the leg started was cancelled

    assert last == [step("classify")]
    assert published_after(start) == []


def test_a_leg_that_fails_announces_its_finished_steps_before_the_error_leaves_it() -> None:
    """Nothing of a failed run is announced later by a timer: by then the worker's task, or
    a test and its database, may be gone, and the steps land in whatever came next."""
    start = last_seq()

    holders: list[bus.HeldSteps] = []

    def failing_leg() -> None:
        with steps_held() as held:
            holders.append(held)
            held.add([step("classify"), step("specialist")])
            raise RuntimeError("the specialist's carrier call failed")

    with pytest.raises(RuntimeError):
        failing_leg()

    assert published_after(start) == [
        ("run.step", step("classify")),
        ("run.step", step("specialist")),
    ]
    assert holders[0].timer is None  # no announcement is left to fire after the run
    time.sleep(bus.ANNOUNCE_AFTER_S + 0.2)
    assert len(published_after(start)) == 2


def test_a_model_call_outside_a_run_announces_nothing() -> None:
    start = last_seq()

    announce_held_steps()

    assert published_after(start) == []


def test_sends_from_many_threads_at_once_all_arrive_each_threads_in_order() -> None:
    staff = listener(STAFF_GROUP)
    threads, each = 8, 5

    def publisher(index: int) -> None:
        for n in range(each):
            publish_all("run.step", [step(f"t{index}", n)])

    released_together(publisher, list(range(threads)))

    told = [e["payload"] for m in heard(staff) for e in channel_events(m)]
    assert len(told) == threads * each
    for index in range(threads):
        mine = [p["n"] for p in told if p["node"] == f"t{index}"]
        assert mine == list(range(each))
    assert len(transport._loops().idle) <= threads  # loops are lent again, not made per send


def test_a_channel_layer_that_fails_loses_the_live_update_not_the_event(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def unreachable(group: str, message: dict[str, Any]) -> None:
        raise ConnectionError("redis is gone")

    monkeypatch.setattr(get_channel_layer(), "group_send", unreachable)
    start = last_seq()

    with caplog.at_level(logging.WARNING, logger="agents.support.events"):
        publish("run.step", step("review"))

    assert published_after(start) == [("run.step", step("review"))]
    assert "could not send run.step" in caplog.text


def test_an_event_published_on_a_thread_that_runs_an_event_loop_still_goes_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As on a browser test's thread, where Playwright's sync API keeps its loop running."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    staff = listener(STAFF_GROUP)

    async def from_inside_the_loop() -> None:
        publish("run.step", step("review"))

    asyncio.run(from_inside_the_loop())

    [told] = heard(staff)
    assert (told["event"], told["payload"]) == ("run.step", step("review"))
