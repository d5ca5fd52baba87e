"""/f/<slug>/: a federation's pages (mounted by config/urls.py under f/).

Each part of the app adds its own block: the core (views), the rating list (rating_views),
open events (event_views), series (series_views) and results files (results_views).
"""

from django.urls import path  # noqa: F401  (the blocks below use it)

app_name = "federation"

urlpatterns: list = []
