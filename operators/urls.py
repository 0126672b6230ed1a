"""The console (operators), the audit pages (managers) and the customer help page."""

from django.urls import include, path

urlpatterns = [
    path("console/", include("operators.console.urls")),
    path("audit/", include("operators.audit.urls")),
    path("help/", include("operators.help.urls")),
]
