"""Open events' services: opening, registering (bounds, the cap and the waiting list,
eligibility), the mail and its QR code, the door (check-in, no-shows, entries) and the
categories' standings."""

from __future__ import annotations

import datetime
import subprocess
import threading
from decimal import Decimal
from fractions import Fraction

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone, translation

from club.models import AccountSettings, Player, Role
from competition.lib import tournament_scoring as ts
from competition.models import Entry
from competition.tournament.standings import StandingsPage
from federation import events
from federation.events import CategorySpec, EventError
from federation.models import (
    Category,
    Eligibility,
    EntryCategory,
    MemberClub,
    MemberState,
    OpenEvent,
    Person,
    PersonLink,
    RatingList,
    Registration,
    RegistrationState,
)
from tests.competition.factories import make_tournament, play_round, published
from tests.conftest import make_club, make_member, make_user
from tests.federation.conftest import make_event, make_federation
from tests.qr_codes import zbarimg

IN_A_DAY = datetime.timedelta(days=1)


def register(event, user=None, name="Olena Kovalenko", category=None) -> Registration:
    return events.registration_create(
        event=event, user=user or make_user(), name=name, category=category
    )


def states(event) -> list[tuple[str, str]]:
    rows = Registration.objects.filter(event=event).order_by("position")
    return list(rows.values_list("name", "state"))


# --- categories written as text (no database) -----------------------------------------------


def test_categories_are_read_one_a_line_with_their_rules():
    specs = events.categories_from_text(
        "  Любитель :  rating -1200\nМастер: rating 1200-1600\n\nПрофесіонал: RATING 1600-\n"
        "Жінки: chosen\nJuniors: anyone"
    )

    assert specs == [
        CategorySpec("Любитель", Eligibility.RATING, None, 1200),
        CategorySpec("Мастер", Eligibility.RATING, 1200, 1600),
        CategorySpec("Професіонал", Eligibility.RATING, 1600, None),
        CategorySpec("Жінки", Eligibility.CHOSEN),
        CategorySpec("Juniors", Eligibility.ANYONE),
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("\n".join(f"C{n}" for n in range(11)), "At most 10 categories"),
        ("Master\nmaster", "named twice"),
        ("Master: expert", "Line 1 is not understood"),
        ("Master: rating", "Line 1 is not understood"),
        ("Master: rating -", "Line 1 is not understood"),
        ("A\nMaster: rating 1600-1200", "Line 2: the rating range is empty"),
        ("Master: rating ١٢٠٠-", "Line 1 is not understood"),
        ("Master: rating 999999-", "a rating bound is a whole number up to"),
        ("M\u200baster", "Line 1:"),
        ("x" * 61, "Line 1:"),
        (": chosen", "Line 1:"),
    ],
)
def test_categories_the_rule_cannot_read_are_refused_naming_the_line(text, words):
    with pytest.raises(EventError) as refused:
        events.categories_from_text(text)

    assert words in refused.value.message
    assert refused.value.field == "categories"


def test_categories_written_back_read_the_same():
    specs = events.categories_from_text("Любитель: rating -1200\nWomen: chosen\nAll")
    categories = [Category(**vars(spec)) for spec in specs]

    assert events.categories_from_text(events.categories_to_text(categories)) == specs


def test_a_categorys_lines_are_renumbered_with_the_ties_the_standings_give():
    def line(player: int, place: int) -> ts.Line:
        zero = Fraction(0)
        return ts.Line(player, place, zero, zero, zero, zero, 0, zero, zero, lot=None, rounds={})

    lines = [line(1, 1), line(2, 1), line(3, 3), line(4, 4), line(5, 4), line(6, 6)]

    kept = events.category_lines(lines, {2, 3, 5, 6})

    assert [(one.player, one.place) for one in kept] == [(2, 1), (3, 2), (5, 3), (6, 4)]
    assert [(one.player, one.place) for one in events.category_lines(lines, {4, 5})] == [
        (4, 1),
        (5, 1),
    ]


# --- opening ---------------------------------------------------------------------------------


