
app_name = "audit"
urlpatterns: list = []
