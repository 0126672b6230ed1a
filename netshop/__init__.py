"""The Django project and the shop's domain."""

from netshop.celery import app as celery_app

__all__ = ["celery_app"]
