"""Every sentence a customer reads is in the catalogue (``agents/support/catalogue/``): a scan
of the product code for string literals that read like Japanese or English sentences.

What is not scanned, and why: docstrings and attribute docs (they speak to maintainers, and a
tool's to the model); logging calls (operators read logs); gettext-marked strings (staff
pages, mail and the customer page's chrome are translated with the page, not sent as
messages); help, summaries and descriptions of commands, fields and endpoints (maintainers,
API clients, models); the catalogues themselves; the offline model's understanding
(``understanding/``: the cues and examples it reads, never writes); instructions to a model
(``agents/team/prompts.py``, the specialists' ``PROMPT`` and ``*_RULES``); exception messages
(for logs and models: a customer is told a refusal by its code, from the catalogue); the
demo's inquiries (what customers write, not what they read). Anything else that must stay a
literal is in ``ALLOWED`` below, with its reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Where a customer's words could hide: the AI team, the model providers and the support
# domain; the shop's services (receipts); the customer's page. (The API's errors speak to the
# storefront's developers; what it relays to customers comes from here.)
SCANNED = ["agents", "netshop/services", "operators/customer_page"]
SKIPPED_PATHS = (
    "agents/support/catalogue/",
    "agents/providers/offline/understanding/",
    # What customers write, read by its cues ("that's not what I asked"): never what they read.
    "agents/support/missed_point.py",
    # What a reply must not claim, read by its cues ("返金しました"): the simulator's judge.
    "agents/simulation/claims.py",
    "agents/team/prompts.py",
    "agents/demo.py",
    "/management/commands/",
    "/migrations/",
)
GETTEXT = {"_", "gettext", "gettext_lazy", "ngettext", "pgettext", "pgettext_lazy"}
LOGGING = {"debug", "info", "warning", "error", "exception", "critical", "log"}
MODEL_INSTRUCTIONS = re.compile(r"PROMPT|INSTRUCTIONS|_RULES$")
NOT_FOR_CUSTOMERS = {"help", "help_text", "verbose_name", "summary", "description", "title"}

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
ENGLISH_WORD = re.compile(r"[A-Za-z][a-z']*")
SENTENCE_END = re.compile(r"[.!?。！？][\"'\u201d」)]*\s*$")
CAPITALISED_PHRASE = re.compile(r"^[A-Z][a-z']+(?: [a-z']+){2,}$")

# Literals that stay where they are, each with its reason (path -> the literals' starts).
ALLOWED: dict[str, set[str]] = {
    # The date format's weekday names, like the English abbreviations beside them: formatting.
    "agents/providers/offline/formatting.py": {"月火水木金土日"},
    # The offline specialist's closing note to the supervisor (an envelope's message, which
    # staff may see in a hand-off package); a customer never reads it.
    "agents/providers/offline/turns/__init__.py": {"Nothing to look up:"},
    # A line of the task given to a specialist model on a retried step: an instruction.
    "agents/team/graph/delegation.py": {" Attempt {}; the previous one failed."},
}


def _sentence_like(text: str) -> bool:
    """A Japanese sentence (kana or kanji, more than a word or two: five characters or a
    full stop), or an English one (three words or more ending as a sentence does, or a
    capitalised phrase of three words or more)."""
    text = text.strip()
    japanese = JAPANESE.findall(text)
    if japanese:
        return len(japanese) >= 5 or "。" in text
    words = ENGLISH_WORD.findall(text)
    if len(words) >= 3 and SENTENCE_END.search(text) and " " in text:
        return True
    return bool(CAPITALISED_PHRASE.match(text))


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """The ids of the nodes whose strings are not customer wording (see the module's doc)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))  # a docstring, or an attribute's doc below it
        if isinstance(node, ast.Call) and _quiet_call(node):
            skipped |= {id(inner) for inner in ast.walk(node)}
        elif isinstance(node, ast.Raise) and node.exc is not None:
            skipped |= {id(inner) for inner in ast.walk(node.exc)}
        elif isinstance(node, ast.keyword) and node.arg in NOT_FOR_CUSTOMERS:
            skipped |= {id(inner) for inner in ast.walk(node.value)}
        elif isinstance(node, ast.Assign | ast.AnnAssign) and _instructs_a_model(node):
            skipped |= {id(inner) for inner in ast.walk(node)}
    return skipped


def _quiet_call(call: ast.Call) -> bool:
    """gettext (staff-facing, translated) or logging (operators read logs)."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in GETTEXT
    if isinstance(func, ast.Attribute):
        owner = func.value
        named = owner.id if isinstance(owner, ast.Name) else ""
        return func.attr in LOGGING and ("log" in named.lower() or named == "logging")
    return False


def _instructs_a_model(node: ast.Assign | ast.AnnAssign) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = [t.id for t in targets if isinstance(t, ast.Name)]
    return any(MODEL_INSTRUCTIONS.search(name) or name in NOT_FOR_CUSTOMERS for name in names)


def _literals(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every string literal with its line; an f-string as its text with ``{}`` for values."""
    skipped = _skipped_nodes(tree)
    inside_fstrings = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in ast.walk(node)
        if part is not node
    }
    for node in ast.walk(tree):
        if id(node) in skipped or id(node) in inside_fstrings:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value
        elif isinstance(node, ast.JoinedStr):
            parts = [
                p.value if isinstance(p, ast.Constant) and isinstance(p.value, str) else "{}"
                for p in node.values
            ]
            yield node.lineno, "".join(parts)


def offenders() -> dict[str, set[str]]:
    """Per product module, the sentence-like literals outside the catalogue."""
    found: dict[str, set[str]] = {}
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if any(part in f"/{relative}" for part in SKIPPED_PATHS):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for _, text in _literals(tree):
                if _sentence_like(text):
                    found.setdefault(relative, set()).add(text)
    return found


def _allowed(path: str, text: str) -> bool:
    return any(text.startswith(start) for start in ALLOWED.get(path, ()))


def test_no_customer_sentence_is_spelled_outside_the_catalogue() -> None:
    outside = {
        path: sorted(text for text in texts if not _allowed(path, text))
        for path, texts in offenders().items()
    }
    assert {path: texts for path, texts in outside.items() if texts} == {}


def test_every_allowed_literal_is_still_there() -> None:
    # An allow-list entry whose literal has gone (moved or reworded) is removed, not kept.
    found = offenders()
    stale = {
        path: sorted(
            start for start in starts if not any(t.startswith(start) for t in found.get(path, ()))
        )
        for path, starts in ALLOWED.items()
    }
    assert {path: starts for path, starts in stale.items() if starts} == {}


def test_the_scan_sees_a_sentence() -> None:
    # Given a module that spells replies inline, then the scan finds each (and not the rest).
    tree = ast.parse(
        '"""A docstring is not a reply."""\n'
        'A = "ご注文をキャンセルいたしました。"\n'
        'B = "We have cancelled your order."\n'
        'C = f"Your parcel for {number} is on its way."\n'
        'D = _("Staff only text, translated.")\n'
        'logger.info("Cancelled the order for the customer.")\n'
        'E = "order_not_found"\n'
        'F = "発送済み"\n'
    )
    texts = [text for _, text in _literals(tree) if _sentence_like(text)]
    assert texts == [
        "ご注文をキャンセルいたしました。",
        "We have cancelled your order.",
        "Your parcel for {} is on its way.",
    ]
