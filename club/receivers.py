"""What club does when Django or allauth tells it something happened."""

from __future__ import annotations

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
