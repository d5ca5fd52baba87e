"""Open events' pages: what each persona of the matrix gets (anonymous, outsider, a member of
a member club, a club owner, a federation judge, the federation owner), full page and htmx
fragment, and what each action does through the browser's requests."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import Entry
from federation import events
from federation.models import OpenEvent, Registration, RegistrationState
from tests.club.factories import assert_not_found
from tests.competition.factories import make_tournament, play_round
from tests.conftest import HTMX, make_user
from tests.federation.conftest import FEDERATION_PERSONAS, make_event

pytestmark = pytest.mark.django_db

ORGANISERS = ("club_owner", "judge", "fed_owner")
NOT_ORGANISERS = ("outsider", "member")


@pytest.fixture
def personas(outsider, member, club_owner, judge, fed_owner):
    return {
        "outsider": outsider,
        "member": member,
        "club_owner": club_owner,
        "judge": judge,
        "fed_owner": fed_owner,
    }


@pytest.fixture
def as_(client, personas):
    def login(persona: str):
        if persona != "anonymous":
            client.force_login(personas[persona])
        return client

    return login


@pytest.fixture
def world(federation, clubs, event):
    """The event of 3 places, a fee and two categories (Open, Women: chosen): three registered
    in Open (Анна Шевчук, Boris, Vera) and Gleb waiting."""
    specs = events.categories_from_text("Open\nWomen: chosen")
    events.event_update(
        event=event,
        deadline=event.deadline,
        cap=3,
        fee=Decimal("150"),
        currency=event.currency,
        counts_for_federation=True,
        categories=specs,
    )
    event.refresh_from_db()
    open_ = event.categories.get(name="Open")
    people = [make_user(username=f"p{n}", email=f"p{n}@example.com") for n in range(4)]
    rows = [
        events.registration_create(event=event, user=user, name=name, category=open_)
        for user, name in zip(people, ["Анна Шевчук", "Boris", "Vera", "Gleb"], strict=True)
    ]
    return event, rows


def url(name: str, event: OpenEvent, *args) -> str:
    return reverse(f"federation:{name}", args=[event.federation.slug, event.pk, *args])


def to_login(response) -> bool:
    location = response.headers.get("HX-Redirect") or response.headers.get("Location", "")
    return response.status_code in (302, 204) and location.startswith("/accounts/login/")


def text(response) -> str:
    return response.content.decode()


# --- the public pages ----------------------------------------------------------------------


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_everyone_reads_the_list_the_event_and_its_standings(as_, world, persona, htmx):
    event, _rows = world
    client = as_(persona)
    headers = HTMX if htmx else {}

    listed = client.get(reverse("federation:events", args=["kpf"]), headers=headers)
    page = client.get(url("event", event), headers=headers)
    standings = client.get(url("event-standings", event), headers=headers)

    assert 'id="upcoming"' in text(listed)
    assert "Open Cup" in text(listed)
    assert 'id="event-places"' in text(page)
    assert "3 of 3 taken" in text(page)
    assert 'id="event-waiting">1<' in text(page)
    assert 'id="overall"' in text(standings)
    assert "Women" in text(standings)
    for response in (listed, page, standings):
        assert response.status_code == 200
        assert ("<html" in text(response)) is not htmx
    assert ('id="organiser-nav"' in text(page)) is (persona in ORGANISERS and not htmx)


def test_anonymous_is_asked_to_log_in_to_register(client, world):
    event, _rows = world

    page = client.get(url("event", event))
    posted = client.post(url("event", event), {"name": "Taras"})

    assert "Log in to register" in text(page)
    assert to_login(posted)
    assert Registration.objects.filter(event=event).count() == 4


def test_the_register_form_offers_his_name_and_registers_him(as_, world):
    event, _rows = world
    client = as_("member")

    page = client.get(url("event", event))
    posted = client.post(
        url("event", event), {"name": "Maksym", "category": event.categories.get(name="Open").pk}
    )

    assert 'value="maksym"' in text(page)  # the account's name, as the form starts
    assert "Women" not in text(page).split('id="register"')[1]  # chosen: not offered
    assert posted.status_code == 302
    assert posted["Location"] == url("event-me", event)
    mine = Registration.objects.get(event=event, user__username="maksym")
    assert (mine.name, mine.state) == ("Maksym", RegistrationState.WAITING)
    followed = client.get(url("event-me", event))
    assert "waiting list, number 2" in text(followed)
    assert 'id="check-in-qr"' in text(followed)
    assert "<svg" in text(followed)


def test_an_invalid_registration_by_htmx_shows_the_form_with_its_error(as_, world):
    event, _rows = world
    client = as_("member")

    response = client.post(url("event", event), {"name": "\u200b"}, headers=HTMX)

    assert response.status_code == 200
    assert 'id="event"' in text(response)
    assert "<html" not in text(response)
    assert 'class="field invalid"' in text(response)
    assert not Registration.objects.filter(user__username="maksym").exists()


def test_a_registration_by_htmx_goes_on_to_his_page(as_, world):
    event, _rows = world

    response = as_("member").post(
        url("event", event),
        {"name": "Maksym", "category": event.categories.get(name="Open").pk},
        headers=HTMX,
    )

    assert response.headers["HX-Redirect"] == url("event-me", event)


def test_registering_twice_says_so(as_, world):
    event, rows = world
    client = as_("member")
    open_ = event.categories.get(name="Open").pk
    client.post(url("event", event), {"name": "Maksym", "category": open_})

    again = client.get(url("event", event))

    assert "Your registration" in text(again)
    assert Registration.objects.filter(user__username="maksym").count() == 1


def test_a_closed_registration_says_why(as_, world):
    event, _rows = world
    OpenEvent.objects.filter(pk=event.pk).update(deadline=timezone.now() - datetime.timedelta(1))

    page = as_("member").get(url("event", event))

    assert "closed at its deadline" in text(page)
    assert 'name="name"' not in text(page)


# --- his registration --------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_his_page_shows_his_registration_and_cancelling_moves_the_next_one_up(
    client, world, htmx, django_capture_on_commit_callbacks
):
    event, rows = world
    client.force_login(rows[0].user)
    headers = HTMX if htmx else {}

    page = client.get(url("event-me", event), headers=headers)
    with django_capture_on_commit_callbacks(execute=True):
        cancelled = client.post(url("event-cancel", event), headers=headers)

    assert "Анна Шевчук" in text(page)
    assert ("<html" in text(page)) is not htmx
    assert to_login(cancelled) is False
    assert Registration.objects.get(pk=rows[0].pk).state == RegistrationState.CANCELLED
    assert Registration.objects.get(pk=rows[3].pk).state == RegistrationState.REGISTERED
    after = client.get(url("event-me", event))
    assert "Register again" in text(after)
    assert 'id="check-in-qr"' not in text(after)


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_nobody_elses_registration_is_on_his_page(as_, world, persona):
    event, _rows = world
    client = as_(persona)

    page = client.get(url("event-me", event))
    cancelled = client.post(url("event-cancel", event))

    if persona == "anonymous":
        assert to_login(page)
        assert to_login(cancelled)
    else:
        assert "You have not registered for this event." in text(page)
        assert cancelled.status_code == 404
    assert Registration.objects.filter(event=event, state="cancelled").count() == 0


# --- the organiser's pages: who may ------------------------------------------------------------

ORGANISER_PAGES = ("event-settings", "event-registrations", "event-check-in")


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize("name", ORGANISER_PAGES)
def test_the_organisers_pages_are_theirs_alone(as_, world, persona, htmx, name):
    event, _rows = world

    response = as_(persona).get(url(name, event), headers=HTMX if htmx else {})

    if persona == "anonymous":
        assert to_login(response)
    elif persona in NOT_ORGANISERS:
        assert response.status_code == 403
    else:
        assert response.status_code == 200
        fragment = {"event-settings": "settings-form", "event-registrations": "registrations"}
        assert f'id="{fragment.get(name, "search")}"' in text(response)
        assert ("<html" in text(response)) is not htmx


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_the_registrations_export_is_the_organisers(as_, world, persona):
    event, _rows = world

    response = as_(persona).get(url("event-registrations-export", event))

    if persona == "anonymous":
        assert to_login(response)
    elif persona in NOT_ORGANISERS:
        assert response.status_code == 403
    else:
        lines = response.content.decode("utf-8-sig").splitlines()
        assert lines[0].startswith("No.,Name,Account,E-mail,State")
        assert lines[1].startswith("1,Анна Шевчук,p0,p0@example.com,registered")
        assert lines[4].startswith("4,Gleb,p3,p3@example.com,waiting list,1,Open")


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_the_organisers_actions_are_theirs_alone(as_, world, persona):
    event, rows = world
    client = as_(persona)
    women = event.categories.get(name="Women")

    answers = [
        client.post(url("event-registration-paid", event, rows[0].pk), {"paid": "1"}),
        client.post(url("event-registration-category", event, rows[1].pk), {"category": women.pk}),
        client.post(url("event-registration-state", event), {"open": "0"}),
        client.post(
            url("event-settings", event),
            {
                "deadline": "2030-01-01T10:00",
                "cap": "3",
                "fee": "150",
                "currency": "EUR",
                "categories": "Open\nWomen: chosen",
            },
        ),
        client.post(url("event-close-door", event)),
    ]

    event.refresh_from_db()
    registration = Registration.objects.get(pk=rows[0].pk)
    if persona in ORGANISERS:
        assert registration.paid is True
        assert Registration.objects.get(pk=rows[1].pk).category == women
        assert event.registration_open is False
        assert event.currency == "EUR"
        assert Registration.objects.get(pk=rows[0].pk).state == RegistrationState.NO_SHOW
    else:
        assert all(
            to_login(one) if persona == "anonymous" else one.status_code == 403 for one in answers
        )
        assert registration.paid is False
        assert event.registration_open is True
        assert event.currency == "UAH"
        assert registration.state == RegistrationState.REGISTERED


# --- the organiser cancels a registration ------------------------------------------------------


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_an_organiser_cancels_a_registration_and_the_first_waiting_takes_the_place(
    as_, world, persona, htmx, mailoutbox, django_capture_on_commit_callbacks
):
    event, rows = world
    client = as_(persona)
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url("event-registration-cancel", event, rows[1].pk), headers=HTMX if htmx else {}
        )

    boris, gleb = (Registration.objects.get(pk=rows[n].pk) for n in (1, 3))
    if persona in ORGANISERS:
        assert boris.state == RegistrationState.CANCELLED
        assert gleb.state == RegistrationState.REGISTERED
        assert [mail.to for mail in mailoutbox] == [["p3@example.com"]]  # Gleb has a place
        if htmx:
            page = text(response)
            assert "The registration of Boris is cancelled. Gleb takes the place." in page
            assert 'id="registrations"' in page
            assert "<html" not in page
        else:
            assert response.status_code == 302
            assert response["Location"] == url("event-registrations", event)
    else:
        if persona == "anonymous":
            assert to_login(response)
        else:
            assert response.status_code == 403
        assert boris.state == RegistrationState.REGISTERED
        assert gleb.state == RegistrationState.WAITING
        assert mailoutbox == []


def test_a_cancelled_registration_is_not_cancelled_twice(as_, world):
    event, rows = world
    client = as_("judge")
    client.post(url("event-registration-cancel", event, rows[0].pk))

    again = client.post(url("event-registration-cancel", event, rows[0].pk), headers=HTMX)

    assert "This registration is cancelled already." in text(again)
    assert Registration.objects.filter(event=event, state=RegistrationState.REGISTERED).count() == 3


def test_a_registration_of_another_event_is_404_for_its_cancel(as_, world, federation, clubs):
    event, rows = world
    other = make_event(federation, clubs[2])

    response = as_("fed_owner").post(url("event-registration-cancel", other, rows[0].pk))

    assert_not_found(response)
    assert Registration.objects.get(pk=rows[0].pk).state == RegistrationState.REGISTERED


# --- the fee and the categories ------------------------------------------------------------------


def test_marking_paid_by_htmx_swaps_the_row(as_, world):
    event, rows = world
    client = as_("club_owner")

    paid = client.post(
        url("event-registration-paid", event, rows[0].pk), {"paid": "1"}, headers=HTMX
    )
    due = client.post(
        url("event-registration-paid", event, rows[0].pk), {"paid": "0"}, headers=HTMX
    )

    assert f'id="registration-{rows[0].pk}"' in text(paid)
    assert "<html" not in text(paid)
    assert "Анна Шевчук has paid." in text(paid)
    assert "Mark due" in text(paid)
    assert "Mark paid" in text(due)
    assert Registration.objects.get(pk=rows[0].pk).paid is False


def test_the_fee_column_shows_paid_and_due(as_, world):
    event, rows = world
    events.registration_paid(registration=rows[1], paid=True)

    page = as_("judge").get(url("event-registrations", event))

    assert text(page).count(">paid</span>") == 1
    assert text(page).count(">due</span>") == 3
    assert "Entry fee: 150\xa0₴." in text(page)


def test_a_category_of_another_event_is_refused(as_, world, federation, clubs):
    event, rows = world
    other = events.event_open(
        federation=federation,
        tournament=make_tournament(clubs[0], names=(), name="Other"),
        deadline=timezone.now() + datetime.timedelta(days=1),
        categories=events.categories_from_text("Elsewhere"),
    )

    response = as_("judge").post(
        url("event-registration-category", event, rows[0].pk),
        {"category": other.categories.get().pk},
        headers=HTMX,
    )

    assert "Choose one of this event" in text(response)
    assert Registration.objects.get(pk=rows[0].pk).category.name == "Open"


def test_a_registration_of_another_event_is_404(as_, world, federation, clubs):
    event, _rows = world
    other = events.event_open(
        federation=federation,
        tournament=make_tournament(clubs[0], names=(), name="Other"),
        deadline=timezone.now() + datetime.timedelta(days=1),
    )
    stranger = events.registration_create(event=other, user=make_user(), name="Stranger")

    response = as_("judge").post(url("event-registration-paid", event, stranger.pk), {"paid": "1"})

    assert response.status_code == 404
    assert Registration.objects.get(pk=stranger.pk).paid is False


def test_the_settings_page_refuses_a_cap_under_the_registered(as_, federation, clubs):
    event = events.event_open(
        federation=federation,
        tournament=make_tournament(clubs[0], names=()),
        deadline=timezone.now() + datetime.timedelta(days=1),
        cap=5,
    )
    for n in range(4):
        events.registration_create(event=event, user=make_user(), name=f"P{n}")
    form = {
        "deadline": timezone.localtime(event.deadline).strftime("%Y-%m-%dT%H:%M"),
        "cap": "3",
        "currency": "UAH",
    }

    refused = as_("club_owner").post(url("event-settings", event), form, headers=HTMX)

    assert response_ok(refused)
    assert "4 are registered: the places cannot be fewer." in text(refused)
    event.refresh_from_db()
    assert event.cap == 5


def response_ok(response) -> bool:
    return response.status_code == 200 and "<html" not in text(response)


# --- at the door -------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_a_check_in_code_is_the_organisers_and_opening_it_changes_nothing(as_, world, persona):
    event, rows = world
    client = as_(persona)
    address = url("event-check-in-code", event, rows[0].code)

    opened = client.get(address)
    assert Registration.objects.get(pk=rows[0].pk).checked_in_at is None
    marked = client.post(address)

    came = Registration.objects.get(pk=rows[0].pk).checked_in_at
    if persona == "anonymous":
        assert to_login(opened)
        assert to_login(marked)
        assert came is None
    elif persona in NOT_ORGANISERS:
        assert opened.status_code == 404
        assert marked.status_code == 404
        assert came is None
    else:
        assert 'id="check-in-name">Анна Шевчук<' in text(opened)
        assert "Mark as came" in text(opened)
        assert marked.status_code == 302
        assert came is not None


def test_an_unknown_code_is_404_even_for_the_organiser(as_, world):
    event, _rows = world

    response = as_("judge").get(url("event-check-in-code", event, "no-such-code"))

    assert_not_found(response, "check-in-name")


def test_checking_in_by_htmx_answers_with_the_card(as_, world):
    event, rows = world
    client = as_("fed_owner")
    address = url("event-check-in-code", event, rows[3].code)

    first = client.post(address, headers=HTMX)
    second = client.post(address, headers=HTMX)

    assert 'id="card"' in text(first)
    assert "<html" not in text(first)
    assert "Gleb came." in text(first)
    assert "waiting list, number 1" in text(first)
    assert "Mark as came" not in text(first)
    assert "Gleb was checked in already." in text(second)


def test_the_search_finds_by_any_case_and_a_typed_code_opens_its_page(as_, world):
    event, rows = world
    client = as_("club_owner")

    found = client.get(url("event-check-in", event), {"q": "шЕВ"}, headers=HTMX)
    typed = client.get(url("event-check-in", event), {"code": f"  {rows[1].code} "})
    pasted = client.get(
        url("event-check-in", event),
        {"code": "https://x.example" + url("event-check-in-code", event, rows[2].code)},
    )
    wrong = client.get(url("event-check-in", event), {"code": "nothing"})

    assert 'id="found"' in text(found)
    assert "Анна Шевчук" in text(found)
    assert "Boris" not in text(found)
    assert typed["Location"] == url("event-check-in-code", event, rows[1].code)
    assert pasted["Location"] == url("event-check-in-code", event, rows[2].code)
    assert "No registration of this event has that code." in text(wrong)


def test_the_check_in_page_has_the_scanner_without_inline_script(as_, world):
    event, _rows = world

    page = text(as_("judge").get(url("event-check-in", event)))

    assert 'src="/static/vendor/jsQR-1.4.0.js"' in page
    assert 'src="/static/js/checkin.js"' in page
    assert f'data-check-in-prefix="{url("event-check-in", event)}"' in page
    assert "<script>" not in page


def test_the_door_by_the_registrations_page(as_, world):
    event, rows = world
    client = as_("club_owner")
    for one in rows[1:]:
        events.registration_check_in(registration=one)

    response = client.post(url("event-close-door", event), follow=True)

    assert "1 no-show withdrawn. 1 moved up from the waiting list. 3 entries made." in text(
        response
    )
    assert sorted(
        Entry.objects.filter(tournament=event.tournament).values_list("player__name", flat=True)
    ) == [
        "Boris",
        "Gleb",
        "Vera",
    ]
    refused = client.post(url("event-close-door", event), follow=True)
    assert "0 entries made." in text(refused)


# --- opening a tournament ---------------------------------------------------------------------


def opening(tournament) -> dict:
    return {
        "tournament": str(tournament.pk),
        "deadline": (timezone.localtime() + datetime.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
        "cap": "20",
        "fee": "150,50",
        "currency": "",
        "counts_for_federation": "on",
        "categories": "Amateur: rating -1200\nMaster: rating 1200-",
    }


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_opening_a_tournament_is_for_its_clubs_organisers(as_, federation, clubs, persona):
    cup = make_tournament(clubs[0], names=(), name="Spring Open")
    client = as_(persona)

    page = client.get(reverse("federation:events", args=["kpf"]))
    posted = client.post(reverse("federation:events", args=["kpf"]), opening(cup))

    event = OpenEvent.objects.filter(tournament=cup).first()
    if persona == "club_owner":
        assert "Open a tournament to the federation" in text(page)
        assert posted["Location"] == url("event", event)
        assert (event.cap, str(event.fee), event.currency) == (20, "150.50", "UAH")
        assert list(event.categories.values_list("name", flat=True)) == ["Amateur", "Master"]
    else:
        assert "Open a tournament to the federation" not in text(page)
        assert event is None
        assert to_login(posted) if persona == "anonymous" else posted.status_code == 403


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"deadline": "2020-01-01T10:00"}, "Registration must close later than now."),
        ({"cap": "2"}, "Ensure this value is greater than or equal to 3."),
        ({"fee": "1e5"}, "Write the fee as a number"),
        ({"fee": "0"}, "Leave the fee empty for a free event."),
        ({"categories": "A: rating 5-1"}, "the rating range is empty"),
        ({"tournament": "٣"}, "Select a valid choice"),
    ],
)
def test_opening_with_bad_terms_shows_the_form_with_the_error(as_, clubs, change, words):
    cup = make_tournament(clubs[0], names=(), name="Spring Open")

    response = as_("club_owner").post(
        reverse("federation:events", args=["kpf"]), {**opening(cup), **change}, headers=HTMX
    )

    assert response_ok(response)
    assert 'id="open-form"' in text(response)
    assert words in text(response)
    assert not OpenEvent.objects.exists()


def test_a_played_tournament_is_not_offered(as_, clubs):
    cup = make_tournament(clubs[0], names=("Anna", "Boris", "Vera"), name="Played Cup")
    play_round(cup)

    page = as_("club_owner").get(reverse("federation:events", args=["kpf"]))

    assert "Played Cup" not in text(page)


# --- the categories' printouts -----------------------------------------------------------------


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_a_categorys_printout_is_public(as_, world, persona):
    event, _rows = world
    women = event.categories.get(name="Women")

    response = as_(persona).get(url("event-category-pdf", event, women.pk))
    other = as_(persona).get(url("event-category-pdf", event, 999_999))

    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert "Women" in response["Content-Disposition"]
    assert other.status_code == 404
