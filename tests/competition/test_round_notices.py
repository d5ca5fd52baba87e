"""A round's "your table" notices (competition.tournament.notices): every entrant with an
account gets his table, seat, first dealer, the table's link and the start time when the
round is published, in his language, by mail (mail.outbox) and in Telegram (the fake Bot
API); a reseat sends a correction to those it moved; the organiser's round page counts them."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.urls import reverse

from club import notices
from club.models import AccountSettings, Notice, NoticeState, Player
from competition.models import Round, Tournament
from competition.tournament import notices as round_notices
from competition.tournament import selectors, services
from scoring.models import Pulka
from tests.club.factories import assert_fragment, assert_full_page, assert_not_found
from tests.competition.factories import draft, make_tournament
from tests.conftest import HTMX, make_user
from tests.fake_telegram import bot_site

pytestmark = pytest.mark.django_db

EIGHT = ("Anna", "Boris", "Vera", "Gleb", "Dana", "Yurii", "Zoia", "Ivan")
# 2 December, 18:30 in Kyiv: the month's name is what the language shows best.
START = datetime.datetime(2026, 12, 2, 16, 30, tzinfo=datetime.UTC)


@pytest.fixture
def cup(club_a) -> Tournament:
    tournament = make_tournament(club_a, names=EIGHT, seed=7)
    languages = {"Anna": "uk", "Boris": "ru", "Vera": "en", "Gleb": "uk"}
    for name, language in languages.items():
        user = make_user(username=name.lower(), email=f"{name.lower()}@example.org")
        AccountSettings.objects.create(user=user, language=language)
        Player.objects.filter(club=club_a, name=name).update(user=user)
    # Dana has an account without an address; the others have no account.
    Player.objects.filter(club=club_a, name="Dana").update(user=make_user(username="dana"))
    return tournament


def publish(tournament: Tournament, capture, **kw) -> Round:
    with capture(execute=True):
        return services.round_publish(round=draft(tournament), by=None, **kw)


def place_of(round: Round, name: str) -> tuple[int, int, str]:
    """(table, seat, first dealer's name) of the player, from the round's seating."""
    names = selectors.names(round.tournament)
    player = Player.objects.get(club=round.tournament.club, name=name).pk
    table = selectors.seating_of(round).table_of(player)
    return table.number, table.seat_of(player), names[table.first_dealer]


def mail_to(name: str) -> list:
    return [m for m in mail.outbox if m.to == [f"{name.lower()}@example.org"]]


def test_publishing_mails_each_entrant_with_an_address_his_table_in_his_language(
    cup, django_capture_on_commit_callbacks
):
    round = publish(cup, django_capture_on_commit_callbacks, starts_at=START)

    assert sorted(m.to[0] for m in mail.outbox) == [
        "anna@example.org",
        "boris@example.org",
        "gleb@example.org",
        "vera@example.org",
    ]
    table, seat, dealer = place_of(round, "Anna")
    [anna] = mail_to("Anna")
    assert anna.subject == f"Club Cup · Тур 1 · Стіл {table}, місце {seat}"
    assert f"Тур 1 із {cup.round_count}" in anna.body
    assert f"Перша роздача: {dealer}" in anna.body
    assert "2 грудня 2026" in anna.body
    assert "18:30" in anna.body
    token = Pulka.objects.get(tournament_table__round=round, tournament_table__number=table)
    link = re.search(r"https?://\S+/t/\S+/", anna.body).group(0)
    assert link.endswith(reverse("scoring:table", args=[token.table_token]))
    table, seat, dealer = place_of(round, "Boris")
    [boris] = mail_to("Boris")
    assert f"Стол {table}, место {seat}" in boris.subject
    assert "2 декабря 2026" in boris.body
    assert f"первый сдающий: {dealer}" in boris.body
    [vera] = mail_to("Vera")
    assert "Round 1 of 3" in vera.body
    assert "Start: Dec. 2, 2026, 6:30 p.m." in vera.body


def test_without_a_planned_start_the_mail_says_no_time(cup, django_capture_on_commit_callbacks):
    publish(cup, django_capture_on_commit_callbacks)

    [vera] = mail_to("Vera")
    assert "Start:" not in vera.body
    assert "Round 1 of 3" in vera.body


def test_the_same_notices_go_to_the_linked_telegram_chats(
    cup, settings, django_capture_on_commit_callbacks
):
    with bot_site(settings) as bot:
        AccountSettings.objects.filter(user__username="anna").update(telegram_chat_id=500)
        AccountSettings.objects.update_or_create(
            user=Player.objects.get(club=cup.club, name="Dana").user,
            defaults={"telegram_chat_id": 501},
        )

        round = publish(cup, django_capture_on_commit_callbacks)

        sent = {m["chat_id"]: m["text"] for m in bot.messages()}
    assert set(sent) == {500, 501}
    table, seat, _dealer = place_of(round, "Dana")
    assert f"Table {table}, seat {seat}" in sent[501]
    assert f"Стіл {place_of(round, 'Anna')[0]}" in sent[500]
    assert len(mail_to("Anna")) == 1  # by mail too: both are on by default
    assert round_notices.round_notices(round) == round_notices.RoundNotices(
        notified=5, total=8, unreachable=3, waiting=0, failed=0
    )


def test_a_reseat_sends_a_correction_to_the_players_it_moved(
    cup, django_capture_on_commit_callbacks
):
    round = publish(cup, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    tables = selectors.seating_of(round).tables
    # Anna and someone at another table who is not his table's first dealer.
    anna = Player.objects.get(club=cup.club, name="Anna").pk
    home = selectors.seating_of(round).table_of(anna)
    other = next(t for t in tables if t.number != home.number)
    mover = next(p for p in other.seats if p != other.first_dealer)
    stays_informed = {anna, mover}
    if home.first_dealer == anna:
        stays_informed |= set(home.seats)

    with django_capture_on_commit_callbacks(execute=True):
        round = services.round_reseat(round=round, first=anna, second=mover)

    told = {Player.objects.get(club=cup.club, user__email=m.to[0]).pk for m in mail.outbox}
    with_address = set(
        Player.objects.filter(club=cup.club, user__email__contains="@").values_list("pk", flat=True)
    )
    assert told == stays_informed & with_address
    [correction] = mail_to("Anna")
    table, seat, _dealer = place_of(round, "Anna")
    assert table == other.number
    assert correction.subject.endswith(f"Стіл {table}, місце {seat}")
    assert correction.subject != f"Club Cup · Тур 1 · Стіл {table}, місце {seat}"
    assert Notice.objects.filter(user__username="anna").get().state == NoticeState.SENT


def test_publishing_never_waits_for_a_broken_mail_server(
    cup, monkeypatch, django_capture_on_commit_callbacks
):
    class Broken:
        def open(self):
            raise OSError("no route to host")

        def close(self):
            pass

    monkeypatch.setattr(notices, "get_connection", Broken)

    round = publish(cup, django_capture_on_commit_callbacks)

    assert round.state == "published"
    assert mail.outbox == []
    assert set(Notice.objects.exclude(channel="none").values_list("state", flat=True)) == {
        NoticeState.PENDING
    }
    assert round_notices.round_notices(round).waiting == 4


# --- the organiser's round page ------------------------------------------------------------------


def round_url(round: Round) -> str:
    return reverse(
        "competition:round-detail", args=[round.tournament.club.slug, round.tournament_id, 1]
    )


@pytest.mark.parametrize(
    ("persona", "shown"),
    [("owner", True), ("secretary", False), ("player", False)],
)
def test_the_organiser_sees_how_many_were_notified(
    cup, as_persona, persona, shown, django_capture_on_commit_callbacks
):
    round = publish(cup, django_capture_on_commit_callbacks)

    text = assert_full_page(as_persona(persona).get(round_url(round)), "round")

    assert ('id="round-notices"' in text) is shown
    if shown:
        summary = re.sub(r"\s+", " ", text.split('id="round-notices-summary">')[1].split("</p>")[0])
        assert summary.strip() == (
            "Notified 4 of 8 players. 4 have no account, address or channel."
        )


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_strangers_never_see_the_round_or_its_notices(cup, as_persona, persona):
    round = services.round_publish(round=draft(cup), by=None)

    assert_not_found(as_persona(persona).get(round_url(round)), "round-notices")


def test_the_round_fragment_carries_the_notices_line(cup, owner, client):
    round = services.round_publish(round=draft(cup), by=None)  # nothing sent: no commit here
    client.force_login(owner)

    text = assert_fragment(client.get(round_url(round), headers=HTMX), "round")

    assert 'id="round-notices"' in text
    assert "still being sent" in html_text(text)


def html_text(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))
