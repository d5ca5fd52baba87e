import pytest

from club.models import Club
from scoring.forms import RulesForm
from tests.club.factories import (
    MANAGE,
    assert_fragment,
    assert_full_page,
    assert_login_redirect,
    html,
)
from tests.conftest import HTMX, PERSONAS

URL = "/c/sochi/conventions/"


def form(club: Club, rules: dict | None = None, **overrides) -> dict:
    """The conventions form as the browser posts it, with the club's current values."""
    data = {}
    initial = RulesForm.initial_from({**club.default_rules(), **(rules or {})})
    for key, value in initial.items():
        if value is True:
            data[f"rules-{key}"] = "on"
        elif value is not False:
            data[f"rules-{key}"] = str(value)
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_see_the_conventions(as_persona, club_a, persona):
    response = as_persona(persona).get(URL)

    assert response.status_code == MANAGE[persona]
    if response.status_code == 200:
        text = assert_full_page(response, "rules-form")
        assert 'name="rules-pool_target" value="10"' in text


@pytest.mark.django_db
def test_the_conventions_fragment_is_the_form_alone(as_persona, club_a):
    assert_fragment(as_persona("owner").get(URL, headers=HTMX), "rules-form")


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_owners_change_the_conventions(as_persona, club_a, persona):
    response = as_persona(persona).post(URL, form(club_a, rules={"pool_target": 25}))

    allowed = MANAGE[persona] == 200
    assert response.status_code == (302 if allowed else MANAGE[persona])
    club_a.refresh_from_db()
    assert club_a.pool_target == (25 if allowed else 10)


@pytest.mark.django_db
def test_saving_stores_the_pool_target_apart_from_the_other_conventions(as_persona, club_a):
    client = as_persona("owner")
    data = form(club_a, rules={"pool_target": 30, "help": False, "raspasy_progression": [1, 2, 4]})

    response = client.post(URL, data)

    assert response["Location"] == URL
    club_a.refresh_from_db()
    assert club_a.pool_target == 30
    assert "pool_target" not in club_a.rules
    assert club_a.rules["help"] is False
    assert club_a.rules["raspasy_progression"] == [1, 2, 4]
    assert club_a.default_rules()["pool_target"] == 30
    text = html(client.get(URL))
    assert "The club&#x27;s conventions are saved." in text
    assert 'name="rules-pool_target" value="30"' in text


@pytest.mark.django_db
def test_htmx_save_returns_the_form_with_a_notice(as_persona, club_a):
    response = as_persona("owner").post(URL, form(club_a, rules={"pool_target": 12}), headers=HTMX)

    text = assert_fragment(response, "rules-form")
    assert "The club&#x27;s conventions are saved." in text
    assert 'name="rules-pool_target" value="12"' in text
    club_a.refresh_from_db()
    assert club_a.pool_target == 12


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HTMX])
@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"rules-raspasy_progression": "1, two, 3"}, "Write the raspasy costs as whole numbers"),
        ({"rules-pool_target": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"rules-pool_target": "lots"}, "Enter a whole number."),
        ({"rules-consolation": "everyone"}, "Select a valid choice."),
    ],
)
def test_bad_input_saves_nothing_and_says_why(as_persona, club_a, headers, overrides, message):
    data = form(club_a, rules={"help": False}, **overrides)

    response = as_persona("owner").post(URL, data, headers=headers)

    assert response.status_code == 200
    text = html(response)
    assert message in text
    club_a.refresh_from_db()
    assert club_a.pool_target == 10
    assert club_a.rules.get("help", True) is True


@pytest.mark.django_db
def test_anonymous_on_a_public_club_is_sent_to_log_in(client, public_club):
    url = "/c/open/conventions/"

    assert_login_redirect(client.post(url, form(public_club, rules={"pool_target": 5})), url)
    public_club.refresh_from_db()
    assert public_club.pool_target != 5
