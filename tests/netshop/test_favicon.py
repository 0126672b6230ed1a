"""The site's icon: linked from every page of ``base.html`` and answered at /favicon.ico.

Browsers ask for /favicon.ico on pages that link no icon (the admin's, the API docs); a 404
there filled every server log. Both are served by WhiteNoise, in both shapes.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


def test_favicon_ico_at_the_sites_root_answers_200_with_the_icon() -> None:
    response = Client().get("/favicon.ico")

    assert response.status_code == 200
    assert response["Content-Type"] in {"image/x-icon", "image/vnd.microsoft.icon"}
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert body == (settings.BASE_DIR / "public" / "favicon.ico").read_bytes()


def test_a_page_links_its_icon_and_the_icon_answers_200() -> None:
    page = Client().get("/accounts/login/").content.decode()
    links = re.findall(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)

    response = Client().get(links[0])

    assert links == ["/static/icons/favicon.svg"]
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
