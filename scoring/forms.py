"""Forms: an evening, the conventions of a pulka or a club, a new table, and deal entry."""

from __future__ import annotations

import uuid

from django import forms
from django.core.validators import MaxValueValidator
from django.forms.utils import ErrorDict
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from club.names import NameField
from club.params import IntegerField, ModelChoiceField, int_param, parse_int
from scoring import engine
from scoring.formatting import SUIT_SYMBOLS, card_label
from scoring.messages import (
    INERT_REASONS,
    KIND_WORDS,
    PRESET_LABELS,
    PROBLEMS,
    engine_problem_text,
)
from scoring.models import Evening

# Labels for every engine option value, in the players' words; every value of the engine
# (engine.OPTION_CHOICES and the other tables of rules/conventions.md §B) has one.
OPTION_CHOICES: dict[str, list[tuple[str, str]]] = {
    "preset": [(preset, PRESET_LABELS[preset]) for preset in engine.PRESETS],
    "consolation": [
        (engine.CONSOLATION_WHISTERS, _("to the whisters (and the 4-player dealer)")),
        (engine.CONSOLATION_ALL_OPPONENTS, _("to every opponent, the passer too")),
        (engine.CONSOLATION_NONE, _("nobody writes consolation")),
    ],
    "consolation_amount": [
        (engine.CONSOLATION_AMOUNT_PRICE, _("the whist price of the game a trick")),
        (engine.CONSOLATION_AMOUNT_TEN, _("10 whists a trick, whatever the game")),
    ],
    "lone_whister": [
        (engine.LONE_WHISTER_GREEDY, _("greedy: the lone whister writes for all defensive tricks")),
        (engine.LONE_WHISTER_GENTLEMAN, _("gentleman: split with the passer")),
        (
            engine.LONE_WHISTER_GENTLEMAN_ON_SET,
            _("gentleman only when the declarer is set, else greedy"),
        ),
    ],
    "whist_penalty": [
        (engine.WHIST_PENALTY_FULL, _("responsible: full value per trick short")),
        (engine.WHIST_PENALTY_HALF, _("half-responsible: half value per trick short")),
    ],
    "duty1_rule": [
        (engine.DUTY1_SECOND, _("the second whister pays")),
        (engine.DUTY1_BOTH, _("both whisters pay")),
        (engine.DUTY1_SPLIT, _("the whisters split the penalty")),
    ],
    "half_whist_levels": [
        (",".join(str(level) for level in levels), label)
        for levels, label in zip(
            engine.HALF_WHIST_LEVELS,
            (_("at six and seven"), _("at six only"), _("never")),
            strict=True,
        )
    ],
    "raspasy_zero": [
        (engine.RASPASY_ZERO_MOUNTAIN, _("written off the mountain")),
        (engine.RASPASY_ZERO_POOL, _("written into the pool")),
        (engine.RASPASY_ZERO_MOUNTAIN_DOUBLE, _("written off the mountain twice")),
        (engine.RASPASY_ZERO_NONE, _("nothing is written")),
    ],
    "raspasy_zero_unit": [
        (engine.RASPASY_ZERO_UNIT_COST, _("the cost of the raspasy")),
        (engine.RASPASY_ZERO_UNIT_ONE, _("one point")),
    ],
    "raspasy_scoring": [
        (engine.RASPASY_SCORING_MOUNTAIN, _("in the mountain, for each trick")),
        (
            engine.RASPASY_SCORING_WHISTS,
            _("in whists: the fewest tricks write on the others' tricks"),
        ),
    ],
    "raspasy_progression_end": [
        (engine.PROGRESSION_END_RESET, _("starts again from the first step")),
        (engine.PROGRESSION_END_REPEAT_LAST, _("stays at the last step")),
    ],
    "help_exception": [
        (engine.HELP_EXCEPTION_WRITE_OFF, _("no help: the rest is written off the mountain")),
        (engine.HELP_EXCEPTION_SKIP_TO_NEXT, _("help goes to the next player")),
    ],
    "pool_point_value": [
        (str(value), label)
        for value, label in zip(
            engine.POOL_POINT_VALUES, (_("10 whists"), _("20 whists")), strict=True
        )
    ],
    "pool_end": [
        (engine.POOL_END_EACH, _("when every pool reaches the target (with help)")),
        (engine.POOL_END_SUM, _("when the pools add up to the target times the players")),
    ],
    "game_price_multiplier": [
        (str(value), label)
        for value, label in zip(
            engine.GAME_PRICE_MULTIPLIERS,
            (
                _("single: whists at the value of the game"),
                _("double: whists, remise and consolation at twice the value"),
            ),
            strict=True,
        )
    ],
    "whister_shortfall": [
        (engine.WHISTER_SHORTFALL_PAIR, _("at most the pair's shortfall")),
        (engine.WHISTER_SHORTFALL_OWN, _("his own share's shortfall")),
    ],
}


