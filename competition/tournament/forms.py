"""Forms of the organiser's tournament pages: the settings, entries, swaps, penalties.

The forms read and shape what was typed; the rules of the tournament (caps that make
sense, a final before the last round, a tie-break chosen once) are the services' word
(competition.tournament.services), whose errors land on the field they name.
"""

from __future__ import annotations

import re

from django import forms
from django.forms.utils import ErrorDict
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from club.names import (
    NAME_MAX_LENGTH,
    InvalidName,
    NameField,
    name_key,
    normalise_name,
    normalise_text,
)
from club.params import IntegerField
from competition.lib import tournament_scoring as ts
from competition.models import (
    APART_MAX,
    MORE_DEALS_MAX,
    ROUND_MINUTES_MAX,
    Entry,
    LastDeal,
    Penalty,
    PenaltyUnit,
    Tournament,
)
from competition.tournament import selectors
from competition.tournament.selectors import TIE_BREAK_LABELS
from competition.tournament.services import (
    CAPS_PRESETS,
    PENALTY_MAX,
    PENALTY_REASON,
    TEAM_NAME,
    TEAM_NAME_MAX,
    TOURNAMENT_NAME,
    TournamentServiceError,
    caps_from_text,
    caps_to_text,
)
from scoring.forms import RulesForm

CUSTOM_CAPS = "custom"
CAPS_CHOICES = [
    ("200-650", _("full up to 200, ×0.1 from 200 to 650, nothing beyond 650")),
    ("50-100", _("full up to 50, ×0.5 from 50 to 100, ×0.1 above 100")),
    (CUSTOM_CAPS, _("other steps, typed below")),
]
TIE_BREAK_CHOICES = [(key.value, TIE_BREAK_LABELS[key]) for key in ts.TieBreak]
TIE_BREAK_FIELDS = tuple(f"tie_break_{n}" for n in range(1, len(ts.TieBreak) + 1))
# The settings typed through fields of their own (the nested RulesForm, the caps' preset and
# steps, one choice a tie-break) and put together in `clean` and `settings`.
TYPED_APART = ("rules", "caps", "tie_breaks")
# What parts the two names of a pair kept apart: a comma, a spaced dash, or "and" (in English
# or in the user's language).
_APART_COMMA_OR_DASH = r"\s*,\s*|\s+[-\u2013\u2014]\s+"
# The longest "keep apart" text: a hundred lines of two long names.
APART_TEXT_MAX = APART_MAX * (2 * NAME_MAX_LENGTH + 10)
# The bounds of the columns (small integers) and of what a judge would type.
SMALL_MAX = 32_767
SCORE_MAX = 1_000_000


def _label(name: str) -> str:
    return capfirst(Tournament._meta.get_field(name).verbose_name)


def _help(name: str) -> str:
    return Tournament._meta.get_field(name).help_text


def _number(name: str, *, low: int, high: int, required: bool = False, **kwargs) -> IntegerField:
    return IntegerField(
        label=_label(name),
        help_text=_help(name),
        required=required,
        min_value=low,
        max_value=high,
        **kwargs,
    )


