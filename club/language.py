"""The language cookie that Django's LocaleMiddleware reads, set from an account's choice."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """As django.views.i18n.set_language sets it, so that both agree on every attribute."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
