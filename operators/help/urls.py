
app_name = "help"
urlpatterns: list = []
