"""The sheet fixable as on paper: each deal keeps who dealt it, a deal crossed out in the
middle leaves the later ones as they were played, a forgotten deal is written in before
deal N, and a refusal names the deal it is about with the sheet still on screen."""

import json

import pytest

from scoring import exchange, selectors, services
from scoring.models import Deal, DealRevision, RevisionAction
from tests.club.factories import assert_forbidden, assert_not_found
from tests.conftest import HTMX, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS, deal_post, no_play

pytestmark = pytest.mark.django_db

FOUR = ("Anna", "Boris", "Vera", "Galina")
RASPASY = {"kind": "raspasy", "tricks": {"Anna": 2, "Boris": 0, "Vera": 8}}


def _first_hand_sixes(count: int) -> list[dict]:
    """`count` no-play sixes at four, each by the first hand of the rotation's dealer (Anna
    deals first): every one names its defenders, so a dealer moved by one seat breaks it."""
    deals = []
    for k in range(count):
        dealer = k % 4
        declarer, first, second = ((dealer + i) % 4 for i in (1, 2, 3))
        deals.append(no_play(FOUR[declarer], FOUR[first], FOUR[second]))
    return deals


def _dealers(pulka) -> list[int]:
    return list(
        Deal.objects.filter(pulka=pulka).order_by("number").values_list("dealer", flat=True)
    )


def _url(pulka, number, action):
    return f"{pulka.get_absolute_url()}deals/{number}/{action}/"


# --- a deal stores who dealt it ----------------------------------------------------------


def test_every_recorded_deal_stores_the_rotations_dealer(pulka):
    record(pulka, SIX_BY_BORIS, RASPASY, RASPASY, RASPASY)

    assert _dealers(pulka) == [0, 1, 2, 0]
    assert [s.dealer for s in selectors.pulka_sheet(pulka).snapshots] == [
        "Anna",
        "Boris",
        "Vera",
        "Anna",
    ]


def test_the_entry_form_records_the_dealer_it_offers(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)
    data = deal_post(number=2, dealer=1, rotation_dealer=1, declarer=2, call_0="whist")
    data.update(call_1="pass", tricks_2="6", tricks_0="3", tricks_1="1")
    data.pop("call_2")

    as_persona("secretary").post(f"{pulka.get_absolute_url()}deals/", data, headers=HTMX)

    assert _dealers(pulka) == [0, 1]
    assert DealRevision.objects.get(number=2).after["dealer"] == "Boris"


def test_the_edit_form_keeps_the_deals_dealer(as_persona, pulka):
    record(pulka, SIX_BY_BORIS, RASPASY)

    html = as_persona("secretary").get(_url(pulka, 2, "edit")).content.decode()

    assert '<option value="1" selected>Boris</option>' in html


# --- deleting a deal in the middle --------------------------------------------------------


def test_deleting_deal_5_of_twelve_at_four_keeps_every_later_dealer(evening_a):
    """The issue's table: a 4-player pulka of 12 deals; deal 5 is crossed out. Before, the
    later deals moved up and took the dealer of the deal before them, and the engine refused
    one whose defender now sat on the talon."""
    pulka = make_pulka(evening_a, names=FOUR)
    record(pulka, *_first_hand_sixes(12))
    before = _dealers(pulka)

    sheet = services.deal_delete(pulka=pulka, number=5, expected_version=1, deleted_by=None)

    assert _dealers(pulka) == before[:4] + before[5:]
    assert list(Deal.objects.filter(pulka=pulka).values_list("number", flat=True)) == list(
        range(1, 12)
    )
    assert [s.dealer for s in sheet.snapshots][4:] == [FOUR[d] for d in before[5:]]
    # Deal 5 was Boris's six (dealt by Anna): two pool points fewer for him.
    assert sheet.pool == {"Anna": 6, "Boris": 4, "Vera": 6, "Galina": 6}
    assert DealRevision.objects.get(action=RevisionAction.DELETED).number == 5


