"""Forms of the club pages. They validate input; club.services does the writing."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from club import invitations, params, selectors
from club.models import WHIST_PRICE_MAX, Club, Membership, Player, Role
from club.names import NAME_MAX_LENGTH, InvalidName, NameField, normalise_name
from club.services import CLUB_CITY, CLUB_NAME, ROSTER_LIST_MAX

SLUG_MAX = Club._meta.get_field("slug").max_length

# Ukrainian national transliteration (2010), with the Russian-only letters, so that a
# Cyrillic club name suggests a readable Latin link.
_CYRILLIC = {
    "а": "a", "б": "b", "в": "v", "г": "h", "ґ": "g", "д": "d", "е": "e", "є": "ye",
    "ж": "zh", "з": "z", "и": "y", "і": "i", "ї": "yi", "й": "y", "к": "k", "л": "l",
    "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u",
    "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ь": "", "ю": "yu",
    "я": "ya", "ъ": "", "ы": "y", "э": "e", "ё": "yo",
}  # fmt: skip


def suggest_slug(name: str) -> str:
    """A link-safe short name made from a club name, e.g. "Клуб Сочі" -> "klub-sochi"."""
    latin = "".join(_CYRILLIC.get(ch, ch) for ch in name.lower())
    return slugify(latin)[:SLUG_MAX].strip("-")


def free_slug(base: str) -> str:
    """`base`, or `base-2`, `base-3`... whichever no club uses yet."""
    candidate, n = base, 1
    while selectors.slug_is_taken(candidate):
        n += 1
        suffix = f"-{n}"
        candidate = base[: SLUG_MAX - len(suffix)].rstrip("-") + suffix
    return candidate


def _club_name() -> NameField:
    return NameField.of(Club, "name", what=CLUB_NAME)


def _club_city() -> NameField:
    return NameField.of(Club, "city", what=CLUB_CITY)


class ClubCreateForm(forms.ModelForm):
    name = _club_name()
    city = _club_city()
    # The last suggestion shown, so that a new one replaces it but never a slug typed by hand.
    slug_suggested = forms.CharField(required=False, widget=forms.HiddenInput)

    class Meta:
        model = Club
        fields = ["name", "slug", "city", "is_public"]
        help_texts = {
            "slug": _(
                "Latin letters, digits and hyphens. Leave it empty to make it from the name."
            ),
        }
        error_messages = {
            "slug": {
                "unique": _("Another club already uses this link: choose another short name."),
                "invalid": _("Use only Latin letters, digits, hyphens and underscores."),
            },
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].widget.attrs["placeholder"] = _("made from the name")

    def clean_slug(self) -> str:
        slug = (self.cleaned_data.get("slug") or "").strip().lower()
        if slug:
            return slug
        name = self.cleaned_data.get("name") or ""
        base = suggest_slug(name)
        if not base:
            if name:
                raise forms.ValidationError(
                    _("Choose a short name for the links (Latin letters, digits and hyphens).")
                )
            return slug
        return free_slug(base)

    def suggestion(self) -> dict[str, str]:
        """For the live suggestion while the name is typed: the slug field's new value."""
        data = self.data
        name = data.get("name", "")
        typed = data.get("slug", "").strip()
        previous = data.get("slug_suggested", "")
        if typed and typed != previous:
            return {"slug": typed, "slug_suggested": previous}
        base = suggest_slug(name)
        suggested = free_slug(base) if base else ""
        return {"slug": suggested, "slug_suggested": suggested}


class PriceField(forms.DecimalField):
    """A price as people type it: a decimal comma or point, whatever the page's language
    ("1,50" and "1.50" are both one hryvnia fifty)."""

    def to_python(self, value):
        if isinstance(value, str):
            value = value.strip().replace(" ", "").replace("\u00a0", "").replace(",", ".")
        return super().to_python(value)


