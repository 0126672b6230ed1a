"""The simulation pages, runs side: start a suite's run or a replay (a worker runs it, the page
polls its status), read a run, compare two. Managers only, as every simulation page."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from agents.simulation.models import RunKind, SimulationRun, SimulationSuite
from agents.simulation.results import runs_list
from agents.simulation.services import run_start
from netshop.roles import Role
from operators.access import role_required
from operators.simulations import presenters
from operators.simulations.forms import CompareForm, ReplayForm, RunForm
from operators.simulations.views import suite_context


@require_POST
@role_required(Role.MANAGER)
def start(request: HttpRequest, suite_id: int) -> HttpResponse:
    """Queue a run of the suite; the worker takes it after commit."""
    found = get_object_or_404(SimulationSuite, pk=suite_id)
    form = RunForm(request.POST, request.FILES)
    if not form.is_valid():
        context = suite_context(found, form)
        return render(request, "operators/simulations/suite.html", context, status=400)
    run = run_start(suite=found, user=cast(User, request.user), **_run_options(form))
    return redirect("simulations:run", run_id=run.pk)


def _run_options(form: RunForm) -> dict[str, object]:
    data = form.cleaned_data
    return {"candidate": data["candidate"], "k": data["k"], "threshold": data["threshold"]}


@require_GET
@role_required(Role.MANAGER)
def run(request: HttpRequest, run_id: int) -> HttpResponse:
    found = get_object_or_404(SimulationRun.objects.select_related("suite"), pk=run_id)
    return render(request, "operators/simulations/run.html", presenters.run_page(found))


@require_GET
@role_required(Role.MANAGER)
def run_status(request: HttpRequest, run_id: int) -> HttpResponse:
    """Where the run stands, for the page's poll: it reloads when this changes."""
    found = get_object_or_404(SimulationRun, pk=run_id)
    return JsonResponse(
        {
            "status": found.status,
            "status_text": presenters.status_text(found),
            "finished": presenters.is_finished(found),
            "cases_done": found.results.count(),
        }
    )


@require_GET
@role_required(Role.MANAGER)
def compare(request: HttpRequest) -> HttpResponse:
    form = CompareForm(request.GET or None)
    context: dict[str, object] = {"form": form}
    if form.is_bound and not form.is_valid():
        return render(request, "operators/simulations/compare.html", context, status=400)
    if form.is_bound:
        context |= presenters.compare_page(form.cleaned_data["before"], form.cleaned_data["after"])
    return render(request, "operators/simulations/compare.html", context)


@require_http_methods(["GET", "POST"])
@role_required(Role.MANAGER)
def replay(request: HttpRequest) -> HttpResponse:
    """Choose past conversations and a configuration; the replay runs in a worker."""
    posted = request.method == "POST"
    form = ReplayForm(request.POST, request.FILES) if posted else ReplayForm()
    if posted and form.is_valid():
        started = run_start(
            kind=RunKind.REPLAY,
            selection=form.replay_filter().as_json(),
            user=cast(User, request.user),
            **_run_options(form),
        )
        return redirect("simulations:run", run_id=started.pk)
    runs = runs_list(kind=RunKind.REPLAY, limit=20)
    context = {
        "form": form,
        "runs": presenters.run_rows(runs),
    }
    status = 400 if posted else 200
    return render(request, "operators/simulations/replay.html", context, status=status)
