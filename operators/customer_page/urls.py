from django.urls import path

from operators.customer_page import receipts, views

app_name = "help"
urlpatterns = [
    path("", views.index, name="index"),
    path("inquiries/<uuid:inquiry_id>/status", views.status, name="status"),
    path("inquiries/<uuid:inquiry_id>/messages", views.messages, name="messages"),
    path("inquiries/<uuid:inquiry_id>/reply", views.reply, name="reply"),
    path(
        "inquiries/<uuid:inquiry_id>/messages/<uuid:message_id>/feedback",
        views.feedback,
        name="feedback",
    ),
    path("inquiries/<uuid:inquiry_id>/receipts", receipts.receipt_list, name="receipts"),
    path(
        "inquiries/<uuid:inquiry_id>/receipts/<receipt:number>.pdf",
        receipts.receipt_download,
        name="receipt",
    ),
]
