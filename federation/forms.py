"""Forms of the federation's core pages. They validate input; federation.services and
federation.persons do the writing (and check again)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from club import params
from club.forms import suggest_slug
from club.models import Club, Player
from club.names import NAME_MAX_LENGTH, NameField, name_key
from federation.models import Federation, OfficerRole, PersonLink
from federation.services import (
    ADDRESS_MAX_LENGTH,
    FEDERATION_NAME,
    FEDERATION_PLACE,
    SLUG_MAX,
)


class FederationCreateForm(forms.Form):
    name = NameField.of(Federation, "name", what=FEDERATION_NAME)
    slug = forms.CharField(
        label=_("Short name in links"),
        max_length=SLUG_MAX,
        required=False,
        help_text=_("Latin letters, digits and hyphens. Leave it empty to make it from the name."),
    )
    place = NameField.of(Federation, "place", what=FEDERATION_PLACE)

    def clean_slug(self) -> str:
        slug = (self.cleaned_data.get("slug") or "").strip().lower()
        if slug:
            return slug
        slug = suggest_slug(self.cleaned_data.get("name") or "")
        if not slug:
            raise forms.ValidationError(
                _("Choose a short name for the links (Latin letters, digits and hyphens).")
            )
        return slug


class OfficerAddForm(forms.Form):
    to = forms.CharField(
        label=_("Username or e-mail address"),
        max_length=ADDRESS_MAX_LENGTH,
        help_text=_("An account of the site: the officer signs up first."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    role = forms.ChoiceField(
        label=_("Role"), choices=OfficerRole.choices, initial=OfficerRole.JUDGE
    )


class OfficerRoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=OfficerRole.choices)


class ClubInviteForm(forms.Form):
    club = forms.CharField(
        label=_("The club's short name"),
        max_length=200,
        help_text=_("As in the club's link: /c/<short name>/. Its owner accepts or declines."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class MemberActionForm(forms.Form):
    action = forms.ChoiceField(
        choices=[
            ("accept", _("Accept")),
            ("decline", _("Decline")),
            ("withdraw", _("Withdraw")),
            ("end", _("End the membership")),
            ("leave", _("Leave")),
        ],
        error_messages={"required": _("Choose what to do.")},
    )


class PersonSearchForm(forms.Form):
    q = forms.CharField(label=_("Name"), max_length=NAME_MAX_LENGTH, required=False)


class ProposeForm(forms.Form):
    """ "This roster name is this person": the name's club and the name as on its roster."""

    club = params.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), empty_label=None)
    name = forms.CharField(label=_("Roster name"), max_length=NAME_MAX_LENGTH)

    def __init__(self, *args, clubs, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs

    def clean(self) -> dict:
        data = super().clean()
        club, name = data.get("club"), data.get("name")
        if club is not None and name:
            player = Player.objects.filter(club=club, name_key=name_key(name)).first()
            if player is None:
                self.add_error(
                    "name",
                    _("%(club)s has no roster name %(name)s.")
                    % {"club": club.name, "name": " ".join(name.split())[:NAME_MAX_LENGTH]},
                )
            data["player"] = player
        return data


class MergeForm(forms.Form):
    other = params.IntegerField(
        label=_("The other person's number"),
        min_value=1,
        help_text=_("The number on his page (No. …): his names are proposed as this person's."),
    )


class SplitForm(forms.Form):
    players = forms.TypedMultipleChoiceField(
        label=_("Roster names to split off"),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose the roster names to split off.")},
    )

    def __init__(self, *args, links: list[PersonLink], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.links = {link.player_id: link for link in links}
        self.fields["players"].choices = [
            (link.player_id, f"{link.player.name} ({link.player.club.name})") for link in links
        ]

    def clean_players(self) -> list[Player]:
        return [self.links[pk].player for pk in self.cleaned_data["players"]]


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[("confirm", _("Confirm")), ("refuse", _("Refuse")), ("withdraw", _("Withdraw"))],
        error_messages={"required": _("Confirm or refuse the proposal.")},
    )
