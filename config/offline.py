"""The installable app shell of offline entry (issue #28): the service worker, the web app
manifest, the page shown for what was not kept, and the JavaScript catalogs.

The worker is served from the site's root, not /static/, so that its scope is the whole site;
it is a template because the static files it keeps have hashed names in production. Its logic
is in static/js/offline-core.js (a module Node's tests load); templates/offline/sw.js is the
thin shell that wires it to the worker's events.
"""

from __future__ import annotations

import functools
import hashlib
import json

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

# What a secretary's pulka page needs offline, kept when the worker is installed.
SHELL = [
    "css/pulka.css",
    "css/club.css",
    "css/drawing.css",
    "css/profile.css",
    "css/league.css",
    "css/tournament.css",
    "css/clock.css",
    "css/print.css",
    "django_htmx/htmx-2.min.js",
    "js/errors.js",
    "js/tables.js",
    "js/clock.js",
    "js/cards.js",
    "js/entry-form.js",
    "js/offline-core.js",
    "js/offline.js",
    "js/app.js",
    "img/pulka.svg",
    "img/pulka-192.png",
    "img/pulka-512.png",
    "img/favicon.ico",
]
WORKER_TEMPLATE = settings.BASE_DIR / "templates" / "offline" / "sw.js"


def _version() -> str:
    """Changes whenever a kept file or the worker changes: the browser then installs the new
    worker, which drops the old caches."""
    digest = hashlib.sha256(WORKER_TEMPLATE.read_bytes())
    for path in SHELL:
        found = finders.find(path)
        if found:
            with open(found, "rb") as file:
                digest.update(file.read())
    return digest.hexdigest()[:16]


# Read once per process in production (the files change only with a deploy); on every request
# while developing, so an edited script reaches the browser.
_version_once = functools.lru_cache(maxsize=1)(_version)


@require_safe
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    version = _version() if settings.DEBUG else _version_once()
    language = translation.get_language()
    context = {
        "version": version,
        "core": static("js/offline-core.js"),
        "shell": json.dumps(
            # Only what exists: one missing file would make the browser refuse the worker.
            [static(path) for path in SHELL if finders.find(path)]
            + [reverse("javascript-catalog", args=[language]), reverse("offline")]
        ),
        "offline_url": json.dumps(reverse("offline")),
        "static_prefix": json.dumps(static("")),
    }
    response = render(request, "offline/sw.js", context, content_type="text/javascript")
    # The worker's scope is the whole site though it is served from the root anyway.
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: installing Pulka on a phone's home screen opens the site in its
    own window, at the start page, with the site's icon."""
    data = {
        "name": _("Pulka: preferans score"),
        "short_name": _("Pulka"),
        "description": _("The preferans sheet of your club, kept exact to the whist."),
        "lang": translation.get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f3efe2",
        "theme_color": "#1f5135",
        "icons": [
            {"src": static("img/pulka-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/pulka-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("img/pulka.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_safe
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page it did not keep, when the network is down. The same
    for everyone (kept when the worker installs, it must not show whoever was signed in
    then): the layout is drawn as for a visitor."""
    request.user = AnonymousUser()
    return render(request, "offline/offline.html")


@require_safe
@cache_control(max_age=3600)
def javascript_catalog(request: HttpRequest, language: str) -> HttpResponse:
    """The scripts' words (Django's JavaScriptCatalog) in one language, named in the URL so
    that the worker can keep each language's catalog under its own address."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(language):
        return JavaScriptCatalog.as_view()(request)
