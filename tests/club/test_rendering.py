"""club.rendering, the one way views answer: the page or its fragment, the answer after an
action, the answer to a poll, and what every club page's context holds."""

from __future__ import annotations

import pytest
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import RequestFactory
from django_htmx.middleware import HtmxDetails

from club.access import ClubAccess
from club.models import Club, Role
from club.rendering import (
    after_action,
    club_context,
    is_poll,
    nothing_changed,
    poll_answer,
    render_fragment,
    render_page,
    wants_fragment,
)

PAGE = (
    "{% load partials %}<!doctype html><html><body><h1>The page</h1>"
    '{% partialdef part %}<p id="part">{{ word }}</p>{% endpartialdef %}{% partial part %}'
    "</body></html>"
)


@pytest.fixture(autouse=True)
def _one_page_template(settings):
    """A page with one partial, from memory: these tests need no real page."""
    settings.TEMPLATES = [
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "OPTIONS": {
                "loaders": [
                    (
                        "template_partials.loader.Loader",
                        [("django.template.loaders.locmem.Loader", {"page.html": PAGE})],
                    )
                ]
            },
        }
    ]


HTMX_HEADERS = {"HX-Request": "true"}
BOOSTED = {**HTMX_HEADERS, "HX-Boosted": "true"}
HISTORY = {**HTMX_HEADERS, "HX-History-Restore-Request": "true"}


def request(method: str = "get", path: str = "/here/", headers: dict | None = None, **data):
    """A request as the middleware leaves it: htmx details, a user and message storage."""
    made = getattr(RequestFactory(), method)(path, data, headers=headers or {})
    made.htmx = HtmxDetails(made)
    made.user = AnonymousUser()
    made._messages = CookieStorage(made)
    return made


def flashed(made) -> list[tuple[int, str]]:
    return [(message.level, message.message) for message in made._messages]


def said(outcome: str):
    """The fragment of an action: the page's partial, with the outcome in its context."""
    return render_fragment(request(headers=HTMX_HEADERS), "page.html#part", {"word": outcome})


# --- wants_fragment and render_page ------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "expected"),
    [({}, False), (HTMX_HEADERS, True), (BOOSTED, False), (HISTORY, False)],
    ids=["plain", "htmx", "boosted", "history-restore"],
)
def test_only_an_htmx_request_that_swaps_a_part_wants_a_fragment(headers, expected):
    assert wants_fragment(request(headers=headers)) is expected


def test_a_plain_request_gets_the_whole_page():
    response = render_page(request(), "page.html", {"word": "whist"}, fragment="part")

    text = response.content.decode()
    assert "<h1>The page</h1>" in text
    assert '<p id="part">whist</p>' in text
    assert response["Vary"] == "HX-Request"


def test_an_htmx_request_gets_the_named_fragment_alone():
    response = render_page(
        request(headers=HTMX_HEADERS), "page.html", {"word": "whist"}, fragment="part"
    )

    assert response.content.decode() == '<p id="part">whist</p>'
    assert "<html" not in response.content.decode()
    assert response["Vary"] == "HX-Request"


def test_a_boosted_request_gets_the_whole_page():
    response = render_page(request(headers=BOOSTED), "page.html", {"word": "x"}, fragment="part")

    assert "<h1>The page</h1>" in response.content.decode()


def test_a_page_keeps_the_status_it_is_given():
    response = render_page(request(), "page.html", {"word": "x"}, fragment="part", status=409)

    assert response.status_code == 409
    assert '<h1>The page</h1><p id="part">x</p>' in response.content.decode()


def test_a_fragment_is_a_fragment_whatever_the_request():
    response = render_fragment(request(), "page.html#part", {"word": "pass"})

    assert response.content.decode() == '<p id="part">pass</p>'
    assert response["Vary"] == "HX-Request"


# --- after_action ------------------------------------------------------------------------------


def test_after_a_plain_form_the_outcome_is_flashed_and_the_browser_redirected():
    made = request("post")

    response = after_action(made, "Saved.", url="/there/", fragment=said)

    assert response.status_code == 302
    assert response["Location"] == "/there/"
    assert flashed(made) == [(messages.SUCCESS, "Saved.")]


def test_after_an_htmx_action_the_fragment_says_the_outcome_and_nothing_is_flashed():
    made = request("post", headers=HTMX_HEADERS)

    response = after_action(made, "Saved.", url="/there/", fragment=said)

    assert response.status_code == 200
    assert response.content.decode() == '<p id="part">Saved.</p>'
    assert "HX-Redirect" not in response
    assert flashed(made) == []


def test_an_htmx_action_without_a_fragment_is_sent_on_by_hx_redirect_never_a_302():
    made = request("post", headers=HTMX_HEADERS)

    response = after_action(made, "Opened.", url="/there/")

    assert response.status_code == 200
    assert response["HX-Redirect"] == "/there/"
    assert "Location" not in response
    assert flashed(made) == [(messages.SUCCESS, "Opened.")]


def test_a_boosted_request_is_sent_on_by_hx_redirect_even_when_there_is_a_fragment():
    made = request("post", headers=BOOSTED)

    response = after_action(made, "Saved.", url="/there/", fragment=said)

    assert response["HX-Redirect"] == "/there/"
    assert flashed(made) == [(messages.SUCCESS, "Saved.")]


def test_a_refusal_is_flashed_at_its_own_level():
    made = request("post")

    after_action(made, "Not now.", url="/there/", level=messages.ERROR)

    assert flashed(made) == [(messages.ERROR, "Not now.")]


def test_an_action_with_nothing_to_say_flashes_nothing():
    made = request("post")

    response = after_action(made, url="/there/")

    assert response["Location"] == "/there/"
    assert flashed(made) == []


# --- polls -------------------------------------------------------------------------------------


def test_a_poll_is_an_htmx_request_that_names_its_version():
    assert is_poll(request(headers=HTMX_HEADERS, v="7"))
    assert not is_poll(request(headers=HTMX_HEADERS))
    assert not is_poll(request(v="7"))


def test_a_poll_holding_the_current_version_gets_204_and_no_body():
    rendered = []

    response = poll_answer(
        request(headers=HTMX_HEADERS, v="7"), "7", lambda: rendered.append(1) or said("new")
    )

    assert response.status_code == 204
    assert response.content == b""
    assert rendered == []  # nothing is rendered for an unchanged poll


@pytest.mark.parametrize("held", ["6", "", None], ids=["older", "empty", "none"])
def test_a_poll_holding_another_version_gets_the_fragment(held):
    query = {} if held is None else {"v": held}

    response = poll_answer(request(headers=HTMX_HEADERS, **query), "7", lambda: said("new"))

    assert response.status_code == 200
    assert response.content.decode() == '<p id="part">new</p>'


def test_nothing_changed_is_204_and_varies_on_htmx():
    response = nothing_changed()

    assert response.status_code == 204
    assert response["Vary"] == "HX-Request"


# --- club_context -------------------------------------------------------------------------------


def test_a_club_page_holds_the_club_the_access_and_its_own_keys():
    club = Club(name="Sochi Club", slug="sochi")
    access = ClubAccess(club=club, role=Role.SECRETARY)

    context = club_context(access, form="the form", notice=None)

    assert context == {"club": club, "access": access, "form": "the form", "notice": None}