# An evening's venue and notes, as the messages of the one rule for names say them; the notes'
# column has no length of its own: this is what the form (and a backup) lets in.
EVENING_VENUE = _("The venue")
EVENING_NOTES = _("The notes")
EVENING_NOTES_MAX = 10_000


class EveningForm(forms.ModelForm):
    """An evening's date, venue and notes. The venue is one line; the notes keep their line
    breaks (a list of who brings what), but refuse invisible and direction characters like
    every name (club.names)."""

    venue = NameField.of(Evening, "venue", what=EVENING_VENUE)
    notes = NameField.of(
        Evening, "notes", what=EVENING_NOTES, max_length=EVENING_NOTES_MAX, multiline=True
    )

    class Meta:
        model = Evening
        fields = ["date", "venue", "notes", "self_entry"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        help_texts = {
            "self_entry": _(
                "Each table gets its own link and QR code: its players enter the deals on "
                "their phones, and another player of the table confirms each one."
            )
        }


def _choice(key: str, label: str, help_text: str = "") -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label, choices=OPTION_CHOICES[key], help_text=help_text, required=False
    )


def _flag(label: str, help_text: str = "") -> forms.BooleanField:
    return forms.BooleanField(label=label, help_text=help_text, required=False)


# The field an engine problem with the conventions is about, when the code says it.
RULES_PROBLEM_FIELDS = {
    "rules_pool_target": "pool_target",
    "rules_pool_target_max": "pool_target",
    "rules_raspasy_progression": "raspasy_progression",
    "rules_raspasy_step_max": "raspasy_progression",
    "rules_raspasy_steps_max": "raspasy_progression",
    "rules_raspasy_whist_rate": "raspasy_whist_rate",
    "rules_raspasy_whist_rate_max": "raspasy_whist_rate",
    "rules_game_price_multiplier": "game_price_multiplier",
    "rules_preset": "preset",
}
# Options shown as a choice of words whose engine value is a number or a list.
_NUMBER_CHOICES = ("pool_point_value", "game_price_multiplier")


def _steps(raw: str) -> list[int | None]:
    parts = [p for p in raw.replace(";", ",").replace(" ", ",").split(",") if p]
    return [parse_int(p) for p in parts]


