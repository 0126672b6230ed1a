"""The JSON API (django-ninja), mounted at ``/api/v1/``."""
