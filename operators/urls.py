"""The console (operators), the audit and knowledge pages (managers) and the customer help page."""

from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    # The front door sends each user to their page (staff: console, customers: help).
    path("", RedirectView.as_view(pattern_name="console:home"), name="root"),
    path("console/", include("operators.console.urls")),
    path("audit/simulations/", include("operators.simulations.urls")),
    path("audit/", include("operators.audit.urls")),
    path("knowledge/", include("operators.knowledge.urls")),
    path("help/", include("operators.customer_page.urls")),
]
