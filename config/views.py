"""Views that belong to the site, not to a club: the load balancers' health check."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when the database answers, 503 otherwise.

    One query, `SELECT 1`, and nothing else: the session and the user are never read (a
    probe every few seconds must not fill the session table or set a cookie).
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        log.error("healthz: the database does not answer: %s", exc.__class__.__name__)
        return HttpResponse("database unavailable", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")
