from django.urls import path

from operators.customer_page import views

app_name = "help"
urlpatterns = [
    path("", views.index, name="index"),
    path("inquiries/<uuid:inquiry_id>/status", views.status, name="status"),
    path("inquiries/<uuid:inquiry_id>/messages", views.messages, name="messages"),
    path("inquiries/<uuid:inquiry_id>/reply", views.reply, name="reply"),
]
