from django.core.management.base import BaseCommand
from django.urls import reverse
from django.utils.translation import gettext as _

from federation.demo import FEDERATION_SLUG, load_federation_demo


class Command(BaseCommand):
    help = (
        "Loads the federation's demo over the demo club (run after `demo`; safe to run again: "
        "nothing is duplicated)."
    )

    def handle(self, *args, **options) -> None:
        logins = load_federation_demo()
        self.stdout.write(_("Federation demo logins (username / password):"))
        for username, password, what in logins:
            self.stdout.write(f"  {username} / {password}  ({what})")
        path = reverse("federation:detail", args=[FEDERATION_SLUG])
        self.stdout.write(_("Demo federation: %(path)s") % {"path": path})
