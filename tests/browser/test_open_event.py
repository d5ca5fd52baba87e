"""Issue #27's done-when, in Chromium: the year of a small federation of three clubs.

Before the year, each club (Kyiv, Lviv, Odesa) has played a few evenings (random valid deals
recorded through scoring.services, seeded). Then, in the browser, by the people who do it:

- the federation's owner opens the federation, names a judge, invites the three clubs and
  lists persons from 2 rated pulkas on; the clubs' owners accept;
- Anna plays in Kyiv and Lviv under one account: her two roster names are one person at
  once. Borys plays in both with no account: the judge proposes that Lviv's name is Kyiv's
  person, and both clubs' owners confirm it;
- the open stage: Kyiv's organiser opens its cup to the federation with 6 places, a fee and
  two categories by federation rating (the line between them is drawn from the rating list
  of the day); seven players register online, each offered the one category his rating
  allows, and the seventh waits; at the door the organiser finds them by name, and the one
  waiting by the check-in address of the QR code in her registration mail (read back with
  zbarimg); Lev does not come; "withdraw the no-shows" withdraws him, moves the one waiting
  up and makes the six entries (guest roster names of Kyiv for the other clubs' players);
  2 rounds are played (services); each category's standings show on the event's page;
- the second stage, Lviv's cup, with less ceremony (entries, rounds and deals by services);
- the judge opens a series over the two stages: its standings show the totals the points
  table gives for the stages' places, computed here;
- the final (an Odesa tournament) is drawn by the series (top 2) and the rating (top 2),
  with the series' winner as the defending winner, so that his series place passes down;
  "Make the entries" enters the field in one action;
- the federation's rating list agrees with a replay done here: every counted pulka's sheet
  recomputed by the engine, its places and pair nets rated by
  competition.rating.ratings.rate_table, pulka after pulka, by person.
"""

from __future__ import annotations

import datetime
import re
import subprocess
import tempfile
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from club.models import Player, Role
from competition.models import Entry, RoundTable, Tournament
from competition.rating.ratings import Rating, rate_table
from competition.tournament import selectors as tournament_selectors
from federation.models import (
    POINTS_PRESET,
    EntryCategory,
    Federation,
    LinkProposal,
    MemberClub,
    MemberState,
    OpenEvent,
    Person,
    PersonLink,
    ProposalState,
    RatingList,
    Registration,
    RegistrationState,
    Series,
)
from scoring import engine
from scoring.formatting import figure
from scoring.models import Pulka, PulkaStatus
from scoring.selectors import engine_deals
from tests.browser.factories import log_in
from tests.competition.factories import make_tournament, play_round, play_table
from tests.conftest import make_club, make_evening, make_member, make_pulka, make_user
from tests.qr_codes import zbarimg

pytestmark = pytest.mark.django_db(transaction=True)

SLUG = "fpu"
LEAST_PULKAS = 2
CAP = 6
# The roster names of each club's players, and who has an account (username: names).
ANNA = ("Анна Коваль", "Anna Koval")
BORYS = ("Борис Ткач", "Borys Tkach")
KYIV = (ANNA[0], BORYS[0], "Віра Мельник", "Олег Дуб")
LVIV = (ANNA[1], BORYS[1], "Gleb Orlov", "Zoya Lysenko", "Roman Hnatiuk", "Iryna Sokil")
ODESA = ("Dana Kim", "Lev Moroz", "Taras Bondar")
ACCOUNTS = {
    "anna": (("kyiv", ANNA[0]), ("lviv", ANNA[1])),
    "vera": (("kyiv", "Віра Мельник"),),
    "gleb": (("lviv", "Gleb Orlov"),),
    "zoya": (("lviv", "Zoya Lysenko"),),
    "dana": (("odesa", "Dana Kim"),),
    "lev": (("odesa", "Lev Moroz"),),
    "mark": (),  # no club: he meets the federation at its open stage
}
# The clubs' evenings before the year: (days ago, the table's players).
EVENINGS = {
    "kyiv": ((30, KYIV[:3]), (23, KYIV[1:]), (16, (KYIV[0], KYIV[3], KYIV[2]))),
    "lviv": ((29, LVIV[:3]), (22, LVIV[3:]), (15, LVIV[2:5]), (14, (LVIV[5], *LVIV[:2]))),
    "odesa": ((28, ODESA), (21, ODESA[1:] + ODESA[:1])),
}
# Who registers for the open stage, in this order (the last one waits), and who never comes.
REGISTERING = ("anna", "vera", "gleb", "dana", "lev", "mark", "zoya")
NO_SHOW = "lev"
WAITING = "zoya"
FULL_NAMES = {"mark": "Mark Shevchuk"}


