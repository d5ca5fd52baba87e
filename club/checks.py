"""Deployment checks of our own (`manage.py check --deploy`)."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register

PER_PROCESS_CACHES = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
    "django.core.cache.backends.filebased.FileBasedCache",
)


@register(Tags.security, Tags.caches, deploy=True)
def check_shared_cache(app_configs=None, **kwargs) -> list[Warning]:
    """The login throttle counts in the default cache: every worker must see the same one."""
    if settings.CACHES["default"]["BACKEND"] not in PER_PROCESS_CACHES:
        return []
    return [
        Warning(
            "The default cache is not shared between processes, so each gunicorn worker "
            "counts wrong passwords on its own and the login throttle lets more through.",
            hint="Set REDIS_URL, or leave the cache unset so that DEBUG off uses the "
            "database cache.",
            id="pulka.W001",
        )
    ]
