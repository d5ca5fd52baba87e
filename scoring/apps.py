"""scoring: the middle layer of the house (club -> scoring -> competition).

Evenings, pulkas, seats, deals, their revisions and status changes, and the caches of
finished pulkas' results; the pure engine (scoring/engine); the live pages. It may import
club, never competition: what the layers above must hear goes out as scoring.signals.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from scoring import receivers  # noqa: F401  (connects to club's model signals)
