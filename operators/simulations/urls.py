from django.urls import path

from operators.simulations import run_views, views

app_name = "simulations"
urlpatterns = [
    path("", views.home, name="home"),
    path("suites/upload", views.upload, name="upload"),
    path("suites/<int:suite_id>/", views.suite, name="suite"),
    path("suites/<int:suite_id>/download", views.download, name="download"),
    path("suites/<int:suite_id>/run", run_views.start, name="start"),
    path("suites/<int:suite_id>/cases/<path:case_id>", views.case, name="case"),
    path("runs/<int:run_id>/", run_views.run, name="run"),
    path("runs/<int:run_id>/status", run_views.run_status, name="run_status"),
    path("compare/", run_views.compare, name="compare"),
    path("replay/", run_views.replay, name="replay"),
]
