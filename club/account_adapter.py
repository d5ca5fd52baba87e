"""How Pulka bends django-allauth: the login throttle's key and message, and old accounts.

The throttle (settings.ACCOUNT_RATE_LIMITS["login_failed"]) counts wrong passwords for one
login from one address: allauth keys it by the login alone, which would let anyone lock a
secretary out from everywhere by typing her name ten times, so the address is added to the
key. Every attempt of a paused pair is refused, even with the right password; refused
attempts are not counted, so retrying does not restart the clock.
"""

from __future__ import annotations

from typing import Any

# allauth's stages module cannot be the first of allauth's to load (a cycle inside allauth,
# met by `manage.py check` before anything else imported allauth): load its package first.
import allauth.account.internal  # noqa: F401
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import ngettext

ALLAUTH_VERIFICATION_STAGE = "allauth.account.stages.EmailVerificationStage"


def lockout_message(minutes: int) -> str:
    return ngettext(
        "Too many wrong passwords in a row for this username. For its safety, logging in "
        "as this user from your address is paused: try again in %(minutes)d minute.",
        "Too many wrong passwords in a row for this username. For its safety, logging in "
        "as this user from your address is paused: try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


class AccountAdapter(DefaultAccountAdapter):
    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # allauth's own hook for the login_failed key (also cleared by a password reset from
        # the same address): one login from one address, as the throttle promises.
        login_key = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{login_key}:{self.get_client_ip(request)}"

    def validation_error(self, code: str, *args: Any) -> ValidationError:
        if code == "too_many_login_attempts":
            return ValidationError(lockout_message(settings.LOGIN_COOLOFF_MINUTES), code=code)
        return super().validation_error(code, *args)

    def get_login_stages(self) -> list[str]:
        return [
            f"{__name__}.{OldAccountEmailVerificationStage.__name__}"
            if stage == ALLAUTH_VERIFICATION_STAGE
            else stage
            for stage in super().get_login_stages()
        ]


class OldAccountEmailVerificationStage(EmailVerificationStage):
    """allauth's verification stage, except for accounts that have no e-mail address at all.

    Those were made before sign-up existed (the demo, the admin, import_club) and log in by
    username as before; the account page asks them to add an address. Every account made by
    sign-up has an address, so mandatory verification still holds for all of them.
    """

    def handle(self):
        user = self.login.user
        if (
            user is not None
            and not self.login.signup
            and not user.email
            and not EmailAddress.objects.filter(user=user).exists()
        ):
            return None, True
        return super().handle()