class TournamentForm(forms.ModelForm):
    """A tournament's settings, with its conventions (the club's by default) in a nested
    RulesForm (prefix ``rules``), as a new table has them.

    Once a round is out the conventions, the deal cap and the tables are fixed (`locked`):
    they are shown, not sent, and `settings()` leaves them out. The pairs kept apart are
    typed by the names of the players entered (`clean_apart`), so a new tournament has no
    such field.
    """

    name = NameField.of(Tournament, "name", what=TOURNAMENT_NAME)
    round_count = _number("round_count", low=1, high=15, required=True, initial=5)
    deal_cap = _number("deal_cap", low=1, high=500)
    caps_preset = forms.ChoiceField(
        label=_("Caps"), choices=CAPS_CHOICES, initial="200-650", required=False
    )
    caps = forms.CharField(
        label=_("Other steps"),
        required=False,
        max_length=400,
        help_text=_('Each step as "from whists: factor", e.g. "0:1, 200:1/10, 650:0".'),
    )
    floor = _number("floor", low=-SCORE_MAX, high=SCORE_MAX)
    bye_score = _number("bye_score", low=-SCORE_MAX, high=SCORE_MAX, required=True, initial=0)
    team_best = _number("team_best", low=1, high=5)
    stage_after = _number("stage_after", low=1, high=14)
    stage_top = _number("stage_top", low=3, high=400)
    round_minutes = _number("round_minutes", low=1, high=ROUND_MINUTES_MAX)
    last_deal = forms.ChoiceField(
        label=_label("last_deal"), choices=LastDeal.choices, required=False
    )
    more_deals = _number("more_deals", low=1, high=MORE_DEALS_MAX)
    apart = forms.CharField(
        label=_label("apart"),
        required=False,
        max_length=APART_TEXT_MAX,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "Players never seated at one table where it can be helped. One pair a line: "
            '"Анна Коваль and Борис Шевченко" (or "Анна Коваль, Борис Шевченко", or '
            '"Анна Коваль - Борис Шевченко").'
        ),
    )

    class Meta:
        model = Tournament
        fields = [name for name in Tournament.SETTINGS if name not in TYPED_APART]
        widgets = {"start": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, data=None, *args, club, locked: bool = False, **kwargs) -> None:
        instance = kwargs.get("instance")
        initial = kwargs.setdefault("initial", {})
        if instance is not None and instance.pk:
            text = caps_to_text(instance.caps) if instance.caps else ""
            preset = next((k for k, v in CAPS_PRESETS.items() if v == text), None)
            if preset is not None or not text:
                initial.setdefault("caps_preset", preset or "200-650")
            else:
                initial.setdefault("caps_preset", CUSTOM_CAPS)
                initial.setdefault("caps", text)
            keys = list(instance.tie_breaks or [k.value for k in ts.DEFAULT_TIE_BREAKS])
        else:
            keys = [k.value for k in ts.DEFAULT_TIE_BREAKS]
        for field, key in zip(TIE_BREAK_FIELDS, keys, strict=False):
            initial.setdefault(field, key)
        # The pairs kept apart are typed by the names of the players entered: a new tournament
        # has none yet, and no such field.
        new = instance is None or not instance.pk
        self.entered: dict[int, str] = {} if new else selectors.names(instance)
        if not new:
            shown = selectors.apart_names(instance, self.entered)
            initial.setdefault("apart", "\n".join(f"{a}, {b}" for a, b in shown))
        super().__init__(data, *args, **kwargs)
        if new:
            del self.fields["apart"]
        for n, field in enumerate(TIE_BREAK_FIELDS, start=1):
            self.fields[field] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": n},
                choices=[("", _("(none)")), *TIE_BREAK_CHOICES],
                required=n == 1,
            )
        self.locked = locked
        rules = instance.rules if instance is not None and instance.pk else club.default_rules()
        # Locked: the conventions are shown as they are, and nothing of them is read.
        self.rules_form = RulesForm(None if locked else data, prefix="rules", rules=rules)
        if locked:
            self.fields["deal_cap"].disabled = True
            self.fields["tables"].disabled = True

    def full_clean(self) -> None:
        if self.rules_form.applied:
            # A convention was chosen without JavaScript: the form comes back with its
            # options filled in, and nothing is checked yet.
            self._errors = ErrorDict()
            self.cleaned_data = {}
            return
        super().full_clean()

    def is_valid(self) -> bool:
        valid = super().is_valid()
        if self.locked:
            return valid
        # A convention just chosen leaves the rules form unbound: not valid, nothing saved.
        return self.rules_form.is_valid() & valid

    def clean_apart(self) -> list[list[int]]:
        """The pairs typed, one a line, as player ids (smaller first), each name one of the
        players entered by the one rule for names (club.names); every line refused is said,
        by its number, and then nothing is kept."""
        by_key = {name_key(name): player for player, name in self.entered.items()}
        # "and" as the user's language says it between two names, and in English.
        word = re.escape(pgettext("between two names", "and"))
        parts = re.compile(rf"{_APART_COMMA_OR_DASH}|\s+(?:and|{word})\s+", re.IGNORECASE)
        pairs: set[tuple[int, int]] = set()
        problems: list[forms.ValidationError] = []

        def refuse(number: int, problem: str, code: str) -> None:
            problems.append(
                forms.ValidationError(
                    _("Line %(number)s: %(problem)s"),
                    code=code,
                    params={"number": number, "problem": problem},
                )
            )

        for number, line in enumerate(self.cleaned_data["apart"].splitlines(), start=1):
            if not line.strip():
                continue
            names = [part for part in parts.split(line.strip()) if part.strip()]
            if len(names) != 2:
                refuse(number, _("name two players, as in the example."), "pair")
                continue
            try:
                names = [normalise_name(name) for name in names]
            except InvalidName as exc:
                refuse(number, exc.message, exc.code)
                continue
            players = [by_key.get(name_key(name)) for name in names]
            unknown = [name for name, player in zip(names, players, strict=True) if player is None]
            if unknown:
                refuse(
                    number,
                    _("%(name)s is not entered in this tournament.") % {"name": unknown[0]},
                    "unknown",
                )
            elif players[0] == players[1]:
                refuse(number, _("%(name)s is named twice.") % {"name": names[0]}, "twice")
            else:
                pairs.add((min(players), max(players)))
        if problems:
            raise forms.ValidationError(problems)
        if len(pairs) > APART_MAX:
            raise forms.ValidationError(
                _("At most %(max)s pairs can be kept apart."),
                code="too_many",
                params={"max": APART_MAX},
            )
        return [list(pair) for pair in sorted(pairs)]

    def clean(self) -> dict:
        data = super().clean()
        keys = [data.get(field) for field in TIE_BREAK_FIELDS]
        seen: set[str] = set()
        for field, key in zip(TIE_BREAK_FIELDS, keys, strict=True):
            if not key:
                continue
            if key in seen:
                self.add_error(field, _("Each tie-break can be chosen once."))
            seen.add(key)
        data["tie_breaks"] = [key for key in keys if key]
        preset = data.get("caps_preset") or CUSTOM_CAPS
        text = CAPS_PRESETS.get(preset) or data.get("caps") or ""
        data["caps"] = []
        if text.strip():
            try:
                data["caps"] = caps_from_text(text)
            except TournamentServiceError as exc:
                exc.add_to_form(self)
        return data

    def settings(self) -> dict:
        """The cleaned settings, as tournament_create and tournament_update take them."""
        fields = {
            name: self.cleaned_data[name]
            for name in Tournament.SETTINGS
            if name not in ("rules", "apart")
        }
        if "apart" in self.fields:  # a new tournament has nobody to keep apart yet
            fields["apart"] = self.cleaned_data["apart"]
        if self.locked:
            fields.pop("deal_cap")
            fields.pop("tables")
        else:
            fields["rules"] = self.rules_form.rules
        return fields


