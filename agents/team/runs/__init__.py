"""Runs of the graph: intake, driving and recording a run (and its outcome), dispatch
to workers, lease, recovery, warm-up and the Celery tasks.
"""
