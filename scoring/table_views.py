"""The table's own pages, reached by its link /t/<token>/: its players enter and confirm
its deals (being built: see the issue's table entry)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_safe


@require_safe
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    raise Http404
