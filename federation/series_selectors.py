"""Reading a series: its stages' places (a member club's tournament through competition's
standings core, or an imported results file), the series standings and the final's field,
computed by federation.series.

Each stage costs the standings core's four queries (a series holds at most STAGES_MAX
stages); the persons behind the roster names, their names and the rating list one query each.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import cached_property

from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from club.names import collation_key
from competition.models import RoundState, Tournament
from competition.tournament import selectors as tournaments
from federation import series as core
from federation.models import (
    ImportedResult,
    MemberClub,
    MemberState,
    Person,
    PersonLink,
    RatingList,
    Series,
    Stage,
)
from federation.selectors import merged_target
from scoring import engine
from scoring.forms import convention_summary

#: The most stages a series holds (the Moscow Cup has 11), and lines read from one stage.
STAGES_MAX = 30
STAGE_LINES_MAX = 2_000
#: Tournaments offered in a select (the most recent first).
CHOICES_MAX = 200

FINISHED = "finished"
PROVISIONAL = "provisional"
NOT_STARTED = "not_started"
STATE_LABELS = {
    FINISHED: gettext_lazy("final"),
    PROVISIONAL: gettext_lazy("provisional: still being played"),
    NOT_STARTED: gettext_lazy("not played yet"),
}


def series_list(federation) -> QuerySet[Series]:
    return Series.objects.filter(federation=federation).order_by("-created_at", "-pk")


def series_of(federation, series_id: int) -> Series:
    series = (
        Series.objects.filter(federation=federation, pk=series_id)
        .select_related("defending_winner", "final__club")
        .first()
    )
    if series is None:
        raise Http404
    series.federation = federation
    return series


def stage_of(series: Series, stage_id: int) -> Stage:
    stage = Stage.objects.filter(series=series, pk=stage_id).first()
    if stage is None:
        raise Http404
    stage.series = series
    return stage


def member_club_ids(federation) -> QuerySet:
    return MemberClub.objects.filter(federation=federation, state=MemberState.MEMBER).values("club")


def _recent(tournaments_: QuerySet[Tournament], keep: int | None = None) -> QuerySet[Tournament]:
    """The most recent CHOICES_MAX of them (and `keep`), as a queryset a form field can
    filter again (a sliced one cannot be)."""
    ids = list(tournaments_.order_by("-start", "-pk").values_list("pk", flat=True)[:CHOICES_MAX])
    if keep is not None:
        ids.append(keep)
    return Tournament.objects.filter(pk__in=ids).select_related("club").order_by("-start", "-pk")


def stage_candidates(series: Series) -> QuerySet[Tournament]:
    """The member clubs' tournaments that are not stages of the series yet."""
    taken = Stage.objects.filter(series=series, tournament__isnull=False).values("tournament")
    return _recent(
        Tournament.objects.filter(club__in=member_club_ids(series.federation)).exclude(pk__in=taken)
    )


def import_candidates(series: Series) -> QuerySet[ImportedResult]:
    taken = Stage.objects.filter(series=series, imported__isnull=False).values("imported")
    ids = list(
        ImportedResult.objects.filter(federation=series.federation)
        .exclude(pk__in=taken)
        .order_by("-start", "-pk")
        .values_list("pk", flat=True)[:CHOICES_MAX]
    )
    return ImportedResult.objects.filter(pk__in=ids).order_by("-start", "-pk")