def test_the_page_deletes_deal_5_of_twelve_and_shows_the_sheet(as_persona, evening_a):
    pulka = make_pulka(evening_a, names=FOUR)
    record(pulka, *_first_hand_sixes(12))

    response = as_persona("secretary").post(
        _url(pulka, 5, "delete"), {"version": "1"}, headers=HTMX
    )

    html = response.content.decode()
    assert 'id="board"' in html
    assert "Deal 5 deleted." in html
    assert "sits out on the talon" not in html
    assert Deal.objects.filter(pulka=pulka).count() == 11


# --- inserting a forgotten deal ------------------------------------------------------------


def test_a_forgotten_deal_is_inserted_before_deal_n_and_the_later_keep_their_dealers(pulka):
    record(pulka, SIX_BY_BORIS, RASPASY, RASPASY)
    version = pulka.version

    deal, sheet = services.deal_insert(
        pulka=pulka, before=2, data=RASPASY, expected_version=1, inserted_by=None
    )

    assert deal.number == 2
    # The new deal is dealt by the rotation after deal 1 (Boris); the later two keep theirs.
    assert _dealers(pulka) == [0, 1, 1, 2]
    assert list(Deal.objects.filter(pulka=pulka).values_list("kind", flat=True)) == [
        "game",
        "raspasy",
        "raspasy",
        "raspasy",
    ]
    assert len(sheet.snapshots) == 4
    revision = DealRevision.objects.get(action=RevisionAction.INSERTED)
    assert (revision.number, revision.after["dealer"]) == (2, "Boris")
    pulka.refresh_from_db()
    assert pulka.version > version


def test_an_insertion_on_a_stale_view_is_refused(pulka, secretary):
    record(pulka, SIX_BY_BORIS, RASPASY)
    services.deal_update(
        pulka=pulka,
        number=2,
        data=RASPASY | {"tricks": {"Anna": 3, "Boris": 0, "Vera": 7}},
        expected_version=1,
        changed_by=secretary,
    )

    with pytest.raises(services.ScoringError, match="was changed by"):
        services.deal_insert(
            pulka=pulka, before=2, data=RASPASY, expected_version=1, inserted_by=None
        )

    assert Deal.objects.filter(pulka=pulka).count() == 2


def test_an_insertion_that_closes_the_pulka_early_is_refused_naming_the_deal(evening_a):
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(
        pulka, no_play("Boris", "Vera", "Anna"), no_play("Anna", "Boris", "Vera"), RASPASY, RASPASY
    )

    with pytest.raises(services.ScoringError) as refused:
        services.deal_insert(
            pulka=pulka,
            before=3,
            data=no_play("Vera", "Anna", "Boris"),
            expected_version=1,
            inserted_by=None,
        )

    assert refused.value.message == (
        "The deal cannot be inserted before deal 3: with it, deal 3 breaks the rules: "
        "the pulka is closed: every pool reached 2"
    )
    assert Deal.objects.filter(pulka=pulka).count() == 4


def test_a_problem_of_the_new_deal_is_said_as_the_new_deals(pulka):
    record(pulka, SIX_BY_BORIS)
    bad = {"kind": "raspasy", "tricks": {"Anna": 2, "Boris": 2, "Vera": 2}}

    with pytest.raises(services.ScoringError) as refused:
        services.deal_insert(pulka=pulka, before=1, data=bad, expected_version=1, inserted_by=None)

    assert refused.value.message.startswith("The deal to insert before deal 1: ")


def _insert_post(**fields) -> dict:
    data = deal_post(**{"version": "1", **fields})
    for key in ("number", "entry_key"):
        data.pop(key)
    return data


