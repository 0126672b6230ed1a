from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from netshop import error_pages
from netshop.health import healthz
from netshop.perimeter import requires_password_reset

# Django's auth views (``django.contrib.auth.urls``), with password reset only while a mail
# server is configured.
auth_urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password_reset/",
        requires_password_reset(auth_views.PasswordResetView.as_view()),
        name="password_reset",
    ),
    path(
        "password_reset/done/",
        requires_password_reset(auth_views.PasswordResetDoneView.as_view()),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        requires_password_reset(auth_views.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        requires_password_reset(auth_views.PasswordResetCompleteView.as_view()),
        name="password_reset_complete",
    ),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include(auth_urlpatterns)),
    path("api/v1/", include("operators.api.urls")),
    path("", include("operators.urls")),
]

# The site's own error pages (templates/errors/): its layout, the reader's language, a way back.
handler400 = error_pages.bad_request
handler403 = error_pages.permission_denied
handler404 = error_pages.page_not_found
handler500 = error_pages.server_error
