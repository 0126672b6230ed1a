from django.urls import path

from operators.audit import views

app_name = "audit"
urlpatterns = [
    path("", views.search, name="search"),
    path("export.csv", views.export, name="export"),
    path("inquiries/<uuid:inquiry_id>/", views.timeline, name="timeline"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("autonomy/", views.autonomy, name="autonomy"),
    path("policy/", views.policy, name="policy"),
]
