
app_name = "console"
urlpatterns: list = []
