from django.urls import path

from operators.console import conversations, preview_views, views

app_name = "console"
urlpatterns = [
    path("", views.queue, name="queue"),
    path("start/", views.home, name="home"),
    path("rows", views.rows, name="rows"),
    path("preferences", views.preferences, name="preferences"),
    path("escalations/<uuid:escalation_id>/", views.detail, name="detail"),
    path("escalations/<uuid:escalation_id>/live", views.live, name="live"),
    path("escalations/<uuid:escalation_id>/main", views.main, name="main"),
    path("escalations/<uuid:escalation_id>/claim", views.claim, name="claim"),
    path("escalations/<uuid:escalation_id>/release", views.release, name="release"),
    path("escalations/<uuid:escalation_id>/assign", views.assign, name="assign"),
    path("escalations/<uuid:escalation_id>/decide", views.decide, name="decide"),
    path("escalations/<uuid:escalation_id>/next", views.next_item, name="next"),
    path("escalations/<uuid:escalation_id>/verdict", views.verdict, name="verdict"),
    path("escalations/<uuid:escalation_id>/send-reply", views.send_draft, name="send_draft"),
    path("escalations/<uuid:escalation_id>/preview", preview_views.preview, name="preview"),
    path("conversations/", conversations.inbox, name="inbox"),
    path("conversations/<uuid:inquiry_id>/", conversations.conversation, name="conversation"),
    path("conversations/<uuid:inquiry_id>/thread", conversations.thread, name="thread"),
    path("conversations/<uuid:inquiry_id>/composer", conversations.composer, name="composer"),
    path(
        "conversations/<uuid:inquiry_id>/take-over",
        conversations.take_over,
        name="conversation_take_over",
    ),
    path(
        "conversations/<uuid:inquiry_id>/assign",
        conversations.assign,
        name="conversation_assign",
    ),
    path("conversations/<uuid:inquiry_id>/send", conversations.send, name="send"),
    path("conversations/<uuid:inquiry_id>/note", conversations.note, name="note"),
    path("conversations/<uuid:inquiry_id>/hand-back", conversations.hand_back, name="hand_back"),
    path("conversations/<uuid:inquiry_id>/close", conversations.close, name="close"),
    path("conversations/<uuid:inquiry_id>/flag", conversations.flag, name="flag"),
]