def test_a_member_clubs_tournament_opens_with_its_terms_and_categories(federation, clubs):
    event = make_event(
        federation,
        clubs[0],
        cap=12,
        fee=Decimal("150.50"),
        categories=events.categories_from_text("Master: rating 1200-\nWomen: chosen"),
    )

    assert (event.cap, event.fee, event.currency) == (12, Decimal("150.50"), "UAH")
    assert list(event.categories.values_list("name", "eligibility", "rating_min", "position")) == [
        ("Master", "rating", 1200, 0),
        ("Women", "chosen", None, 1),
    ]
    assert events.fee_text(event) == "150.50\xa0₴"


def _refused_to_open(federation, tournament, **terms) -> str:
    before = OpenEvent.objects.count()
    with pytest.raises(EventError) as refused:
        events.event_open(
            federation=federation,
            tournament=tournament,
            **{"deadline": timezone.now() + IN_A_DAY, **terms},
        )
    assert OpenEvent.objects.count() == before
    return refused.value.message


def test_a_tournament_of_a_club_outside_the_federation_is_not_opened(federation, clubs):
    elsewhere = make_tournament(make_club(), names=())

    assert "is not a member of" in _refused_to_open(federation, elsewhere)


def test_a_tournament_of_a_club_that_left_is_not_opened(federation, clubs):
    MemberClub.objects.filter(club=clubs[2]).update(state=MemberState.LEFT)

    message = _refused_to_open(federation, make_tournament(clubs[2], names=()))

    assert "Lviv Club is not a member of Kyiv Preferans Federation" in message


def test_a_tournament_whose_round_1_is_published_is_not_opened(federation, clubs):
    cup = make_tournament(clubs[0], names=("Anna", "Boris", "Vera"))
    published(cup)

    assert "Round 1 of this tournament is published" in _refused_to_open(federation, cup)


def test_a_tournament_is_opened_once(federation, clubs):
    event = make_event(federation, clubs[0])

    assert "open already" in _refused_to_open(federation, event.tournament)


@pytest.mark.parametrize(
    ("terms", "words"),
    [
        ({"deadline": timezone.now() - IN_A_DAY}, "later than now"),
        ({"cap": 2}, "3 to 1,000"),
        ({"cap": 1001}, "3 to 1,000"),
        ({"fee": Decimal("0")}, "The fee is from 0.01"),
        ({"fee": Decimal("1000000")}, "The fee is from 0.01"),
        ({"currency": "XXX"}, "Choose a currency"),
        ({"categories": [CategorySpec(f"C{n}") for n in range(11)]}, "At most 10"),
    ],
)
def test_terms_out_of_bounds_are_refused_and_nothing_opens(federation, clubs, terms, words):
    cup = make_tournament(clubs[0], names=())

    assert words in _refused_to_open(federation, cup, **terms)
    assert not Category.objects.exists()


# --- registering -----------------------------------------------------------------------------


def test_a_registration_gets_a_place_a_person_and_a_mail(
    federation, event, django_capture_on_commit_callbacks
):
    user = make_user(email="olena@example.com")

    with django_capture_on_commit_callbacks(execute=True):
        registration = register(event, user, name="  Olena   Kovalenko ")

    assert registration.state == RegistrationState.REGISTERED
    assert registration.name == "Olena Kovalenko"
    assert registration.person == Person.objects.get(federation=federation, user=user)
    assert registration.person.name == "Olena Kovalenko"
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["olena@example.com"]
    assert "Registered: Open Cup" in mail.outbox[0].subject


def test_his_own_person_is_used_when_he_has_one(federation, event):
    user = make_user()
    person = Person.objects.create(federation=federation, name="Олена Коваленко", user=user)

    registration = register(event, user, name="Olena K.")

    assert registration.person == person
    assert Person.objects.filter(federation=federation).count() == 1


def test_past_the_cap_they_wait_in_order_with_their_place_shown(federation, clubs):
    event = make_event(federation, clubs[0], cap=3)

    people = [register(event, name=f"Player {n}") for n in range(1, 6)]

    assert [one.state for one in people] == ["registered"] * 3 + ["waiting"] * 2
    assert [events.waiting_place(one) for one in people[3:]] == [1, 2]
    assert [one.position for one in people] == [1, 2, 3, 4, 5]
    assert events.places_of(event) == events.Places(3, 2, 3)


def test_one_live_registration_an_account(event):
    user = make_user()
    register(event, user)

    with pytest.raises(EventError, match="registered for this event already"):
        register(event, user, name="Other Name")

    assert Registration.objects.filter(event=event).count() == 1


