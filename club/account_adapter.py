"""How Pulka bends django-allauth: the login throttle's key and message, old accounts, and
mails whose links point at the site's own domain (settings.SITE_DOMAIN), never at the Host
header a request came with.

The throttle (settings.ACCOUNT_RATE_LIMITS["login_failed"]) counts wrong passwords for one
login from one address: allauth keys it by the login alone, which would let anyone lock a
secretary out from everywhere by typing her name ten times, so the address is added to the
key. Every attempt of a paused pair is refused, even with the right password; refused
attempts are not counted, so retrying does not restart the clock.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

# allauth's stages module cannot be the first of allauth's to load (a cycle inside allauth,
# met by `manage.py check` before anything else imported allauth): load its package first.
import allauth.account.internal  # noqa: F401
from allauth.account import app_settings as account_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from allauth.core import context as allauth_context
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.sites.models import Site
from django.core.exceptions import ValidationError
from django.forms import BaseForm
from django.http import HttpRequest
from django.utils.translation import ngettext

from club.services import ClubError, display_name_clean

ALLAUTH_VERIFICATION_STAGE = "allauth.account.stages.EmailVerificationStage"


def lockout_message(minutes: int) -> str:
    return ngettext(
        "Too many wrong passwords in a row for this username. For its safety, logging in "
        "as this user from your address is paused: try again in %(minutes)d minute.",
        "Too many wrong passwords in a row for this username. For its safety, logging in "
        "as this user from your address is paused: try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def on_site(value: object, request_host: str) -> object:
    """A link built from the request's Host, moved onto the site's own domain and protocol."""
    if not isinstance(value, str) or "://" not in value:
        return value
    parts = urlsplit(value)
    if parts.netloc != request_host:
        return value
    domain = Site.objects.get_current().domain
    return urlunsplit(parts._replace(scheme=account_settings.DEFAULT_HTTP_PROTOCOL, netloc=domain))


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        # allauth builds a mail's links from the request, so a Host header with another port
        # (Django checks only the name) would reach them: every link is put on the site.
        request = allauth_context.request
        if request is not None:
            host = request.get_host()
            context = {key: on_site(value, host) for key, value in context.items()}
        super().send_mail(template_prefix, email, context)

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # allauth's own hook for the login_failed key (also cleared by a password reset from
        # the same address): one login from one address, as the throttle promises.
        login_key = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{login_key}:{self.get_client_ip(request)}"

    def validation_error(self, code: str, *args: Any) -> ValidationError:
        if code == "too_many_login_attempts":
            return ValidationError(lockout_message(settings.LOGIN_COOLOFF_MINUTES), code=code)
        return super().validation_error(code, *args)

    def save_user(
        self, request: HttpRequest, user: AbstractBaseUser, form: BaseForm, commit: bool = True
    ) -> AbstractBaseUser:
        # The sign-up form's field applies the one rule for names already; whatever else calls
        # this keeps to it too (a refused name is left out: the name is optional).
        data = form.cleaned_data
        try:
            data["first_name"] = display_name_clean(data.get("first_name") or "")
        except ClubError:
            data["first_name"] = ""
        return super().save_user(request, user, form, commit)

    def get_login_stages(self) -> list[str]:
        return [
            f"{__name__}.{OldAccountEmailVerificationStage.__name__}"
            if stage == ALLAUTH_VERIFICATION_STAGE
            else stage
            for stage in super().get_login_stages()
        ]


def logs_in_by_username(user: AbstractBaseUser) -> bool:
    """An account made before sign-up existed (the demo, the admin, import_club): no address
    of its own and none confirmed. It may have typed a new one that is not confirmed yet."""
    return not user.email and not EmailAddress.objects.filter(user=user, verified=True).exists()


class OldAccountEmailVerificationStage(EmailVerificationStage):
    """allauth's verification stage, except for accounts that log in by username.

    Those were made before sign-up existed and log in by username as before, also after
    typing a new address, until they confirm it (the account page says so); no login of theirs
    mails the address. Every account made by sign-up has an address of its own, so mandatory
    verification still holds for all of them.
    """

    def handle(self):
        user = self.login.user
        if user is not None and not self.login.signup and logs_in_by_username(user):
            return None, True
        return super().handle()
