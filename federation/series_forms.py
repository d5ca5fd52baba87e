"""Forms of a series: its settings, a stage to add, and the empty forms of its actions."""

from __future__ import annotations

import re

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.names import NAME_MAX_LENGTH, InvalidName, NameField, name_key, normalise_name
from club.params import IntegerField
from federation import series as core
from federation import series_selectors as selectors
from federation.models import POINTS_PRESET, ImportedResult, Series
from federation.series_services import (
    FINALISTS_MAX,
    SEASON,
    SERIES_NAME,
    SeriesError,
    last_points,
    points_checked,
)

PRESET = "preset"
LAST = "last"
CUSTOM = "custom"
TIE_BREAK_FIELDS = tuple(f"tie_break_{n}" for n in range(1, len(core.TieBreak) + 1))
#: "Name #12": the person of that id, where several have the name.
_WITH_ID = re.compile(r"^(.*?)\s*#(\d{1,18})$")


def _label(name: str) -> str:
    return capfirst(Series._meta.get_field(name).verbose_name)


def _tournament_label(tournament) -> str:
    return f"{tournament.name} · {tournament.club.name} · {tournament.start:%Y-%m-%d}"


class TournamentChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return _tournament_label(obj)


class SeriesForm(forms.Form):
    """A series' settings. The points come from a preset (the federation's last series, or
    POINTS_PRESET) or are typed; the defending winner is typed by his name (with "#id" where
    several persons have it)."""

    name = NameField.of(Series, "name", what=SERIES_NAME)
    season = NameField.of(Series, "season", what=SEASON, required=False)
    points_preset = forms.ChoiceField(label=_label("points"), required=False)
    points = forms.CharField(
        label=gettext_lazy("Points typed"),
        required=False,
        max_length=core.POINTS_TEXT_MAX,
        help_text=gettext_lazy(
            "The points of 1st, 2nd, 3rd… place, e.g. “100, 80, 65, 55”. "
            "Places beyond them score 0."
        ),
    )
    best_of = IntegerField(
        label=_label("best_of"),
        required=False,
        min_value=1,
        max_value=selectors.STAGES_MAX,
        help_text=Series._meta.get_field("best_of").help_text,
    )
    min_stages = IntegerField(
        label=_label("min_stages"), min_value=1, max_value=selectors.STAGES_MAX, initial=1
    )
    final_from_series = IntegerField(
        label=_label("final_from_series"),
        min_value=0,
        max_value=FINALISTS_MAX,
        initial=0,
        help_text=gettext_lazy("The top places of the series standings."),
    )
    final_from_rating = IntegerField(
        label=_label("final_from_rating"),
        min_value=0,
        max_value=FINALISTS_MAX,
        initial=0,
        help_text=gettext_lazy("The top places of the federation's rating list."),
    )
    defending_winner = forms.CharField(
        label=_label("defending_winner"),
        required=False,
        max_length=NAME_MAX_LENGTH + 20,
        help_text=gettext_lazy(
            "A person of the federation, by name (empty: none). Where several persons have "
            "the name, add the number of his page, e.g. “Анна Коваль #12”."
        ),
    )
    final = TournamentChoice(
        label=gettext_lazy("Final tournament"),
        queryset=None,
        required=False,
        empty_label=gettext_lazy("(not chosen yet)"),
        help_text=gettext_lazy("A member club's tournament whose round 1 is not published."),
    )

    def __init__(self, *args, federation, series: Series | None = None, **kwargs) -> None:
        initial = kwargs.setdefault("initial", {})
        self.federation = federation
        self.last = last_points(federation)
        preset_text = core.points_to_text(POINTS_PRESET)
        choices = [(PRESET, _("the usual table: %(points)s") % {"points": preset_text})]
        if self.last and list(self.last) != list(POINTS_PRESET):
            text = core.points_to_text(self.last)
            last = _("as the federation's last series: %(points)s") % {"points": text}
            choices.insert(0, (LAST, last))
        choices.append((CUSTOM, _("other points, typed below")))
        if series is not None:
            initial.setdefault("name", series.name)
            initial.setdefault("season", series.season)
            text = core.points_to_text(series.points or [])
            initial.setdefault("points_preset", CUSTOM)
            initial.setdefault("points", text)
            for field in ("best_of", "min_stages", "final_from_series", "final_from_rating"):
                initial.setdefault(field, getattr(series, field))
            winner = series.defending_winner
            if winner is not None:
                initial.setdefault("defending_winner", f"{winner.name} #{winner.pk}")
            initial.setdefault("final", series.final_id)
            keys = list(series.tie_breaks or [])
        else:
            initial.setdefault("points_preset", choices[0][0])
            keys = [key.value for key in core.DEFAULT_TIE_BREAKS]
        for field, key in zip(TIE_BREAK_FIELDS, keys, strict=False):
            initial.setdefault(field, key)
        super().__init__(*args, **kwargs)
        self.fields["points_preset"].choices = choices
        self.fields["final"].queryset = selectors.final_candidates(
            federation, series.final if series is not None else None
        )
        for n, field in enumerate(TIE_BREAK_FIELDS, start=1):
            self.fields[field] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": n},
                choices=[("", _("(none)")), *selectors.TIE_BREAK_CHOICES],
                required=False,
            )

    def clean_points(self) -> list[int] | None:
        preset = self.cleaned_data.get("points_preset") or CUSTOM
        if preset == PRESET:
            return list(POINTS_PRESET)
        if preset == LAST and self.last:
            return list(self.last)
        try:
            return points_checked(self.cleaned_data.get("points") or "")
        except SeriesError as exc:
            raise forms.ValidationError(exc.message, code="points") from exc

    def clean_defending_winner(self):
        text = self.cleaned_data.get("defending_winner") or ""
        if not text.strip():
            return None
        found = _WITH_ID.match(text.strip())
        wanted = found.group(1) if found else text
        try:
            key = name_key(normalise_name(wanted))
        except InvalidName as exc:
            raise forms.ValidationError(exc.message, code="name") from exc
        persons = selectors.federation_persons(self.federation).filter(name_key=key)
        if found:
            persons = persons.filter(pk=int(found.group(2)))
        matches = list(persons.order_by("pk")[:2])
        if not matches:
            raise forms.ValidationError(
                _("No person of this federation is called %(name)s.") % {"name": wanted.strip()},
                code="unknown",
            )
        if len(matches) > 1:
            raise forms.ValidationError(
                _(
                    "Several persons are called %(name)s: add the number of his page, "
                    "e.g. “%(name)s #%(id)s”."
                )
                % {"name": matches[0].name, "id": matches[0].pk},
                code="several",
            )
        return matches[0]

    def clean(self) -> dict:
        data = super().clean()
        keys = [data.get(field) for field in TIE_BREAK_FIELDS]
        seen: set[str] = set()
        for field, key in zip(TIE_BREAK_FIELDS, keys, strict=True):
            if key and key in seen:
                self.add_error(field, _("Each tie-break can be chosen once."))
            seen.add(key)
        data["tie_breaks"] = [key for key in keys if key]
        return data

    def settings(self) -> dict:
        """The cleaned settings, as series_create and series_update take them."""
        data = self.cleaned_data
        fields = ("name", "season", "points", "best_of", "min_stages", "tie_breaks")
        fields += ("final_from_series", "final_from_rating", "defending_winner", "final")
        return {name: data[name] for name in fields}


class ImportedChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: ImportedResult) -> str:
        return f"{obj.name} · {obj.start:%Y-%m-%d}"


class StageForm(forms.Form):
    """A stage to add: a member club's tournament, or one of the federation's imports."""

    tournament = TournamentChoice(
        label=gettext_lazy("A member club's tournament"),
        queryset=None,
        required=False,
        empty_label="—",
    )
    imported = ImportedChoice(
        label=gettext_lazy("or an imported result"),
        queryset=None,
        required=False,
        empty_label="—",
    )

    def __init__(self, *args, series: Series, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = selectors.stage_candidates(series)
        self.fields["imported"].queryset = selectors.import_candidates(series)

    def clean(self) -> dict:
        data = super().clean()
        if not self.errors and (data.get("tournament") is None) == (data.get("imported") is None):
            raise forms.ValidationError(
                _("Choose a tournament or an imported result (one of them)."), code="one"
            )
        return data


class ActionForm(forms.Form):
    """A POST that only needs its CSRF token (remove a stage, make the final's entries)."""