def test_registering_again_and_again_has_a_bound(event):
    user = make_user()
    for _n in range(events.REGISTRATIONS_PER_ACCOUNT):
        events.registration_cancel(registration=register(event, user))

    with pytest.raises(EventError, match="too often"):
        register(event, user)


def test_nobody_registers_after_the_deadline(event):
    OpenEvent.objects.filter(pk=event.pk).update(deadline=timezone.now() - IN_A_DAY)

    with pytest.raises(EventError, match="closed at its deadline"):
        register(event)

    assert not Registration.objects.exists()


def test_nobody_registers_while_registration_is_closed_and_anyone_once_it_reopens(event):
    events.event_registration_set(event=event, open=False)
    with pytest.raises(EventError, match="is closed"):
        register(event)

    events.event_registration_set(event=event, open=True)

    assert register(event).state == RegistrationState.REGISTERED


def test_nobody_registers_once_round_1_is_published(federation, clubs):
    event = make_event(federation, clubs[0], names=("Anna", "Boris", "Vera"))
    published(event.tournament)

    with pytest.raises(EventError, match="has begun"):
        register(event)


def test_a_name_the_roster_could_not_take_is_refused(event):
    with pytest.raises(EventError) as refused:
        register(event, name="Olena\u200b")

    assert refused.value.field == "name"
    assert not Registration.objects.exists()
    assert not Person.objects.exists()


def test_a_cancelled_place_goes_to_the_first_one_waiting_who_is_mailed(
    federation, clubs, django_capture_on_commit_callbacks
):
    event = make_event(federation, clubs[0], cap=3)
    first, *_others = [register(event, name=f"Player {n}") for n in range(1, 4)]
    waiting = [register(event, make_user(email=f"w{n}@example.com"), f"Wait {n}") for n in (1, 2)]
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        moved = events.registration_cancel(registration=first)

    assert moved.pk == waiting[0].pk
    assert states(event)[0] == ("Player 1", "cancelled")
    assert states(event)[3:] == [("Wait 1", "registered"), ("Wait 2", "waiting")]
    assert events.waiting_place(Registration.objects.get(pk=waiting[1].pk)) == 1
    assert [one.to for one in mail.outbox] == [["w1@example.com"]]
    assert "A place for you" in mail.outbox[0].subject


def test_on_the_events_day_a_cancelled_place_waits_for_the_door(federation, clubs):
    event = make_event(federation, clubs[0], cap=3, start=timezone.localdate())
    first, *_others = [register(event, name=f"Player {n}") for n in range(1, 4)]
    register(event, name="Wait 1")

    assert events.registration_cancel(registration=first) is None

    assert states(event)[3] == ("Wait 1", "waiting")


def test_a_cancelled_registration_cannot_be_cancelled_again(event):
    registration = register(event)
    events.registration_cancel(registration=registration)

    with pytest.raises(EventError, match="cancelled already"):
        events.registration_cancel(registration=registration)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks across threads need PostgreSQL"
)
def test_registrations_arriving_together_at_the_cap_give_exactly_the_cap():
    federation = make_federation(slug="race")
    club = make_club()
    MemberClub.objects.create(federation=federation, club=club, state=MemberState.MEMBER)
    event = make_event(federation, club, cap=5)
    people = [make_user() for _n in range(12)]
    barrier = threading.Barrier(len(people))
    errors = []

    def arrive(user):
        try:
            barrier.wait()
            events.registration_create(event=event, user=user, name=f"Player {user.pk}")
        except Exception as exc:  # noqa: BLE001  (any failure fails the test below)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=arrive, args=(user,)) for user in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    rows = Registration.objects.filter(event=event)
    assert rows.filter(state=RegistrationState.REGISTERED).count() == 5
    assert rows.filter(state=RegistrationState.WAITING).count() == 7
    assert sorted(rows.values_list("position", flat=True)) == list(range(1, 13))


# --- eligibility -----------------------------------------------------------------------------


@pytest.fixture
def categorised(federation, clubs):
    return make_event(
        federation,
        clubs[0],
        categories=events.categories_from_text(
            "Amateur: rating -1200\nMaster: rating 1200-\nWomen: chosen\nOpen"
        ),
    )


