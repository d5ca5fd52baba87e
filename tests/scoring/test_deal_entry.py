"""Recording a deal: the htmx answer, the plain-form answer, and every kind of bad input."""

import pytest

from scoring import selectors
from scoring.models import Deal, DealRevision, PulkaStatus
from tests.conftest import HTMX, make_pulka, record
from tests.scoring.factories import PASS_OUT_ROUND, deal_post, entry

pytestmark = pytest.mark.django_db


def _post(client, pulka, data, htmx=True):
    return client.post(pulka.get_absolute_url() + "deals/", data, headers=HTMX if htmx else {})


def test_htmx_entry_swaps_in_a_fresh_form_the_sheet_and_the_new_log_line(as_persona, pulka):
    response = _post(as_persona("secretary"), pulka, deal_post())

    html = response.content.decode()
    deal = Deal.objects.get(pulka=pulka)
    assert (deal.number, deal.kind, deal.contract, deal.declarer) == (1, "game", "6S", 1)
    assert deal.calls == {"2": "whist", "0": "pass"}
    assert deal.tricks == {"1": 6, "2": 3, "0": 1}
    assert "<html" not in html
    assert 'id="deal-form"' in html
    assert "Deal 2" in html
    assert "dealer Boris" in html
    assert '<section id="board" class="card board" hx-swap-oob="true"' in html
    assert 'data-pool="2"' in html
    assert 'hx-swap-oob="afterbegin:#deal-log"' in html
    assert 'id="deal-1"' in html
    assert "Vera writes whists on Boris: 8" in html


def test_entry_records_who_entered_it_and_a_revision(as_persona, pulka, secretary):
    _post(as_persona("secretary"), pulka, deal_post())

    deal = Deal.objects.get(pulka=pulka)
    revision = DealRevision.objects.get(pulka=pulka)
    assert deal.entered_by == secretary
    assert deal.changed_by == secretary
    assert revision.action == "created"
    assert revision.user == secretary
    assert revision.after["declarer"] == "Boris"
    assert revision.before is None


def test_plain_form_post_redirects_back_to_the_pulka(as_persona, pulka):
    response = _post(as_persona("secretary"), pulka, deal_post(), htmx=False)

    assert response.status_code == 302
    assert response["Location"] == pulka.get_absolute_url()
    assert Deal.objects.filter(pulka=pulka).count() == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"tricks_0": "0"}, "= 9 tricks, a deal has 10"),
        ({"declarer": "7"}, "Select a valid choice"),
        ({"kind": "poker"}, "Select a valid choice"),
        ({"tricks_1": "eleven"}, "Enter a whole number"),
        ({"tricks_1": "11"}, "less than or equal to 10"),
        ({"level": "5"}, "Select a valid choice"),
        ({"call_2": "redouble"}, "Select a valid choice"),
        ({"call_2": "pass", "call_0": "half", "level": "8"}, "Select a valid choice"),
        ({"talon": "ZZ KS"}, "ZZ is not a card"),
        ({"talon": "AS"}, "exactly two cards"),
        ({"talon": "AS AS"}, "talon"),
        ({"dealer": "9"}, "Select a valid choice"),
        ({"tricks_1": "", "tricks_2": ""}, "Enter the tricks of Boris, Vera"),
    ],
)
def test_bad_input_is_refused_inline_and_nothing_is_saved(as_persona, pulka, fields, message):
    response = _post(as_persona("secretary"), pulka, deal_post(**fields))

    html = response.content.decode()
    assert response.status_code == 200
    assert message in html
    assert 'id="deal-form"' in html
    assert "<html" not in html
    assert not Deal.objects.filter(pulka=pulka).exists()
    pulka.refresh_from_db()
    assert pulka.version == 1


def test_bad_input_on_the_plain_form_shows_the_whole_page_with_the_error(as_persona, pulka):
    response = _post(as_persona("secretary"), pulka, deal_post(tricks_0="0"), htmx=False)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert "= 9 tricks, a deal has 10" in html
    assert not Deal.objects.exists()


def test_one_trick_count_left_empty_takes_the_rest_of_ten(as_persona, pulka):
    _post(as_persona("secretary"), pulka, deal_post(tricks_0=""))

    assert Deal.objects.get(pulka=pulka).tricks == {"1": 6, "2": 3, "0": 1}


def test_a_clean_misere_needs_no_trick_count(as_persona, pulka):
    data = deal_post(kind="misere", declarer=1)

    _post(as_persona("secretary"), pulka, {k: v for k, v in data.items() if "tricks" not in k})

    deal = Deal.objects.get(pulka=pulka)
    assert (deal.kind, deal.tricks, deal.calls, deal.contract) == ("misere", {"1": 0}, {}, "")
    assert selectors.pulka_sheet(pulka).pool["Boris"] == 10


def test_both_pass_records_a_game_without_tricks(as_persona, pulka):
    _post(as_persona("secretary"), pulka, deal_post(call_2="pass", level="7"))

    deal = Deal.objects.get(pulka=pulka)
    assert (deal.contract, deal.calls, deal.tricks) == ("7S", {"2": "pass", "0": "pass"}, {})


