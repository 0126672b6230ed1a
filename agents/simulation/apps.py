from django.apps import AppConfig


class SimulationConfig(AppConfig):
    name = "agents.simulation"
    label = "simulation"
    verbose_name = "Simulations"
    default_auto_field = "django.db.models.BigAutoField"