def unstarted(tournaments_: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Those with no round published yet and not over."""
    started = [RoundState.PUBLISHED, RoundState.PLAYING, RoundState.CONFIRMED]
    return tournaments_.filter(finished_at__isnull=True).exclude(rounds__state__in=started)


def final_candidates(federation, current: Tournament | None = None) -> QuerySet[Tournament]:
    """The member clubs' tournaments that can still be the final (and the current final)."""
    mine = unstarted(Tournament.objects.filter(club__in=member_club_ids(federation)))
    return _recent(mine, keep=current.pk if current is not None else None)


def entered_persons(series: Series) -> set[int]:
    """The persons whose roster names are entered in the series' final."""
    if series.final_id is None:
        return set()
    links = PersonLink.objects.filter(
        federation=series.federation, player__entries__tournament_id=series.final_id
    )
    return set(links.values_list("person_id", flat=True))


def has_started(tournament: Tournament) -> bool:
    return tournament.rounds.exclude(state=RoundState.DRAFT).exists()


def federation_persons(federation) -> QuerySet[Person]:
    return Person.objects.filter(federation=federation, merged_into__isnull=True)


# --- a stage's places ----------------------------------------------------------------------


def _imported_rows(imported: ImportedResult) -> list[tuple[object, str, int]]:
    """(the file's person key, his name, place) of an imported file's overall standings:
    `document["standings"]` is the list of lines, or holds it as "overall"; each line has
    "place" (a whole number from 1) and "person" (a key of `document["persons"]`, a mapping
    of keys to {"name": ...} or a list of {"key": ..., "name": ...}). Lines it cannot read
    are left out (the import checked the file)."""
    document = imported.document if isinstance(imported.document, dict) else {}
    standings = document.get("standings")
    if isinstance(standings, dict):
        standings = standings.get("overall")
    if not isinstance(standings, list):
        return []
    persons = document.get("persons")
    if isinstance(persons, list):
        persons = {p.get("key"): p for p in persons[:STAGE_LINES_MAX] if isinstance(p, dict)}
    if not isinstance(persons, dict):
        persons = {}
    rows = []
    for line in standings[:STAGE_LINES_MAX]:
        if not isinstance(line, dict):
            continue
        key, place = line.get("person"), line.get("place")
        if not isinstance(key, str) or isinstance(place, bool) or not isinstance(place, int):
            continue
        if place < 1:
            continue
        about = persons.get(key)
        name = about.get("name") if isinstance(about, dict) else None
        rows.append((key, name if isinstance(name, str) else key, place))
    return rows


def imported_places(imported: ImportedResult) -> list[tuple[int, int]]:
    """(person id, place) of the imported file's persons matched to the federation's: the
    file's standings through the import's `persons` mapping ({file key: person id})."""
    matched = imported.persons if isinstance(imported.persons, dict) else {}
    places = []
    for key, _name, place in _imported_rows(imported):
        person = matched.get(key)
        if isinstance(person, int) and not isinstance(person, bool):
            places.append((person, place))
    return places


@dataclass(frozen=True)
class StageLine:
    key: object  # a person's id, or a text key for a name linked to no person
    name: str
    place: int


@dataclass
class StageView:
    """A stage as the pages show it."""

    stage: Stage
    name: str
    url: str  # "" when the page is not public
    host: str
    date: datetime.date
    convention: str
    state: str
    lines: list[StageLine]

    @property
    def number(self) -> int:
        return self.stage.number

    @property
    def state_label(self) -> str:
        return str(STATE_LABELS[self.state])


def _convention(rules: object) -> str:
    if not isinstance(rules, dict):
        return ""
    try:
        return convention_summary(engine.rules_from_dict(rules))
    except Exception:  # an imported file's rules the engine refuses: shown without them
        return ""


def _tournament_stage(stage: Stage, federation) -> StageView:
    tournament = stage.tournament
    read = tournaments.results(tournament)
    table = tournaments.standings_from(tournament, read)
    ids = [line.player for line in table.lines]
    links = dict(
        PersonLink.objects.filter(federation=federation, player_id__in=ids).values_list(
            "player_id", "person_id"
        )
    )
    lines = [
        StageLine(
            links.get(line.player, f"player:{line.player}"), read.names[line.player], line.place
        )
        for line in table.lines
    ]
    if tournament.finished_at is not None and read.rounds:
        state = FINISHED
    else:
        state = PROVISIONAL if read.rounds else NOT_STARTED
    club = tournament.club
    return StageView(
        stage=stage,
        name=tournament.name,
        url=tournament.get_absolute_url() if club.is_public else "",
        host=club.name,
        date=tournament.start,
        convention=_convention(tournament.rules),
        state=state,
        lines=lines,
    )


def _imported_stage(stage: Stage) -> StageView:
    imported = stage.imported
    matched = imported.persons if isinstance(imported.persons, dict) else {}
    lines = []
    for key, name, place in _imported_rows(imported):
        person = matched.get(key)
        if not isinstance(person, int) or isinstance(person, bool):
            person = f"import:{imported.pk}:{key}"
        lines.append(StageLine(person, name, place))
    about = imported.document.get("tournament") if isinstance(imported.document, dict) else None
    about = about if isinstance(about, dict) else {}
    host = about.get("club") or about.get("host") or imported.source
    if isinstance(host, dict):
        host = host.get("name", "")
    return StageView(
        stage=stage,
        name=imported.name,
        url=_imported_url(imported),
        host=host if isinstance(host, str) else "",
        date=imported.start,
        convention=_convention(about.get("rules")),
        state=FINISHED if lines else NOT_STARTED,
        lines=lines,
    )


def _imported_url(imported: ImportedResult) -> str:
    return reverse("federation:imported", args=[imported.federation.slug, imported.pk])


def stage_views(series: Series) -> list[StageView]:
    stages = (
        Stage.objects.filter(series=series)
        .select_related("tournament__club", "imported__federation")
        .order_by("number")
    )
    return [
        _tournament_stage(stage, series.federation)
        if stage.tournament_id is not None
        else _imported_stage(stage)
        for stage in stages[:STAGES_MAX]
    ]


# --- the standings -------------------------------------------------------------------------


class SeriesTable:
    """The series standings, with what the pages show beside them (built on first use)."""

    def __init__(self, series: Series) -> None:
        self.series = series

    @cached_property
    def stages(self) -> list[StageView]:
        return stage_views(self.series)

    @cached_property
    def active(self) -> dict[int, str]:
        """The persons on the stages' lines who are persons of the federation, by name."""
        keys = {line.key for stage in self.stages for line in stage.lines if _is_person(line.key)}
        persons = federation_persons(self.series.federation).filter(pk__in=keys)
        return dict(persons.values_list("pk", "name"))

    @cached_property
    def lines(self) -> list[list[tuple[object, int]]]:
        """Each stage's (key, place): a person's id, or for a name that is no person's (a
        person merged away meanwhile is none) a text key of its own."""
        return [
            [
                (
                    line.key
                    if not _is_person(line.key) or line.key in self.active
                    else f"gone:{stage.number}:{line.name}",
                    line.place,
                )
                for line in stage.lines
            ]
            for stage in self.stages
        ]

    @cached_property
    def names(self) -> dict[object, str]:
        """Every line's name: a person's own, else the roster name or the file's name."""
        names: dict[object, str] = dict(self.active)
        for stage, keyed in zip(self.stages, self.lines, strict=True):
            for line, (key, _place) in zip(stage.lines, keyed, strict=True):
                names.setdefault(key, line.name)
        return names

    @cached_property
    def standings(self) -> core.SeriesStandings:
        points = list(self.series.points or [])
        results: dict[object, dict[int, tuple[int, object]]] = {}
        for stage, keyed in zip(self.stages, self.lines, strict=True):
            scored = core.stage_points(keyed, points)
            for key, place in keyed:
                results.setdefault(key, {})[stage.number] = (place, scored[key])
        names = self.names
        return core.series_standings(
            results,
            stages=[stage.number for stage in self.stages],
            best_of=self.series.best_of,
            min_stages=self.series.min_stages,
            tie_breaks=tie_breaks_of(self.series),
            order=lambda key: (collation_key(names.get(key, "")), str(key)),
        )

    @property
    def provisional(self) -> bool:
        return any(stage.state == PROVISIONAL for stage in self.stages)

    @property
    def unlinked(self) -> list[str]:
        """The names on the standings that are no person's: they cannot qualify."""
        return sorted(
            (self.names[line.key] for line in self.standings.lines if not _is_person(line.key)),
            key=collation_key,
        )

    def is_person(self, key: object) -> bool:
        return _is_person(key)


def _is_person(key: object) -> bool:
    return isinstance(key, int) and not isinstance(key, bool)


def rule_words(series: Series) -> list[str]:
    """The series' rule in sentences, for its page and its printout."""
    points = core.points_to_text(series.points or [])
    words = [_("Points by place: %(points)s; places beyond them score 0.") % {"points": points}]
    if series.best_of:
        best = ngettext(
            "The best %(count)s stage counts.", "The best %(count)s stages count.", series.best_of
        )
        words.append(best % {"count": series.best_of})
    else:
        words.append(_("Every stage counts."))
    needed = ngettext(
        "Placed with at least %(count)s stage played.",
        "Placed with at least %(count)s stages played.",
        series.min_stages,
    )
    words.append(needed % {"count": series.min_stages})
    labels = [str(TIE_BREAK_LABELS[key]) for key in tie_breaks_of(series)]
    if labels:
        order = "; ".join(labels)
        words.append(_("Equal totals: %(order)s; then the place is shared.") % {"order": order})
    words.append(_("Players tied in a stage share the points of the places they cover."))
    return words


TIE_BREAK_LABELS = {
    core.TieBreak.STAGE_WINS: gettext_lazy("more stages won"),
    core.TieBreak.BEST_PLACES: gettext_lazy("better stage places (the best, then the next best…)"),
    core.TieBreak.STAGES_PLAYED: gettext_lazy("more stages played"),
    core.TieBreak.LAST_STAGES: gettext_lazy(
        "better place in the last stage (then the one before…)"
    ),
}


TIE_BREAK_CHOICES = [(key.value, TIE_BREAK_LABELS[key]) for key in core.TieBreak]


def tie_breaks_of(series: Series) -> list[core.TieBreak]:
    """The series' tie-breaks as stored (a key no longer known is left out)."""
    known = {key.value for key in core.TieBreak}
    return [core.TieBreak(key) for key in series.tie_breaks or [] if key in known]


# --- the final's field ---------------------------------------------------------------------


@dataclass(frozen=True)
class FinalistView:
    finalist: core.Finalist
    name: str
    why: str


def defending_winner(series: Series) -> Person | None:
    """The defending winner if he is a person of the federation (the one his names went to,
    however many merges ago)."""
    person = series.defending_winner
    if person is None or person.federation_id != series.federation_id:
        return None
    return merged_target(person)


def final_field(series: Series, table: SeriesTable | None = None) -> list[FinalistView]:
    """The final's field by the series' rule, with why each qualified."""
    table = table or SeriesTable(series)
    winner = defending_winner(series)
    series_ranked = [
        (line.key, line.place) for line in table.standings.placed if _is_person(line.key)
    ]
    # Enough of the rating list: K places, and one more for each one already in before it.
    enough = series.final_from_rating + series.final_from_series + 1
    rating = (
        list(
            RatingList.objects.filter(
                federation=series.federation, person__merged_into__isnull=True
            )
            .order_by("place", "pk")
            .values_list("person_id", "place", "person__name")[:enough]
        )
        if series.final_from_rating
        else []
    )
    names = dict(table.names)
    names.update({person: name for person, _place, name in rating})
    if winner is not None:
        names[winner.pk] = winner.name
    field = core.final_field(
        winner=winner.pk if winner is not None else None,
        series=series_ranked,
        rating=[(person, place) for person, place, _name in rating],
        from_series=series.final_from_series,
        from_rating=series.final_from_rating,
    )
    return [FinalistView(one, names.get(one.person, ""), _why(one, names)) for one in field]


def _why(one: core.Finalist, names: dict) -> str:
    if one.reason == core.Reason.WINNER:
        return _("defending winner")
    if one.reason == core.Reason.SERIES:
        text = _("series, place %(place)s") % {"place": one.place}
    else:
        text = _("rating, place %(place)s") % {"place": one.place}
    if one.passed_from is not None:
        text = _("%(why)s, the place passed down from %(name)s") % {
            "why": text,
            "name": names.get(one.passed_from, ""),
        }
    return text
