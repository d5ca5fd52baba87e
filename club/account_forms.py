"""Forms of the account pages: sign-up's extra field, the account page, deleting it."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from club.names import NameField
from club.services import DISPLAY_NAME, DISPLAY_NAME_MAX


class SignupForm(forms.Form):
    """What allauth's sign-up asks besides the address and the password (ACCOUNT_SIGNUP_FORM_CLASS).

    The field is named first_name so that allauth's adapter saves it on the user.
    """

    first_name = NameField(
        what=DISPLAY_NAME,
        label=_("Your name (optional)"),
        max_length=DISPLAY_NAME_MAX,
        required=False,
        help_text=_("How the clubs' pages name you, e.g. Olena Kovalenko."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )

    def signup(self, request: HttpRequest, user: AbstractBaseUser) -> None:
        """Nothing more to save: allauth's adapter stored first_name."""


LANGUAGE_FOLLOW_BROWSER = ""


class AccountForm(forms.Form):
    name = NameField(
        what=DISPLAY_NAME,
        label=_("Your name"),
        max_length=DISPLAY_NAME_MAX,
        required=False,
        help_text=_("How the clubs' pages name you when you are not on their roster."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[(LANGUAGE_FOLLOW_BROWSER, _("as my browser asks")), *settings.LANGUAGES],
        help_text=_("Used every time you log in, on any device."),
    )


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: AbstractBaseUser, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password


class NoticeForm(forms.Form):
    """Which notices the account gets, by mail and in Telegram (AccountSettings); the
    Telegram fields only on a site with a bot."""

    seating_by_mail = forms.BooleanField(label=_("by mail"), required=False)
    seating_by_telegram = forms.BooleanField(label=_("in Telegram"), required=False)
    confirm_by_mail = forms.BooleanField(label=_("by mail"), required=False)
    confirm_by_telegram = forms.BooleanField(label=_("in Telegram"), required=False)

    def __init__(self, *args, telegram: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not telegram:
            del self.fields["seating_by_telegram"]
            del self.fields["confirm_by_telegram"]