class ClubSettingsForm(forms.ModelForm):
    name = _club_name()
    city = _club_city()
    whist_price = PriceField(
        label=_("Price of a whist"),
        required=False,
        min_value=Decimal("0.01"),
        max_value=WHIST_PRICE_MAX,
        max_digits=7,
        decimal_places=2,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
        help_text=_(
            "What a whist is worth, e.g. 0,50. The sheets and evenings then show each "
            "player's amount and who pays whom. Leave it empty to play for whists only."
        ),
    )

    class Meta:
        model = Club
        fields = ["name", "city", "is_public", "whist_price", "currency"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Optional in the post: a form without it (an older page) keeps the club's currency.
        self.fields["currency"].required = False

    def clean_currency(self) -> str:
        return self.cleaned_data.get("currency") or self.instance.currency


class MemberAddForm(forms.Form):
    """Invite one person by his username or address: he becomes a member when he accepts."""

    to = forms.CharField(
        label=_("Username or e-mail address"),
        max_length=254,
        help_text=_(
            "They find the invitation on their home page, and by mail where they have an "
            "address, and join when they accept it."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.PLAYER)


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class PlayerAddForm(forms.Form):
    """One name or a pasted list, one a line (club.services.players_add says what is done
    with the names already on the roster). Every line goes through the roster's rule for
    names; a line it refuses is said by its number, and then nothing is added."""

    name = forms.CharField(
        label=_("Names, one a line"),
        max_length=ROSTER_LIST_MAX * (NAME_MAX_LENGTH + 2),
        widget=forms.Textarea(attrs={"rows": 4, "autocomplete": "off"}),
        help_text=_(
            "Paste a list to add several players at once. Names already on the roster are "
            "left as they are."
        ),
        error_messages={"required": _("Write the player's name.")},
    )

    def clean_name(self) -> list[str]:
        lines = [
            (number, line)
            for number, line in enumerate(self.cleaned_data["name"].splitlines(), start=1)
            if line.strip()
        ]
        if not lines:
            raise forms.ValidationError(_("Write the player's name."), code="empty")
        if len(lines) > ROSTER_LIST_MAX:
            raise forms.ValidationError(
                _("At most %(max)s names at once: this list has %(count)s. Add it in parts."),
                code="too_many",
                params={"max": ROSTER_LIST_MAX, "count": len(lines)},
            )
        names: list[str] = []
        problems: list[forms.ValidationError] = []
        for number, line in lines:
            try:
                names.append(normalise_name(line))
            except InvalidName as exc:
                if len(lines) == 1:
                    raise forms.ValidationError(exc.message, code=exc.code) from exc
                problems.append(
                    forms.ValidationError(
                        _("Line %(number)s: %(problem)s"),
                        code=exc.code,
                        params={"number": number, "problem": exc.message},
                    )
                )
        if problems:
            raise forms.ValidationError(problems)
        return names


class PlayerEditForm(forms.Form):
    """A roster name: rename it, take it off the roster, unlink its account, or (the owner)
    invite the person it names to take it, a member picked from the list or anybody by the
    address he logs in with: nobody is linked to a name without accepting."""

    name = forms.CharField(label=_("Name"), max_length=Player._meta.get_field("name").max_length)
    unlink = forms.BooleanField(label=_("Unlink the account"), required=False)
    member = forms.TypedChoiceField(
        label=_("Invite a member to this name"),
        coerce=int,
        required=False,
        empty_value=None,
        help_text=_("The club's members who have no name on the roster yet."),
    )
    invite = forms.CharField(
        label=_("Or invite by e-mail address or username"),
        max_length=254,
        required=False,
        help_text=_("The account is linked to the name when its owner accepts the invitation."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    is_active = forms.BooleanField(label=_("On the roster"), required=False)

    def __init__(
        self,
        *args,
        can_invite: bool = False,
        linked: bool = False,
        members: list[Membership] = (),
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.members = {member.pk: member for member in members}
        if not can_invite or linked:
            del self.fields["invite"]
        if not can_invite or linked or not self.members:
            del self.fields["member"]
        else:
            self.fields["member"].choices = [
                ("", _("nobody yet")),
                *((pk, selectors.member_shown_name(m.user)) for pk, m in self.members.items()),
            ]
        if not linked:
            del self.fields["unlink"]

    @classmethod
    def for_player(cls, player: Player, data=None, *, can_invite: bool = False) -> PlayerEditForm:
        initial = {"name": player.name, "is_active": player.is_active}
        linked = player.user_id is not None
        members = selectors.unlinked_members(player.club) if can_invite and not linked else []
        return cls(data, initial=initial, can_invite=can_invite, linked=linked, members=members)

    def clean_member(self) -> Membership | None:
        pk = self.cleaned_data.get("member")
        return None if pk is None else self.members[pk]

    def clean(self) -> dict:
        data = super().clean()
        if data.get("member") is not None and (data.get("invite") or "").strip():
            self.add_error(
                "invite",
                _("Pick a member or type an address, not both: one person is invited."),
            )
        return data


# Invitations and roster names


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.PLAYER)
    player = params.ModelChoiceField(
        label=_("For the roster name"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("anyone (no roster name)"),
        help_text=_("Accepting the link links his account to this name."),
    )
    valid_days = params.IntegerField(
        label=_("Valid for (days)"),
        min_value=1,
        max_value=invitations.MAX_VALID_DAYS,
        initial=invitations.DEFAULT_VALID_DAYS,
    )
    max_uses = params.IntegerField(
        label=_("How many people may use it"),
        min_value=1,
        max_value=invitations.MAX_USES,
        initial=1,
        help_text=_("1 for one person; more for a link the whole club may join by."),
    )

    def __init__(self, *args, club: Club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = selectors.unclaimed_players(club)


class NameClaimForm(forms.Form):
    player = params.ModelChoiceField(
        label=_("Your name on the roster"),
        queryset=Player.objects.none(),
        empty_label=None,
    )

    def __init__(self, *args, club: Club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = selectors.unclaimed_players(club)


class ClaimDecisionForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[("approve", _("Approve")), ("decline", _("Decline"))],
        error_messages={"required": _("Approve or decline the request.")},
    )