def rated(federation, rating: float):
    user = make_user()
    person = Person.objects.create(federation=federation, name=f"Rated {user.pk}", user=user)
    RatingList.objects.create(
        federation=federation,
        person=person,
        place=1,
        rating=rating,
        mu=25,
        sigma=2,
        pulkas=20,
        last_date=datetime.date(2026, 1, 1),
    )
    return user, person


def offered(event, person) -> list[str]:
    return [one.name for one in events.categories_for(event, person)]


def test_a_category_is_offered_by_the_federation_rating(federation, categorised):
    _user, master = rated(federation, 1200.0)
    _user, amateur = rated(federation, 1199.5)

    assert offered(categorised, master) == ["Master", "Open"]
    assert offered(categorised, amateur) == ["Amateur", "Open"]


def test_an_unrated_player_is_offered_no_category_with_a_minimum(categorised):
    assert offered(categorised, None) == ["Amateur", "Open"]


def test_a_category_he_may_not_enter_is_refused(federation, categorised):
    user, _person = rated(federation, 1500.0)
    women = categorised.categories.get(name="Women")
    amateur = categorised.categories.get(name="Amateur")

    for category in (women, amateur):
        with pytest.raises(EventError, match="may not enter that category"):
            register(categorised, user, category=category)
    with pytest.raises(EventError, match="Choose your category"):
        register(categorised, user)

    assert not Registration.objects.exists()
    master = categorised.categories.get(name="Master")
    assert register(categorised, user, category=master).category == master


# --- the mail ----------------------------------------------------------------------------------


def test_the_mail_carries_a_qr_code_of_the_check_in_address(
    tmp_path, event, django_capture_on_commit_callbacks
):
    decoder = zbarimg()
    with django_capture_on_commit_callbacks(execute=True):
        registration = register(event, make_user(email="olena@example.com"))

    (message,) = mail.outbox
    html, kind = message.alternatives[0]
    images = [part for part in message.attachments if part.get_content_type() == "image/png"]
    path = tmp_path / "code.png"
    path.write_bytes(images[0].get_payload(decode=True))
    read = subprocess.run(
        [decoder, "--quiet", "--raw", str(path)], capture_output=True, text=True, timeout=60
    )

    url = events.check_in_url(registration)
    assert url.endswith(f"/f/kpf/events/{event.pk}/check-in/{registration.code}/")
    assert read.stdout.split() == [url]
    assert kind == "text/html"
    assert f'src="cid:{events.QR_CID}"' in html
    assert images[0]["Content-ID"] == f"<{events.QR_CID}>"
    assert url in message.body
    assert "You are registered for «Open Cup»" in message.body


def test_the_mail_is_in_his_language_and_says_his_place_on_the_waiting_list(
    federation, clubs, django_capture_on_commit_callbacks
):
    event = make_event(federation, clubs[0], cap=3)
    for n in range(3):
        register(event, name=f"Player {n}")
    user = make_user(email="taras@example.com")
    AccountSettings.objects.create(user=user, language="uk")

    with django_capture_on_commit_callbacks(execute=True):
        register(event, user, name="Taras")

    (message,) = mail.outbox
    with translation.override("uk"):
        expected = translation.gettext("Waiting list: %(name)s")
    assert message.subject.startswith(expected.split("%")[0].strip() or "Waiting")
    assert "1" in message.body
    assert "Taras" in message.body


