"""An evening's venue and notes follow the one rule for names (club.names, tested in
tests/club/test_name_rule.py): the venue is one line; the notes keep their line breaks, and
refuse invisible and direction characters all the same."""

from __future__ import annotations

import datetime

import pytest

from scoring.forms import EveningForm
from scoring.models import Evening
from tests.club.factories import html
from tests.conftest import make_evening

pytestmark = pytest.mark.django_db

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
NEW = "/c/sochi/evenings/new/"


@pytest.mark.parametrize(("field", "what"), [("venue", "The venue"), ("notes", "The notes")])
def test_a_new_evening_with_an_override_is_refused_and_none_is_opened(
    as_persona, club_a, field, what
):
    data = {"date": "2024-05-17", "venue": "Kurortny 12", "notes": "Bring cards"}
    data[field] = f"Kurortny{RLO} 12"

    response = as_persona("secretary").post(NEW, data)

    assert response.status_code == 200
    assert f"{what} contains an invisible, direction or control character (U+202E)" in html(
        response
    )
    assert not Evening.objects.filter(club=club_a).exists()


def test_an_edit_with_an_override_in_the_notes_changes_nothing(as_persona, club_a):
    evening = make_evening(club_a, date=datetime.date(2024, 5, 17), venue="Old room", notes="Hi")

    response = as_persona("secretary").post(
        f"/c/sochi/s/{evening.pk}/edit/",
        {"date": "2024-06-01", "venue": "New room", "notes": f"Bring\n{RLO}cards"},
    )

    assert "(U+202E)" in html(response)
    evening.refresh_from_db()
    assert (evening.date, evening.venue, evening.notes) == (
        datetime.date(2024, 5, 17),
        "Old room",
        "Hi",
    )


def test_the_notes_keep_their_lines_and_the_venue_is_one_line(as_persona, club_a):
    data = {
        "date": "2024-05-17",
        "venue": " Kurortny\n12 ",
        "notes": "Bring:\r\n  cards\r\n\r\n\r\n  chalk  ",
    }

    as_persona("secretary").post(NEW, data)

    evening = Evening.objects.get(club=club_a)
    assert (evening.venue, evening.notes) == ("Kurortny 12", "Bring:\ncards\n\nchalk")
    assert EveningForm({**data, "notes": ""}).is_valid()  # no notes at all is allowed
