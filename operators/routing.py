"""Every socket of the product, named by string from ``netshop.asgi`` (netshop never imports
operators); a path no route declares is refused by ``NoSuchSocket``."""

from django.urls import re_path

from operators.console.routing import websocket_urlpatterns as console_sockets
from operators.customer_page.routing import websocket_urlpatterns as customer_sockets
from operators.sockets import NoSuchSocket

websocket_urlpatterns = [
    *console_sockets,
    *customer_sockets,
    re_path(r"", NoSuchSocket.as_asgi()),  # last: only what nothing above matched
]
