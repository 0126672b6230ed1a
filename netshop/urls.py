from django.contrib import admin
from django.urls import include, path

from netshop.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/v1/", include("operators.api.urls")),
    path("", include("operators.urls")),
]