def _team_field(**kwargs) -> NameField:
    return NameField(
        what=TEAM_NAME, label=_("Team"), required=False, max_length=TEAM_NAME_MAX, **kwargs
    )


class EntriesForm(forms.Form):
    """Players entered at once: picked from the roster (checkboxes), typed one a line (a new
    name joins the roster), or typed as teams, a line "Team: name, name, name".

    `entries()` gives each player with his team: a team line's team, else the `team` field
    (every player picked or typed alone), else none.
    """

    picked = forms.TypedMultipleChoiceField(
        label=_("From the roster"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    names = forms.CharField(
        label=_("Or type the players"),
        widget=forms.Textarea(attrs={"rows": 6}),
        max_length=20_000,
        required=False,
        help_text=_(
            'One name a line, or a team a line: "Team: name, name, name". Names not on '
            "the roster are added to it."
        ),
    )
    team = _team_field(help_text=_("Optional: the team of every player picked or typed alone."))

    def __init__(self, *args, roster: list[tuple[int, str]] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.roster = dict(roster)
        self.fields["picked"].choices = list(roster)
        self.fields["picked"].error_messages["invalid_choice"] = _(
            "A player picked is no longer on the roster, or is entered already: pick again."
        )

    def clean_names(self) -> list[tuple[str, str | None]]:
        """Each line's players with their team (None: the team field's), by the roster's
        rule for names (club.names) and the rule for team names; every line refused is
        said, by its number."""
        lines: list[tuple[str, str | None]] = []
        problems: list[forms.ValidationError] = []
        for number, line in enumerate(self.cleaned_data["names"].splitlines(), start=1):
            if not line.strip():
                continue
            try:
                lines += _entry_line(line)
            except InvalidName as exc:
                problems.append(
                    forms.ValidationError(
                        _("Line %(number)s: %(problem)s"),
                        code=exc.code,
                        params={"number": number, "problem": exc.message},
                    )
                )
        if problems:
            raise forms.ValidationError(problems)
        return lines

    def clean(self) -> dict:
        data = super().clean()
        if not self.errors and not data.get("picked") and not data.get("names"):
            raise forms.ValidationError(_("Name at least one player."), code="required")
        return data

    def entries(self) -> tuple[list[str], list[str]]:
        """The names to enter and each one's team (entries_add's `names` and `teams`)."""
        data = self.cleaned_data
        team = data.get("team") or ""
        given = [(self.roster[pk], None) for pk in data.get("picked", ())]
        given += data.get("names", [])
        return [name for name, _t in given], [team if t is None else t for _n, t in given]


def _entry_line(line: str) -> list[tuple[str, str | None]]:
    """One line of the entry form: a name (team None), or "Team: name, name" (each name
    with that team; a team named with nobody after it is refused)."""
    if ":" not in line:
        return [(normalise_name(line), None)]
    team_text, members = line.split(":", 1)
    team = normalise_text(team_text, max_length=TEAM_NAME_MAX, what=TEAM_NAME, field="team")
    names = [normalise_name(name) for name in members.split(",") if name.strip()]
    if not names:
        raise InvalidName(
            str(_("The team %(team)s has nobody after its colon: name its players."))
            % {"team": team},
            code="empty",
        )
    return [(name, team) for name in names]


class TeamForm(forms.Form):
    team = _team_field()


class SubstituteForm(forms.Form):
    entry = forms.TypedChoiceField(label=_("Plays for"), coerce=int)
    name = NameField(
        what=_("The substitute's name"),
        label=_("Substitute"),
        max_length=NAME_MAX_LENGTH,
        help_text=_("A name of the roster, or a new one."),
        error_messages={"required": _("Name the substitute.")},
    )

    def __init__(self, *args, entries: list[Entry], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.entries = {entry.pk: entry for entry in entries}
        self.fields["entry"].choices = [(e.pk, e.player.name) for e in entries]
        self.fields["entry"].error_messages["required"] = _("Choose the player he plays for.")
        self.fields["entry"].error_messages["invalid_choice"] = _("Choose the player he plays for.")

    def clean_entry(self) -> Entry:
        return self.entries[self.cleaned_data["entry"]]


class PenaltyForm(forms.Form):
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    round = forms.TypedChoiceField(label=_("Round"), coerce=int)
    amount = IntegerField(
        label=_("Taken away"),
        min_value=-PENALTY_MAX,
        max_value=PENALTY_MAX,
        help_text=_("Negative to give back."),
    )
    unit = forms.ChoiceField(label=_("Unit"), choices=PenaltyUnit.choices)
    reason = NameField(
        what=PENALTY_REASON,
        label=_("Reason"),
        max_length=Penalty._meta.get_field("reason").max_length,
    )

    def __init__(self, *args, players: list[tuple[int, str]], rounds: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—"), *players]
        self.fields["round"].choices = [(n, str(n)) for n in rounds]
        if rounds:
            self.fields["round"].initial = rounds[-1]


class PublishForm(forms.Form):
    """Publishing a draft: when the round is planned to start (optional)."""

    starts_at = forms.DateTimeField(
        label=_("Planned start"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"],
        help_text=_("Shown on the round page, on find your table and on the projector."),
    )


class AddMinutesForm(forms.Form):
    """Minutes more for every running table of a round, or for one of them."""

    minutes = IntegerField(label=_("Minutes"), min_value=1, max_value=240, initial=5)
    table = IntegerField(label=_("Table"), required=False, min_value=1, max_value=SMALL_MAX)