def test_nobody_without_an_address_is_mailed(event, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        register(event, make_user(email=""))

    assert mail.outbox == []


# --- settings ----------------------------------------------------------------------------------


def _terms(event, **changes) -> dict:
    terms = {
        "deadline": event.deadline,
        "cap": event.cap,
        "fee": event.fee,
        "currency": event.currency,
        "counts_for_federation": event.counts_for_federation,
        "categories": [
            CategorySpec(one.name, one.eligibility, one.rating_min, one.rating_max)
            for one in event.categories.all()
        ],
    }
    return {**terms, **changes}


def test_the_cap_cannot_go_below_those_registered(federation, clubs):
    event = make_event(federation, clubs[0], cap=5)
    for n in range(4):
        register(event, name=f"Player {n}")

    with pytest.raises(EventError, match="4 are registered: the places cannot be fewer"):
        events.event_update(event=event, **_terms(event, cap=3))

    event.refresh_from_db()
    assert event.cap == 5


def test_a_raised_cap_moves_the_waiting_list_up(federation, clubs):
    event = make_event(federation, clubs[0], cap=3)
    for n in range(5):
        register(event, name=f"Player {n}")

    moved = events.event_update(event=event, **_terms(event, cap=4))

    assert [one.name for one in moved] == ["Player 3"]
    assert [state for _name, state in states(event)] == ["registered"] * 4 + ["waiting"]


def test_a_category_someone_is_in_stays(federation, categorised):
    register(categorised, category=categorised.categories.get(name="Amateur"))
    specs = events.categories_from_text("Master: rating 1300-\nOpen\nSeniors: chosen")

    with pytest.raises(EventError, match="Players are in the category Amateur"):
        events.event_update(event=categorised, **_terms(categorised, categories=specs))

    assert categorised.categories.count() == 4


def test_categories_are_changed_by_name(categorised):
    amateur = categorised.categories.get(name="Amateur")
    specs = events.categories_from_text("Seniors: chosen\nAmateur: rating -1300")

    events.event_update(event=categorised, **_terms(categorised, categories=specs))

    assert list(categorised.categories.values_list("pk", "name", "eligibility", "rating_max")) == [
        (categorised.categories.get(name="Seniors").pk, "Seniors", "chosen", None),
        (amateur.pk, "Amateur", "rating", 1300),
    ]


# --- the door ----------------------------------------------------------------------------------


def test_a_check_in_marks_him_once(event):
    registration = register(event)

    assert events.registration_check_in(registration=registration) is True
    came = Registration.objects.get(pk=registration.pk).checked_in_at
    assert events.registration_check_in(registration=registration) is False
    assert Registration.objects.get(pk=registration.pk).checked_in_at == came


def test_a_cancelled_registration_is_not_checked_in(event):
    registration = register(event)
    events.registration_cancel(registration=registration)

    with pytest.raises(EventError, match="was cancelled"):
        events.registration_check_in(registration=registration)


@pytest.fixture
def door(federation, clubs):
    """An event of 4 places with a category: the host club's own player Anna (linked by her
    account), Bohdan of the Lviv Club, Vera without any roster name, Gleb who will not come;
    Dana and Ehor waiting (both come), Zoya waiting who does not."""
    host, lviv = clubs[0], clubs[2]
    event = make_event(
        federation, clubs[0], cap=4, categories=events.categories_from_text("Open\nWomen: chosen")
    )
    anna = make_member(host, Role.PLAYER, username="anna").user
    Player.objects.create(club=host, name="Анна Шевчук", user=anna)
    bohdan = make_user(username="bohdan")
    Player.objects.create(club=lviv, name="Богдан Коваль", user=bohdan)
    lviv_person = Person.objects.create(federation=federation, name="Богдан Коваль", user=bohdan)
    PersonLink.objects.create(federation=federation, person=lviv_person, player=lviv.players.get())
    open_, women = event.categories.all()
    people = {}
    for username, name in [
        ("anna", "Anna"),
        ("bohdan", "Bohdan"),
        ("vera", "Віра Бондар"),
        ("gleb", "Gleb"),
        ("dana", "Dana"),
        ("ehor", "Ehor"),
        ("zoya", "Zoya"),
    ]:
        user = {"anna": anna, "bohdan": bohdan}.get(username) or make_user(username=username)
        people[username] = register(event, user, name=name, category=open_)
    events.registration_category_set(registration=people["vera"], category=women)
    for username in ("anna", "bohdan", "vera", "dana", "ehor"):
        events.registration_check_in(registration=people[username])
    return event, people


def test_the_door_withdraws_no_shows_moves_up_who_came_and_makes_the_entries(federation, door):
    event, people = door

    done = events.event_close_door(event=event)

    assert done.no_shows == ["Gleb"]
    assert done.moved_up == ["Dana"]  # one place freed; Ehor came too but waits
    assert states(event) == [
        ("Anna", "registered"),
        ("Bohdan", "registered"),
        ("Віра Бондар", "registered"),
        ("Gleb", "no_show"),
        ("Dana", "registered"),
        ("Ehor", "waiting"),
        ("Zoya", "waiting"),
    ]
    host = event.tournament.club
    entries = Entry.objects.filter(tournament=event.tournament)
    names = sorted(entries.values_list("player__name", flat=True))
    assert names == ["Dana", "Анна Шевчук", "Богдан Коваль", "Віра Бондар"]
    assert sorted(done.entered) == names
    guest = host.players.get(name="Богдан Коваль")  # a guest name of the host club
    assert PersonLink.objects.get(federation=federation, player=guest).person.user.username == (
        "bohdan"
    )
    assert Registration.objects.get(pk=people["anna"].pk).player.name == "Анна Шевчук"
    by_category = sorted(
        EntryCategory.objects.filter(entry__tournament=event.tournament).values_list(
            "category__name", "entry__player__name"
        )
    )
    assert by_category == [
        ("Open", "Dana"),
        ("Open", "Анна Шевчук"),
        ("Open", "Богдан Коваль"),
        ("Women", "Віра Бондар"),
    ]


def test_the_door_done_again_adds_only_who_is_missing(door):
    event, people = door
    events.event_close_door(event=event)
    Registration.objects.filter(pk=people["ehor"].pk).update(state=RegistrationState.REGISTERED)

    done = events.event_close_door(event=event)

    assert done.no_shows == []
    assert done.entered == ["Ehor"]
    assert Entry.objects.filter(tournament=event.tournament).count() == 5
    assert EntryCategory.objects.filter(entry__tournament=event.tournament).count() == 5


def test_the_door_is_shut_once_round_1_is_published(door):
    event, _people = door
    events.event_close_door(event=event)
    published(event.tournament)
    before = states(event)

    with pytest.raises(EventError, match="Round 1 is published"):
        events.event_close_door(event=event)

    assert states(event) == before


def test_a_category_changed_after_the_entries_follows_to_the_entry(door):
    event, people = door
    events.event_close_door(event=event)
    women = event.categories.get(name="Women")

    events.registration_category_set(registration=people["dana"], category=women)

    entry = Entry.objects.get(tournament=event.tournament, player__name="Dana")
    assert list(entry.categories.values_list("category__name", flat=True)) == ["Women"]


# --- the categories' standings -----------------------------------------------------------------


@pytest.fixture
def played(federation, clubs):
    """An event of six entrants in two categories, one round played and confirmed."""
    event = make_event(
        federation, clubs[0], categories=events.categories_from_text("Left: chosen\nRight: chosen")
    )
    left, right = event.categories.all()
    for n in range(6):
        registration = register(event, name=f"Player {n}")
        events.registration_check_in(registration=registration)
        category = left if n % 2 else right
        events.registration_category_set(registration=registration, category=category)
    events.event_close_door(event=event)
    play_round(event.tournament, seed=3)
    return event


def test_a_categorys_standings_are_the_tournaments_lines_renumbered(played):
    page = StandingsPage(played.tournament)
    overall = [(line.player, line.place) for line in page.standings.lines]

    for category in played.categories.all():
        players = events.category_players(category)
        lines = events.CategoryPage(page, category, players).standings.lines

        assert [line.player for line in lines] == [p for p, _place in overall if p in players]
        assert lines[0].place == 1
        assert [line.place for line in lines] == sorted(line.place for line in lines)
        assert len(lines) == 3


def test_a_categorys_printout_has_its_lines_and_its_name_in_the_title(played):
    import pypdfium2

    category = played.categories.get(name="Left")
    names = sorted(category.entries.values_list("entry__player__name", flat=True))

    context = events.category_standings_context(played, category)
    content = events.category_standings_pdf(played, category)

    assert sorted(row.name for row in context["rows"]) == names
    assert [row.place for row in context["rows"]][0] == 1
    assert context["title"].startswith("Left: ")
    text = pypdfium2.PdfDocument(content)[0].get_textpage().get_text_range()
    assert "Left: Standings after round 1" in text
    for name in names:
        assert name in text
    others = set(
        played.categories.get(name="Right").entries.values_list("entry__player__name", flat=True)
    )
    assert not any(name in text for name in others)


def test_the_rules_words_are_understood_in_the_pages_language_too():
    with translation.override("uk"):
        specs = events.categories_from_text("Жінки: вибір\nМайстри: рейтинг 1500-\nУсі: будь-хто")
        english = events.categories_from_text("Women: chosen\nMasters: rating 1500-")

    assert [(spec.eligibility, spec.rating_min) for spec in specs] == [
        (Eligibility.CHOSEN, None),
        (Eligibility.RATING, 1500),
        (Eligibility.ANYONE, None),
    ]
    assert [spec.eligibility for spec in english] == [Eligibility.CHOSEN, Eligibility.RATING]
