"""Included by the root URLconf by name, so ``netshop`` never imports ``operators``."""

from operators.api.router import api

# ninja hands back (patterns, app name, namespace); the namespace is what its docs reverse.
urlpatterns, _app_name, app_name = api.urls