class RulesForm(forms.Form):
    """Every option of the rule book (sochi.md §14, conventions.md §B), after the named
    convention they start from (preset), shown with the current values and adjustable.

    Choosing a convention fills in every option: the form is then re-rendered with the
    preset's values (`APPLY` in the data: htmx sends it when the choice changes, a button
    without JavaScript), keeping the pool target. Options that change nothing under the
    other choices (engine.inert_options) are shown disabled with the reason; their values
    travel in hidden inputs, so that they are kept as they were.
    """

    APPLY = "apply_preset"

    preset = _choice("preset", _("Convention"))
    pool_target = IntegerField(
        label=_("Pool target"), min_value=1, max_value=engine.POOL_TARGET_MAX
    )
    pool_end = _choice("pool_end", _("The pulka ends"))
    pool_point_value = _choice("pool_point_value", _("A pool point counts"))
    help = _flag(_("Help: a closed pool helps the largest open pool"))
    help_exception = _choice("help_exception", _("If that player was set on whist"))
    help_excludes_talon_sitter = _flag(_("No help to the 4-player dealer"))
    game_price_multiplier = _choice("game_price_multiplier", _("Price of the game in whists"))
    consolation = _choice("consolation", _("Consolation when the declarer is set"))
    consolation_amount = _choice("consolation_amount", _("Consolation a trick short"))
    lone_whister = _choice("lone_whister", _("Lone whister"))
    whist_penalty = _choice("whist_penalty", _("Whister set"))
    whister_shortfall = _choice("whister_shortfall", _("Two whisters at six or seven pay for"))
    duty1_rule = _choice("duty1_rule", _("Eight to ten, two whisters with no trick"))
    personal_quota = _flag(_("Each whister must take his own share"))
    ten_checked = _flag(_("Ten is checked, not whisted"))
    half_whist_levels = _choice("half_whist_levels", _("Half-whist"))
    quick_tricks = _flag(_("Quick tricks in the talon are paid"))
    raspasy_scoring = _choice("raspasy_scoring", _("Raspasy are scored"))
    raspasy_whist_rate = IntegerField(
        label=_("Raspasy whists a trick"),
        min_value=1,
        max_value=engine.RASPASY_WHIST_RATE_MAX,
        required=False,
    )
    raspasy_amnesty = _flag(_("Raspasy amnesty (the fewest tricks write nothing)"))
    raspasy_zero = _choice("raspasy_zero", _("Raspasy with no trick: the cost is"))
    raspasy_zero_unit = _choice("raspasy_zero_unit", _("Raspasy with no trick: the amount is"))
    raspasy_progression = forms.CharField(
        label=_("Raspasy progression"),
        required=False,
        help_text=_("Costs of raspasy in a row, e.g. 1, 2, 3. Empty: every raspasy costs 1."),
    )
    raspasy_progression_end = _choice(
        "raspasy_progression_end", _("After the last step the progression")
    )
    exit_only_by_made_game = _flag(_("Only a made game ends a raspasy series"))
    exit_by_unplayed_game = _flag(_("A game nobody whisted ends a raspasy series"))
    exit_by_misere = _flag(_("A misère ends a raspasy series"))
    mountain_floor_zero = _flag(_("A mountain never goes below zero"))

    def __init__(self, data=None, *args, rules: dict | None = None, **kwargs) -> None:
        prefix = kwargs.get("prefix")
        apply_key = f"{prefix}-{self.APPLY}" if prefix else self.APPLY
        # Choosing a convention: the form starts again from the preset's values.
        self.applied = data is not None and apply_key in data
        if rules is not None and "initial" not in kwargs:
            kwargs["initial"] = self.initial_from(rules)
        if self.applied:
            base = kwargs.get("initial") or self.initial_from({})
            preset = data.get(f"{prefix}-preset" if prefix else "preset")
            if preset not in engine.PRESETS:
                preset = base["preset"]
            target = int_param(
                data.get(f"{prefix}-pool_target" if prefix else "pool_target"),
                low=1,
                high=engine.POOL_TARGET_MAX,
            )
            chosen = engine.preset_rules(preset, pool_target=target or base["pool_target"])
            kwargs["initial"] = self.initial_from(engine.rules_to_dict(chosen))
            data = None
        super().__init__(data, *args, **kwargs)
        self.current = self._current()
        self.inert = engine.inert_options(self.current)
        for key in self.inert:
            self.fields[key].widget.attrs["disabled"] = True

    @staticmethod
    def initial_from(rules: dict) -> dict:
        resolved = engine.rules_to_dict(engine.rules_from_dict(rules))
        initial = dict(resolved)
        initial["half_whist_levels"] = ",".join(str(x) for x in resolved["half_whist_levels"])
        initial["raspasy_progression"] = ", ".join(str(x) for x in resolved["raspasy_progression"])
        for key in _NUMBER_CHOICES:
            initial[key] = str(resolved[key])
        return initial

    def _raw(self, key: str):
        """The posted value of a field as the form reads it (before validation)."""
        field = self.fields[key]
        return field.widget.value_from_datadict(self.data, self.files, self.add_prefix(key))

    def _current(self) -> engine.Rules:
        """The rules as the form now shows them: posted (where a value makes sense) or
        initial; what the disabled options and the summary are worked out from."""
        start = engine.rules_from_dict(self._initial_rules())
        if not self.is_bound:
            return start
        values = engine.rules_to_dict(start)
        for key in engine.RULE_KEYS:
            raw = self._raw(key)
            if isinstance(values[key], bool):
                values[key] = bool(raw)
            elif key in _NUMBER_CHOICES or key in ("pool_target", "raspasy_whist_rate"):
                number = parse_int(raw) if isinstance(raw, str) else None
                if number is not None:
                    values[key] = number
            elif key == "half_whist_levels":
                if raw in dict(OPTION_CHOICES[key]):
                    values[key] = [int(x) for x in raw.split(",") if x]
            elif key == "raspasy_progression":
                steps = _steps(raw or "")
                if None not in steps:
                    values[key] = steps
            elif key in OPTION_CHOICES and raw in dict(OPTION_CHOICES[key]):
                values[key] = raw
        try:
            return engine.rules_from_dict(values)
        except engine.PulkaError:
            # Some value is out of bounds: its error is said when the form is sent.
            return start

    def _initial_rules(self) -> dict:
        rules = dict(self.initial) if self.initial else {}
        if not rules:
            return {}
        rules["half_whist_levels"] = [
            int(x) for x in str(rules.get("half_whist_levels", "")).split(",") if x
        ]
        rules["raspasy_progression"] = [
            step for step in _steps(str(rules.get("raspasy_progression", ""))) if step
        ]
        for key in _NUMBER_CHOICES:
            if key in rules:
                rules[key] = int(rules[key])
        return {k: v for k, v in rules.items() if k in engine.RULE_KEYS}

    def option_rows(self) -> list[dict]:
        """The options as the template lays them out: each bound field, and for an option
        with no effect the reason and the value its hidden input keeps."""
        rows = []
        for bound in self:
            reason = self.inert.get(bound.name)
            hidden = None
            if reason is not None:
                value = bound.value()
                if isinstance(bound.field, forms.BooleanField):
                    hidden = "on" if value else None
                else:
                    hidden = "" if value is None else str(value)
            rows.append(
                {
                    "field": bound,
                    "inert": INERT_REASONS[reason] if reason else None,
                    "hidden": hidden,
                }
            )
        return rows

    def summary(self) -> str:
        """The convention in a line, "Leningrad (Piter), with changes: …" (the options that
        count and differ from the preset's)."""
        return convention_summary(self.current)

    def clean_raspasy_progression(self) -> list[int]:
        """The steps as numbers; how many and how large they may be is the engine's word."""
        steps = _steps(self.cleaned_data.get("raspasy_progression") or "")
        if any(step is None or step <= 0 for step in steps):
            raise forms.ValidationError(
                _("Write the raspasy costs as whole numbers above zero, e.g. 1, 2, 3.")
            )
        return steps

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        defaults = engine.rules_to_dict(engine.Rules())
        rules = {}
        for key, default in defaults.items():
            value = cleaned.get(key)
            if key == "half_whist_levels":
                value = [int(x) for x in (value or "").split(",") if x]
            elif key in _NUMBER_CHOICES:
                value = int(value or default)
            elif key == "raspasy_whist_rate" and value is None:
                value = self.current.raspasy_whist_rate
            elif isinstance(default, str) and not value:
                value = self.current_value(key, default)
            rules[key] = value
        try:
            self.rules = engine.rules_to_dict(engine.rules_from_dict(rules))
        except engine.PulkaError as exc:
            field = RULES_PROBLEM_FIELDS.get(exc.code, exc.params.get("key"))
            self.add_error(field if field in self.fields else None, engine_problem_text(exc))
        return cleaned

    def current_value(self, key: str, default):
        """An option sent empty keeps the value the form was opened with."""
        return self.initial.get(key) or default


