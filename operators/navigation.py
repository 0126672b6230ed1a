"""The staff menu: one list of pages for the console and the manager pages alike.

Each link names the role that may open its page, so nobody is offered a page that would
answer 403 (operators see the console's pages, managers also the audit pages).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from netshop.roles import Role, user_has_role


@dataclasses.dataclass(frozen=True)
class NavLink:
    key: str  # the link's id is ``nav-<key>``
    url_name: str
    text: Promise
    role: Role


NAV_LINKS: tuple[NavLink, ...] = (
    NavLink("queue", "console:queue", _("Queue"), Role.OPERATOR),
    NavLink("conversations", "console:inbox", _("Conversations"), Role.OPERATOR),
    NavLink("audit", "audit:search", _("Audit log"), Role.MANAGER),
    NavLink("dashboard", "audit:dashboard", _("Dashboard"), Role.MANAGER),
    NavLink("autonomy", "audit:autonomy", _("AI autonomy"), Role.MANAGER),
    NavLink("policy", "audit:policy", _("Shop policy"), Role.MANAGER),
    NavLink("simulations", "simulations:home", _("Simulations"), Role.MANAGER),
    NavLink("articles", "knowledge:articles", _("Help articles"), Role.MANAGER),
    NavLink("gaps", "knowledge:gaps", _("Knowledge gaps"), Role.MANAGER),
    NavLink("canned", "knowledge:canned_replies", _("Canned replies"), Role.MANAGER),
)


def staff_links(*, user: Any, path: str) -> list[dict[str, Any]]:
    """The menu's links ``user`` may open; the one for ``path`` is marked current."""
    links = [link for link in NAV_LINKS if user_has_role(user, link.role)]
    urls = [reverse(link.url_name) for link in links]
    # The longest matching address is the current page (``/audit/dashboard/`` over ``/audit/``).
    matching = [url for url in urls if path.startswith(url)]
    current = max(matching, key=len, default=None)
    return [
        {"id": f"nav-{link.key}", "url": url, "text": link.text, "current": url == current}
        for link, url in zip(links, urls, strict=True)
    ]
