"""What club does when Django or allauth tells it something happened."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest

from club import selectors


def apply_account_language(
    sender: type, request: HttpRequest | None, user: AbstractBaseUser, **kwargs
) -> None:
    """At every login, the pages switch to the language stored on the account (if any):
    club.middleware.AccountLanguageMiddleware sets the cookie on the login's response."""
    if request is None:
        return
    language = selectors.account_language(user)
    if language:
        request.account_language = language


def after_migrate(sender: object, using: str = "default", **kwargs) -> None:
    """After `migrate`: the site's row says settings.SITE_NAME and SITE_DOMAIN (the mails use
    them), and the database cache's table exists when the cache is the database."""
    from django.contrib.sites.models import Site
    from django.core.management import call_command

    if getattr(sender, "name", None) != "club":
        return  # once per migrate: when club's own migrations are done
    Site.objects.using(using).update_or_create(
        pk=settings.SITE_ID,
        defaults={"domain": settings.SITE_DOMAIN[:100], "name": settings.SITE_NAME[:50]},
    )
    call_command("createcachetable", database=using, verbosity=0)