# --- the browser's moves ---------------------------------------------------------------------


def _session(browser: Browser, live_server, user) -> Page:
    page = browser.new_context(locale="en-GB").new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the forms' "are you sure?"
    log_in(page, live_server, user)
    return page


def _htmx_post(page: Page, button, path_part: str) -> None:
    with page.expect_response(lambda r: path_part in r.url and r.request.method == "POST"):
        button.click()
    page.wait_for_timeout(60)  # htmx settles the swap


def _check_in(page: Page, base: str, event: OpenEvent, name: str) -> None:
    """At the door: the organiser finds the player by a part of his name and marks him."""
    page.goto(f"{base}/f/{SLUG}/events/{event.pk}/check-in/")
    page.fill("#search input[name=q]", name.split()[0][:4])
    with page.expect_response(re.compile(r"/check-in/\?q=")):
        page.click("#search button[type=submit]")
    page.locator("#found a", has_text=name).click()
    _mark_came(page, name)


def _mark_came(page: Page, name: str) -> None:
    expect(page.locator("#check-in-name")).to_have_text(name)
    _htmx_post(page, page.locator("#check-in-confirm"), "/check-in/")
    expect(page.locator("#check-in-outcome")).to_have_text(f"{name} came.")


def _qr_link(message) -> str:
    """The address the registration mail's QR code carries, as a phone's camera reads it."""
    (image,) = [part for part in message.attachments if not isinstance(part, tuple)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "code.png"
        path.write_bytes(image.get_payload(decode=True))
        found = subprocess.run(
            [zbarimg(), "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert found.returncode == 0, found.stderr
    return found.stdout.strip()


def _rows(page: Page, selector: str) -> list[list[str]]:
    return page.locator(selector).evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))"
    )


# --- what the pages must show, computed here ---------------------------------------------------


def _places(results: dict[str, Fraction]) -> dict[str, int]:
    return {
        name: 1 + sum(other > mine for other in results.values()) for name, mine in results.items()
    }


def _as_cached(net: Fraction) -> float:
    """A pair's net as the pair cache keeps it: whists to four decimals."""
    exact = Decimal(net.numerator) / Decimal(net.denominator)
    return float(exact.quantize(Decimal("0.0001")))


def _replay(federation: Federation, clubs, open_cup: Tournament) -> dict[int, tuple[Rating, int]]:
    """Every pulka that counts for the federation (its member clubs' finished pulkas of
    counted evenings, and the open stage's tables), each sheet replayed by the engine, rated
    with rate_table in the order of the day, by person: person -> (rating, pulkas)."""
    open_tables = set(
        RoundTable.objects.filter(round__tournament=open_cup).values_list("pulka_id", flat=True)
    )
    pulkas = [
        pulka
        for pulka in Pulka.objects.filter(
            evening__club__in=clubs, status=PulkaStatus.FINISHED
        ).select_related("evening")
        if pulka.evening.counted or pulka.pk in open_tables
    ]
    pulkas.sort(key=lambda p: (p.evening.date, p.finished_at is None, p.finished_at, p.pk))
    person_of = dict(
        PersonLink.objects.filter(federation=federation).values_list("player_id", "person_id")
    )
    state: dict[int, Rating] = {}
    played: dict[int, int] = defaultdict(int)
    for pulka in pulkas:
        names = pulka.names
        sheet = engine.compute_sheet(
            pulka.engine_rules(),
            names,
            engine_deals(pulka, names),
            first_dealer=names[pulka.first_dealer],
        )
        nets = engine.pair_nets(
            names,
            sheet.pool,
            sheet.mountain,
            sheet.whists,
            sheet.rules.pool_target,
            sheet.rules.pool_point_value,
        )
        places = _places(sheet.result)
        seats = dict(pulka.seats.values_list("position", "player_id"))
        persons = [person_of[seats[position]] for position in range(len(names))]
        assert len(set(persons)) == len(persons)  # nobody sits twice at one table

        after = rate_table(
            [state.get(person, Rating()) for person in persons],
            [places[name] for name in names],
            [[0.0 if i == j else _as_cached(nets[i][j]) for j in names] for i in names],
        )
        for person, rating in zip(persons, after, strict=True):
            state[person] = rating
            played[person] += 1
    return {person: (state[person], played[person]) for person in state}


