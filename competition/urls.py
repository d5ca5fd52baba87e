"""Every URL of competition, one include per room; all names stay in the `competition` namespace.

The order matters once: players/merge/ (roster) comes before players/<id>/ (profile) only by
being a different pattern, so any order of the includes below gives the same matches.
"""

from django.urls import include, path

app_name = "competition"

urlpatterns = [
    path("", include("competition.rating.urls")),
    path("", include("competition.league.urls")),
    path("", include("competition.tournament.urls")),
    path("", include("competition.profile.urls")),
    path("", include("competition.roster.urls")),
    path("", include("competition.files.urls")),
    path("", include("competition.backup.urls")),
]
