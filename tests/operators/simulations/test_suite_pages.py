"""The suites' pages: the list, an upload (every problem by line, nothing stored on a bad file),
a suite's cases, a case's JSON edited, the download."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from agents.simulation.models import SimulationSuite
from agents.simulation.suites import suite_parse
from tests.operators.simulations.stored_runs import case_line, stored_suite, suite_text

pytestmark = pytest.mark.django_db


def upload(client: Client, text: str, *, name: str = "", replace: bool = False) -> object:
    file = SimpleUploadedFile("payments.jsonl", text.encode("utf-8"))
    data = {"file": file, "name": name, **({"replace": "on"} if replace else {})}
    return client.post("/audit/simulations/suites/upload", data)


# --- The list ----------------------------------------------------------------------------------


def test_the_list_shows_every_suite_in_a_fixed_number_of_queries(manager: Client) -> None:
    stored_suite("payments")
    manager.get("/audit/simulations/")  # the session and the menu's first reads
    with CaptureQueriesContext(connection) as few:
        manager.get("/audit/simulations/")
    for name in ("refunds", "tracking", "faq"):
        stored_suite(name)

    with CaptureQueriesContext(connection) as many:
        response = manager.get("/audit/simulations/")

    assert response.status_code == 200
    assert [s.name for s in response.context["suites"]] == [
        "faq",
        "payments",
        "refunds",
        "tracking",
    ]
    assert len(many) == len(few)


# --- Upload ------------------------------------------------------------------------------------


def test_a_good_file_is_stored_under_the_files_name_and_opens_its_cases(manager: Client) -> None:
    response = upload(manager, suite_text("pay-en", "pay-ja"))

    suite = SimulationSuite.objects.get()
    assert (suite.name, suite.source) == ("payments", "upload")
    assert [c.id for c in suite_parse(suite.content)] == ["pay-en", "pay-ja"]
    assert response["Location"] == f"/audit/simulations/suites/{suite.pk}/"  # type: ignore[index]


def test_a_bad_file_lists_every_problem_by_line_and_stores_nothing(manager: Client) -> None:
    text = "\n".join(
        [
            "// payments",
            case_line("pay-en"),
            "{not json",
            json.dumps({"id": "no-lang", "customer": "C0002", "text": "hi"}),
            case_line("pay-en"),
            case_line("pay-fr", lang="fr"),
        ]
    )

    response = upload(manager, text)

    assert response.status_code == 400  # type: ignore[attr-defined]
    problems = response.context["problems"]  # type: ignore[attr-defined]
    assert [p.line for p in problems] == [3, 4, 5, 6]
    assert "not JSON" in problems[0].message
    assert "lang must be one of ja, en" in problems[1].message
    assert "pay-en is already used on line 2" in problems[2].message
    assert "'fr'" in problems[3].message
    assert SimulationSuite.objects.count() == 0
    page = response.content.decode()  # type: ignore[attr-defined]
    assert "Nothing was stored" in page
    assert "line 6" in page


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"// only a comment\n", "The file has no cases."),
        ("支払い".encode("shift_jis"), "The file is not UTF-8 text."),
    ],
)
def test_a_file_without_cases_or_not_utf8_is_refused(
    manager: Client, content: bytes, says: str
) -> None:
    file = SimpleUploadedFile("empty.jsonl", content)

    response = manager.post("/audit/simulations/suites/upload", {"file": file})

    assert response.status_code == 400
    assert says in response.content.decode()
    assert SimulationSuite.objects.count() == 0


def test_a_suite_of_the_same_name_is_replaced_only_when_asked(manager: Client) -> None:
    kept = stored_suite("payments", "pay-en")

    refused = upload(manager, suite_text("pay-ja"))
    replaced = upload(manager, suite_text("pay-ja"), replace=True)

    assert refused.status_code == 400  # type: ignore[attr-defined]
    assert "A suite named payments exists" in refused.content.decode()  # type: ignore[attr-defined]
    assert replaced.status_code == 302  # type: ignore[attr-defined]
    kept.refresh_from_db()
    assert [c.id for c in suite_parse(kept.content)] == ["pay-ja"]


def test_an_uploaded_name_overrides_the_files(manager: Client) -> None:
    upload(manager, suite_text("pay-en"), name="  checkout  ")

    assert SimulationSuite.objects.get().name == "checkout"


# --- A suite's cases, the download -------------------------------------------------------------


def test_a_suite_shows_its_cases_with_their_first_message(manager: Client) -> None:
    suite = stored_suite("payments", "pay-en", "pay-ja")

    page = manager.get(f"/audit/simulations/suites/{suite.pk}/").content.decode()

    assert 'data-case="pay-en"' in page
    assert 'data-case="pay-ja"' in page
    assert f'href="/audit/simulations/suites/{suite.pk}/cases/pay-en"' in page
    assert "Which payment methods do you accept?" in page


def test_the_download_is_the_suite_file_as_stored(manager: Client) -> None:
    suite = stored_suite("payments")

    response = manager.get(f"/audit/simulations/suites/{suite.pk}/download")

    assert response.content.decode("utf-8") == suite.content
    assert response["Content-Disposition"] == f'attachment; filename="suite-{suite.pk}.jsonl"'
    assert response["Content-Type"].startswith("application/x-ndjson")


def test_an_unknown_suite_or_case_is_404(manager: Client) -> None:
    suite = stored_suite("payments")

    assert manager.get("/audit/simulations/suites/999999/").status_code == 404
    assert manager.get(f"/audit/simulations/suites/{suite.pk}/cases/nope").status_code == 404


# --- Editing a case ----------------------------------------------------------------------------


def edit(client: Client, suite: SimulationSuite, case_id: str, document: object) -> object:
    text = document if isinstance(document, str) else json.dumps(document, ensure_ascii=False)
    return client.post(f"/audit/simulations/suites/{suite.pk}/cases/{case_id}", {"document": text})


def test_a_case_opens_as_its_json_and_saving_stores_a_new_version(manager: Client) -> None:
    suite = stored_suite("payments", "pay-en", "pay-ja")
    form = manager.get(f"/audit/simulations/suites/{suite.pk}/cases/pay-ja")
    document = json.loads(form.context["form"].initial["document"])
    document["turns"][0]["text"] = "支払い方法を教えてください。"
    before = suite.digest

    response = edit(manager, suite, "pay-ja", document)

    assert response["Location"] == f"/audit/simulations/suites/{suite.pk}/"  # type: ignore[index]
    suite.refresh_from_db()
    cases = {c.id: c for c in suite_parse(suite.content)}
    assert cases["pay-ja"].turns[0].text == "支払い方法を教えてください。"
    assert cases["pay-en"].turns[0].text == "Which payment methods do you accept?"
    assert suite.content.startswith("// a suite of the tests\n")  # comments kept
    assert suite.digest != before


@pytest.mark.parametrize(
    ("document", "says"),
    [
        ('{"id": "pay-ja", ', "not JSON"),
        ({"id": "pay-ja", "customer": "C0002", "lang": "en", "turns": []}, "turns must be"),
        (json.loads(case_line("pay-en")), "pay-en is already used"),
    ],
    ids=["not-json", "no-turns", "id-taken"],
)
def test_a_case_that_would_not_run_is_shown_again_with_why_and_not_stored(
    manager: Client, document: object, says: str
) -> None:
    suite = stored_suite("payments", "pay-en", "pay-ja")
    before = suite.content

    response = edit(manager, suite, "pay-ja", document)

    assert response.status_code == 400  # type: ignore[attr-defined]
    assert says in response.content.decode()  # type: ignore[attr-defined]
    suite.refresh_from_db()
    assert suite.content == before
