"""What a log line says about the request it comes from: its path and the user's id.

Only these two are read from the request, never its body, headers or cookies, so that a
password or a deal typed into a form cannot end up in the logs.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest
from django.utils.functional import empty

UNKNOWN = "-"


def request_user_id(request: HttpRequest, *, resolve: bool) -> str:
    """The id of the request's user, "anonymous", or "-" when it is not known.

    With resolve=False the user is read only when the authentication middleware already
    loaded it: every 404 is logged as a warning, and a flood of them must not cost a session
    query each. An error (resolve=True) is rare enough to look the user up.
    """
    user = getattr(request, "user", None)
    if user is None:
        return UNKNOWN
    if getattr(user, "_wrapped", None) is empty and not resolve:
        return UNKNOWN
    try:
        if not user.is_authenticated:
            return "anonymous"
        return str(user.pk)
    except Exception:  # the session or the database may be what failed: log without the user
        return UNKNOWN


class RequestContextFilter(logging.Filter):
    """Adds `path` and `user_id` to every record ("-" when it has no request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        if isinstance(request, HttpRequest):
            record.path = request.path
            record.user_id = request_user_id(request, resolve=record.levelno >= logging.ERROR)
        else:
            record.path = getattr(record, "path", UNKNOWN)
            record.user_id = getattr(record, "user_id", UNKNOWN)
        return True
