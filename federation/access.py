"""The federation's gate: every /f/<slug>/ view starts here.

A federation's pages are public: its clubs, calendar, rating list, persons and series can be
read by anyone. Changing anything needs an officer's role: a judge runs persons, events and
series; the owner also manages the officers and the member clubs. Superusers act as owners.
A federation that does not exist is a 404 like any unknown address.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from club.access import LoginRequired
from federation.models import OFFICER_RANK, Federation, Officer, OfficerRole


@dataclass(frozen=True)
class FederationAccess:
    federation: Federation
    role: str | None  # the visitor's officer role; None: not an officer

    @property
    def can_judge(self) -> bool:
        return self.role is not None

    @property
    def can_manage(self) -> bool:
        return self.role == OfficerRole.OWNER

    @property
    def role_label(self) -> str:
        return OfficerRole(self.role).label if self.role else ""


def officer_role(user, federation: Federation) -> str | None:
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return OfficerRole.OWNER
    return (
        Officer.objects.filter(federation=federation, user=user)
        .order_by()
        .values_list("role", flat=True)
        .first()
    )


def get_federation_for_user(
    request: HttpRequest, slug: str, *, role: str | None = None
) -> FederationAccess:
    """Resolve the federation of the URL for this user, or raise 404/403/LoginRequired.

    `role` is the least officer role the view needs (None: reading).
    """
    federation = Federation.objects.filter(slug=slug).first()
    if federation is None:
        raise Http404
    held = officer_role(request.user, federation)
    if role is not None:
        if not request.user.is_authenticated:
            raise LoginRequired
        if held is None or OFFICER_RANK[held] < OFFICER_RANK[role]:
            raise PermissionDenied
    return FederationAccess(federation=federation, role=held)