def test_half_whist_is_recorded_without_tricks(as_persona, pulka):
    _post(as_persona("secretary"), pulka, deal_post(call_2="pass", call_0="half"))

    deal = Deal.objects.get(pulka=pulka)
    assert deal.calls == {"2": "pass", "0": "half"}
    assert deal.tricks == {}
    assert selectors.pulka_sheet(pulka).whists["Anna"]["Boris"] == 4


def test_raspasy_records_every_players_tricks(as_persona, pulka):
    _post(
        as_persona("secretary"),
        pulka,
        {
            **entry(),
            "kind": "raspasy",
            "tricks_0": "2",
            "tricks_1": "0",
            "tricks_2": "8",
            "dealer": "0",
            "rotation_dealer": "0",
        },
    )

    deal = Deal.objects.get(pulka=pulka)
    assert deal.tricks == {"0": 2, "1": 0, "2": 8}
    assert selectors.pulka_sheet(pulka).mountain == {"Anna": 2, "Boris": -1, "Vera": 8}


def test_quick_tricks_from_the_talon_cards(as_persona, pulka):
    _post(as_persona("secretary"), pulka, deal_post(talon="as ks"))

    deal = Deal.objects.get(pulka=pulka)
    assert deal.talon == "AS KS"
    # 2 quick tricks at a six, split between the two opponents: 2 whists each.
    sheet = selectors.pulka_sheet(pulka)
    assert sheet.whists["Anna"]["Boris"] == 2


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("ТП КП", "AS KS"),  # туз і король пік
        ("тп, кп", "AS KS"),
        ("ТТ ВТ", "AC JC"),  # rank first: ТТ is the ace of clubs (трефа)
        ("10Ч ДЧ", "10H QH"),  # черви/чирва
        ("ДБ 7б", "QD 7D"),  # бубни
        ("ТП K♠", "AS KS"),  # notations can be mixed
    ],
)
def test_talon_cards_typed_in_cyrillic_are_stored_in_the_pulka_notation(
    as_persona, pulka, typed, stored
):
    _post(as_persona("secretary"), pulka, deal_post(talon=typed))

    assert Deal.objects.get(pulka=pulka).talon == stored


@pytest.mark.parametrize("typed", ["ЖП КП", "ТЯ КП", "Т КП", "П ТП"])
def test_a_bad_cyrillic_card_is_refused_with_both_notations_shown(as_persona, pulka, typed):
    response = _post(as_persona("secretary"), pulka, deal_post(talon=typed))

    html = response.content.decode()
    assert f"{typed.split()[0]} is not a card" in html
    assert "e.g. AS or 10H, or in Cyrillic ТП (ace of spades) or 10Ч" in html
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_a_changed_dealer_is_stored_as_an_override(as_persona, pulka):
    _post(
        as_persona("secretary"),
        pulka,
        deal_post(
            dealer=2, declarer=0, call_1="whist", call_2="pass", tricks_0=6, tricks_1=3, tricks_2=1
        ),
    )

    deal = Deal.objects.get(pulka=pulka)
    assert deal.dealer == 2
    assert selectors.pulka_sheet(pulka).next_dealer == "Anna"


def test_no_deal_can_be_posted_to_a_finished_pulka(as_persona, evening_a):
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(pulka, *PASS_OUT_ROUND)

    response = _post(as_persona("secretary"), pulka, deal_post())

    assert "This pulka is over" in response.content.decode()
    assert Deal.objects.filter(pulka=pulka).count() == 3


def test_the_deal_that_closes_the_last_pool_finishes_the_pulka(as_persona, evening_a):
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(pulka, *PASS_OUT_ROUND[:2])
    data = deal_post(
        number=3, declarer=0, dealer=2, rotation_dealer=2, call_1="pass", call_2="pass", call_0=None
    )

    response = _post(as_persona("secretary"), pulka, data)

    pulka.refresh_from_db()
    html = response.content.decode()
    assert pulka.status == PulkaStatus.FINISHED
    assert response["HX-Retarget"] == "#pulka"
    assert "Final settlement" in html
    assert 'id="deal-form"' not in html


def test_four_player_dealer_cannot_declare_and_is_no_defender(as_persona, evening_a):
    pulka = make_pulka(evening_a, names=("Anna", "Boris", "Vera", "Gleb"))

    html = as_persona("secretary").get(pulka.get_absolute_url()).content.decode()

    assert 'name="declarer" value="0"' not in html  # Anna deals and sits on the talon
    assert 'name="declarer" value="1"' in html
    assert 'name="call_0"' not in html
    assert 'name="call_2"' in html
    assert 'name="call_3"' in html


def test_four_player_raspasy_asks_the_dealer_for_his_talon_tricks(as_persona, evening_a):
    pulka = make_pulka(evening_a, names=("Anna", "Boris", "Vera", "Gleb"))
    url = pulka.get_absolute_url() + "deal-form/?kind=raspasy&dealer=0&rotation_dealer=0"

    html = as_persona("secretary").get(url, headers=HTMX).content.decode()

    assert 'name="tricks_0"' in html
    assert 'name="tricks_3"' in html
    assert 'name="declarer"' not in html
