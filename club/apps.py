"""club: the lowest layer of the house (club -> scoring -> competition).

Clubs, their members and roles, the roster of players, the tenant gate every club-scoped
view starts with (access.py), the htmx rendering helpers (rendering.py) and the services'
error base (errors.py). It imports neither scoring nor competition.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in
        from django.db.models.signals import post_migrate

        from club import checks, receivers  # noqa: F401 (checks registers itself)

        user_logged_in.connect(receivers.apply_account_language, dispatch_uid="club-language")
        post_migrate.connect(receivers.after_migrate, dispatch_uid="club-after-migrate")
