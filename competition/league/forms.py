"""Forms of competition: a league's settings."""

from __future__ import annotations

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy

from club.names import NameField
from competition.league.services import (
    BEST_COUNT_MISSING,
    CAP_NOT_POSITIVE,
    MIN_PULKAS_TOO_LOW,
    league_problems,
)
from competition.models import League

LEAGUE_NAME = gettext_lazy("The league's name")


class LeagueForm(forms.ModelForm):
    name = NameField.of(League, "name", what=LEAGUE_NAME)
    # The limits below are the columns' (an integer and two small integers).
    cap = forms.IntegerField(
        label=capfirst(League._meta.get_field("cap").verbose_name),
        required=False,
        min_value=1,
        max_value=2_147_483_647,
        help_text=League._meta.get_field("cap").help_text,
        error_messages={"invalid": CAP_NOT_POSITIVE, "min_value": CAP_NOT_POSITIVE},
    )
    best_count = forms.IntegerField(
        label=capfirst(League._meta.get_field("best_count").verbose_name),
        required=False,
        min_value=1,
        max_value=32_767,
        help_text=League._meta.get_field("best_count").help_text,
        error_messages={"invalid": BEST_COUNT_MISSING, "min_value": BEST_COUNT_MISSING},
    )
    min_pulkas = forms.IntegerField(
        label=capfirst(League._meta.get_field("min_pulkas").verbose_name),
        min_value=1,
        max_value=32_767,
        initial=1,
        error_messages={"invalid": MIN_PULKAS_TOO_LOW, "min_value": MIN_PULKAS_TOO_LOW},
    )

    class Meta:
        model = League
        fields = ["name", "start", "end", "rule", "best_count", "cap", "min_pulkas", "convention"]
        widgets = {
            "start": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def clean(self) -> dict:
        data = super().clean()
        problems = league_problems(
            start=data.get("start"),
            end=data.get("end"),
            rule=data.get("rule", ""),
            best_count=data.get("best_count"),
            cap=data.get("cap"),
            min_pulkas=data.get("min_pulkas"),
            convention=data.get("convention", ""),
        )
        for name, message in problems.items():
            if name not in self.errors:
                self.add_error(name, message)
        return data

    def settings(self) -> dict:
        """The cleaned settings, as the services take them."""
        return {field: self.cleaned_data[field] for field in self.Meta.fields}
