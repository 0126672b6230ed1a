"""The autonomy page (issue 25, parts 2 and 5): managers set each intent's level beside its
measured accuracy and its drafts' outcomes; the page says when the figures support more
autonomy or demand less; operators may not change anything."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agents.models import AutonomyLevel, IntentAutonomy
from agents.support.autonomy.levels import autonomy_level
from agents.support.escalations.drafts import draft_send
from agents.support.escalations.services import escalation_decide
from agents.support.vocabulary import OperatorDecision, Skill
from netshop.audit.models import AuditEntry
from netshop.roles import Role
from operators.audit.autonomy import DraftOutcomes, draft_outcomes
from operators.audit.selectors import Window
from tests.operators.api_helpers import signed_in, staff_user
from tests.support.drafts import drafted
from tests.support.reviews import reviewed

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager() -> User:
    return staff_user("mgr", Role.MANAGER)


def test_the_defaults_send_look_ups_and_draft_a_general_question() -> None:
    assert autonomy_level(Skill.SEARCH_FAQ) == AutonomyLevel.SEND
    assert autonomy_level(Skill.TRACK_SHIPMENT) == AutonomyLevel.SEND
    assert autonomy_level(Skill.ANSWER_GENERAL_QUESTION) == AutonomyLevel.DRAFT
    assert autonomy_level("") == AutonomyLevel.DRAFT  # nothing read: a person sends it


def test_a_manager_changes_a_level_and_it_is_audited(manager: User) -> None:
    response = signed_in(manager).post(
        "/audit/autonomy/", {"intent": Skill.TRACK_SHIPMENT, "level": "send_and_review"}
    )

    assert response.status_code == 302
    assert autonomy_level(Skill.TRACK_SHIPMENT) == AutonomyLevel.SEND_AND_REVIEW
    entry = AuditEntry.objects.get(action="autonomy.changed")
    assert (entry.actor, entry.data) == (
        "mgr",
        {"intent": "track_shipment", "before": "send", "after": "send_and_review"},
    )


def test_an_unknown_intent_or_level_changes_nothing(manager: User) -> None:
    client = signed_in(manager)
    client.post("/audit/autonomy/", {"intent": "make_tea", "level": "send"})
    page = client.post(
        "/audit/autonomy/", {"intent": Skill.SEARCH_FAQ, "level": "yolo"}, follow=True
    )

    assert not IntentAutonomy.objects.exists()
    assert "Unknown autonomy level" in page.content.decode()
    assert not AuditEntry.objects.filter(action="autonomy.changed").exists()


def test_an_operator_may_not_see_or_change_the_levels() -> None:
    operator = signed_in(staff_user("op", Role.OPERATOR))
    assert operator.get("/audit/autonomy/").status_code == 403
    changed = operator.post("/audit/autonomy/", {"intent": Skill.SEARCH_FAQ, "level": "draft"})
    assert changed.status_code == 403
    assert autonomy_level(Skill.SEARCH_FAQ) == AutonomyLevel.SEND


def test_the_drafts_outcomes_are_counted_per_intent(manager: User) -> None:
    operator = staff_user("op", Role.OPERATOR)
    for _ in range(2):
        draft_send(escalation_id=drafted().pk, user=operator)
    draft_send(escalation_id=drafted().pk, user=operator, text="My own words, thanks.")
    escalation_decide(
        escalation_id=drafted(Skill.SEARCH_FAQ).pk,
        user=operator,
        decision=OperatorDecision.TAKE_OVER,
        reply="I'll take it from here.",
    )
    drafted()  # still waiting: not counted

    outcomes = draft_outcomes(Window.ending_today(1))

    assert outcomes == {
        Skill.ANSWER_GENERAL_QUESTION: DraftOutcomes(unchanged=2, edited=1),
        Skill.SEARCH_FAQ: DraftOutcomes(taken_over=1),
    }


def test_the_page_shows_each_level_and_what_the_figures_say(manager: User) -> None:
    reviewer = staff_user("rev", Role.OPERATOR)
    for _ in range(5):
        reviewed(Skill.REFUND_STATUS, "wrong", reviewer, reason="wrong_facts")

    html = signed_in(manager).get("/audit/autonomy/").content.decode()

    assert 'data-intent="refund_status" data-level="send" data-recommendation="less"' in html
    assert 'data-intent="answer_general_question" data-level="draft"' in html


def test_the_dashboard_counts_the_drafts_per_intent_and_overall(manager: User) -> None:
    operator = staff_user("op", Role.OPERATOR)
    draft_send(escalation_id=drafted().pk, user=operator)
    draft_send(escalation_id=drafted(Skill.SEARCH_FAQ).pk, user=operator, text="Mine, thanks.")

    html = signed_in(manager).get("/audit/dashboard/?days=7").content.decode()

    general = html.index('<tr data-intent="answer_general_question">')
    assert "<td>1</td><td>0</td><td>0</td>" in html[general : general + 300]
    faq = html.index('<tr data-intent="search_faq">')
    assert "<td>0</td><td>1</td><td>0</td>" in html[faq : faq + 300]
    overall = html.index('<tr data-intent=""><th>All intents</th><td>1</td><td>1</td><td>0</td>')
    assert overall > faq
