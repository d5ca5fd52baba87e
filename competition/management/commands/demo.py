from django.core.management.base import BaseCommand
from django.urls import reverse
from django.utils.translation import gettext as _

from competition.demo import CLUB_SLUG, load_demo


class Command(BaseCommand):
    help = "Loads the demo data for `make run` (safe to run again: nothing is duplicated)."

    def handle(self, *args, **options) -> None:
        logins = load_demo()
        self.stdout.write(_("Demo logins (username / password):"))
        for username, password, what in logins:
            self.stdout.write(f"  {username} / {password}  ({what})")
        path = reverse("scoring:club-detail", args=[CLUB_SLUG])
        self.stdout.write(_("Demo club: %(path)s") % {"path": path})
        self.stdout.write(
            _("Mail (sign-up confirmations, password resets) is printed on this console.")
        )
