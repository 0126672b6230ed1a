from django.urls import path

app_name = "help"
urlpatterns: list = []
