"""allauth's sign-up and reset forms, made safe against a squatted address and a stopwatch.

An address belongs to the account whose own address it is (User.email) or which confirmed it.
Anybody may type any address on the account page, and until it is confirmed it is only a
claim: it never keeps the real owner from signing up with it (his sign-up makes him an
account and removes the claim), and a "forgot password" mail to it never offers the
claimant's account.

Sign-up answers the same page whether or not the address is taken (allauth's enumeration
prevention); here it also does the same work, hashing the typed password in both cases, so
that its timing does not tell either.

Every allauth form the site shows carries the site's own labels (OwnWords): allauth's uk and
ru catalogs leave "Email" in English, write labels in Title Case, and Django's uk catalog
says "email" in the middle of a Ukrainian sentence; our msgids are in our catalogs.
"""

from __future__ import annotations

from typing import ClassVar

from allauth.account import forms as allauth_forms
from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from club.selectors import address_owners


def is_owned(email: str) -> bool:
    return address_owners(email).exists()


def claims(email: str, *, besides: AbstractBaseUser | None = None):
    """The unconfirmed rows of `email` on accounts whose own address it is not."""
    rows = EmailAddress.objects.filter(email__iexact=email, verified=False).exclude(
        user__email__iexact=email
    )
    return rows.exclude(user=besides) if besides is not None else rows


PASSWORD_RULES = _(
    "At least 8 characters, not only digits, not a common password, and not like your name "
    "or address."
)


class OwnWords:
    """The site's labels on an allauth form: `labels` by field name; no placeholder repeats
    a label, and a mistyped address is refused in the reader's words."""

    labels: ClassVar[dict[str, Promise]] = {}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name, label in self.labels.items():
            if name in self.fields:
                self.fields[name].label = label
        for name, field in self.fields.items():
            field.widget.attrs.pop("placeholder", None)
            if name == "email":
                field.error_messages["invalid"] = _(
                    "Enter an e-mail address like name@example.org."
                )
            if name == "password1":
                field.help_text = PASSWORD_RULES


NEW_PASSWORD = {
    "password1": _("New password"),
    "password2": _("New password again"),
}


class LoginForm(OwnWords, allauth_forms.LoginForm):
    labels: ClassVar[dict[str, Promise]] = {
        "login": _("E-mail address or username"),
        "password": _("Password"),
        "remember": _("Stay logged in on this device"),
    }


class SignupForm(OwnWords, allauth_forms.SignupForm):
    labels: ClassVar[dict[str, Promise]] = {
        "email": _("E-mail address"),
        "password1": _("Password"),
        "password2": _("Password again"),
    }

    def validate_unique_email(self, value: str) -> str:
        if not is_owned(value):
            # Free, or only claimed by someone who never confirmed it: the typist's to take.
            self.account_already_exists = False
            return get_adapter().validate_unique_email(value)
        return super().validate_unique_email(value)

    def try_save(self, request: HttpRequest):
        if self.account_already_exists:
            # A new account's password is hashed once; so is the typed one here, unused.
            make_password(self.cleaned_data.get("password1"))
        return super().try_save(request)

    @transaction.atomic
    def save(self, request: HttpRequest) -> AbstractBaseUser:
        user = super().save(request)
        claims(user.email, besides=user).delete()
        return user


class ResetPasswordForm(OwnWords, allauth_forms.ResetPasswordForm):
    labels: ClassVar[dict[str, Promise]] = {"email": _("E-mail address")}

    def clean_email(self) -> str:
        email = super().clean_email()
        owners = set(address_owners(email).values_list("pk", flat=True))
        self.users = [user for user in self.users if user.pk in owners]
        return email


class ResetPasswordKeyForm(OwnWords, allauth_forms.ResetPasswordKeyForm):
    labels: ClassVar[dict[str, Promise]] = NEW_PASSWORD


class ChangePasswordForm(OwnWords, allauth_forms.ChangePasswordForm):
    labels: ClassVar[dict[str, Promise]] = {
        "oldpassword": _("Current password"),
        **NEW_PASSWORD,
    }


class SetPasswordForm(OwnWords, allauth_forms.SetPasswordForm):
    labels: ClassVar[dict[str, Promise]] = NEW_PASSWORD


class ReauthenticateForm(OwnWords, allauth_forms.ReauthenticateForm):
    labels: ClassVar[dict[str, Promise]] = {"password": _("Password")}


class AddEmailForm(OwnWords, allauth_forms.AddEmailForm):
    labels: ClassVar[dict[str, Promise]] = {"email": _("New e-mail address")}