def _expected_rows(replayed: dict[int, tuple[Rating, int]]) -> list[tuple[int, str, int]]:
    """The list as the replay ranks it: (person, rating as shown, pulkas), from LEAST_PULKAS."""
    listed = [(person, one) for person, one in replayed.items() if one[1] >= LEAST_PULKAS]
    listed.sort(key=lambda item: -item[1][0].display)
    return [(person, figure(round(rating.display)), pulkas) for person, (rating, pulkas) in listed]


def _rating_rows(page: Page) -> list[tuple[int, str, int]]:
    """The rating page's rows: (person, rating, pulkas)."""
    rows = page.locator("#rating-table tbody tr[data-person]").evaluate_all(
        "rows => rows.map(r => [+r.dataset.person, ...[...r.cells].map(c => c.innerText.trim())])"
    )
    return [(row[0], row[5], int(row[6])) for row in rows]


def _stage_places(tournament: Tournament) -> list[tuple[int, int]]:
    """(person, place) of a stage's final standings (competition's standings core)."""
    person_of = dict(PersonLink.objects.values_list("player_id", "person_id"))
    table = tournament_selectors.standings_from(
        tournament, tournament_selectors.results(tournament)
    )
    return [(person_of[line.player], line.place) for line in table.lines]


def _stage_points(places: list[tuple[int, int]]) -> dict[int, Fraction]:
    """Points by place from the usual table; a shared place shares the places it covers."""
    points = list(POINTS_PRESET)
    sharing = defaultdict(int)
    for _person, place in places:
        sharing[place] += 1

    def at(place: int) -> int:
        return points[place - 1] if place <= len(points) else 0

    return {
        person: Fraction(sum(at(place + n) for n in range(sharing[place])), sharing[place])
        for person, place in places
    }


def _first(ranked: list[int], count: int, taken: list[int]) -> list[int]:
    """The first `count` of a list who are not in yet: a place taken passes down."""
    chosen = []
    for person in ranked:
        if len(chosen) == count:
            break
        if person not in taken and person not in chosen:
            chosen.append(person)
    return chosen


# --- the world before the year -------------------------------------------------------------------


def _clubs_and_their_evenings() -> dict[str, object]:
    today = timezone.localdate()
    clubs = {
        "kyiv": make_club(name="Kyiv Club", slug="kyiv", city="Kyiv", is_public=True),
        "lviv": make_club(name="Lviv Club", slug="lviv", city="Lviv", is_public=True),
        "odesa": make_club(name="Odesa Club", slug="odesa", city="Odesa", is_public=True),
    }
    for username, names in ACCOUNTS.items():
        user = make_user(
            username=username,
            email=f"{username}@example.org",
            first_name=FULL_NAMES.get(username, ""),
        )
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        for slug, name in names:
            Player.objects.create(club=clubs[slug], name=name, user=user)
    for slug, evenings in EVENINGS.items():
        for number, (days_ago, names) in enumerate(evenings):
            evening = make_evening(clubs[slug], date=today - datetime.timedelta(days=days_ago))
            pulka = make_pulka(evening, names=names, rules={"pool_target": 2})
            play_table(pulka, seed=f"{slug}/{number}")
            assert Pulka.objects.get(pk=pulka.pk).status == PulkaStatus.FINISHED
    return clubs


