"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "netshop.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up first)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.utils.module_loading import import_string  # noqa: E402

from netshop.http_server import leave_bodies_to_django  # noqa: E402

# Served by daphne: Twisted must hand every body to Django unparsed (netshop.http_server).
leave_bodies_to_django()

# Named by string, like the root URLconf's include(): netshop never imports operators.
websocket_urlpatterns: list = import_string("operators.routing.websocket_urlpatterns")

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
