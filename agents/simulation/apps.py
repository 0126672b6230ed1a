from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SimulationConfig(AppConfig):
    name = "agents.simulation"
    label = "simulation"
    verbose_name = _("Simulations")
    default_auto_field = "django.db.models.BigAutoField"
