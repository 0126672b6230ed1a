"""The console's sockets; ``netshop.asgi`` names this list by string."""

from django.urls import path

from operators.console.consumers import ConsoleConsumer

websocket_urlpatterns = [
    path("ws/console/", ConsoleConsumer.as_asgi()),
    path("ws/console/escalations/<uuid:escalation_id>/", ConsoleConsumer.as_asgi()),
]
