"""One vocabulary (issue 11.2): each term is defined once, and the product code imports it.

The skills match the agent cards; the few ``Literal`` types that must stay literal (the
structured-output schema, the API's documented enum) are kept equal to the definitions;
and no gated skill or decision reappears as a bare string in the product code.
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from pathlib import Path
from typing import get_type_hints

from django.utils import translation
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from agents.contract.cards import CARDS_PATH
from agents.contract.schemas import INTENTS, Classification
from agents.models import EscalationKind, InquiryStatus
from agents.support.vocabulary import GATED_SKILLS, OperatorDecision, Skill
from agents.team.graph import escalation_policy
from operators import labels
from operators.api.schemas import DecisionIn

ROOT = Path(__file__).resolve().parents[3]
PRODUCT_PACKAGES = ("agents", "netshop", "operators")
DEFINITIONS = {"agents/support/vocabulary.py"}
# Modules whose intents are checked by mypy against the ``Intent`` literal (kept equal to
# the skills below): the offline cue tables, one string per cue.
TYPED_BY_INTENT = {
    "agents/providers/offline/understanding/cues_en.py",
    "agents/providers/offline/understanding/cues_en_payment.py",
    "agents/providers/offline/understanding/cues_ja.py",
}


def card_skill_ids() -> list[str]:
    cards = json.loads(CARDS_PATH.read_text(encoding="utf-8"))["cards"]
    return [skill["id"] for card in cards for skill in card["skills"]]


def test_the_skills_are_the_card_skill_ids() -> None:
    assert sorted(Skill.values) == sorted(card_skill_ids())
    assert len(Skill.values) == len(card_skill_ids())  # no card declares a skill twice


def test_the_gated_skills_are_those_that_move_money_or_goods() -> None:
    assert sorted(GATED_SKILLS) == [
        "cancel_order",
        "exchange_items",
        "modify_order_items",
        "process_refund",
        "return_items",
    ]


def test_the_intents_are_the_specialists_skills_and_asking_for_a_person() -> None:
    # The structured-output schema offers them as an inline enum for the model.
    supervisor = {Skill.CLASSIFY_AND_ROUTE, Skill.AGGREGATE_RESPONSES}
    assert sorted(INTENTS) == sorted(set(Skill.values) - supervisor)
    schema = Classification.model_json_schema()["properties"]["intent"]
    assert (schema["type"], schema["enum"]) == ("string", list(INTENTS))


def test_the_api_decision_enum_is_the_operator_decisions() -> None:
    # The API documents the decisions as an inline enum (tests/operators/api/test_schema.py);
    # a draft's reply is sent through its own endpoint, not decided.
    decision = DecisionIn.model_json_schema()["properties"]["decision"]
    assert decision["enum"] == [d for d in OperatorDecision.values if d != "send_reply"]


def test_the_policy_and_the_console_use_the_models_escalation_kinds() -> None:
    hints = get_type_hints(escalation_policy.Escalation)
    assert hints["kind"] is EscalationKind
    assert dict(EscalationKind.choices) == labels.KIND_LABELS
    assert dict(InquiryStatus.choices) == labels.INQUIRY_STATUS_LABELS
    assert dict(OperatorDecision.choices) == labels.DECISION_LABELS


def test_the_labels_are_translated() -> None:
    with translation.override("ja"):
        shown = {
            str(EscalationKind.APPROVAL.label),
            str(InquiryStatus.HANDLED_BY_HUMAN.label),
            str(OperatorDecision.TAKE_OVER.label),
        }
    with translation.override("en"):
        english = {
            str(EscalationKind.APPROVAL.label),
            str(InquiryStatus.HANDLED_BY_HUMAN.label),
            str(OperatorDecision.TAKE_OVER.label),
        }
    assert english == {"approval needed", "handled by a person", "taken over"}
    assert shown.isdisjoint(english)


def test_checkpoints_store_the_terms_as_plain_strings() -> None:
    # Given a state holding vocabulary members (as the nodes write them)
    state = {
        "status": InquiryStatus.RESOLVED,
        "pending_actions": [{"kind": Skill.PROCESS_REFUND}],
        "decisions": {"a1": {"decision": OperatorDecision.EDIT}},
        "escalation": {"kind": EscalationKind.FAILURE},
    }
    serde = JsonPlusSerializer()
    # When it is checkpointed and loaded
    kind, blob = serde.dumps_typed(state)
    loaded = serde.loads_typed((kind, blob))
    # Then the checkpoint holds the plain values (no enum type recorded in it)
    assert b"agents." not in blob
    assert loaded == {
        "status": "resolved",
        "pending_actions": [{"kind": "process_refund"}],
        "decisions": {"a1": {"decision": "edit"}},
        "escalation": {"kind": "failure"},
    }
    assert type(loaded["status"]) is str


def bare_terms(path: Path) -> list[str]:
    """String constants equal to a gated skill or a decision, outside ``Literal[...]``."""
    terms = set(GATED_SKILLS) | set(OperatorDecision.values)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    in_literal = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript) and getattr(node.value, "id", "") == "Literal"
        for inner in ast.walk(node.slice)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in terms
        and id(node) not in in_literal
    ]


def test_no_gated_skill_or_decision_is_spelled_out_in_product_code() -> None:
    # Given every product module but the definition, the migrations and the typed cue tables
    found = Counter(
        {
            relative: len(terms)
            for package in PRODUCT_PACKAGES
            for path in sorted((ROOT / package).rglob("*.py"))
            if "migrations" not in path.parts
            and (relative := str(path.relative_to(ROOT))) not in DEFINITIONS | TYPED_BY_INTENT
            and (terms := bare_terms(path))
        }
    )
    # Then none spells one out: each is imported from agents.support.vocabulary
    assert found == {}


def test_the_decision_form_takes_its_values_from_the_vocabulary() -> None:
    template = ROOT / "operators/templates/operators/console/_decision.html"
    text = template.read_text(encoding="utf-8")
    for value in OperatorDecision.values:
        assert f'value="{value}"' not in text
        assert f'data-decision="{value}"' not in text
