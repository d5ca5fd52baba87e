import pytest


@pytest.mark.django_db(transaction=True)
def test_home_page_shows_the_site_name_and_loads_htmx(live_server, page):
    page.goto(live_server.url + "/")

    assert page.locator("h1").inner_text() == "Pulka"
    assert page.evaluate("typeof window.htmx") == "object"
