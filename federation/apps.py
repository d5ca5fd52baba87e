from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("federations")

    def ready(self) -> None:
        from federation import receivers  # noqa: F401  (connects the signal handlers)
