"""The federation's demo (federation.demo, `manage.py federation_demo`): it loads over the
club demo, twice without duplicating anything, and its pages show what it made."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from club.models import Club, Player
from competition.models import Entry, Tournament
from federation.demo import (
    CLUBS,
    FEDERATION_NAME,
    FEDERATION_SLUG,
    LVIV_CUP,
    OPEN_NAME,
    OPEN_REGISTERED,
    SERIES_NAME,
    demo_person,
    load_federation_demo,
)
from federation.models import (
    Federation,
    LinkEvent,
    LinkProposal,
    MemberClub,
    OpenEvent,
    Person,
    PersonLink,
    PersonRating,
    ProposalState,
    RatingList,
    Registration,
    Series,
    Stage,
)
from scoring.models import Deal, Evening, Pulka

pytestmark = pytest.mark.django_db

MODELS = (
    Club,
    Player,
    Evening,
    Pulka,
    Deal,
    Tournament,
    Entry,
    Federation,
    MemberClub,
    Person,
    PersonLink,
    LinkEvent,
    LinkProposal,
    OpenEvent,
    Registration,
    Series,
    Stage,
    PersonRating,
    RatingList,
)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.fixture
def federation(demo) -> Federation:
    load_federation_demo()
    return Federation.objects.get(slug=FEDERATION_SLUG)


def test_loading_it_twice_duplicates_nothing(federation, capsys):
    first = counts()

    call_command("federation_demo")

    assert counts() == first
    printed = capsys.readouterr().out
    assert f"/f/{FEDERATION_SLUG}/" in printed
    assert "federation / pulka-demo" in printed
    assert first["Club"] == 1 + len(CLUBS)
    assert first["MemberClub"] == 3
    assert first["Registration"] == len(OPEN_REGISTERED)
    assert first["Stage"] == 2
    assert first["RatingList"] > 10


def test_one_player_is_one_person_over_two_clubs_by_account_and_by_proposal(federation):
    oksana = demo_person()
    assert set(oksana.links.values_list("player__club__slug", flat=True)) == {"sochi", "lviv"}
    proposal = LinkProposal.objects.get(federation=federation)
    assert proposal.state == ProposalState.DONE
    andrii = proposal.person
    assert set(andrii.links.values_list("player__name", flat=True)) == {"Андрій", "Андрій Л."}
    assert proposal.clubs_confirmed == sorted(
        Club.objects.filter(slug__in=["sochi", "lviv"]).values_list("pk", flat=True)
    )


def test_its_pages_answer_with_what_it_made(federation, client):
    event = OpenEvent.objects.get(federation=federation)
    series = Series.objects.get(federation=federation)
    oksana = demo_person()
    listed = RatingList.objects.filter(federation=federation).select_related("person").first()
    pages = {
        reverse("federation:detail", args=[FEDERATION_SLUG]): [FEDERATION_NAME, OPEN_NAME],
        reverse("federation:clubs", args=[FEDERATION_SLUG]): [name for name, *_ in CLUBS.values()],
        reverse("federation:person", args=[FEDERATION_SLUG, oksana.pk]): [
            "Сочинка",
            "Львівський преф",
        ],
        reverse("federation:event", args=[FEDERATION_SLUG, event.pk]): [
            OPEN_NAME,
            f"{len(OPEN_REGISTERED)} of 8 taken",
            "Майстер",
            "Аматор",
        ],
        reverse("federation:series", args=[FEDERATION_SLUG, series.pk]): [SERIES_NAME, LVIV_CUP],
        reverse("federation:series-final", args=[FEDERATION_SLUG, series.pk]): [
            "series, place 1",
            "rating, place",
        ],
        reverse("federation:rating", args=[FEDERATION_SLUG]): [listed.person.name, "Calculated on"],
    }
    for url, texts in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        content = response.content.decode()
        for text in texts:
            assert text in content, (url, text)
