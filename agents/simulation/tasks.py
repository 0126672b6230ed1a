"""The worker's side of a console-started run: one task, one service call."""

from __future__ import annotations

from celery import shared_task

from agents.simulation.models import RunStatus, SimulationRun
from agents.simulation.services import run_execute


@shared_task(name="agents.simulation.tasks.simulation_run", acks_late=False)
def simulation_run(run_id: int) -> None:
    """Execute a queued run in the sandbox. Not acknowledged late: a run lost with its worker
    stays ``running`` rather than seeding the sandbox twice at once."""
    run = SimulationRun.objects.select_related("suite").filter(pk=run_id).first()
    if run is None or run.status != RunStatus.QUEUED:
        return
    run_execute(run=run)
