"""A round's "your table" notices: to every entrant with an account, by mail and Telegram as
he chose (club.notices), in his language: the tournament, the round, his table and seat, who
deals first, the table's link when it has one, and the round's start time when it is set.

`round_published` queues them when the round is published, `round_reseated` a correction to
the players whose seat (or whose table's first dealer) a reseat changed; both are called at
the end of the publishing services, inside their transaction: the rows are written there,
the sending starts after the commit. `round_notices` is what the organiser's round page says
about them ("notified 280 of 300; 20 have no address or channel").
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from club import notices
from club.models import Notice, NoticeState, Player
from competition.lib.seating import Table
from competition.models import Round, RoundTable
from competition.tournament import selectors
from scoring import table_links


def topic(round: Round) -> str:
    return f"round:{round.pk}"


@dataclass(frozen=True)
class Place:
    """Where one player sits in the round, as the notice tells it."""

    table: Table
    seat: int  # 1 to 4, clockwise
    link: str  # the table's own link ("" when it has none)


def _places(round: Round) -> dict[int, Place]:
    tokens = dict(
        RoundTable.objects.filter(round=round).values_list("number", "pulka__table_token")
    )
    places = {}
    for table in selectors.seating_of(round).tables:
        token = tokens.get(table.number)
        link = table_links.table_url(token) if token else ""
        for player in table.seats:
            places[player] = Place(table, table.seat_of(player), link)
    return places


def _queue(round: Round, players: Collection[int], *, correction: bool) -> notices.QueueResult:
    tournament = round.tournament
    names = selectors.names(tournament)
    places = _places(round)
    accounts = {
        player.pk: player.user
        for player in Player.objects.filter(
            pk__in=[p for p in players if p in places], user__isnull=False
        ).select_related("user")
    }
    by_user = {user.pk: player for player, user in accounts.items()}
    starts = getattr(round, "starts_at", None)  # the round clock's planned start, when set

    def render(user: AbstractBaseUser) -> tuple[str, str]:
        player = by_user[user.pk]
        place = places[player]
        where = ", ".join(
            [
                _("Table %(table)s") % {"table": place.table.number},
                _("seat %(seat)s") % {"seat": place.seat},
            ]
        )
        subject = " · ".join(
            [tournament.name, _("Round %(number)s") % {"number": round.number}, where]
        )
        if correction:
            subject = _("Correction: %(subject)s") % {"subject": subject}
        lines = []
        if correction:
            lines.append(_("Your place in this round has changed. This replaces the last notice."))
        lines.append(tournament.name)
        lines.append(
            _("Round %(number)s of %(total)s")
            % {"number": round.number, "total": tournament.round_count}
        )
        lines.append(where)
        lines.append(
            _("At the table: %(names)s.")
            % {"names": ", ".join(names.get(p, str(p)) for p in place.table.seats)}
        )
        lines.append(
            _("%(name)s deals first")
            % {"name": names.get(place.table.first_dealer, place.table.first_dealer)}
        )
        if starts is not None:
            when = formats.date_format(timezone.localtime(starts), "DATETIME_FORMAT")
            lines.append(_("Start: %(when)s") % {"when": when})
        if place.link:
            lines.append(
                _("Enter and confirm your table's deals here: %(link)s") % {"link": place.link}
            )
        return subject, "\n".join(lines) + "\n"

    return notices.queue(
        kind=notices.SEATING, topic=topic(round), users=accounts.values(), render=render
    )


def round_published(round: Round) -> notices.QueueResult:
    """Queue every seated entrant's notice of his table (those with an account)."""
    return _queue(round, selectors.seating_of(round).players, correction=False)


def round_reseated(round: Round, players: Collection[int]) -> notices.QueueResult:
    """Queue a correction for `players`, whose seats a reseat changed, and for their table-
    mates whose first dealer is one of them (he moved, so the first dealer is someone else)."""
    moved = set(players)
    told = set(moved)
    for table in selectors.seating_of(round).tables:
        if table.first_dealer in moved:
            told.update(table.seats)
    return _queue(round, told, correction=True)


@dataclass(frozen=True)
class RoundNotices:
    """The round page's line: of the seated players, how many got their notice, how many
    have no account, address or channel, and how many are still being sent or failed."""

    notified: int
    total: int
    unreachable: int
    waiting: int
    failed: int


def round_notices(round: Round) -> RoundNotices:
    seated = len(selectors.seating_of(round).players)
    summary = notices.summary(topic(round), notices.SEATING)
    rows = Notice.objects.filter(topic=topic(round), kind=notices.SEATING)
    failed = (
        rows.values("user")
        .annotate(
            failed=Count("pk", filter=Q(state=NoticeState.FAILED)),
            sent=Count("pk", filter=Q(state=NoticeState.SENT)),
        )
        .filter(failed__gt=0, sent=0)
        .count()
    )
    without_account = max(seated - summary.total, 0)
    unreachable = summary.unreachable + without_account
    waiting = max(seated - summary.notified - unreachable - failed, 0)
    return RoundNotices(summary.notified, seated, unreachable, waiting, failed)
