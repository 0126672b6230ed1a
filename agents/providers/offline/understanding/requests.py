"""Which orders each request in a message is about: "cancel ORD-1 and when does ORD-2
arrive?" asks a cancellation of one order and the arrival of another.

The message is cut into parts that each read clearly as one of the inquiry's intents:
first its clauses (``router.clauses``), then, where a clause still names two orders, at the
point between them where both sides read clearly as different intents (「A をキャンセルし
たいのと、B の配達日を…」, "cancel A and push B's delivery back"). A part that reads as no
intent of the inquiry ("About ORD-2,", 「ORD-2ですが」) lends its orders to the next part
that does (the last one, at the end). A clause naming two orders that reads as one request
("cancel ORD-1 and ORD-2") stays one request with both. Pure.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

from agents.contract.cards import agent_for_skill
from agents.contract.schemas import INTENTS, Intent, Request
from agents.providers.offline.understanding.entities import (
    order_mentions,
    order_numbers,
    without_orders,
)
from agents.providers.offline.understanding.router import clauses, intent_probabilities

# Fewer characters than this, the order numbers left out, ask nothing ("about", 「は」).
MIN_WORDS: Final = 3
# What a part of a message may ask beside the rest: a specialist's work on an order.
SPECIALIST_INTENTS: Final[tuple[Intent, ...]] = tuple(
    intent for intent in INTENTS if agent_for_skill(intent) not in (None, "faq")
)
# A part reads clearly as an intent from this probability on (the classifier's bar for a
# second request: ``classifier.SECONDARY_AT``).
CLEAR_AT: Final = 0.5


@dataclass(frozen=True)
class Part:
    """A stretch of the message, the intent it clearly reads as (None: none of the
    inquiry's), and the order numbers it names."""

    intent: Intent | None
    orders: tuple[str, ...]


def split_requests(text: str, intents: Sequence[Intent]) -> list[Request]:
    """The inquiry's ``intents`` (main first), each with the orders its own words name."""
    if len(intents) < 2:
        named = tuple(number for _, number in order_mentions(text))
        return [
            Request(intent=intent, order_numbers=list(dict.fromkeys(named))) for intent in intents
        ]
    parts = [part for clause in clauses(text) for part in _parts(clause, intents)]
    orders_of: dict[Intent, list[str]] = {intent: [] for intent in intents}
    for intent, orders in _lent_forward(parts, main=intents[0]):
        orders_of[intent] += [number for number in orders if number not in orders_of[intent]]
    return [Request(intent=intent, order_numbers=orders_of[intent]) for intent in intents]


def missed_requests(text: str, intents: Sequence[Intent]) -> list[Intent]:
    """The specialists' intents the whole message blurred but a part cut between two orders
    reads clearly, with an order of its own: 「Aをキャンセルして、Bは届く日を教えて」 asks for
    B's parcel though the whole reads as a cancellation. Never a general question or a person
    (the whole message is the judge of those)."""
    if len(set(order_numbers(text))) < 2:
        return []
    found = [
        part.intent
        for clause in clauses(text)
        for part in _parts(clause, SPECIALIST_INTENTS)
        if part.intent and part.orders and part.intent not in intents
    ]
    return list(dict.fromkeys(found))


def _parts(text: str, intents: Sequence[Intent]) -> list[Part]:
    """``text`` as parts, cut between two orders where both sides read as different
    intents (the clearest such cut first, then each side again)."""
    cut = _best_cut(text, intents)
    if cut is None:
        return [Part(_clear_intent(text, intents), _orders(text))]
    return [*_parts(text[:cut], intents), *_parts(text[cut:], intents)]


def _best_cut(text: str, intents: Sequence[Intent]) -> int | None:
    """Where ``text`` parts into two requests: the cut between two different orders whose
    sides read most clearly as two different intents; None when no cut does."""
    scored = [(score, cut) for cut in _cuts(text) if (score := _two_requests(text, cut, intents))]
    return max(scored)[1] if scored else None


def _cuts(text: str) -> Iterator[int]:
    """The places between two different orders' mentions where the text may be cut."""
    for (before, first), (after, second) in pairwise(order_mentions(text)):
        if first != second:
            yield from (
                at for at in range(before.end, after.start + 1) if not _inside_word(text, at)
            )


def _two_requests(text: str, cut: int, intents: Sequence[Intent]) -> float:
    """How clearly the two sides of ``cut`` read as two different intents (0: they do not)."""
    left, right = _reading(text[:cut], intents), _reading(text[cut:], intents)
    clarity = min(left[1], right[1])
    return clarity if left[0] != right[0] and clarity >= CLEAR_AT else 0.0


def _inside_word(text: str, at: int) -> bool:
    """Whether ``at`` falls between two letters or digits of one word (Latin script; a
    Japanese sentence may be cut anywhere)."""
    return all(c.isascii() and c.isalnum() for c in text[at - 1 : at + 1])


def _reading(text: str, intents: Sequence[Intent]) -> tuple[Intent, float]:
    """The inquiry's intent the words of ``text`` read most as, and how strongly: its order
    numbers left out (a bare "ORD-1" reads as a look-up, and asks nothing)."""
    words = without_orders(text)
    probability = intent_probabilities(words) if len(words) >= MIN_WORDS else {}
    best = max(intents, key=lambda intent: probability.get(intent, 0.0))
    return best, probability.get(best, 0.0)


def _clear_intent(text: str, intents: Sequence[Intent]) -> Intent | None:
    intent, probability = _reading(text, intents)
    return intent if probability >= CLEAR_AT else None


def _orders(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(number for _, number in order_mentions(text)))


def _lent_forward(parts: list[Part], *, main: Intent) -> list[tuple[Intent, tuple[str, ...]]]:
    """Each clear part's intent with its orders and those of the unclear parts before it;
    unclear parts at the end lend theirs to the last clear part (to ``main`` if none is)."""
    read: list[tuple[Intent, tuple[str, ...]]] = []
    waiting: tuple[str, ...] = ()
    for part in parts:
        waiting += part.orders
        if part.intent is not None:
            read.append((part.intent, waiting))
            waiting = ()
    if waiting:
        last, orders = read.pop() if read else (main, ())
        read.append((last, orders + waiting))
    return read
