"""The forms of open events: opening a tournament, its settings, registering, and the
organiser's changes to a registration. Numbers are read as club.params reads them (ASCII
digits within bounds), the fee as ASCII digits with at most two decimals, names through
club.names, categories through federation.events.categories_from_text."""

from __future__ import annotations

import re
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from club import params
from club.models import Currency
from club.names import NAME_MAX_LENGTH, NameField
from federation import events
from federation.models import Category, OpenEvent

DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]
_FEE = re.compile(r"[0-9]{1,6}(?:[.,][0-9]{1,2})?")

CATEGORIES_HELP = _(
    'One a line, at most 10: "Name" (anyone), "Name: rating 1200-" (a federation rating from '
    '1200), "Name: rating -1200" (below 1200), "Name: rating 1200-1500", "Name: chosen" (you '
    "put the players in it)."
)


class FeeField(forms.CharField):
    """An amount in the currency's units: "150", "150.50" or "150,50"; empty: free."""

    default_error_messages = {"invalid": _("Write the fee as a number, such as 150 or 150.50.")}

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("max_length", 12)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(**kwargs)

    def clean(self, value):
        text = super().clean(value).strip()
        if text == "":
            return None
        if _FEE.fullmatch(text) is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        amount = Decimal(text.replace(",", "."))
        if amount <= 0:
            raise forms.ValidationError(
                _("Leave the fee empty for a free event."), code="min_value"
            )
        return amount


class CategoriesField(forms.CharField):
    """Categories one a line (events.categories_from_text): a list of CategorySpec."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 4}))
        kwargs.setdefault("max_length", 2000)
        kwargs.setdefault("required", False)
        kwargs.setdefault("label", _("Categories"))
        kwargs.setdefault("help_text", CATEGORIES_HELP)
        super().__init__(**kwargs)

    def clean(self, value):
        text = super().clean(value)
        try:
            return events.categories_from_text(text)
        except events.EventError as exc:
            raise forms.ValidationError(exc.message, code="invalid") from exc


class TermsForm(forms.Form):
    """What the organiser sets: the deadline, the places, the fee, the categories."""

    deadline = forms.DateTimeField(
        label=_("Registration closes"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=DATETIME_FORMATS,
    )
    cap = params.IntegerField(
        label=_("Places"),
        required=False,
        min_value=3,
        max_value=1000,
        help_text=_("3 to 1,000; empty: no limit. Who registers later waits for a place."),
    )
    fee = FeeField(label=_("Entry fee"), required=False, help_text=_("Empty: free."))
    currency = forms.ChoiceField(label=_("Currency"), choices=Currency.choices)
    counts_for_federation = forms.BooleanField(
        label=_("Counts for the federation"),
        required=False,
        initial=True,
        help_text=_("Its tables count in the federation's rating list."),
    )
    categories = CategoriesField()

    def terms(self) -> dict:
        data = self.cleaned_data
        return {
            "deadline": data["deadline"],
            "cap": data["cap"],
            "fee": data["fee"],
            "currency": data["currency"],
            "counts_for_federation": data["counts_for_federation"],
            "categories": data["categories"],
        }


class OpenForm(TermsForm):
    """Opening one of his tournaments to the federation."""

    tournament = params.ModelChoiceField(label=_("Tournament"), queryset=None)
    field_order = ["tournament", "deadline", "cap", "fee", "currency"]

    def __init__(self, *args, tournaments, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = tournaments
        self.fields["tournament"].label_from_instance = lambda one: (
            f"{one.name} · {one.club.name} · {one.start:%Y-%m-%d}"
        )
        self.fields["currency"].choices = [("", _("the club's currency")), *Currency.choices]
        self.fields["currency"].required = False


class SettingsForm(TermsForm):
    """The event's terms, as they stand."""

    def __init__(self, *args, event: OpenEvent, **kwargs) -> None:
        kwargs.setdefault(
            "initial",
            {
                "deadline": event.deadline,
                "cap": event.cap,
                "fee": event.fee,
                "currency": event.currency,
                "counts_for_federation": event.counts_for_federation,
                "categories": events.categories_to_text(event.categories.all()),
            },
        )
        super().__init__(*args, **kwargs)


class RegisterForm(forms.Form):
    """His name as it will be shown, and a category he may enter."""

    name = NameField(label=_("Your name"), what=_("Your name"), max_length=NAME_MAX_LENGTH)
    category = params.ModelChoiceField(
        label=_("Category"), queryset=Category.objects.none(), required=False
    )

    def __init__(self, *args, categories: list[Category], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["category"]
        if categories:
            field.queryset = Category.objects.filter(pk__in=[one.pk for one in categories])
            field.required = True
            field.empty_label = None if len(categories) == 1 else _("Choose…")
        else:
            del self.fields["category"]


class CategoryForm(forms.Form):
    """The organiser's choice of a registration's category (none: no category)."""

    category = params.ModelChoiceField(
        label=_("Category"), queryset=Category.objects.none(), required=False
    )

    def __init__(self, *args, event: OpenEvent, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["category"].queryset = event.categories.all()
        self.fields["category"].empty_label = _("no category")


class PaidForm(forms.Form):
    paid = forms.TypedChoiceField(
        choices=[("1", _("paid")), ("0", _("due"))], coerce=lambda value: value == "1"
    )


class RegistrationStateForm(forms.Form):
    """Closing registration, or opening it again."""

    open = forms.TypedChoiceField(
        choices=[("1", _("open")), ("0", _("closed"))], coerce=lambda value: value == "1"
    )
