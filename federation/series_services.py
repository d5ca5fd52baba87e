"""Changing a series: its settings, its stages, and the final's entries made from its field.

Every function takes keyword arguments, locks the series row, checks what the rules refuse
(a SeriesError in the user's words) and changes nothing when it refuses.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.errors import ServiceError
from club.names import InvalidName, normalise_text
from competition.models import Entry, Tournament
from competition.tournament import services as tournament_services
from federation import persons, series_selectors
from federation import series as core
from federation.models import (
    POINTS_MAX_PLACES,
    Federation,
    ImportedResult,
    MemberClub,
    MemberState,
    Person,
    Series,
    Stage,
)

SERIES_NAME = gettext_lazy("The series' name")
SEASON = gettext_lazy("The season")
NAME_MAX = Series._meta.get_field("name").max_length
SEASON_MAX = Series._meta.get_field("season").max_length
#: The most finalists one list may name (the columns' validators say the same).
FINALISTS_MAX = 500
#: Entries given to the tournaments' service at once (it takes at most 400).
ENTRIES_AT_ONCE = 400


class SeriesError(ServiceError):
    pass


def problem_text(problem: core.SeriesProblem) -> str:
    """The user's words for what federation.series refuses."""
    texts = {
        "points_empty": _("Write the points of each place, e.g. 100, 80, 65, 55."),
        "points_too_many": _("At most %(max)s places can score points."),
        "points_not_number": _(
            "Place %(place)s: “%(text)s” is not a whole number from 0 to %(max)s."
        ),
        "points_increase": _(
            "Place %(place)s scores more than the place before it (%(after)s after %(before)s)."
        ),
        "points_all_zero": _("At least the first place must score points."),
    }
    return texts[problem.code] % problem.params


def points_checked(text: str) -> list[int]:
    try:
        return list(core.points_from_text(text, max_places=POINTS_MAX_PLACES))
    except core.SeriesProblem as problem:
        raise SeriesError(problem_text(problem), field="points") from problem


def _text(value: str, *, max_length: int, what: str, field: str, required: bool) -> str:
    try:
        return normalise_text(
            value, max_length=max_length, what=what, required=required, field=field
        )
    except InvalidName as exc:
        raise SeriesError(exc.message, field=field) from exc


def _is_member(federation: Federation, club_id: int) -> bool:
    return MemberClub.objects.filter(
        federation=federation, club_id=club_id, state=MemberState.MEMBER
    ).exists()


def _checked(federation: Federation, current: Series | None, fields: dict) -> dict:
    """The settings as stored, or a SeriesError naming the first field refused."""
    points = fields["points"]
    if not isinstance(points, list | tuple):
        raise SeriesError(_("Write the points of each place."), field="points")
    points = points_checked(core.points_to_text(points))
    best_of, min_stages = fields.get("best_of"), fields.get("min_stages", 1)
    if best_of is not None and not 1 <= best_of <= series_selectors.STAGES_MAX:
        raise SeriesError(
            _("Count from 1 to %(max)s stages, or leave it empty for all.")
            % {"max": series_selectors.STAGES_MAX},
            field="best_of",
        )
    if not 1 <= min_stages <= series_selectors.STAGES_MAX:
        raise SeriesError(
            _("A person needs from 1 to %(max)s stages to be placed.")
            % {"max": series_selectors.STAGES_MAX},
            field="min_stages",
        )
    tie_breaks = list(fields.get("tie_breaks") or [])
    known = {key.value for key in core.TieBreak}
    if any(key not in known for key in tie_breaks) or len(set(tie_breaks)) != len(tie_breaks):
        raise SeriesError(_("Choose each tie-break once."), field="tie_break_1")
    for name in ("final_from_series", "final_from_rating"):
        if not 0 <= fields.get(name, 0) <= FINALISTS_MAX:
            raise SeriesError(
                _("From 0 to %(max)s finalists.") % {"max": FINALISTS_MAX}, field=name
            )
    winner: Person | None = fields.get("defending_winner")
    if winner is not None and (winner.federation_id != federation.pk or winner.merged_into_id):
        raise SeriesError(
            _("The defending winner must be a person of this federation."),
            field="defending_winner",
        )
    final: Tournament | None = fields.get("final")
    if final is not None and (current is None or current.final_id != final.pk):
        if not _is_member(federation, final.club_id):
            raise SeriesError(_("The final must be a tournament of a member club."), field="final")
        if final.finished_at is not None or series_selectors.has_started(final):
            raise SeriesError(
                _("«%(name)s» has started: the final must be a tournament not started yet.")
                % {"name": final.name},
                field="final",
            )
    return {
        "name": _text(
            fields["name"], max_length=NAME_MAX, what=SERIES_NAME, field="name", required=True
        ),
        "season": _text(
            fields.get("season", ""),
            max_length=SEASON_MAX,
            what=SEASON,
            field="season",
            required=False,
        ),
        "points": points,
        "best_of": best_of,
        "min_stages": min_stages,
        "tie_breaks": tie_breaks,
        "final_from_series": fields.get("final_from_series", 0),
        "final_from_rating": fields.get("final_from_rating", 0),
        "defending_winner": winner,
        "final": final,
    }


