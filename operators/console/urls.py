from django.urls import path

from operators.console import preview_views, views

app_name = "console"
urlpatterns = [
    path("", views.queue, name="queue"),
    path("start/", views.home, name="home"),
    path("rows", views.rows, name="rows"),
    path("preferences", views.preferences, name="preferences"),
    path("escalations/<uuid:escalation_id>/", views.detail, name="detail"),
    path("escalations/<uuid:escalation_id>/live", views.live, name="live"),
    path("escalations/<uuid:escalation_id>/claim", views.claim, name="claim"),
    path("escalations/<uuid:escalation_id>/release", views.release, name="release"),
    path("escalations/<uuid:escalation_id>/decide", views.decide, name="decide"),
    path("escalations/<uuid:escalation_id>/preview", preview_views.preview, name="preview"),
]
