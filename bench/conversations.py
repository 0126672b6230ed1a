"""Conversations driven over the API on a fresh production-shape server (issue 12, "done when").

    .venv/bin/python -m bench.conversations

One daphne and two Celery workers on the bench database, the demo shop freshly seeded. Over
HTTP only, as a storefront and an operator would:

1. a Japanese and an English conversation whose first message names no order while the
   customer has several: the AI asks which, the customer answers with a bare order number,
   and the answer's order is the one acted on;
2. a take-over with two operator messages, a hand-back, and the AI's answer to the customer's
   next message;
3. ten messages fired concurrently into one conversation: each stored once and taken by
   exactly one run, each run answering once.

Prints each step and the seconds each turn took from the customer's message to the reply;
exits non-zero if any expectation fails. Writes ``bench/results/conversations.json``.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import httpx

from bench import harness

Json = dict[str, Any]


class Api:
    """A tiny JSON client for one credential."""

    def __init__(self, base: str, token: str) -> None:
        self.http = httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30
        )

    def call(self, method: str, path: str, body: Json | None = None, key: str = "") -> Json:
        headers = {"Idempotency-Key": key} if key else {}
        response = self.http.request(method, path, json=body, headers=headers)
        if response.is_error:
            raise SystemExit(f"{method} {path}: {response.status_code} {response.text[:300]}")
        return dict(response.json())


class Drive:
    """The scenarios, each a list of checks; a failed check is reported, not raised."""

    def __init__(self, shop: Api, staff: Api) -> None:
        self.shop, self.staff = shop, staff
        self.failures: list[str] = []
        self.turn_seconds: list[float] = []

    def check(self, what: str, ok: bool) -> None:
        harness.log(f"{'ok  ' if ok else 'FAIL'} {what}")
        if not ok:
            self.failures.append(what)

    def start(self, customer: str, text: str) -> str:
        started = time.monotonic()
        inquiry = self.shop.call(
            "POST", "/api/v1/inquiries", {"customer_id": customer, "text": text}
        )
        self.settle(inquiry["id"], customer, since=started)
        return str(inquiry["id"])

    def say(self, inquiry_id: str, customer: str, text: str, key: str = "") -> Json:
        started = time.monotonic()
        body = {"customer_id": customer, "text": text}
        posted = self.shop.call("POST", f"/api/v1/inquiries/{inquiry_id}/messages", body, key=key)
        self.settle(inquiry_id, customer, since=started)
        return posted

    def settle(self, inquiry_id: str, customer: str, *, since: float, timeout: float = 90) -> Json:
        """Wait until no customer message waits and the conversation is not moving."""
        deadline = since + timeout
        while time.monotonic() < deadline:
            detail = self.staff.call("GET", f"/api/v1/conversations/{inquiry_id}")
            moving = detail["status"] in ("queued", "running")
            if not moving and not self.unanswered(detail):
                self.turn_seconds.append(time.monotonic() - since)
                return detail
            time.sleep(0.2)
        raise SystemExit(f"{inquiry_id} did not settle within {timeout} s")

    @staticmethod
    def unanswered(detail: Json) -> bool:
        if detail.get("human_owner"):
            return False
        return any(m["author_kind"] == "customer" and m["turn"] is None for m in thread(detail))

    def conversation(self, inquiry_id: str) -> Json:
        return self.staff.call("GET", f"/api/v1/conversations/{inquiry_id}")


def thread(detail: Json) -> list[Json]:
    return list(detail.get("messages") or detail.get("thread") or [])


def last_ai(detail: Json) -> str:
    texts = [m["text"] for m in thread(detail) if m["author_kind"] == "ai"]
    return texts[-1] if texts else ""


def ask_then_answer(drive: Drive, customer: str, first: str, answer: str, order: str) -> None:
    inquiry_id = drive.start(customer, first)
    asked = drive.conversation(inquiry_id)
    question = last_ai(asked)
    drive.check(f"{customer}: {first!r} is asked about", asked["status"] == "awaiting_customer")
    drive.check(f"{customer}: the question offers {order}", order in question)
    drive.say(inquiry_id, customer, answer)
    answered = drive.conversation(inquiry_id)
    reply = last_ai(answered)
    harness.log(f"  question: {question[:160]!r}")
    harness.log(f"  answer {answer!r} -> {answered['status']}: {reply[:160]!r}")
    drive.check(f"{customer}: the reply names {order}", order in reply)
    drive.check(f"{customer}: two turns", answered["turns"] == 2)


def take_over_and_hand_back(drive: Drive) -> None:
    inquiry_id = drive.start("C0001", "注文ORD-1002の荷物は今どこにありますか？")
    base = f"/api/v1/conversations/{inquiry_id}"
    drive.staff.call("POST", f"{base}/take-over")
    drive.staff.call(
        "POST", f"{base}/messages", {"text": "担当の者です。確認いたします。"}, key="op-1"
    )
    drive.staff.call("POST", f"{base}/notes", {"text": "carrier: parcel at the Haneda depot"})
    drive.staff.call("POST", f"{base}/messages", {"text": "明日のお届け予定です。"}, key="op-2")
    drive.staff.call("POST", f"{base}/messages", {"text": "明日のお届け予定です。"}, key="op-2")
    owned = drive.conversation(inquiry_id)
    authors = [m["author_kind"] for m in thread(owned)]
    drive.check(
        "take-over: two operator messages (a replayed key adds none)",
        authors.count("operator") == 2,
    )
    drive.check("take-over: the note is in the staff thread", "note" in authors)
    drive.staff.call("POST", f"{base}/hand-back")
    drive.say(inquiry_id, "C0001", "ORD-1002の支払い状況も教えてください。")
    back = drive.conversation(inquiry_id)
    customer_view = drive.shop.call(
        "GET", f"/api/v1/inquiries/{inquiry_id}/messages?customer_id=C0001"
    )
    drive.check(
        "hand-back: the AI answered the next message", thread(back)[-1]["author_kind"] == "ai"
    )
    drive.check(
        "hand-back: resolved, owned by nobody",
        (back["status"], back.get("human_owner")) == ("resolved", None),
    )
    drive.check(
        "the customer never sees the note",
        all(m["author_kind"] != "note" for m in customer_view["messages"]),
    )


def ten_at_once(drive: Drive) -> None:
    inquiry_id = drive.start("C0002", "When will ORD-2001 arrive?")
    barrier = threading.Barrier(10)
    started = time.monotonic()

    def write(n: int) -> None:
        barrier.wait()
        body = {"customer_id": "C0002", "text": f"Any news on ORD-2001? ({n})"}
        drive.shop.call("POST", f"/api/v1/inquiries/{inquiry_id}/messages", body, key=f"burst-{n}")

    writers = [threading.Thread(target=write, args=(n,)) for n in range(10)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    detail = drive.settle(inquiry_id, "C0002", since=started)
    burst = [m for m in thread(detail) if m["author_kind"] == "customer" and "(" in m["text"]]
    replies = Counter(m["turn"] for m in thread(detail) if m["author_kind"] == "ai")
    drive.check("ten at once: ten stored", len(burst) == 10)
    drive.check("ten at once: each taken by a run", all(m["turn"] for m in burst))
    drive.check("ten at once: each run answered once", all(n == 1 for n in replies.values()))
    drive.check(
        "ten at once: every run that took messages answered",
        {m["turn"] for m in burst} <= set(replies),
    )
    harness.log(f"  ten messages were answered by {len({m['turn'] for m in burst})} run(s)")


def main() -> None:
    harness.configure(fresh=True)
    shop_token = harness.api_token("conversations")
    staff_token = harness.manage("create_api_token", "drive-operator", "--user", "operator").strip()
    with harness.daphne_servers(1) as [server], harness.celery_workers(2):
        drive = Drive(Api(server.url, shop_token), Api(server.url, staff_token))
        ask_then_answer(drive, "C0001", "荷物がまだ届きません。", "ORD-1004", "ORD-1004")
        english = "My parcel still hasn't arrived, can you check?"
        ask_then_answer(drive, "C0001", english, "ORD-1002", "ORD-1002")
        take_over_and_hand_back(drive)
        ten_at_once(drive)
    seconds = harness.summary_ms(drive.turn_seconds)
    harness.log(f"turns: {len(drive.turn_seconds)}, message to settled: {seconds}")
    harness.write_results(
        "conversations",
        {"failures": drive.failures, "turns": len(drive.turn_seconds), "settled_ms": seconds},
    )
    if drive.failures:
        raise SystemExit(f"{len(drive.failures)} check(s) failed: {drive.failures}")


if __name__ == "__main__":
    main()