@transaction.atomic
def series_create(*, federation: Federation, **fields) -> Series:
    return Series.objects.create(federation=federation, **_checked(federation, None, fields))


@transaction.atomic
def series_update(*, series: Series, **fields) -> Series:
    locked = _lock(series)
    checked = _checked(series.federation, locked, fields)
    for name, value in checked.items():
        setattr(locked, name, value)
    locked.save(update_fields=list(checked))
    for name, value in checked.items():  # the caller's object follows
        setattr(series, name, value)
    return series


def last_points(federation: Federation) -> list[int] | None:
    """The points table of the federation's last series (the federation's own preset)."""
    points = (
        Series.objects.filter(federation=federation)
        .exclude(points=[])
        .order_by("-created_at", "-pk")
        .values_list("points", flat=True)
        .first()
    )
    return list(points) if points else None


def _lock(series: Series) -> Series:
    locked = Series.objects.select_for_update().get(pk=series.pk)
    locked.federation = series.federation
    return locked


# --- stages --------------------------------------------------------------------------------


@transaction.atomic
def stage_add(
    *,
    series: Series,
    tournament: Tournament | None = None,
    imported: ImportedResult | None = None,
) -> Stage:
    """A stage at the end of the series: a member club's tournament, or a results file the
    federation imported (exactly one of them)."""
    locked = _lock(series)
    if (tournament is None) == (imported is None):
        raise SeriesError(_("Choose a tournament or an imported result."), field="tournament")
    stages = Stage.objects.filter(series=locked)
    count = stages.count()
    if count >= series_selectors.STAGES_MAX:
        raise SeriesError(
            _("A series holds at most %(max)s stages.") % {"max": series_selectors.STAGES_MAX}
        )
    if tournament is not None:
        if not _is_member(locked.federation, tournament.club_id):
            raise SeriesError(
                _("«%(name)s» is not a tournament of a member club.") % {"name": tournament.name},
                field="tournament",
            )
        if stages.filter(tournament=tournament).exists():
            raise SeriesError(
                _("«%(name)s» is a stage already.") % {"name": tournament.name},
                field="tournament",
            )
    if imported is not None:
        if imported.federation_id != locked.federation.pk:
            raise SeriesError(_("Choose one of this federation's imports."), field="imported")
        if stages.filter(imported=imported).exists():
            raise SeriesError(
                _("«%(name)s» is a stage already.") % {"name": imported.name}, field="imported"
            )
    last = stages.order_by("-number").values_list("number", flat=True).first() or 0
    return Stage.objects.create(
        series=locked, tournament=tournament, imported=imported, number=last + 1
    )


@transaction.atomic
def stage_remove(*, stage: Stage) -> None:
    """The stage is no longer one; the stages after it move up a number."""
    locked = _lock(stage.series)
    number = stage.number
    Stage.objects.filter(series=locked, pk=stage.pk).delete()
    # One by one from the lowest: (series, number) stays unique at every step.
    for later in Stage.objects.filter(series=locked, number__gt=number).order_by("number"):
        later.number -= 1
        later.save(update_fields=["number"])


# --- the final -----------------------------------------------------------------------------


@transaction.atomic
def final_entries_make(*, series: Series) -> list[str]:
    """Every finalist of the field entered in the final under the host club's roster name for
    him (federation.persons.roster_name_for); who is entered already stays as he is, so doing
    it again adds only who is missing. The names added, in the field's order."""
    locked = _lock(series)
    if locked.final_id is None:
        raise SeriesError(_("Choose the final tournament in the series' settings first."))
    final = Tournament.objects.select_for_update().select_related("club").get(pk=locked.final_id)
    if not _is_member(locked.federation, final.club_id):
        raise SeriesError(_("The final's club is no longer a member of the federation."))
    if final.finished_at is not None or series_selectors.has_started(final):
        raise SeriesError(
            _("Round 1 of «%(name)s» is published: its entries are made in the tournament now.")
            % {"name": final.name}
        )
    field = series_selectors.final_field(locked)
    found = {
        person.pk: person
        for person in series_selectors.federation_persons(locked.federation).filter(
            pk__in=[one.finalist.person for one in field]
        )
    }
    players = [
        # No `user`: the officer's own account must not pick the roster name.
        persons.roster_name_for(club=final.club, person=found[key])
        for key in (one.finalist.person for one in field)
        if key in found
    ]
    entered = set(Entry.objects.filter(tournament=final).values_list("player_id", flat=True))
    names = _new_names(players, entered)
    for start in range(0, len(names), ENTRIES_AT_ONCE):
        try:
            tournament_services.entries_add(
                tournament=final, names=names[start : start + ENTRIES_AT_ONCE]
            )
        except tournament_services.TournamentServiceError as exc:
            raise SeriesError(exc.message) from exc
    return names


def _new_names(players: Sequence, entered: set[int]) -> list[str]:
    seen: set[int] = set()
    names = []
    for player in players:
        if player.pk in entered or player.pk in seen:
            continue
        seen.add(player.pk)
        names.append(player.name)
    return names
