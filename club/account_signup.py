"""allauth's sign-up and reset forms, made safe against a squatted address and a stopwatch.

An address belongs to the account whose own address it is (User.email) or which confirmed it.
Anybody may type any address on the account page, and until it is confirmed it is only a
claim: it never keeps the real owner from signing up with it (his sign-up makes him an
account and removes the claim), and a "forgot password" mail to it never offers the
claimant's account.

Sign-up answers the same page whether or not the address is taken (allauth's enumeration
prevention); here it also does the same work, hashing the typed password in both cases, so
that its timing does not tell either.
"""

from __future__ import annotations

from allauth.account import forms as allauth_forms
from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.http import HttpRequest

from club.selectors import address_owners


def is_owned(email: str) -> bool:
    return address_owners(email).exists()


def claims(email: str, *, besides: AbstractBaseUser | None = None):
    """The unconfirmed rows of `email` on accounts whose own address it is not."""
    rows = EmailAddress.objects.filter(email__iexact=email, verified=False).exclude(
        user__email__iexact=email
    )
    return rows.exclude(user=besides) if besides is not None else rows


class SignupForm(allauth_forms.SignupForm):
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


class ResetPasswordForm(allauth_forms.ResetPasswordForm):
    def clean_email(self) -> str:
        email = super().clean_email()
        owners = set(address_owners(email).values_list("pk", flat=True))
        self.users = [user for user in self.users if user.pk in owners]
        return email
