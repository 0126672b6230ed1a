"""The simulation pages, suites side: the list, an upload, a suite's cases, a case's edit, the
download. Managers only (``role_required``): operators get 403, anonymous visitors the login.
Views parse, call a service or presenter, and render; runs are in ``run_views``."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from agents.simulation.models import RunKind, SimulationSuite
from agents.simulation.results import runs_list
from agents.simulation.suites import suite_parse
from netshop.roles import Role
from operators.access import role_required
from operators.simulations import presenters
from operators.simulations.forms import CaseForm, CompareForm, RunForm, SuiteUploadForm
from operators.simulations.services import SuiteRefusedError, suite_case_edit, suite_upload
from operators.simulations.suite_files import case_text, suite_case

HOME = "operators/simulations/home.html"


@require_GET
@role_required(Role.MANAGER)
def home(request: HttpRequest) -> HttpResponse:
    return render(request, HOME, _home_context(SuiteUploadForm()))


def _home_context(form: SuiteUploadForm, problems: list[Any] | None = None) -> dict[str, Any]:
    runs = runs_list(limit=30)
    return {
        "suites": SimulationSuite.objects.order_by("name"),
        "form": form,
        "problems": problems or [],
        "runs": presenters.run_rows(runs),
        "compare": CompareForm(),
    }


@require_http_methods(["GET", "POST"])
@role_required(Role.MANAGER)
def upload(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return redirect("simulations:home")
    form = SuiteUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, HOME, _home_context(form), status=400)
    data = form.cleaned_data
    try:
        suite = suite_upload(
            name=data["name"],
            text=data["text"],
            source="upload",
            user=cast(User, request.user),
            replace=data["replace"],
        )
    except SuiteRefusedError as refused:
        return render(request, HOME, _home_context(form, refused.problems), status=400)
    messages.success(request, _("Suite %(name)s stored.") % {"name": suite.name})
    return redirect("simulations:suite", suite_id=suite.pk)


@require_GET
@role_required(Role.MANAGER)
def suite(request: HttpRequest, suite_id: int) -> HttpResponse:
    found = get_object_or_404(SimulationSuite, pk=suite_id)
    return render(request, "operators/simulations/suite.html", suite_context(found, RunForm()))


def suite_context(found: SimulationSuite, form: RunForm) -> dict[str, Any]:
    runs = runs_list(suite_id=found.pk, kind=RunKind.SUITE, limit=20)
    return {
        "suite": found,
        "cases": suite_parse(found.content, name=found.name),
        "form": form,
        "runs": presenters.run_rows(runs),
    }


@require_GET
@role_required(Role.MANAGER)
def download(request: HttpRequest, suite_id: int) -> HttpResponse:
    found = get_object_or_404(SimulationSuite, pk=suite_id)
    response = HttpResponse(found.content, content_type="application/x-ndjson; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="suite-{found.pk}.jsonl"'
    return response


@require_http_methods(["GET", "POST"])
@role_required(Role.MANAGER)
def case(request: HttpRequest, suite_id: int, case_id: str) -> HttpResponse:
    found = get_object_or_404(SimulationSuite, pk=suite_id)
    current = suite_case(found, case_id)
    if current is None:
        raise Http404("no such case in this suite")
    if request.method == "GET":
        form = CaseForm(initial={"document": case_text(current)})
        return _case_page(request, found, case_id, form)
    form = CaseForm(request.POST)
    if not form.is_valid():
        return _case_page(request, found, case_id, form, status=400)
    try:
        suite_case_edit(
            suite=found,
            case_id=case_id,
            text=form.cleaned_data["document"],
            user=cast(User, request.user),
        )
    except SuiteRefusedError as refused:
        return _case_page(request, found, case_id, form, refused.problems, status=400)
    messages.success(request, _("Case %(id)s saved.") % {"id": case_id})
    return redirect("simulations:suite", suite_id=found.pk)


def _case_page(
    request: HttpRequest,
    found: SimulationSuite,
    case_id: str,
    form: CaseForm,
    problems: list[Any] | None = None,
    *,
    status: int = 200,
) -> HttpResponse:
    context = {"suite": found, "case_id": case_id, "form": form, "problems": problems or []}
    return render(request, "operators/simulations/case.html", context, status=status)
