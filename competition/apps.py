"""competition: the top layer of the house (club -> scoring -> competition).

What is computed across pulkas: leagues and their standings, ratings, player profiles and
charts, and the demo. It reads scoring's result caches; nothing below imports it, and it
hears of changed results through scoring.signals.results_changed (see receivers.py).
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionConfig(AppConfig):
    name = "competition"
    verbose_name = _("Competition")

    def ready(self) -> None:
        # receivers connects to scoring's signals; backup and printouts register their file
        # builders, which a worker must find (competition.files.services).
        from competition import receivers  # noqa: F401
        from competition.backup import services  # noqa: F401
        from competition.tournament import printouts  # noqa: F401
