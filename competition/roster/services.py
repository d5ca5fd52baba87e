"""Merging two roster entries that are one person: the service, its form and its reads.

Here and not in club: a merge moves rows of every layer (scoring's seats and result caches,
competition's rating snapshots), and only the top layer may know them all. The duplicate's
rows move to the player kept, the duplicate is removed, a club.models.RosterMerge line keeps
the history, and the club is re-rated from the duplicate's first finished pulka.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Min, QuerySet
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.errors import ServiceError
from club.models import Club, Player, RosterMerge
from club.services import club_results_bump
from competition.rating import ratings
from scoring.models import Pulka, PulkaResultCache, Seat


class RosterMergeError(ServiceError):
    """A merge the roster's rules refuse; nothing was changed."""


# Reads


def merge_candidates(club: Club) -> QuerySet[Player]:
    """Every player of the club, taken off the roster or not, with how many pulkas he sat."""
    return (
        Player.objects.filter(club=club)
        .annotate(pulka_count=Count("seats"))
        .order_by("sort_key", "pk")
    )


# The service


SAME_ENTRY = gettext_lazy("Choose two different entries: one to keep, one to merge.")


def _shared_pulka(kept: Player, duplicate: Player) -> Pulka | None:
    """The first pulka both sat at: then they are two people, whatever their names."""
    return (
        Pulka.objects.filter(seats__player=kept)
        .filter(seats__player=duplicate)
        .select_related("evening")
        .order_by("evening__date", "table")
        .first()
    )


def _reverse_relations() -> list:
    """Every foreign key that points at a player, hidden ones (related_name="+") included.

    Read from the models rather than listed, so that a table added later (a tournament's
    entries) moves too instead of blocking the duplicate's removal.
    """
    return [
        field
        for field in Player._meta.get_fields(include_hidden=True)
        if field.is_relation and field.auto_created and not field.concrete and field.one_to_many
    ]


@transaction.atomic
def roster_merge(
    *, club: Club, kept: Player, duplicate: Player, merged_by: AbstractBaseUser | None
) -> RosterMerge:
    """Fold `duplicate` into `kept`: his seats, results, head-to-head rows and ratings become
    the kept player's, his user account too when the kept player has none; then he is
    removed and the club re-rated from his first finished pulka.

    Refused when the two are one player, are not both on this club's roster, sat at the
    same table, or each has a different user account.
    """
    if kept.pk == duplicate.pk:
        raise RosterMergeError(str(SAME_ENTRY))
    # The club row serialises roster changes (club.services locks it the same way).
    Club.objects.select_for_update().get(pk=club.pk)
    players = {
        player.pk: player
        for player in Player.objects.select_for_update().filter(
            club=club, pk__in=[kept.pk, duplicate.pk]
        )
    }
    if len(players) != 2:
        raise RosterMergeError(_("Both entries must be on this club's roster."))
    kept, duplicate = players[kept.pk], players[duplicate.pk]
    shared = _shared_pulka(kept, duplicate)
    if shared is not None:
        raise RosterMergeError(
            _(
                "%(kept)s and %(duplicate)s sat at the same table (%(pulka)s, %(date)s): "
                "they are two people and cannot be merged."
            )
            % {
                "kept": kept.name,
                "duplicate": duplicate.name,
                "pulka": str(shared),
                "date": date_format(shared.evening.date),
            }
        )
    if duplicate.user_id and kept.user_id and duplicate.user_id != kept.user_id:
        raise RosterMergeError(
            _(
                "%(kept)s and %(duplicate)s are linked to two user accounts: unlink one of "
                "them on its player page first."
            )
            % {"kept": kept.name, "duplicate": duplicate.name}
        )

    since = PulkaResultCache.objects.filter(player=duplicate).aggregate(first=Min("date"))["first"]
    pulka_ids = list(Seat.objects.filter(player=duplicate).values_list("pulka_id", flat=True))
    _move_rows(duplicate, kept)
    # Their pages show the kept name now: a new version makes open pages refresh.
    Pulka.objects.filter(pk__in=pulka_ids).update(version=F("version") + 1)
    if duplicate.user_id and not kept.user_id:
        user_id = duplicate.user_id
        duplicate.user = None  # one account per club: free it before the kept takes it
        duplicate.save(update_fields=["user"])
        kept.user_id = user_id
        kept.save(update_fields=["user"])
    merge = RosterMerge.objects.create(
        club=club,
        kept=kept,
        kept_name=kept.name,
        removed_name=duplicate.name,
        removed_id=duplicate.pk,
        pulkas=len(pulka_ids),
        merged_by=merged_by if merged_by is not None and merged_by.is_authenticated else None,
    )
    duplicate.delete()
    club_results_bump(club_id=club.pk)  # the league rankings cached under the old counter go
    if since is not None:
        ratings.ratings_update(club=club, since=since)
    return merge


def _move_rows(duplicate: Player, kept: Player) -> None:
    """Every other row that points at the duplicate now points at the kept player."""
    for relation in _reverse_relations():
        model, field = relation.related_model, relation.field.name
        try:
            with transaction.atomic():
                model._base_manager.filter(**{field: duplicate}).update(**{field: kept})
        except IntegrityError as exc:  # both in one row that allows a player once
            raise RosterMergeError(
                _("%(kept)s and %(duplicate)s both appear in the same %(what)s: they cannot merge.")
                % {"kept": kept.name, "duplicate": duplicate.name, "what": model._meta.verbose_name}
            ) from exc


# The form


class RosterMergeForm(forms.Form):
    kept = forms.ModelChoiceField(
        label=gettext_lazy("Keep"),
        queryset=Player.objects.none(),
        help_text=gettext_lazy("The entry that stays on the roster, with its name."),
    )
    duplicate = forms.ModelChoiceField(
        label=gettext_lazy("Merge into it"),
        queryset=Player.objects.none(),
        help_text=gettext_lazy(
            "The duplicate: its pulkas, results and ratings move to the entry kept, "
            "and it leaves the roster."
        ),
    )

    def __init__(self, *args, club: Club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        candidates = merge_candidates(club)
        for name in ("kept", "duplicate"):
            field = self.fields[name]
            field.queryset = candidates
            field.label_from_instance = _label

    def clean(self) -> dict:
        data = super().clean()
        kept, duplicate = data.get("kept"), data.get("duplicate")
        if kept is not None and kept == duplicate:
            self.add_error(
                "duplicate", _("Choose two different entries: one to keep, one to merge.")
            )
        return data


def _label(player: Player) -> str:
    """The name, with what tells two alike entries apart: pulkas played, off the roster."""
    count = getattr(player, "pulka_count", 0)
    label = _("%(name)s (pulkas: %(count)s)") % {"name": player.name, "count": count}
    if not player.is_active:
        label = _("%(label)s, taken off") % {"label": label}
    return label
