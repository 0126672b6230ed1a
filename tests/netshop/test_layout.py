"""Every page's layout (``templates/base.html``) opens with a way past its menu.

A keyboard or screen-reader user reaches the page's content with one key: the first link is
"Skip to content" in the reader's language, leading to the page's one ``<main>``, which can
take the focus; the menu is a navigation landmark with a name of its own, so it is not
confused with a page's other navigation (the pager). The browser suite checks the same pages
with axe-core (``tests/browser/test_accessibility.py``).
"""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SKIP_LINK = '<a class="skip-link" href="#content">{}</a>'
MAIN = '<main class="page" id="content" tabindex="-1">'
MENU = '<nav class="topnav" aria-label="{}">'


@pytest.mark.parametrize(
    ("language", "skip", "menu"),
    [("en", "Skip to content", "Main menu"), ("ja", "本文へスキップ", "メインメニュー")],
)
def test_the_first_link_skips_to_the_one_main_in_the_readers_language(
    language: str, skip: str, menu: str
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)

    html = client.get("/accounts/login/").content.decode()

    body = html[html.index("<body") :]
    first_link = body[body.index("<a ") : body.index("</a>") + len("</a>")]
    assert first_link == SKIP_LINK.format(skip)
    assert html.count("<main") == 1
    assert MAIN in html
    assert MENU.format(menu) in html
