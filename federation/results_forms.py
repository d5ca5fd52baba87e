"""Forms of the results files' pages: importing a file or an address, and re-matching a
person of an imported file. They validate input; federation.results_file reads, checks and
imports (and checks again)."""

from __future__ import annotations

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from federation.models import Person
from federation.results_file import URL_MAX

#: The persons a re-match select lists at once (a filter narrows the federation's persons).
PERSON_CHOICES_MAX = 500


class ResultsImportForm(forms.Form):
    file = forms.FileField(
        label=_("A results file"),
        required=False,
        help_text=_("A pulka-tournament/1 JSON file, at most 2 MB."),
    )
    url = forms.CharField(
        label=_("Or the address of another Pulka site's results file"),
        max_length=URL_MAX,
        required=False,
        help_text=_("The JSON link of a tournament's results page, http:// or https://."),
        widget=forms.URLInput(attrs={"autocomplete": "off", "placeholder": "https://"}),
    )

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        has_file, has_url = bool(data.get("file")), bool((data.get("url") or "").strip())
        if has_file and has_url:
            raise forms.ValidationError(_("Give a file or an address, not both."))
        if not has_file and not has_url:
            raise forms.ValidationError(_("Choose a file, or give an address."))
        data["url"] = (data.get("url") or "").strip()
        return data


class RematchForm(forms.Form):
    """One person of the file matched to a person of the federation, or to a new one. The
    select lists at most PERSON_CHOICES_MAX of `shown`; any person of `persons` is
    accepted (a filter shows the others)."""

    key = forms.ChoiceField(label=_("The file's person"))
    person = forms.ModelChoiceField(
        label=_("is the federation's person"),
        queryset=Person.objects.none(),
        required=False,
        empty_label=_("— a new person —"),
    )

    def __init__(
        self,
        *args,
        file_persons: list[tuple[str, str]],
        persons: QuerySet[Person],
        shown: QuerySet[Person],
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["key"].choices = file_persons
        field = self.fields["person"]
        field.queryset = persons
        field.widget.choices = [
            ("", field.empty_label),
            *((person.pk, person.name) for person in shown[:PERSON_CHOICES_MAX]),
        ]


class PersonFilterForm(forms.Form):
    q = forms.CharField(label=_("Find a person"), max_length=60, required=False)