def option_words(key: str, value) -> str:
    """One option's value in the players' words ("20 whists", "yes", "2, 4, 6")."""
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if key == "half_whist_levels":
        value = ",".join(str(x) for x in value)
    elif key == "raspasy_progression":
        return ", ".join(str(x) for x in value) if value else str(_("none: every raspasy costs 1"))
    if key in OPTION_CHOICES:
        return str(dict(OPTION_CHOICES[key]).get(str(value), value))
    return str(value)


def option_changes(rules: engine.Rules, base: engine.Rules | None = None) -> list[dict]:
    """The options of `rules` that count and differ from `base` (default: their preset),
    each as {key, label, value} in words (engine.options_changed)."""
    return [
        {
            "key": key,
            "label": str(RulesForm.base_fields[key].label),
            "value": option_words(key, getattr(rules, key)),
        }
        for key in engine.options_changed(rules, base)
    ]


def convention_description(rules: engine.Rules, players: int) -> dict:
    """The conventions of a table in words: the convention (with its changes), how the
    pulka ends, and every option that counts and differs from Sochi (the rules page)."""
    target = rules.pool_target
    if rules.pool_end == engine.POOL_END_SUM:
        end = _(
            "The pulka ends when the pools add up to %(total)s (%(target)s a player); "
            "a pool may pass %(target)s."
        ) % {"total": players * target, "target": target}
    else:
        end = _("The pulka ends when every pool reaches %(target)s.") % {"target": target}
    return {
        "name": str(PRESET_LABELS[rules.preset]),
        "summary": convention_summary(rules),
        "end": end,
        "from_sochi": option_changes(rules, engine.Rules()),
    }


def convention_summary(rules: engine.Rules) -> str:
    """The convention in a line: "Leningrad (Piter)", or "Leningrad (Piter), with changes:
    Lone whister — greedy …; Quick tricks … — yes"."""
    name = str(PRESET_LABELS[rules.preset])
    changes = option_changes(rules)
    if not changes:
        return name
    listed = "; ".join(
        _("%(option)s — %(value)s") % {"option": c["label"], "value": c["value"]} for c in changes
    )
    return _("%(convention)s, with changes: %(changes)s") % {
        "convention": name,
        "changes": listed,
    }