# --- the test ------------------------------------------------------------------------------------


def test_the_year_of_a_small_federation(live_server, browser: Browser, artifacts):
    base = live_server.url
    clubs = _clubs_and_their_evenings()
    owners = {
        slug: make_member(club, Role.OWNER, username=f"{slug}-owner").user
        for slug, club in clubs.items()
    }
    fedir = make_user(username="fedir")
    yurii = make_user(username="yurii")
    users = {user.username: user for user in get_user_model().objects.filter(username__in=ACCOUNTS)}

    # The federation, its judge and its clubs.
    owner = _session(browser, live_server, fedir)
    owner.goto(f"{base}/f/new/")
    owner.fill("#form input[name=name]", "Federation of Preferans of Ukraine")
    owner.fill("#form input[name=slug]", SLUG)
    owner.fill("#form input[name=place]", "Ukraine")
    owner.click("#form button[type=submit]")
    owner.wait_for_url(f"{base}/f/{SLUG}/")
    federation = Federation.objects.get(slug=SLUG)

    owner.goto(f"{base}/f/{SLUG}/officers/")
    owner.fill("#officers input[name=to]", "yurii")
    owner.select_option("#officers select[name=role]", "judge")
    _htmx_post(owner, owner.locator("#officers button", has_text="Add"), "/officers/")
    expect(owner.locator("#officers")).to_contain_text("yurii is now judge of the federation.")

    owner.goto(f"{base}/f/{SLUG}/clubs/")
    for slug, club in clubs.items():
        owner.fill("#clubs input[name=club]", slug)
        _htmx_post(owner, owner.locator("#clubs button", has_text="Invite"), "/clubs/")
        expect(owner.locator("#clubs .message")).to_have_text(
            f"{club.name} is invited: it becomes a member when its owner accepts."
        )

    club_pages = {}
    for slug, club in clubs.items():
        page = club_pages[slug] = _session(browser, live_server, owners[slug])
        page.goto(f"{base}/f/")
        invitation = page.locator("#awaiting-invitations li", has_text=club.name)
        invitation.get_by_role("button", name="Accept").click()
        expect(page.locator(".messages")).to_contain_text(f"{club.name} is a member of")
    assert set(
        MemberClub.objects.filter(federation=federation, state=MemberState.MEMBER).values_list(
            "club__slug", flat=True
        )
    ) == set(clubs)

    owner.goto(f"{base}/f/{SLUG}/rating/")
    owner.fill("#least-form input[name=rating_min_pulkas]", str(LEAST_PULKAS))
    _htmx_post(owner, owner.locator("#least-form button"), "/rating/")
    expect(owner.locator("#outcome")).to_have_text(
        f"Persons with at least {LEAST_PULKAS} rated pulkas are listed."
    )

    # One player across two clubs: Anna by her account, at once.
    anna = Person.objects.get(federation=federation, user=users["anna"])
    owner.goto(f"{base}/f/{SLUG}/persons/{anna.pk}/")
    for name in ANNA:
        expect(owner.locator("#person-names")).to_contain_text(name)

    # Borys by the judge's proposal, which both clubs' owners confirm.
    borys_kyiv = Player.objects.get(club=clubs["kyiv"], name=BORYS[0])
    borys_lviv = Player.objects.get(club=clubs["lviv"], name=BORYS[1])
    borys = PersonLink.objects.get(player=borys_kyiv).person
    other_borys = PersonLink.objects.get(player=borys_lviv).person
    assert borys != other_borys
    judge = _session(browser, live_server, yurii)
    judge.goto(f"{base}/f/{SLUG}/persons/{borys.pk}/")
    judge.select_option("#person-tools select[name=club]", label="Lviv Club")
    judge.fill("#person-tools input[name=name]", BORYS[1])
    _htmx_post(judge, judge.get_by_role("button", name="Propose", exact=True), "/propose/")
    expect(judge.locator("#person .message")).to_have_text(
        "The proposal waits for the owners of the clubs concerned."
    )
    proposal = LinkProposal.objects.get(federation=federation, player=borys_lviv)
    assert sorted(proposal.clubs_awaiting) == sorted([clubs["kyiv"].pk, clubs["lviv"].pk])
    for slug in ("kyiv", "lviv"):
        page = club_pages[slug]
        page.goto(f"{base}/f/")
        waiting = page.locator(f"#proposal-{proposal.pk}")
        expect(waiting).to_contain_text(f"the roster name {BORYS[1]} of Lviv Club")
        waiting.get_by_role("button", name="Confirm").click()
        page.wait_for_load_state()
    proposal.refresh_from_db()
    assert proposal.state == ProposalState.DONE
    judge.goto(f"{base}/f/{SLUG}/persons/{borys.pk}/")
    expect(judge.locator(f"#link-{borys_lviv.pk}")).to_contain_text("Lviv Club")
    expect(judge.locator(f"#link-{borys_kyiv.pk}")).to_contain_text("Kyiv Club")
    assert Person.objects.get(pk=other_borys.pk).merged_into_id == borys.pk

    # The open stage. The line between the categories: the third best rating of the day
    # among the rated players who will register.
    kyiv = club_pages["kyiv"]
    today = timezone.localdate()
    open_cup = make_tournament(
        clubs["kyiv"], names=(), name="Kyiv Open", round_count=2, start=today
    )
    final = make_tournament(
        clubs["odesa"], names=(), name="Federation Final", round_count=2, start=today
    )
    person_of_user = {
        person.user.username: person
        for person in Person.objects.filter(federation=federation, user__isnull=False)
    }
    listed = dict(
        RatingList.objects.filter(federation=federation).values_list("person_id", "rating")
    )
    rated = sorted(
        (
            listed[person_of_user[name].pk]
            for name in REGISTERING
            if name in person_of_user and person_of_user[name].pk in listed
        ),
        reverse=True,
    )
    assert len(rated) == 6, "every registering club player is listed"
    line = int(rated[2])
    assert rated[3] < line <= rated[2]
    kyiv.goto(f"{base}/f/{SLUG}/events/")
    form = kyiv.locator("#open-form")
    form.locator("select[name=tournament]").select_option(str(open_cup.pk))
    deadline = timezone.localtime() + datetime.timedelta(days=1)
    form.locator("input[name=deadline]").fill(deadline.strftime("%Y-%m-%dT%H:%M"))
    form.locator("input[name=cap]").fill(str(CAP))
    form.locator("input[name=fee]").fill("150")
    form.locator("textarea[name=categories]").fill(
        f"Master: rating {line}-\nAmateur: rating -{line}"
    )
    form.locator("button[type=submit]").click()
    kyiv.wait_for_url(re.compile(rf"/f/{SLUG}/events/\d+/$"))
    event = OpenEvent.objects.get(tournament=open_cup)
    assert (event.cap, event.fee, event.counts_for_federation) == (CAP, Decimal("150"), True)
    master, amateur = event.categories.order_by("position")
    expect(kyiv.locator("#event-categories")).to_contain_text(f"federation rating from {line}")

    # Seven register online, each offered the category his rating allows.
    expected_category = {}
    for number, username in enumerate(REGISTERING, start=1):
        page = _session(browser, live_server, users[username])
        page.goto(f"{base}/f/{SLUG}/events/{event.pk}/")
        person = person_of_user.get(username)
        rating = listed.get(person.pk) if person else None
        wanted = master if rating is not None and rating >= line else amateur
        expected_category[username] = wanted
        options = page.locator("#register select[name=category] option").all_inner_texts()
        assert options == [wanted.name], (username, rating, options)
        page.click("#register button[type=submit]")
        page.wait_for_url(re.compile(r"/me/$"))
        if number <= CAP:
            expect(page.locator("#my-state")).to_have_text("registered")
        else:
            expect(page.locator("#my-state")).to_have_text("waiting list, number 1")
        expect(page.locator("#check-in-qr svg")).to_have_count(1)
        page.context.close()
    assert {c.name for c in expected_category.values()} == {"Master", "Amateur"}
    registrations = {r.user.username: r for r in Registration.objects.filter(event=event)}
    assert registrations[WAITING].state == RegistrationState.WAITING
    kyiv.goto(f"{base}/f/{SLUG}/events/{event.pk}/")
    expect(kyiv.locator("#event-places")).to_have_text(f"{CAP} of {CAP} taken")
    expect(kyiv.locator("#event-waiting")).to_have_text("1")

    # At the door: by name, and the one waiting by her mail's QR code.
    for username in REGISTERING:
        if username not in (NO_SHOW, WAITING):
            _check_in(kyiv, base, event, registrations[username].name)
    (zoya_mail,) = [m for m in mail.outbox if m.to == [users[WAITING].email]]
    link = _qr_link(zoya_mail)
    assert link.endswith(f"/check-in/{registrations[WAITING].code}/")
    kyiv.goto(base + urlsplit(link).path)
    _mark_came(kyiv, registrations[WAITING].name)

    kyiv.goto(f"{base}/f/{SLUG}/events/{event.pk}/registrations/")
    kyiv.get_by_role("button", name="Withdraw the no-shows and make the entries").click()
    expect(kyiv.locator(".messages")).to_contain_text(
        "1 no-show withdrawn. 1 moved up from the waiting list. 6 entries made."
    )
    lev = registrations[NO_SHOW]
    expect(kyiv.locator(f"#registration-{lev.pk}")).to_have_attribute("data-state", "no_show")
    zoya = registrations[WAITING]
    expect(kyiv.locator(f"#registration-{zoya.pk}")).to_have_attribute("data-state", "registered")
    entries = Entry.objects.filter(tournament=open_cup).select_related("player__club")
    assert entries.count() == CAP
    assert {e.player.club_id for e in entries} == {clubs["kyiv"].pk}  # guests' names of Kyiv
    entered = {
        link.person.user.username: link.player
        for link in PersonLink.objects.filter(
            player__in=[e.player for e in entries]
        ).select_related("person__user")
    }
    assert set(entered) == set(REGISTERING) - {NO_SHOW}
    assert entered["anna"].name == ANNA[0]  # her own Kyiv name
    assert entered["mark"].name == FULL_NAMES["mark"]  # a guest name, as he registered
    for username, player in entered.items():
        assert (
            EntryCategory.objects.filter(entry__tournament=open_cup, entry__player=player)
            .get()
            .category
            == expected_category[username]
        )

    # Two rounds, the deals recorded here; each category's standings on the event's page.
    for page in (owner, judge, *club_pages.values()):
        page.goto("about:blank")
    for number in (1, 2):
        play_round(open_cup, seed=f"open/{number}")
    open_cup.refresh_from_db()
    assert open_cup.finished_at is not None
    # The list owes the open stage's tables (they count though their evenings do not).
    kyiv.goto(f"{base}/f/{SLUG}/rating/")
    assert _rating_rows(kyiv) == _expected_rows(_replay(federation, list(clubs.values()), open_cup))

    kyiv.goto(f"{base}/f/{SLUG}/events/{event.pk}/standings/")
    overall = tournament_selectors.standings_from(open_cup, tournament_selectors.results(open_cup))
    for category in (master, amateur):
        members = set(category.entries.values_list("entry__player_id", flat=True))
        lines = [line for line in overall.lines if line.player in members]
        expected = []
        for index, one in enumerate(lines):
            tied = index and lines[index - 1].place == one.place
            expected.append((one.player, expected[-1][1] if tied else index + 1))
        shown = kyiv.locator(f"#category-{category.pk} tbody tr")
        assert shown.evaluate_all(
            "rows => rows.map(r => [+r.dataset.player, +r.cells[0].innerText])"
        ) == [list(one) for one in expected]
    kyiv.screenshot(path=str(artifacts / "open-event-standings.png"), full_page=True)

    # The second stage, Lviv's cup, with less ceremony.
    lviv_cup = make_tournament(
        clubs["lviv"], names=LVIV, name="Lviv Cup", round_count=2, start=today
    )
    for number in (1, 2):
        play_round(lviv_cup, seed=f"lviv/{number}")

    # The series: the judge opens it, adds the stages; the standings from the points table.
    judge.goto(f"{base}/f/{SLUG}/series/new/")
    form = judge.locator("#series-form")
    form.locator("input[name=name]").fill("Federation Cup")
    form.locator("input[name=season]").fill("2026")
    form.locator("input[name=final_from_series]").fill("2")
    form.locator("input[name=final_from_rating]").fill("2")
    form.locator("select[name=final]").select_option(str(final.pk))
    form.locator("button[type=submit]").click()
    judge.wait_for_url(re.compile(rf"/f/{SLUG}/series/\d+/$"))
    series = Series.objects.get(federation=federation)
    assert series.points == list(POINTS_PRESET)
    for number, stage in enumerate((open_cup, lviv_cup), start=1):
        judge.locator("#stage-form select[name=tournament]").select_option(str(stage.pk))
        _htmx_post(judge, judge.locator("#stage-form button[type=submit]"), "/stages/")
        expect(judge.locator("#series-outcome")).to_have_text(f"Stage {number} is added.")
    totals: dict[int, Fraction] = defaultdict(Fraction)
    for stage in (open_cup, lviv_cup):
        for person, points in _stage_points(_stage_places(stage)).items():
            totals[person] += points
    names = dict(Person.objects.filter(pk__in=totals).values_list("pk", "name"))
    rows = _rows(judge, "#series-standings tbody tr")
    shown = {row[1]: row[-2] for row in rows}
    assert shown == {names[person]: figure(total) for person, total in totals.items()}
    ranked_totals = [totals[next(p for p, n in names.items() if n == row[1])] for row in rows]
    assert ranked_totals == sorted(ranked_totals, reverse=True)
    series_ranked = [next(p for p, n in names.items() if n == row[1]) for row in rows]
    judge.screenshot(path=str(artifacts / "series-standings.png"), full_page=True)

    # The final: the series' winner defends his title, so his series place passes down.
    winner = series_ranked[0]
    judge.goto(f"{base}/f/{SLUG}/series/{series.pk}/settings/")
    judge.fill("#series-form input[name=defending_winner]", f"{names[winner]} #{winner}")
    judge.click("#series-form button[type=submit]")
    judge.wait_for_url(re.compile(rf"/f/{SLUG}/series/{series.pk}/$"))
    replayed = _replay(federation, list(clubs.values()), open_cup)
    rating_ranked = [
        person
        for person, (rating, pulkas) in sorted(
            replayed.items(), key=lambda item: -item[1][0].display
        )
        if pulkas >= LEAST_PULKAS
    ]
    from_series = _first(series_ranked, 2, [winner])
    from_rating = _first(rating_ranked, 2, [winner, *from_series])
    field = [winner, *from_series, *from_rating]
    everyone = dict(Person.objects.filter(pk__in=field).values_list("pk", "name"))
    judge.goto(f"{base}/f/{SLUG}/series/{series.pk}/final/")
    rows = _rows(judge, "#finalists tbody tr")
    assert [row[1] for row in rows] == [everyone[person] for person in field]
    assert rows[0][2] == "defending winner"
    assert rows[2][2] == f"series, place 3, the place passed down from {names[winner]}"
    _htmx_post(judge, judge.locator("#final-entries-form button"), "/final/entries/")
    expect(judge.locator("#final-outcome")).to_contain_text("5 finalists are entered")
    finalists = set(
        PersonLink.objects.filter(
            player__in=Entry.objects.filter(tournament=final).values("player")
        ).values_list("person_id", flat=True)
    )
    assert finalists == set(field)
    assert Entry.objects.filter(tournament=final).count() == len(field)

    # The rating list against the replay, once more (the final's guest names changed nothing).
    judge.goto(f"{base}/f/{SLUG}/rating/")
    assert _rating_rows(judge) == _expected_rows(replayed)
    judge.screenshot(path=str(artifacts / "federation-rating.png"), full_page=True)
