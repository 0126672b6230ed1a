"""The catalogue of domain errors: every code raised anywhere is declared once, with its
status and a translated message the API, the console and the services share."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from netshop.errors import CATALOGUE, DomainError

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("netshop", "agents", "operators")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _raised() -> list[tuple[str, str, str, set[str]]]:
    """(where, code, variant, params) for every ``DomainError("code", ...)`` and
    ``PolicyCheck(code="...")`` written with a literal code in the product's source."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and (entry := _literal_code(node)) is not None:
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    found.append((where, *entry))
    return found


def _literal_code(call: ast.Call) -> tuple[str, str, set[str]] | None:
    name = getattr(call.func, "id", getattr(call.func, "attr", ""))
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    if name == "DomainError" and call.args and isinstance(call.args[0], ast.Constant):
        variant = keywords.pop("variant", None)
        return (
            str(call.args[0].value),
            str(variant.value) if isinstance(variant, ast.Constant) else "",
            set(keywords),
        )
    if name == "PolicyCheck" and isinstance(code := keywords.get("code"), ast.Constant):
        return str(code.value), "", set()
    return None


def test_the_scan_finds_the_codes_raised_in_every_layer() -> None:
    codes = {code for _, code, _, _ in _raised()}

    assert {"claimed_by_other", "unknown_customer", "refund_exceeds_captured"} <= codes
    assert {"unknown_language", "idempotency_key_reused", "coupon_limit_reached"} <= codes


def test_every_code_raised_anywhere_is_in_the_catalogue() -> None:
    missing = [(where, code) for where, code, _, _ in _raised() if code not in CATALOGUE]

    assert missing == []


def test_every_raise_names_a_declared_variant_and_gives_the_templates_parameters() -> None:
    wrong: list[tuple[str, str, object]] = []
    for where, code, variant, params in _raised():
        entry = CATALOGUE.get(code)
        if entry is None or (variant and variant not in entry.variants):
            wrong.append((where, code, variant))
            continue
        needed = set(PLACEHOLDER.findall(str(entry.template(variant))))
        if params and params != needed:
            wrong.append((where, code, sorted(params ^ needed)))

    assert wrong == []


def test_statuses_are_the_ones_the_api_answered_with() -> None:
    statuses = {code: entry.status for code, entry in CATALOGUE.items()}

    assert {c for c, s in statuses.items() if s == 404} == {
        "escalation_not_found",
        "inquiry_not_found",
        "unknown_customer",
        "receipt_not_found",
        "message_not_found",
        "article_not_found",
        "canned_reply_not_found",
    }
    assert {c for c, s in statuses.items() if s == 409} == {
        "already_decided",
        "claimed_by_other",
        "policy_changed_meanwhile",  # another manager saved the same limit meanwhile
        "idempotency_key_reused",
        "message_key_reused",
        "not_human_owned",
        "owned_by_other",
        "already_human_owned",
        "already_flagged",
        "already_reviewed",
        "feedback_already_given",
        "preview_outdated",
        "preview_unavailable",
        "second_approval_by_other",
        "approved_action_not_editable",
        "article_key_taken",
        "article_not_a_draft",
    }
    # Four eyes: this person may not approve it, a manager (another one) may.
    assert {c for c, s in statuses.items() if s == 403} == {
        "second_approval_needs_manager",
        "over_operator_limit",
    }
    # Known, but not let in now: a locked-out account's personal API token.
    assert {c for c, s in statuses.items() if s == 401} == {"account_locked"}
    assert set(statuses.values()) == {401, 403, 404, 409, 422}


def test_an_error_renders_its_template_in_english_and_in_the_readers_language() -> None:
    with translation.override("ja"):
        error = DomainError("refund_exceeds_captured", refundable="¥12,800")
        localized = error.localized()

    assert (error.code, error.status) == ("refund_exceeds_captured", 422)
    assert error.message == "At most ¥12,800 can be refunded."
    assert str(error) == "refund_exceeds_captured: At most ¥12,800 can be refunded."
    assert localized == "返金できるのは最大 ¥12,800 です。"


def test_a_variant_and_a_checks_detail_keep_their_own_wording() -> None:
    edit = DomainError("reason_required", variant="edit")
    check = DomainError("payment_not_captured", "payment on ORD-1 is authorized")

    assert edit.message == "The refund or cancellation needs a reason in words."
    assert check.message == "payment on ORD-1 is authorized"
    with translation.override("ja"):
        assert check.localized() == "返金できるのは売上確定済みの支払いだけです。"


def test_the_edit_refusal_reads_the_same_in_the_service_and_the_console() -> None:
    error = DomainError("params_required")

    assert error.message == "An edit needs the parameters or the reply to change."
    assert error.localized() == error.message


def test_an_undeclared_code_or_variant_is_a_programming_error() -> None:
    with pytest.raises(KeyError, match="not_a_code"):
        DomainError("not_a_code")
    with pytest.raises(KeyError, match="nope"):
        DomainError("reason_required", variant="nope")