class PulkaCreateForm(forms.Form):
    """A new table: 3 or 4 players in clockwise order, the first dealer, the conventions."""

    SEATS = 4

    first_dealer = forms.TypedChoiceField(
        label=_("Deals first"),
        coerce=int,
        choices=[(i, str(i + 1)) for i in range(SEATS)],
        initial=0,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        players = club.players.filter(is_active=True).order_by("sort_key", "pk")
        for i in range(self.SEATS):
            self.fields[f"seat_{i}"] = ModelChoiceField(
                label=_("Seat %(n)s") % {"n": i + 1},
                queryset=players,
                required=i < 3,
                empty_label=_("(nobody: 3 players)") if i == 3 else "—",
            )
        data = args[0] if args else kwargs.get("data")
        self.rules_form = RulesForm(data, prefix="rules", rules=club.default_rules())

    def full_clean(self) -> None:
        if self.rules_form.applied:
            # A convention was chosen (without JavaScript): the form is shown again with
            # its options filled in, and nothing is checked yet.
            self._errors = ErrorDict()
            self.cleaned_data = {}
            return
        super().full_clean()

    def seat_fields(self) -> list[tuple[forms.BoundField, int]]:
        return [(self[f"seat_{i}"], i) for i in range(self.SEATS)]

    def is_valid(self) -> bool:
        return super().is_valid() & self.rules_form.is_valid()

    def clean(self) -> dict:
        cleaned = super().clean()
        seats = [cleaned.get(f"seat_{i}") for i in range(self.SEATS)]
        if any(f"seat_{i}" in self.errors for i in range(self.SEATS)):
            return cleaned
        players = [p for p in seats if p is not None]
        if seats[3] is not None and None in seats[:3]:
            raise forms.ValidationError(_("Fill the seats in order: 3 or 4 players."))
        if len({p.pk for p in players}) != len(players):
            raise forms.ValidationError(_("Each player can take only one seat."))
        dealer = cleaned.get("first_dealer")
        if dealer is not None and dealer >= len(players):
            self.add_error("first_dealer", _("The first dealer must sit at the table."))
        cleaned["players"] = players
        return cleaned


SUIT_CHOICES = [*SUIT_SYMBOLS.items(), (engine.NO_TRUMP, _("NT"))]
CALL_LABELS = {engine.WHIST: _("whist"), engine.PASS: _("pass"), engine.HALF: _("half-whist")}
# A card may be typed with the suit's letter or its symbol.
CARD_SUITS = {
    **{suit: suit for suit in engine.CARD_SUITS},
    **{v: k for k, v in SUIT_SYMBOLS.items()},
    **engine.CYRILLIC_SUITS,
}
CARD_RANKS = {
    **{rank: rank for rank in engine.RANKS},
    **engine.CYRILLIC_RANKS,
}


def talon_cards(raw: str) -> list[str] | None:
    """The talon as typed, in Latin ("AS 10H"), Cyrillic ("ТП 10Ч") or with suit signs, as
    pulka/1 cards; None when a word is not a card. Rank comes first, so "ТТ" is the ace of
    clubs and "ВТ" the jack of clubs."""
    cards = []
    for token in raw.upper().replace(",", " ").split():
        suit = CARD_SUITS.get(token[-1:])
        rank = CARD_RANKS.get(token[:-1])
        if suit is None or rank is None:
            return None
        cards.append(rank + suit)
    return cards


TALON_TRICKS_ERROR = _("The talon takes 0, 1 or 2 tricks.")
TALON_TRICKS_LABEL = pgettext_lazy("the dealer's tricks on raspasy at four", "talon (0–2)")


class DealForm(forms.Form):
    """The deal-entry form for one pulka: it knows the dealer and offers only valid choices.

    The form produces a pulka/1 deal object (`self.deal_data`); the rules themselves are
    checked by the engine when the service replays the pulka.
    """

    kind = forms.ChoiceField(
        label=_("Deal"),
        choices=list(KIND_WORDS.items()),
        widget=forms.RadioSelect,
    )
    declarer = forms.TypedChoiceField(
        label=_("Declarer"), coerce=int, required=False, widget=forms.RadioSelect
    )
    level = forms.TypedChoiceField(
        label=_("Level"),
        coerce=int,
        choices=[(n, str(n)) for n in engine.LEVELS],
        required=False,
        widget=forms.RadioSelect,
    )
    suit = forms.ChoiceField(
        label=_("Suit"), choices=SUIT_CHOICES, required=False, widget=forms.RadioSelect
    )
    quick_tricks = forms.TypedChoiceField(
        label=_("Quick tricks in the talon"),
        coerce=int,
        choices=[(n, str(n)) for n in range(4)],
        required=False,
        widget=forms.RadioSelect,
    )
    talon = forms.CharField(
        label=_("Talon cards"),
        required=False,
        max_length=16,
        help_text=_(
            "Instead of the count: the two cards, e.g. AS KS or 10H QH (or ТП КП, 10Ч ДЧ)."
        ),
    )
    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int)
    rotation_dealer = forms.TypedChoiceField(coerce=int, widget=forms.HiddenInput)
    # A correction: the version of the deal as the secretary saw it.
    version = IntegerField(
        required=False, min_value=0, max_value=2_147_483_647, widget=forms.HiddenInput
    )
    # A new deal: the number it was rendered for and the form's one-time key, so that the
    # same form posted twice records one deal (scoring.services.deal_record).
    number = IntegerField(
        required=False, min_value=1, max_value=2_147_483_647, widget=forms.HiddenInput
    )
    entry_key = forms.UUIDField(required=False, widget=forms.HiddenInput)
    # A judge's correction of a locked pulka: why (scoring.services checks it is given).
    reason = forms.CharField(
        label=_("Reason for the judge's correction"), required=False, max_length=500
    )

    @classmethod
    def next_entry(
        cls, names: list[str], sheet: engine.Sheet, refresh_url: str, data=None
    ) -> DealForm:
        """The entry form of the pulka's next deal: it carries that deal's number and a
        one-time key, made now, so that posting it twice records the deal once."""
        return cls(
            data,
            names=names,
            rules=sheet.rules,
            rotation_dealer=names.index(sheet.next_dealer),
            refresh_url=refresh_url,
            initial={"number": len(sheet.snapshots) + 1, "entry_key": uuid.uuid4()},
            entry=True,
        )

    @classmethod
    def posted_entry(cls, data, pulka, names: list[str], refresh_url: str) -> DealForm:
        """An entry form as posted: it carries its own number, key and rotation dealer, and
        the service replays the pulka, so no sheet is computed to read it."""
        return cls(
            data,
            names=names,
            rules=pulka.engine_rules(),
            rotation_dealer=pulka.first_dealer,
            refresh_url=refresh_url,
            entry=True,
        )

    def __init__(
        self,
        data=None,
        *,
        names: list[str],
        rules: engine.Rules,
        rotation_dealer: int,
        refresh_url: str,
        initial: dict | None = None,
        entry: bool = False,
    ) -> None:
        self.names = names
        # The form of a new deal, which must carry its number and key.
        self.entry = entry
        self.n = len(names)
        self.rules = rules
        seats = [(i, name) for i, name in enumerate(names)]
        base = {
            "kind": engine.GAME,
            "level": engine.LEVELS[0],
            "suit": engine.SPADES,
            "quick_tricks": 0,
            "dealer": rotation_dealer,
            "rotation_dealer": rotation_dealer,
        }
        super().__init__(data, initial={**base, **(initial or {})})
        # The entry form is re-rendered from this URL (htmx) when a choice changes its shape.
        self.refresh_url = refresh_url
        self.fields["dealer"].choices = seats
        self.fields["rotation_dealer"].choices = seats
        self.fields["declarer"].choices = seats
        for i, name in seats:
            self.fields[f"call_{i}"] = forms.ChoiceField(
                label=name,
                choices=list(CALL_LABELS.items()),
                required=False,
                widget=forms.RadioSelect,
            )
            self.fields[f"tricks_{i}"] = IntegerField(
                label=name,
                min_value=0,
                max_value=10,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 2}),
            )
        self.shape = self._shape()
        talon = self.shape["talon_seat"]
        if talon is not None:
            # At four, on raspasy the dealer's tricks are the talon's: its two cards win 0–2.
            self.fields[f"tricks_{talon}"] = IntegerField(
                label=TALON_TRICKS_LABEL,
                min_value=0,
                max_value=2,
                required=False,
                error_messages={
                    "min_value": TALON_TRICKS_ERROR,
                    "max_value": TALON_TRICKS_ERROR,
                    "invalid": TALON_TRICKS_ERROR,
                },
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 2}),
            )
            self.initial.setdefault(f"tricks_{talon}", 0)
            if self.is_bound and self.add_prefix(f"tricks_{talon}") not in self.data:
                # The field just appeared (raspasy chosen): it starts at 0, as on a new form.
                self.data = self.data.copy()
                self.data[self.add_prefix(f"tricks_{talon}")] = "0"
        self.fields["declarer"].choices = [(i, names[i]) for i in self.shape["active"]]
        if "declarer" not in self.initial or self.initial["declarer"] not in self.shape["active"]:
            self.initial["declarer"] = self.shape["first_hand"]
        for position, seat in enumerate(self.shape["defenders"]):
            self.initial.setdefault(f"call_{seat}", engine.WHIST if position == 0 else engine.PASS)
            choices = [engine.WHIST, engine.PASS]
            if position == 1 and self.shape["half_allowed"]:
                choices.append(engine.HALF)
            self.fields[f"call_{seat}"].choices = [(c, CALL_LABELS[c]) for c in choices]

    # -- what the form looks like for the current choices --------------------------------

    def _value(self, name: str):
        """The current value of a field: posted (even if invalid) or initial."""
        if self.is_bound:
            raw = self.data.get(self.add_prefix(name))
            if raw in (None, ""):
                return None
            return raw
        value = self.initial.get(name)
        return None if value is None else str(value)

    def _seat(self, name: str, default: int) -> int:
        seat = int_param(self._value(name), low=0, high=self.n - 1)
        return default if seat is None else seat

    def _shape(self) -> dict:
        """Which fields this deal needs, for the choices made so far (the engine decides)."""
        n, names = self.n, self.names
        rotation = self._seat("rotation_dealer", int(self.initial["rotation_dealer"]))
        dealer = self._seat("dealer", rotation)
        first_hand = (dealer + 1) % n
        kind = self._value("kind") or engine.GAME
        if kind not in engine.KINDS:
            kind = engine.GAME
        declarer = self._seat("declarer", first_hand)
        level_raw = self._value("level")
        level = int(level_raw) if level_raw in {str(n) for n in engine.LEVELS} else engine.LEVELS[0]
        seat = {name: i for i, name in enumerate(names)}
        shape = engine.deal_shape(
            self.rules, names, names[dealer], engine.GAME, names[first_hand], level, {}
        )
        active = [seat[name] for name in shape.declarers]
        if declarer not in active:
            declarer = first_hand
        defenders = [
            seat[name] for name in engine.defenders_in_order(names, names[declarer], names[dealer])
        ]
        calls = {}
        for position, defender in enumerate(defenders):
            default = engine.WHIST if position == 0 else engine.PASS
            calls[names[defender]] = self._value(f"call_{defender}") or str(
                self.initial.get(f"call_{defender}") or default
            )
        shape = engine.deal_shape(
            self.rules, names, names[dealer], kind, names[declarer], level, calls
        )
        tricks = [seat[name] for name in shape.trick_players]
        return {
            "kind": kind,
            "dealer": dealer,
            "dealer_name": names[dealer],
            "rotation": rotation,
            "active": active,
            "first_hand": first_hand,
            "declarer": declarer,
            "level": level,
            "defenders": defenders,
            "half_allowed": shape.half_whist is not None,
            "played": shape.played,
            "tricks": tricks,
            # The seat whose tricks are the talon's (raspasy at four), if it is asked for.
            "talon_seat": (
                dealer if kind == engine.RASPASY and n == 4 and dealer in tricks else None
            ),
            # Asked for only when they count (a game, option quick_tricks).
            "quick_tricks": shape.quick_tricks,
        }

    def call_fields(self) -> list[forms.BoundField]:
        return [self[f"call_{seat}"] for seat in self.shape["defenders"]]

    def trick_fields(self) -> list[forms.BoundField]:
        return [self[f"tricks_{seat}"] for seat in self.shape["tricks"]]

    @property
    def talon_grid(self) -> list[tuple[str, str]]:
        """The 32 cards to tap on a phone instead of typing the talon: (code, label), by suit
        and rank (static/js/cards.js writes the codes into the talon field)."""
        cards = [f"{rank}{suit}" for suit in engine.CARD_SUITS for rank in engine.RANKS]
        return [(card, card_label(card)) for card in cards]

    # -- the same form on the device, offline (static/js/entry-form.js) ------------------

    def device_rules(self) -> dict:
        """The rules as static/js/entry-form.js reads them to shape the form on the device as
        `_shape()` does (tests/scoring/test_entry_form_js.py compares the two)."""
        rules = self.rules
        return {
            "players": self.n,
            "halfWhistLevels": list(rules.half_whist_levels),
            "raspasyInWhists": rules.raspasy_scoring == engine.RASPASY_SCORING_WHISTS,
            "quickTricks": rules.quick_tricks,
        }

    def device_data(self) -> dict:
        """What static/js/entry-form.js needs to reshape and check this form on the device:
        the rules, the names, the choices, and the form's words in the page's language (the
        same messages as `clean()`, the `deal_summary` filter and the template)."""
        max_tricks = MaxValueValidator(10)
        texts = {
            "deal": gettext("Deal %(number)s"),
            "dealer": gettext("dealer %(dealer)s"),
            "required": str(forms.Field.default_error_messages["required"]),
            "wholeNumber": str(IntegerField.default_error_messages["invalid"]),
            "atMostTen": str(max_tricks.message) % {"limit_value": max_tricks.limit_value},
            "talonTricksError": str(TALON_TRICKS_ERROR),
            "outdated": gettext(
                "This entry form is out of date: check the sheet and enter the deal again."
            ),
            "chooseDeclarer": gettext("Choose the declarer."),
            "chooseContract": gettext("Choose the contract: level and suit."),
            "whistOrPass": gettext("Did %(name)s whist or pass?"),
            "enterTricks": gettext("Enter the tricks of %(names)s."),
            "tooManyTricks": str(PROBLEMS["tricks_sum"]),
            "notACard": gettext(
                "%(card)s is not a card: write the rank and then the suit, "
                "e.g. AS or 10H, or in Cyrillic ТП (ace of spades) or 10Ч."
            ),
            "twoCards": gettext("The talon has exactly two cards."),
            # The words of the deal_summary filter (scoring/templatetags/pulka.py).
            "raspasy": gettext("Raspasy: %(tricks)s"),
            "misereTaken": gettext("%(declarer)s misère, %(tricks)s taken"),
            "misereClean": gettext("%(declarer)s misère, clean"),
            "tricks": {n: ngettext("%(n)s trick", "%(n)s tricks", n) % {"n": n} for n in range(11)},
            "notPlayed": gettext("not played"),
            "talon": gettext("talon %(cards)s"),
            "quickTricks": gettext("%(n)s quick tricks"),
            "noTrump": gettext("NT"),
        }
        if self.n == 4:
            texts["talonTricks"] = str(TALON_TRICKS_LABEL)
        return {
            "rules": self.device_rules(),
            "names": self.names,
            "choices": {
                "level": [[str(v), str(label)] for v, label in self.fields["level"].choices],
                "suit": [[v, str(label)] for v, label in SUIT_CHOICES],
                "call": {call: str(label) for call, label in CALL_LABELS.items()},
                "quick_tricks": [
                    [str(v), str(label)] for v, label in self.fields["quick_tricks"].choices
                ],
            },
            "cards": {
                "suits": CARD_SUITS,
                "ranks": CARD_RANKS,
                "labels": dict(self.talon_grid),
            },
            "texts": texts,
        }

    # -- validation ------------------------------------------------------------------------

    def clean_talon(self) -> list[str]:
        raw = (self.cleaned_data.get("talon") or "").upper().replace(",", " ")
        if not raw.strip():
            return []
        cards = []
        for token in raw.split():
            card = talon_cards(token)
            if card is None:
                raise forms.ValidationError(
                    _(
                        "%(card)s is not a card: write the rank and then the suit, "
                        "e.g. AS or 10H, or in Cyrillic ТП (ace of spades) or 10Ч."
                    )
                    % {"card": token}
                )
            cards.extend(card)
        if len(cards) != 2:
            raise forms.ValidationError(_("The talon has exactly two cards."))
        return cards

    def clean(self) -> dict:
        cleaned = super().clean()
        if any(
            name in self.errors for name in ("rotation_dealer", "version", "number", "entry_key")
        ):
            # Hidden fields show no errors of their own: say it where the secretary looks.
            self.add_error(
                None, _("This form is out of date: reload the page and enter the deal again.")
            )
        if self.errors:
            return cleaned
        if self.entry and (cleaned.get("number") is None or cleaned.get("entry_key") is None):
            # A page from before an update, or a hand-made post: its form cannot say which
            # deal it records, so a repeat of it could not be told from a new deal.
            raise forms.ValidationError(
                _("This entry form is out of date: check the sheet and enter the deal again."),
                code="outdated",
            )
        shape, names = self.shape, self.names
        kind = cleaned["kind"]
        data: dict = {"kind": kind}
        if kind != engine.RASPASY:
            declarer = cleaned.get("declarer")
            if declarer is None or declarer not in shape["active"]:
                self.add_error("declarer", _("Choose the declarer."))
                return cleaned
            data["declarer"] = names[declarer]
        if kind == engine.GAME:
            level, suit = cleaned.get("level"), cleaned.get("suit")
            if not level or not suit:
                self.add_error("level", _("Choose the contract: level and suit."))
                return cleaned
            data["contract"] = f"{level}{suit}"
            calls = {}
            for seat in shape["defenders"]:
                call = cleaned.get(f"call_{seat}")
                if not call:
                    self.add_error(
                        f"call_{seat}",
                        _("Did %(name)s whist or pass?") % {"name": names[seat]},
                    )
                    return cleaned
                calls[names[seat]] = call
            data["calls"] = calls
            if not shape["quick_tricks"]:
                pass
            elif cleaned.get("talon"):
                data["talon"] = cleaned["talon"]
            elif cleaned.get("quick_tricks"):
                data["quick_tricks"] = cleaned["quick_tricks"]
        if shape["tricks"]:
            tricks = {seat: cleaned.get(f"tricks_{seat}") for seat in shape["tricks"]}
            if shape["talon_seat"] is not None and tricks[shape["talon_seat"]] is None:
                tricks[shape["talon_seat"]] = 0  # the talon won nothing unless it says so
            blank = [seat for seat, t in tricks.items() if t is None]
            if kind == engine.MISERE and blank:
                tricks[blank[0]] = 0
            elif len(blank) == 1 and len(tricks) > 1:
                # One count left empty takes the rest of the ten tricks.
                typed = {seat: t for seat, t in tricks.items() if t is not None}
                rest = 10 - sum(typed.values())
                if rest < 0:
                    # Asking for the empty count would hide the mistake: the typed ones are
                    # already too many, so say so in the engine's words.
                    too_many = engine.PulkaError(
                        "tricks_sum",
                        players=tuple(names[seat] for seat in typed),
                        tricks=tuple(typed.values()),
                        total=10 - rest,
                        expected=10,
                    )
                    self.add_error(None, engine_problem_text(too_many))
                    return cleaned
                tricks[blank[0]] = rest
            missing = [names[seat] for seat, t in tricks.items() if t is None]
            if missing:
                self.add_error(
                    None,
                    _("Enter the tricks of %(names)s.") % {"names": ", ".join(missing)},
                )
                return cleaned
            data["tricks"] = {names[seat]: t for seat, t in tricks.items()}
        # Who dealt is a fact of the deal, stored with it (the rotation's, unless changed).
        data["dealer"] = names[cleaned["dealer"]]
        self.deal_data = data
        return cleaned


def deal_initial(data: dict, names: list[str], dealer: str) -> dict:
    """Initial values of a DealForm that shows an existing deal (pulka/1 object)."""
    seat = {name: i for i, name in enumerate(names)}
    initial: dict = {"kind": data["kind"], "dealer": seat[dealer]}
    if data.get("declarer"):
        initial["declarer"] = seat[data["declarer"]]
    contract = data.get("contract")
    if contract:
        level = engine.contract_level(contract)
        initial["level"], initial["suit"] = level, contract[len(str(level)) :]
    for name, call in (data.get("calls") or {}).items():
        initial[f"call_{seat[name]}"] = call
    for name, tricks in (data.get("tricks") or {}).items():
        initial[f"tricks_{seat[name]}"] = tricks
    if data.get("talon"):
        initial["talon"] = " ".join(data["talon"])
    initial["quick_tricks"] = data.get("quick_tricks") or 0
    return initial


class PulkaImportForm(forms.Form):
    file = forms.FileField(
        label=_("Pulka file"),
        help_text=_("A pulka/1 JSON file, at most 1 MB."),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
    )
