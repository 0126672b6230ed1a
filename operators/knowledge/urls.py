from django.urls import path

from operators.knowledge import article_views, canned_views, shelf_views, views

app_name = "knowledge"
urlpatterns = [
    path("", shelf_views.shelf, name="articles"),
    path("articles/new", article_views.new, name="article_new"),
    path("articles/export.json", shelf_views.export, name="articles_export"),
    path("articles/import", shelf_views.import_file, name="articles_import"),
    path("articles/<int:article_id>/", article_views.edit, name="article"),
    path("articles/<int:article_id>/preview", article_views.preview, name="article_preview"),
    path("articles/<int:article_id>/publish", article_views.publish, name="article_publish"),
    path(
        "articles/<int:article_id>/history/<str:language>",
        article_views.history,
        name="article_history",
    ),
    path("gaps/", views.gaps, name="gaps"),
    path("suggestions/<uuid:message_id>", views.suggest, name="suggest"),
    path("canned-replies/", canned_views.library, name="canned_replies"),
    path("canned-replies/<int:reply_id>/", canned_views.edit, name="canned_reply"),
    path(
        "canned-replies/<int:reply_id>/active", canned_views.set_active, name="canned_reply_active"
    ),
]
