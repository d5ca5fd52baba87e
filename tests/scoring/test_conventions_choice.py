"""Choosing the convention: Sochi, Leningrad or Rostov fill in every option; options can still
be changed ("Leningrad (Piter), with changes: ..."); options with no effect are disabled with
the reason (engine.inert_options). The club's defaults, a new table and a table's own rules."""

from __future__ import annotations

import pytest

from club.models import Club
from scoring import engine
from scoring.forms import OPTION_CHOICES, RulesForm
from scoring.models import Pulka
from tests.club.factories import RECORD, assert_fragment, html
from tests.conftest import HTMX, PERSONAS, make_evening, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS

pytestmark = pytest.mark.django_db

FIELDS = "/c/sochi/conventions/fields/"
CLUB_RULES = "/c/sochi/conventions/"


def posted(rules: engine.Rules, **overrides) -> dict:
    """The conventions form as a browser posts it (prefix rules-): checked boxes only."""
    data = {}
    for key, value in RulesForm.initial_from(engine.rules_to_dict(rules)).items():
        if value is True:
            data[f"rules-{key}"] = "on"
        elif value is not False:
            data[f"rules-{key}"] = str(value)
    data.update({f"rules-{k}": v for k, v in overrides.items()})
    return {k: v for k, v in data.items() if v is not None}


def option(text: str, key: str) -> str:
    """The HTML of one option's block in the rendered form."""
    start = text.index(f'data-option="{key}"')
    return text[start : text.index("</div>", start)]


# --- the form knows every option ------------------------------------------------------------


def test_every_rules_key_has_a_field_and_every_allowed_value_a_label():
    form = RulesForm(prefix="rules", rules={})
    assert set(form.fields) == set(engine.RULE_KEYS)
    for key, values in engine.OPTION_CHOICES.items():
        assert [value for value, _label in OPTION_CHOICES[key]] == list(values), key
    assert [v for v, _ in OPTION_CHOICES["preset"]] == list(engine.PRESETS)
    assert [v for v, _ in OPTION_CHOICES["game_price_multiplier"]] == ["1", "2"]


@pytest.mark.parametrize("preset", engine.PRESETS)
def test_every_preset_round_trips_through_the_form(preset):
    rules = engine.preset_rules(preset, pool_target=30)
    form = RulesForm(posted(rules), prefix="rules", rules={})

    assert form.is_valid(), form.errors
    assert form.rules == engine.rules_to_dict(rules)


# --- the fields view: htmx re-renders the fieldset ------------------------------------------


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize("persona", PERSONAS)
def test_only_secretaries_and_owners_get_the_conventions_fields(as_persona, club_a, persona, htmx):
    query = posted(engine.Rules(pool_target=10), preset="leningrad", apply_preset="1")

    response = as_persona(persona).get(FIELDS, query, headers=HTMX if htmx else {})

    allowed = RECORD[persona] == 200
    if not allowed:
        assert response.status_code == RECORD[persona]
    elif htmx:
        text = assert_fragment(response, "rules-fields")
        assert "<html" not in text
        assert '<option value="leningrad" selected>' in text
    else:
        # the fragment alone is no page: the full request goes back to the club
        assert response.status_code == 302
        assert response.url == club_a.get_absolute_url()


def test_the_fields_view_without_htmx_goes_back_to_the_club(as_persona, club_a):
    response = as_persona("secretary").get(FIELDS, {"rules-preset": "rostov"})

    assert response.status_code == 302
    assert response.url == club_a.get_absolute_url()


def test_choosing_leningrad_fills_in_its_options_and_keeps_the_pool_target(as_persona, club_a):
    query = posted(engine.Rules(pool_target=30), preset="leningrad", apply_preset="1")

    text = html(as_persona("owner").get(FIELDS, query, headers=HTMX))

    assert 'name="rules-pool_target" value="30"' in text
    assert '<option value="leningrad" selected>' in text
    assert '<option value="sum" selected>' in option(text, "pool_end")
    assert 'name="rules-raspasy_progression" value="2, 4, 6"' in text
    assert '<option value="2" selected>' in option(text, "game_price_multiplier")
    # help has no effect when the pools add up: disabled, with the reason
    help_block = option(text, "help")
    assert "disabled" in help_block
    assert "No effect: the pulka ends by the sum of the pools, so there is no help." in help_block
    assert "data-summary>Leningrad (Piter)</p>" in text


def test_changing_an_option_says_with_changes_and_enables_what_now_counts(as_persona, club_a):
    leningrad = engine.preset_rules("leningrad", pool_target=20)
    query = posted(leningrad, pool_end="each", lone_whister="greedy")

    text = html(as_persona("secretary").get(FIELDS, query, headers=HTMX))

    assert "disabled" not in option(text, "help")
    summary = text[text.index("data-summary>") : text.index("</p>", text.index("data-summary>"))]
    assert "Leningrad (Piter), with changes:" in summary
    assert "The pulka ends — when every pool reaches the target (with help)" in summary
    assert "Lone whister — greedy" in summary


def test_a_disabled_option_keeps_its_value_in_a_hidden_input(as_persona, club_a):
    rostov = engine.preset_rules("rostov", pool_target=20)

    text = html(as_persona("secretary").get(FIELDS, posted(rostov), headers=HTMX))

    amnesty = option(text, "raspasy_amnesty")
    assert "disabled" in amnesty
    assert "No effect: raspasy are scored in whists." in amnesty
    assert '<input type="hidden" name="rules-raspasy_amnesty" value="on">' in amnesty
    assert "disabled" not in option(text, "raspasy_whist_rate")


