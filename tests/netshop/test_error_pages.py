"""The 403, 404 and 500 pages: the site's layout, the reader's language, and a way back.

With DEBUG off (as in production), a page that is refused, missing or broken is answered with
the site's own page: the top bar of ``base.html``, a heading in the reader's language, and a
link to the start page (signed in) or to the login page (not signed in).
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import include, path

from netshop import error_pages
from netshop.roles import Role, role_assign

pytestmark = pytest.mark.django_db


def _broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


# The project's URLs plus one view that fails, with the project's handlers.
urlpatterns = [path("broken/", _broken), path("", include("netshop.urls"))]
handler400 = error_pages.bad_request
handler403 = error_pages.permission_denied
handler404 = error_pages.page_not_found
handler500 = error_pages.server_error


@pytest.fixture(autouse=True)
def _debug_off(settings) -> None:
    settings.DEBUG = False


def client_for(username: str | None, *, role: Role | None = None, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language, raise_request_exception=False)
    if username is not None:
        user = User.objects.create_user(username, password="x")
        if role is not None:
            role_assign(user=user, role=role)
        client.force_login(user)
    return client


def test_the_project_uses_its_own_handlers() -> None:
    from netshop import urls

    assert (urls.handler400, urls.handler403, urls.handler404, urls.handler500) == (
        error_pages.bad_request,
        error_pages.permission_denied,
        error_pages.page_not_found,
        error_pages.server_error,
    )


def test_a_missing_page_is_the_sites_404_with_a_link_to_the_login_page() -> None:
    response = client_for(None).get("/no-such-page/")
    page = response.content.decode()

    assert response.status_code == 404
    assert 'class="topbar"' in page
    assert "<h1>Page not found</h1>" in page
    assert '<a href="/accounts/login/" id="error-back">Go to the login page</a>' in page


def test_a_missing_page_in_japanese_links_a_signed_in_reader_to_the_start_page() -> None:
    response = client_for("op", role=Role.OPERATOR, language="ja").get("/console/nothing-here/")
    page = response.content.decode()

    assert response.status_code == 404
    assert '<html lang="ja">' in page
    assert "<h1>ページが見つかりません</h1>" in page
    assert '<a href="/" id="error-back">最初のページに戻る</a>' in page
    assert "Page not found" not in page


def test_a_page_without_the_role_is_the_sites_403_in_the_readers_language() -> None:
    response = client_for("op", role=Role.OPERATOR, language="ja").get("/audit/")
    page = response.content.decode()

    assert response.status_code == 403
    assert 'class="topbar"' in page
    assert "<h1>このページは開けません</h1>" in page
    assert '<a href="/" id="error-back">最初のページに戻る</a>' in page
    assert "Not allowed" not in page


def test_a_403_in_english_says_so_and_links_to_the_start_page() -> None:
    response = client_for("someone").get("/console/")
    page = response.content.decode()

    assert response.status_code == 403
    assert "<h1>Not allowed</h1>" in page
    assert '<a href="/" id="error-back">Back to the start page</a>' in page


def test_a_failing_page_is_the_sites_500_without_the_error(settings) -> None:
    settings.ROOT_URLCONF = __name__

    response = client_for(None, language="ja").get("/broken/")
    page = response.content.decode()

    assert response.status_code == 500
    assert 'class="topbar"' in page
    assert "<h1>問題が発生しました</h1>" in page
    assert '<a href="/accounts/login/" id="error-back">ログインページへ</a>' in page
    assert "a bug" not in page
    assert "RuntimeError" not in page


def test_a_missing_api_path_still_answers_json_not_the_page() -> None:
    response = client_for(None).get("/api/v1/no-such-endpoint")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"