def test_the_insert_page_offers_the_rotations_dealer_for_that_place(as_persona, pulka):
    record(pulka, SIX_BY_BORIS, RASPASY, RASPASY)

    html = as_persona("secretary").get(_url(pulka, 3, "insert")).content.decode()

    assert "Insert a deal before deal 3" in html
    assert '<option value="2" selected>Vera</option>' in html  # after deal 2, Boris's
    assert 'name="version" value="1"' in html
    assert "<html" in html


def test_the_insert_fragment_replaces_the_entry_area(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    html = as_persona("secretary").get(_url(pulka, 1, "insert"), headers=HTMX).content.decode()

    assert html.lstrip().startswith('<aside id="entry"')
    assert "Insert a deal before deal 1" in html
    assert "<html" not in html


def test_the_insert_form_is_redrawn_for_a_new_choice(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)
    url = _url(pulka, 1, "insert") + "?kind=raspasy&dealer=0&rotation_dealer=0&version=1"

    html = as_persona("secretary").get(url, headers=HTMX).content.decode()

    assert html.lstrip().startswith('<form id="deal-form"')
    assert f'hx-post="{_url(pulka, 1, "insert")}"' in html
    assert 'name="tricks_0"' in html


def test_each_deal_of_the_log_offers_to_insert_before_it(as_persona, pulka):
    record(pulka, SIX_BY_BORIS, RASPASY)

    html = as_persona("secretary").get(pulka.get_absolute_url()).content.decode()

    assert f'href="{_url(pulka, 1, "insert")}"' in html
    assert f'hx-get="{_url(pulka, 2, "insert")}"' in html
    assert "insert before" in html


def test_the_insert_link_is_not_shown_to_a_player(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    html = as_persona("player").get(pulka.get_absolute_url()).content.decode()

    assert "/insert/" not in html


@pytest.mark.parametrize("htmx", [False, True])
def test_the_insert_form_inserts_through_the_page(as_persona, pulka, secretary, htmx):
    record(pulka, RASPASY)

    response = as_persona("secretary").post(
        _url(pulka, 1, "insert"), _insert_post(), headers=HTMX if htmx else {}
    )

    assert list(Deal.objects.filter(pulka=pulka).values_list("kind", "dealer")) == [
        ("game", 0),
        ("raspasy", 0),
    ]
    assert DealRevision.objects.get(action="inserted").user == secretary
    if htmx:
        html = response.content.decode()
        assert response["HX-Retarget"] == "#pulka"
        assert 'id="board"' in html
        assert "A deal was inserted as deal 1" in html
        assert "<html" not in html
    else:
        assert response.status_code == 302


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_strangers_cannot_insert(as_persona, pulka, persona, htmx):
    record(pulka, RASPASY)
    client = as_persona(persona)
    headers = HTMX if htmx else {}

    assert_not_found(client.get(_url(pulka, 1, "insert"), headers=headers), "Insert a deal")
    assert_not_found(client.post(_url(pulka, 1, "insert"), _insert_post(), headers=headers))
    assert Deal.objects.filter(pulka=pulka).count() == 1


@pytest.mark.parametrize("htmx", [False, True])
def test_a_player_cannot_insert(as_persona, pulka, htmx):
    record(pulka, RASPASY)
    client = as_persona("player")
    headers = HTMX if htmx else {}

    assert_forbidden(client.get(_url(pulka, 1, "insert"), headers=headers), "Insert a deal")
    assert_forbidden(client.post(_url(pulka, 1, "insert"), _insert_post(), headers=headers))
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_inserting_before_a_deal_that_does_not_exist_is_404(as_persona, pulka):
    record(pulka, RASPASY)

    assert_not_found(as_persona("secretary").post(_url(pulka, 2, "insert"), _insert_post()))
    assert Deal.objects.filter(pulka=pulka).count() == 1


# --- refusals keep the sheet on screen ----------------------------------------------------


def test_a_refused_deletion_shows_its_message_with_the_sheet(as_persona, pulka):
    record(pulka, SIX_BY_BORIS, RASPASY)

    response = as_persona("secretary").post(
        _url(pulka, 1, "delete"), {"version": "7"}, headers=HTMX
    )

    html = response.content.decode()
    assert response["HX-Retarget"] == "#pulka"
    assert 'id="board"' in html
    assert 'data-player="Boris"' in html
    assert "Deal 1 was changed by" in html
    assert "Delete deal 1?" in html
    assert "<html" not in html
    assert Deal.objects.filter(pulka=pulka).count() == 2


def test_a_refused_correction_names_the_later_deal_and_keeps_the_sheet(as_persona, evening_a):
    pulka = make_pulka(evening_a, rules={"pool_target": 2})
    record(
        pulka, no_play("Boris", "Vera", "Anna"), RASPASY, no_play("Anna", "Boris", "Vera"), RASPASY
    )
    # Deal 2 corrected into Vera's no-play six: the pools close, and deal 4 cannot follow.
    data = _insert_post(declarer="2", call_0="pass", call_1="pass", rotation_dealer="1", dealer="1")
    for key in ("call_2", "tricks_0", "tricks_1", "tricks_2"):
        data.pop(key)

    response = as_persona("secretary").post(_url(pulka, 2, "edit"), data, headers=HTMX)

    html = response.content.decode()
    assert (
        "Deal 2 cannot be corrected so: with the correction, deal 4 breaks the rules: "
        "the pulka is closed: every pool reached 2"
    ) in html
    assert 'id="board"' in html
    assert "Correct deal 2" in html
    assert Deal.objects.get(pulka=pulka, number=2).kind == "raspasy"


def test_a_refused_insertion_shows_its_message_with_the_sheet(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    response = as_persona("secretary").post(
        _url(pulka, 1, "insert"), _insert_post(version="5"), headers=HTMX
    )

    html = response.content.decode()
    assert "Deal 1 was changed by" in html
    assert 'id="board"' in html
    assert "Insert a deal before deal 1" in html
    assert Deal.objects.filter(pulka=pulka).count() == 1


# --- pulka/1 carries the dealers -----------------------------------------------------------


def _raspasy_at_four(talon_sitter: str) -> dict:
    tricks = dict(zip([n for n in FOUR if n != talon_sitter], (4, 3, 3), strict=True))
    return {"kind": "raspasy", "tricks": {**tricks, talon_sitter: 0}}


def test_export_writes_every_deals_dealer_and_import_keeps_them(evening_a):
    pulka = make_pulka(evening_a, names=FOUR, first_dealer=2)
    record(pulka, _raspasy_at_four("Vera"))
    services.deal_insert(
        pulka=pulka,
        before=1,
        data={**_raspasy_at_four("Galina"), "dealer": "Galina"},
        expected_version=1,
        inserted_by=None,
    )
    document = exchange.pulka_document(pulka)

    assert [deal["dealer"] for deal in document["deals"]] == ["Galina", "Vera"]
    copy = services.pulka_import(
        evening=evening_a, document=json.loads(json.dumps(document)), imported_by=None
    )
    assert _dealers(copy) == [3, 2]
    assert exchange.pulka_document(copy) == document


def test_an_import_without_dealers_takes_the_rotations(evening_a):
    deals = [_raspasy_at_four(name) for name in ("Boris", "Vera", "Galina", "Anna")]
    deals[2]["dealer"] = "Galina"
    document = {
        "format": "pulka/1",
        "players": list(FOUR),
        "first_dealer": "Boris",
        "rules": {"pool_target": 10},
        "deals": deals,
    }

    pulka = services.pulka_import(evening=evening_a, document=document, imported_by=None)

    assert _dealers(pulka) == [1, 2, 3, 0]
    assert [d["dealer"] for d in exchange.pulka_document(pulka)["deals"]] == [
        "Boris",
        "Vera",
        "Galina",
        "Anna",
    ]
