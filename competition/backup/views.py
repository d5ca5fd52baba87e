"""The club's backup download (owner only): at once for a small club, else prepared."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from club.access import get_club_for_user
from club.models import Role
from competition.backup import services as backup
from competition.files import services as files


@require_POST
def club_backup(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's backup (pulka-club/1 JSON): at once for a small club, else prepared."""
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    return files.respond_or_prepare(
        request,
        access,
        kind=backup.BACKUP_KIND,
        params={},
        size=backup.backup_size(access.club),
        threshold=backup.BACKUP_THRESHOLD_DEALS,
        back=reverse("competition:background", args=[access.club.slug]),  # its button's page
    )
