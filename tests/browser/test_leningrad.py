"""A secretary starts a Leningrad table in Chromium and records a raspasy series on the 2-4-6
ladder (rules/conventions.md §A, reading 22): a game nobody whisted does not end the series,
a whisted made game does; then the sum of the pools closes the pulka (§20), and the final
settlement on the page is the engine's."""

import re

import pytest

from club.models import Role
from scoring import engine, selectors
from scoring.exchange import pulka_document
from scoring.models import Pulka, PulkaStatus
from tests.browser.factories import LISTEN, choose, fill_tricks, pool_of, press_record, violations
from tests.conftest import PASSWORD, make_club, make_evening, make_member, make_player

pytestmark = pytest.mark.django_db(transaction=True)


def _raspasy(page, s0: int, s1: int, s2: int) -> None:
    choose(page, "kind", "raspasy")
    fill_tricks(page, s0=s0, s1=s1, s2=s2)
    press_record(page)


def _cost(page, number: int) -> str:
    text = page.inner_text(f"#deal-{number} .deal-head")
    found = re.search(r"raspasy cost (\d+)", text)
    return found.group(1) if found else ""


def test_a_leningrad_table_from_the_ladder_to_the_sum_of_the_pools(live_server, page):
    club = make_club(name="Пітер", slug="piter", is_public=False, pool_target=20)
    secretary = make_member(club, Role.SECRETARY, username="serhii").user
    for name in ("Anna", "Boris", "Vera"):
        make_player(club, name)
    evening = make_evening(club)
    page.add_init_script(LISTEN)

    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", secretary.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    page.goto(f"{live_server.url}/c/{club.slug}/s/{evening.pk}/tables/new/")
    for seat, name in enumerate(("Anna", "Boris", "Vera")):
        page.select_option(f"select[name=seat_{seat}]", label=name)
    page.check("input[name=first_dealer][value='0']")

    # The conventions: Leningrad fills in every option (htmx), the pool target is kept.
    page.click("#rules-fields summary")
    page.fill("input[name='rules-pool_target']", "10")
    with page.expect_response(re.compile(r"/conventions/fields/\?.*apply_preset")):
        page.select_option("select[name='rules-preset']", "leningrad")
    page.wait_for_timeout(60)
    assert page.input_value("select[name='rules-pool_end']") == "sum"
    assert page.input_value("input[name='rules-raspasy_progression']") == "2, 4, 6"
    assert page.input_value("input[name='rules-pool_target']") == "10"
    assert page.locator("input[name='rules-help'][type=checkbox]").is_disabled()
    assert "the pulka ends by the sum of the pools" in page.inner_text("[data-option='help']")
    assert page.inner_text("[data-summary]") == "Leningrad (Piter)"
    assert violations(page) == []  # the choice re-rendered the fields under the strict CSP
    page.click("#new-table button.primary")
    page.wait_for_url(re.compile(r"/p/\d+/$"))
    pulka = Pulka.objects.get(evening=evening)
    assert pulka.rules == engine.rules_to_dict(engine.preset_rules("leningrad", pool_target=10))
    assert "pools 0 of 30: 30 to go" in page.inner_text("#board")
    page.evaluate("window.__noReload = true")

    # 1–2. Raspasy on the ladder: 2, then 4. Anna took nothing: 2 into her pool.
    _raspasy(page, 0, 4, 6)
    assert _cost(page, 1) == "2"
    assert pool_of(page, "Anna") == "2"
    _raspasy(page, 3, 0, 7)
    assert _cost(page, 2) == "4"
    assert pool_of(page, "Boris") == "4"

    # 3. Anna's six, both pass: written without play, and the series goes on.
    choose(page, "kind", "game")
    choose(page, "declarer", "0")
    choose(page, "call_1", "pass")
    choose(page, "call_2", "pass")
    press_record(page)
    assert pool_of(page, "Anna") == "4"
    _raspasy(page, 4, 4, 2)
    assert _cost(page, 4) == "6"

    # 5. Vera's six, Anna whists alone and Vera makes it: the series ends.
    choose(page, "kind", "game")
    choose(page, "declarer", "2")
    choose(page, "call_0", "whist")
    choose(page, "call_1", "pass")
    fill_tricks(page, s2=6, s0=3, s1=1)
    press_record(page)
    # greedy on a made game (gentleman only on a set): 4 defensive tricks at W = 2·2
    assert "Anna writes whists on Vera: 16" in page.inner_text("#deal-5")
    _raspasy(page, 5, 5, 0)
    assert _cost(page, 6) == "2"
    assert "pools 12 of 30: 18 to go" in page.inner_text("#board")

    # 7–8. Two tens without play: the pools pass their sum, 32 of 30, and the pulka is over.
    for declarer in ("1", "2"):
        choose(page, "kind", "game")
        choose(page, "declarer", declarer)
        choose(page, "level", "10")
        page.check("#deal-form input[name='suit'][value='NT']")
        for seat in {"0", "1", "2"} - {declarer}:
            choose(page, f"call_{seat}", "pass")
        press_record(page)
    page.wait_for_selector("text=pools 32 of 30: finished")
    assert pool_of(page, "Boris") == "14"  # past the target of 10, as the sum allows
    assert page.locator("#deal-form").count() == 0
    assert page.evaluate("window.__noReload") is True

    pulka.refresh_from_db()
    assert pulka.status == PulkaStatus.FINISHED
    expected = engine.score_pulka(pulka_document(pulka))
    assert expected.closed
    assert selectors.pulka_sheet(pulka).result_rounded == expected.result_rounded
    for name, value in expected.result_rounded.items():
        shown = page.locator(f"#board tr[data-player='{name}'] td.result").get_attribute(
            "data-result"
        )
        assert int(shown) == value
    assert "The pools reached their sum" in page.inner_text("#board")
    assert violations(page) == []
