"""Mails of club's own (allauth sends the account mails): an invitation to one person.

Every link in a mail points at the site's own domain (settings.SITE_DOMAIN, through the Site
row), never at the Host header of the request that caused it, and the mail is written in the
recipient's language when his account has one.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.sites.models import Site
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation

from club import selectors
from club.models import Invitation

log = logging.getLogger(__name__)


def site_url(path: str) -> str:
    """`path` on the site's own domain."""
    site = Site.objects.get_current()
    return f"{settings.ACCOUNT_DEFAULT_HTTP_PROTOCOL}://{site.domain}{path}"


def invitation_recipient(invitation: Invitation) -> str:
    """Where an addressed invitation is mailed: the account's own address, else the address
    the owner typed; "" when there is none (he finds it on his home page only)."""
    user = invitation.addressed_user
    if user is not None and user.email:
        return user.email
    if "@" in invitation.addressed_to:
        return invitation.addressed_to
    return ""


def send_invitation(invitation_id: int) -> bool:
    """Mail the invitation to its addressee; False when there is nowhere to send it. A mail
    server that fails is logged, never raised: the invitation stands on the home page."""
    invitation = (
        Invitation.objects.select_related("club", "player", "addressed_user", "created_by")
        .filter(pk=invitation_id)
        .first()
    )
    if invitation is None:
        return False
    recipient = invitation_recipient(invitation)
    if not recipient:
        return False
    user = invitation.addressed_user
    language = (selectors.account_language(user) if user else "") or translation.get_language()
    site = Site.objects.get_current()
    with translation.override(language):
        context = {
            "invitation": invitation,
            "club": invitation.club,
            "role": invitation.get_role_display(),
            "link": site_url(invitation.get_absolute_url()),
            "home": site_url("/"),
            "site_name": site.name,
        }
        subject = render_to_string("club/email/invitation_subject.txt", context).strip()
        body = render_to_string("club/email/invitation_message.txt", context)
    try:
        send_mail(subject, body, None, [recipient])
    except OSError:
        log.exception("The invitation %s could not be mailed", invitation_id)
        return False
    return True