def test_nonsense_in_the_fields_view_shows_the_form_as_it_was(as_persona, club_a):
    query = {"rules-preset": "moscow", "rules-pool_target": "²", "rules-apply_preset": "1"}

    text = html(as_persona("secretary").get(FIELDS, query, headers=HTMX))

    assert '<option value="sochi" selected>' in text
    assert 'name="rules-pool_target" value="10"' in text


# --- the club's default conventions -----------------------------------------------------------


def test_the_apply_button_without_javascript_fills_in_and_saves_nothing(as_persona, club_a):
    data = posted(engine.Rules(pool_target=15), preset="rostov", apply_preset="1")

    response = as_persona("owner").post(CLUB_RULES, data)

    assert response.status_code == 200
    text = html(response)
    assert '<option value="whists" selected>' in option(text, "raspasy_scoring")
    assert 'name="rules-pool_target" value="15"' in text
    club_a.refresh_from_db()
    assert club_a.rules.get("preset", "sochi") == "sochi"
    assert club_a.pool_target == 10


def test_the_club_saves_leningrad_with_a_change_and_new_tables_start_with_it(as_persona, club_a):
    rules = engine.preset_rules("leningrad", pool_target=30, quick_tricks=True)

    response = as_persona("owner").post(CLUB_RULES, posted(rules))

    assert response.status_code == 302
    club_a.refresh_from_db()
    assert engine.rules_from_dict(club_a.default_rules()) == rules
    page = html(as_persona("owner").get(CLUB_RULES))
    assert "Leningrad (Piter), with changes: Quick tricks in the talon are paid — yes" in page
    evening = make_evening(club_a)
    new_table = html(as_persona("secretary").get(evening.get_absolute_url()))
    assert '<option value="leningrad" selected>' in new_table


def test_a_new_table_starts_with_the_chosen_convention(as_persona, club_a, evening_a):
    players = [club_a.players.create(name=n) for n in ("Anna", "Boris", "Vera")]
    data = {f"seat_{i}": str(p.pk) for i, p in enumerate(players)}
    data.update(first_dealer="0", **posted(engine.preset_rules("rostov", pool_target=12)))

    response = as_persona("secretary").post(f"{evening_a.get_absolute_url()}tables/new/", data)

    assert response.status_code == 302
    pulka = Pulka.objects.get(evening=evening_a)
    assert pulka.rules == engine.rules_to_dict(engine.preset_rules("rostov", pool_target=12))


def test_the_new_table_apply_button_fills_in_without_complaining_of_empty_seats(
    as_persona, club_a, evening_a
):
    data = {"first_dealer": "0", **posted(engine.Rules(pool_target=10), preset="leningrad")}
    data["rules-apply_preset"] = "1"

    response = as_persona("secretary").post(f"{evening_a.get_absolute_url()}tables/new/", data)

    text = html(response)
    assert response.status_code == 200
    assert "This field is required" not in text
    assert '<option value="sum" selected>' in option(text, "pool_end")
    assert not Pulka.objects.filter(evening=evening_a).exists()


# --- a table's own rules page ------------------------------------------------------------------


def test_the_rules_page_states_the_convention_and_its_differences_from_sochi(
    as_persona, club_a, evening_a
):
    rules = engine.rules_to_dict(engine.preset_rules("leningrad", pool_target=10, help=True))
    pulka = make_pulka(evening_a, rules=rules)

    text = html(as_persona("player").get(pulka.get_absolute_url() + "rules/"))

    assert "<h2>Leningrad (Piter)</h2>" in text
    assert "The pulka ends when the pools add up to 30 (10 a player); a pool may pass 10." in text
    assert 'data-option="pool_end">The pulka ends: when the pools add up' in text
    assert 'data-option="game_price_multiplier">Price of the game in whists: double' in text
    # help is on, but has no effect under the sum's end: not a difference
    assert 'data-option="help">' not in text.split('id="convention"')[1].split("</ul>")[0]


def test_the_rules_page_of_a_sochi_table_says_so(as_persona, club_a, pulka):
    text = html(as_persona("player").get(pulka.get_absolute_url() + "rules/"))

    assert "<h2>Sochi</h2>" in text
    assert "Every option is as in Sochi." in text
    assert "The pulka ends when every pool reaches 10." in text


def test_a_table_changes_its_convention_before_its_first_deal_only(as_persona, pulka):
    client = as_persona("secretary")
    url = pulka.get_absolute_url() + "rules/"
    rostov = engine.preset_rules("rostov", pool_target=10)

    assert client.post(url, posted(rostov)).status_code == 302
    pulka.refresh_from_db()
    assert pulka.rules["preset"] == "rostov"

    record(pulka, SIX_BY_BORIS)
    response = client.post(url, posted(engine.preset_rules("leningrad", pool_target=10)))
    pulka.refresh_from_db()
    assert pulka.rules["preset"] == "rostov"
    assert "can be changed only before the first deal" in html(response)


def test_an_old_club_without_a_convention_is_sochi(club_a):
    Club.objects.filter(pk=club_a.pk).update(rules={"help": False})
    club_a.refresh_from_db()

    form = RulesForm(prefix="rules", rules=club_a.default_rules())

    assert form.current.preset == "sochi"
    assert form.summary() == (
        "Sochi, with changes: Help: a closed pool helps the largest open pool — no"
    )
