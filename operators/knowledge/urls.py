from django.urls import path

from operators.knowledge import canned_views

app_name = "knowledge"
urlpatterns = [
    path("canned-replies/", canned_views.library, name="canned_replies"),
    path("canned-replies/<int:reply_id>/", canned_views.edit, name="canned_reply"),
    path(
        "canned-replies/<int:reply_id>/active", canned_views.set_active, name="canned_reply_active"
    ),
]
