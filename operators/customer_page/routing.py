"""The help page's socket; ``netshop.asgi`` names this list by string."""

from django.urls import path

from operators.customer_page.consumers import HelpConsumer

websocket_urlpatterns = [path("ws/help/<uuid:inquiry_id>/", HelpConsumer.as_asgi())]
