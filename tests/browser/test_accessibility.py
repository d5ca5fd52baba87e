"""Every page a person can reach passes axe-core's WCAG 2.1 A/AA rules, fits a 360 px phone,
and a secretary can record a deal with the keyboard alone.

The pages are collected from the URL patterns and filled with the ids of the demo club, so
a new view is audited without anyone adding it here; a view that no persona can open fails
`test_every_page_passes_axe_and_fits_a_phone` with its name. axe-core is the `axe.min.js`
shipped in the axe-playwright-python wheel: nothing is fetched while the tests run.

The world adds two tournaments to the demo club: one with its first round out and played
(the round page's live tables), one whose first round is a draft (audited as the owner's
draft page, which only the owner sees).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import axe_playwright_python
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from club import invitations
from club.models import Club, Invitation, Membership, Player, Role
from competition.backup import services as backup
from competition.demo import DEMO_PASSWORD, load_demo
from competition.files import services as files
from competition.models import FileState, League, PreparedFile, Round
from competition.tournament import services
from federation import events as open_events
from federation import persons, results_file
from federation.models import (
    Federation,
    LinkProposal,
    MemberClub,
    MemberState,
    Officer,
    OfficerRole,
    PersonLink,
    Series,
)
from scoring import engine, selectors
from scoring import services as scoring_services
from scoring.models import Deal, DealCheck, Pulka, PulkaStatus
from tests.competition.factories import draft, make_tournament, play, published
from tests.conftest import url_params

pytestmark = pytest.mark.django_db(transaction=True)

AXE_JS = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}
PERSONAS = (None, "player", "secretary", "owner")

# Views that are no page of their own, by URL name, each with the reason.
NOT_PAGES = {
    "healthz": "a health probe for the load balancer, plain text",
    "service-worker": "the service worker's script, JavaScript",
    "manifest": "the web app manifest, JSON",
    "javascript-catalog": "the scripts' translations, JavaScript",
    "set_language": "POST only: the language switch, audited as part of every page",
    "club:invitation-qr": "download: the invitation's QR code as SVG",
    "club:invitation-revoke": "POST only: the revoke button on the invitation page",
    "club:invitation-decline": "POST only: the decline button on the home and invitation pages",
    "club:member-update": "POST only: the role form on the members page",
    "club:name-claim-decide": "POST only: the approve/refuse buttons on the claims page",
    "scoring:deal-create": "POST only: audited as the refused-deal state",
    "scoring:deal-delete": "POST only: the delete button in the deal log",
    "scoring:deal-form": "htmx fragment (a full GET redirects): audited as the refused-deal state",
    "scoring:rules-fields": "htmx fragment (a full GET redirects) of the conventions page",
    "scoring:pulka-live": "htmx fragment (a full GET redirects): the spectator's refresh",
    "scoring:club-running": "htmx fragment (a full GET redirects): the club page's poll",
    "scoring:pulka-drawing": "htmx fragment (full GET redirects): audited after the keyboard deal",
    "scoring:pulka-finish": "POST only: the finish button on the pulka page",
    "scoring:pulka-reopen": "POST only: the reopen button on the pulka page",
    "scoring:pulka-abandon": "POST only: the abandon button on the pulka page",
    "scoring:deal-keep": "POST only: the keep button of a deal entered at the table",
    "scoring:table": "the table's link: audited below with a table's own token",
    "scoring:table-seat": "POST only: the seat buttons of the table page",
    "scoring:table-deal-create": "POST only: the entry form of the table page",
    "scoring:table-deal-form": "htmx fragment (a full GET redirects) of the table page",
    "scoring:table-confirm": "POST only: the confirm button of the table page",
    "scoring:table-dispute": "POST only: the dispute form of the table page",
    "scoring:table-live": "htmx fragment (a full GET redirects): the table page's refresh",
    "favicon": "a redirect to the site's icon",
    "club:account-notices": "POST only: the notices form of the account page (audited there)",
    "club:telegram-link": "POST only: a button of the account page's Telegram section",
    "club:telegram-unlink": "POST only: a button of the account page's Telegram section",
    "club:telegram-webhook": "Telegram's webhook: POST only, JSON, no page",
    "scoring:pulka-print": "download: the pulka's printout (PDF)",
    "scoring:evening-print": "download: the evening's printout (PDF)",
    "scoring:pulka-export": "download: the pulka as JSON",
    "scoring:sheet-export": "download: the sheet as JSON",
    "competition:league-export": "download: the league as CSV/XLSX/JSON",
    "competition:round-draw": "POST only: the draw button on the tournament's home",
    "competition:entry-withdraw": "POST only: a button in the list of entries",
    "competition:entry-restore": "POST only: a button in the list of entries",
    "competition:entry-team": "POST only: a player's team in the list of entries",
    "competition:entry-substitute": "POST only: the substitute form on the entries page",
    "competition:round-swap": "POST only: the swap form of a draft (audited as a state)",
    "competition:round-lock": "POST only: a table's lock button in a draft",
    "competition:round-redraw": "POST only: a button of the draft",
    "competition:round-discard": "POST only: a button of the draft",
    "competition:round-publish": "POST only: a button of the draft",
    "competition:round-start": "POST only: a button of the round page",
    "competition:round-end-table": "POST only: a table's button on the round page",
    "competition:round-clock-add": "POST only: the add-minutes form of the round page",
    "competition:round-clock-pause": "POST only: a button of the round page",
    "competition:round-clock-resume": "POST only: a button of the round page",
    "competition:round-end-at-time": "POST only: a button of the round page",
    "competition:round-link-renew": "POST only: a table's new-link button on the round page",
    "competition:round-reseat": "POST only: the re-seat form of the round page",
    "competition:round-confirm": "POST only: a button of the round page",
    "competition:tournament-standings-export": "download: the standings as CSV/XLSX",
    "competition:tournament-print-seating": "download: the seating as PDF",
    "competition:tournament-print-protocols": (
        "download: the protocols as PDF (a big round's is a one-button page, file_detail's card)"
    ),
    "competition:tournament-print-standings": "download: the standings as PDF",
    "competition:tournament-print-teams": "download: the team standings as PDF",
    "competition:club-backup": "POST only: the backup button on the background page",
    "competition:file-download": "download: a prepared file (its page is audited)",
    # django-allauth's own URLs that need a flow the test cannot reach.
    "login": "the same URL as account_login",
    "logout": "the same URL as account_logout",
    "account_set_password": "redirects: every account here has a password already",
    "account_request_reauthentication_code": "login by code is off: the view redirects",
    "account_confirm_reauthentication_code": "needs a code mailed in a reauthentication flow",
    "account_confirm_login_code": "needs a code mailed in a login-by-code flow",
    "account_confirm_email": "needs the key mailed to confirm an address",
    "account_reset_password_from_key": "needs the token mailed for a password reset",
    # Open events (federation.event_views).
    "federation:event-cancel": "POST only: the cancel button on his registration's page",
    "federation:event-registration-state": "POST only: the close/reopen button of the event",
    "federation:event-registration-paid": "POST only: a row's button on the registrations page",
    "federation:event-registration-cancel": "POST only: a row's button on the registrations page",
    "federation:event-registration-category": "POST only: a row's form on the registrations page",
    "federation:event-registrations-export": "download: the registrations as CSV",
    "federation:event-close-door": "POST only: the button on the registrations page",
    "federation:event-category-pdf": "download: a category's standings as PDF",
    # The core (federation.views).
    "federation:officer-update": "POST only: an officer's role form on the officers page",
    "federation:member-update": "POST only: the clubs page's accept/leave/end buttons",
    "federation:person-propose": "POST only: the proposal form on a person's page",
    "federation:person-merge": "POST only: the merge form on a person's page",
    "federation:person-split": "POST only: the split form on a person's page",
    "federation:proposal-decide": "POST only: the confirm/refuse buttons of a proposal",
    # Series (federation.series_views).
    "federation:series-export": "download: the series standings as CSV/XLSX",
    "federation:series-print": "download: the series standings as PDF",
    "federation:series-stage-add": "POST only: the add-stage form on the series page",
    "federation:series-stage-remove": "POST only: a stage's button on the series page",
    "federation:series-final-entries": "POST only: the button on the final's field page",
    # The rating list (federation.rating_views).
    "federation:rating-restart": "POST only: the restart button of a failed rebuild",
    "federation:rating-export": "download: the rating list as CSV/XLSX",
    # Results files (federation.results_views).
    "federation:results-export": "download: a tournament's results file (JSON) or CSV",
    "federation:imported-export": "download: an imported results file (JSON) or CSV",
}


@dataclass
class World:
    """The demo club with one of everything a URL can point at."""

    ids: dict[str, str]
    running: Pulka
    league: League
    draft: Round


@dataclass
class Audit:
    violations: list[str] = field(default_factory=list)
    too_wide: list[str] = field(default_factory=list)
    audited: set[str] = field(default_factory=set)

    def check(self, page, where: str) -> None:
        """Run axe on the page as it is now, then look at it on a phone."""
        self.audited.add(where)
        self.axe(page, where)
        self.check_phone(page, where)

    def axe(self, page, where: str) -> None:
        page.evaluate(AXE_JS)
        result = page.evaluate("options => axe.run(document, options)", AXE_OPTIONS)
        assert result["testEngine"]["name"] == "axe-core", where
        for violation in result["violations"]:
            targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]]
            self.violations.append(
                f"{where}: {violation['id']} ({violation['help']}) at {targets[:8]}"
            )

    def check_phone(self, page, where: str) -> None:
        page.set_viewport_size(PHONE)
        try:
            overflow = page.evaluate(
                """() => {
                    const doc = document.documentElement;
                    const out = [];
                    if (doc.scrollWidth > window.innerWidth) {
                        out.push(`page ${doc.scrollWidth}px wide`);
                    }
                    for (const table of document.querySelectorAll('table')) {
                        if (table.scrollWidth <= table.parentElement.clientWidth) continue;
                        let box = table.parentElement, scrolls = false;
                        while (box && box !== document.body) {
                            const x = getComputedStyle(box).overflowX;
                            if (x === 'auto' || x === 'scroll') { scrolls = true; break; }
                            box = box.parentElement;
                        }
                        if (!scrolls) out.push(`table ${table.id || table.className} unscrolled`);
                    }
                    return out;
                }"""
            )
            if overflow:
                self.too_wide.append(f"{where}: {', '.join(overflow)}")
            # A table that scrolls on a phone must be reachable by keyboard there.
            self.axe(page, f"{where} at 360 px")
        finally:
            page.set_viewport_size(DESKTOP)


def build_world() -> World:
    load_demo()
    club = Club.objects.get(slug="sochi")
    users = {u.username: u for u in get_user_model().objects.all()}
    owner = users["owner"]
    running = Pulka.objects.filter(evening__club=club, status=PulkaStatus.RUNNING).first()
    assert running is not None, "the demo has a running table"
    player_membership = Membership.objects.get(club=club, user=users["player"])
    free = Player.objects.filter(club=club, user=None).order_by("name")
    invitation = invitations.invitation_create(
        club=club, role=Role.PLAYER, created_by=owner, player=free[0]
    )
    # An invitation addressed to the player: his home page lists it with Accept and Decline.
    invitations.invitation_address(
        club=club, to=users["player"].username, role=Role.SECRETARY, created_by=owner
    )
    # The secretary has no roster name of his own: he asks for one, for the claims page.
    claim = invitations.name_claim_create(club=club, user=users["secretary"], player=free[1])
    league = League.objects.filter(club=club).order_by("pk").first()
    names = list(Player.objects.filter(club=club).order_by("name").values_list("name", flat=True))
    # Timed and started: the round page, find-your-table and the projector show its clock,
    # and the round page its tables at a glance with their links.
    cup = make_tournament(club, names=names[:10], name="Audit Cup", round_minutes=100)
    play(services.round_start(round=published(cup)), deals=1)
    services.penalty_add(
        tournament=cup,
        player_id=cup.entries.first().player_id,
        round_number=1,
        amount=20,
        unit="whists",
        reason="late",
        by=owner,
    )
    drafted = draft(make_tournament(club, names=names[:10], name="Audit Draft Cup"))
    # The owner's backup, as the worker leaves it: its page and the background page's list.
    built = backup.backup_file(club)
    prepared = PreparedFile.objects.create(
        club=club,
        kind=backup.BACKUP_KIND,
        params_key=files.params_key({}),
        requested_by=owner,
        expires_at=timezone.now() + files.LIFETIME,
        state=FileState.READY,
        filename=built.filename,
        content_type=built.content_type,
        content=built.content,
        size=len(built.content),
    )
    ids = {
        "club_slug": club.slug,
        "evening_id": str(running.evening_id),
        "pulka_id": str(running.pk),
        "number": "1",
        "membership_id": str(player_membership.pk),
        "invitation_id": str(invitation.pk),
        "token": Invitation.objects.get(pk=invitation.pk).token,
        "claim_id": str(claim.pk),
        "player_id": str(Player.objects.get(club=club, user=users["player"]).pk),
        "league_id": str(league.pk),
        "tournament_id": str(cup.pk),
        "entry_id": str(cup.entries.first().pk),
        "file_id": str(prepared.pk),
    }
    ids.update(open_event_ids(club, owner, ids.get("slug"), users["player"]))
    ids.update(series_ids(ids["slug"], owner, stage=cup, final=drafted.tournament))
    ids.update(federation_core_ids(ids["slug"], club, owner))
    ids.update(results_ids(ids["slug"], cup))
    return World(ids=ids, running=running, league=league, draft=drafted)


def users_by_name() -> dict:
    return {u.username: u for u in get_user_model().objects.all()}


def deal_recorded_meanwhile(pulka: Pulka, by) -> None:
    """Raspasy with the pulka's next number, as another secretary records it: 4, 4 and 2
    tricks (at four, the dealer's count is the talon's: 0)."""
    sheet = selectors.pulka_sheet(pulka)
    dealer = sheet.next_dealer
    shape = engine.deal_shape(sheet.rules, pulka.names, dealer, engine.RASPASY, "", 6, {})
    four = len(shape.trick_players) == 4
    counts = iter((4, 4, 2))
    tricks = {name: 0 if four and name == dealer else next(counts) for name in shape.trick_players}
    scoring_services.deal_record(
        pulka=pulka, data={"kind": engine.RASPASY, "tricks": tricks}, entered_by=by
    )


def results_ids(slug: str, cup) -> dict[str, str]:
    """The cup's results file imported into the audit's federation (as another site's)."""
    federation = Federation.objects.get(slug=slug)
    document = results_file.build(cup, federation)
    document["tournament"]["id"] = cup.pk + 1000
    imported = results_file.result_import(
        federation=federation, document=document, source="cup.json", imported_by=None
    )
    return {"imported_id": str(imported.pk)}


def federation_core_ids(slug: str, club: Club, owner) -> dict[str, str]:
    """The audit federation's core (federation.views): the demo club's persons, two names of
    one person (the split form shows) and a proposal waiting for the demo owner."""
    federation = Federation.objects.get(slug=slug)
    officer, _ = Officer.objects.get_or_create(
        federation=federation, user=owner, defaults={"role": OfficerRole.OWNER}
    )
    persons.persons_sync(federation)
    links = list(PersonLink.objects.filter(federation=federation).order_by("pk")[:3])
    person = links[0].person
    PersonLink.objects.filter(pk=links[1].pk).update(person=person)
    proposal = LinkProposal.objects.create(
        federation=federation,
        person=person,
        player=links[2].player,
        clubs_awaiting=[club.pk],
    )
    return {
        "officer_id": str(officer.pk),
        "member_id": str(MemberClub.objects.get(federation=federation, club=club).pk),
        "person_id": str(person.pk),
        "proposal_id": str(proposal.pk),
    }


def series_ids(slug: str, owner, *, stage, final) -> dict[str, str]:
    """A series of the audit's federation (the demo owner its officer): the cup as its stage
    (provisional), the draft cup as its final, the top 3 qualifying."""
    federation = Federation.objects.get(slug=slug)
    Officer.objects.get_or_create(
        federation=federation, user=owner, defaults={"role": OfficerRole.OWNER}
    )
    series = Series.objects.create(
        federation=federation,
        name="Audit Series",
        points=[100, 80, 65, 55],
        tie_breaks=["stage_wins", "best_places"],
        final_from_series=3,
        final=final,
    )
    series.stages.create(tournament=stage, number=1)
    return {"series_id": str(series.pk)}


def open_event_ids(club: Club, owner, slug: str | None, player) -> dict[str, str]:
    """An open event of the demo club (in the audit's federation, or one of its own) with a
    category, the player registered: its pages' URL parameters."""
    federation = Federation.objects.filter(slug=slug).first() or Federation.objects.create(
        name="Audit Federation", slug="audit-fed"
    )
    MemberClub.objects.get_or_create(federation=federation, club=club, state=MemberState.MEMBER)
    event = open_events.event_open(
        federation=federation,
        tournament=make_tournament(club, names=(), name="Audit Open"),
        deadline=timezone.now() + datetime.timedelta(days=7),
        cap=10,
        fee=Decimal("150"),
        categories=open_events.categories_from_text("Open\nMaster: rating 1200-"),
    )
    registration = open_events.registration_create(
        event=event, user=player, name="Audit Player", category=event.categories.first()
    )
    return {
        "slug": federation.slug,
        "event_id": str(event.pk),
        "code": registration.code,
    }


def allauth_params() -> dict[str, list[str]]:
    from django.urls import get_resolver

    names = [
        name
        for name in get_resolver().reverse_dict
        if isinstance(name, str) and name.startswith("account_")
    ]
    return {name: [] for name in names}


def pages(world: World) -> dict[str, str]:
    """Every view's URL by name, filled with the world's ids (or a reason it is not one)."""
    found = {**url_params(), **allauth_params()}
    urls = {}
    for name, params in sorted(found.items()):
        if name in NOT_PAGES:
            continue
        missing = [p for p in params if p not in world.ids]
        assert not missing, f"{name}: no id in the audit's world for {missing}"
        urls[name] = reverse(name, kwargs={p: world.ids[p] for p in params})
    return urls


def log_in(page, live_server, username: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")


def test_every_page_passes_axe_and_fits_a_phone(live_server, browser, settings):
    # A site with a bot, so that the account page's Telegram section is audited too (its
    # buttons call no Bot API; the deep link points at t.me, never followed).
    settings.TELEGRAM_BOT_TOKEN = "123456:audit"
    settings.TELEGRAM_BOT_USERNAME = "pulka_audit_bot"
    settings.TELEGRAM_WEBHOOK_SECRET = "audit-secret"
    world = build_world()
    urls = pages(world)
    audit = Audit()
    reached: set[str] = set()
    for persona in PERSONAS:
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        if persona:
            log_in(page, live_server, persona)
        for name, url in urls.items():
            if name == "account_logout":
                continue  # visited last: it would end the session
            try:
                response = page.goto(live_server.url + url)
            except PlaywrightError:  # an empty error page (405): not a page for this persona
                continue
            landed = page.url.removeprefix(live_server.url)
            kind = response.headers.get("content-type", "") if response else ""
            if response and response.status == 200 and landed == url and "html" in kind:
                reached.add(name)
                audit.check(page, f"{name} as {persona or 'anonymous'} ({url})")
        if persona:
            page.goto(live_server.url + urls["account_logout"])
            reached.add("account_logout")
            audit.check(page, f"account_logout as {persona}")
        context.close()

    # States that only htmx shows.
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    log_in(page, live_server, "secretary")
    page.goto(live_server.url + world.running.get_absolute_url())
    radio = page.locator("#deal-form input[name=kind][value=raspasy]")
    if not radio.is_checked():
        with page.expect_response(re.compile(r"/deal-form/")):
            radio.check()
        page.wait_for_timeout(100)
    # The players' counts (at four, the talon's field takes 0–2 and starts at 0).
    counts = page.locator("#deal-form input[name^='tricks_'][max='10']")
    for index, count in enumerate((4, 4, 3)):
        counts.nth(index).fill(str(count))
    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.request.method == "POST"):
        counts.last.press("Enter")
    page.wait_for_selector("#deal-form [role=alert], #deal-form .errorlist")
    audit.check(page, "the entry form after a refused deal (secretary)")

    # Offline, the deal corrected and recorded waits on the device: the banner and its row.
    context.set_offline(True)
    counts.nth(2).fill("2")
    number = int(page.locator("#deal-form input[name=number]").input_value())
    counts.last.press("Enter")
    page.wait_for_selector(f"#deal-log > li.deal.pending[data-number='{number}']")
    page.wait_for_selector("#offline-queue:not([hidden])")
    audit.check(page, "a deal not sent yet and the banner counting it (secretary, offline)")
    # Another secretary records that number meanwhile: back online, the deal is refused.
    deal_recorded_meanwhile(world.running, by=users_by_name()["owner"])
    context.set_offline(False)
    page.wait_for_selector(
        f"#deal-log > li.deal.pending[data-number='{number}'][data-state='refused']"
    )
    audit.check(page, "a deal not sent, refused, to correct or discard (secretary)")

    page.goto(live_server.url + world.league.get_absolute_url())
    header = page.locator("#ranked th a[data-sort]").first
    column = header.get_attribute("data-sort")
    with page.expect_response(re.compile(r"sort=")):
        header.click()
    page.wait_for_selector(f"#ranked th[aria-sort] a[data-sort={column}]")
    audit.check(page, "the league table after an htmx sort (secretary)")
    context.close()

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    log_in(page, live_server, "owner")
    page.goto(live_server.url + world.draft.get_absolute_url())
    page.wait_for_selector("#draft")
    audit.check(page, "a round's draft (owner)")
    with page.expect_response(re.compile(r"/swap/")):
        page.click("#swap-form button[type=submit]")
    page.wait_for_selector("#round-outcome")
    audit.check(page, "a round's draft after an htmx swap (owner)")
    context.close()

    # The table's own page (its link, no account): the seat choice, then the entry page
    # with a deal awaiting confirmation and its dispute form open.
    token = scoring_services.table_link_open(pulka=world.running)
    last = Deal.objects.filter(pulka=world.running).order_by("-number").first()
    if last is not None:  # as if seat 1 entered it at the table: it awaits a confirmation
        Deal.objects.filter(pk=last.pk).update(confirmation=DealCheck.AWAITING, entered_seat=0)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    table_url = live_server.url + reverse("scoring:table", args=[token])
    page.goto(table_url)
    audit.check(page, "the table page: choose your seat (anonymous)")
    page.click("#seat-choice button[value='1']")
    page.wait_for_selector("#deal-form")
    audit.check(page, "the table page: the entry form (anonymous, seat 1)")
    page.click(".seat-line button")
    page.wait_for_selector("#seat-choice")
    page.click("#seat-choice button[value='2']")
    page.wait_for_selector("#deal-form")
    dispute = page.locator("details.dispute summary")
    if dispute.count():
        dispute.first.click()
    audit.check(page, "the table page: the deals to confirm or dispute (anonymous, seat 2)")
    context.close()

    unreached = sorted(set(urls) - reached)
    print(f"\n{len(audit.audited)} pages and states audited")
    problems = [*audit.violations, *audit.too_wide]
    if unreached:
        problems.insert(0, f"views no persona could open: {unreached}")
    assert not problems, "\n".join(problems)


RING = """() => {
    // The focused control's ring, or its label's (a styled radio draws it on the label).
    const el = document.activeElement;
    const parts = [el, el.closest('label'), ...(el.labels || [])].filter(Boolean);
    const look = () => parts.map(part => {
        const s = getComputedStyle(part);
        const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
        return {
            drawn: outline || s.boxShadow !== 'none',
            style: [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow].join(' '),
        };
    });
    const focused = look();
    el.blur();
    const rest = look();
    el.focus({preventScroll: true});  // after a key press Chromium keeps :focus-visible
    const ringed = focused.some((f, i) => f.drawn && f.style !== rest[i].style);
    const name = el.name ? `${el.name}=${el.value}` : (el.textContent || '').trim().slice(0, 30);
    return {control: `${el.tagName.toLowerCase()} ${name}`, ringed};
}"""


def _focused(page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return e.id || e.name + '=' + e.value || e.tagName; }"
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_secretary_records_a_deal_with_the_keyboard_alone(live_server, browser, viewport):
    build_world()
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    log_in(page, live_server, "secretary")
    # A table of three, where every player takes tricks at raspasy.
    running = Pulka.objects.filter(status=PulkaStatus.RUNNING, evening__club__slug="sochi")
    three = next(pulka for pulka in running if len(pulka.names) == 3)
    page.goto(live_server.url + three.get_absolute_url())
    deals = page.locator("#deal-log li.deal").count()
    page.evaluate("window.__noReload = true")

    # The deal kind has the focus on arrival; arrows move through the kinds to raspasy.
    kind = page.locator("#deal-form input[name=kind]:focus")
    assert kind.count() == 1, "the entry form takes the focus on arrival"
    for _ in range(5):
        if page.locator("#deal-form input[name=kind][value=raspasy]").is_checked():
            break
        with page.expect_response(re.compile(r"/deal-form/")):
            page.keyboard.press("ArrowRight")
        page.wait_for_timeout(100)  # htmx settles the swap
    assert page.locator("#deal-form input[name=kind][value=raspasy]").is_checked()
    assert page.evaluate("document.activeElement.name") == "kind", "the swap kept the focus"

    # Tab on through the form; every control shows a ring and lets the focus go on.
    passed, unringed = [], []
    counts = iter(("2", "5"))  # the last count is left empty: it takes the rest of the ten
    for _ in range(40):
        before = _focused(page)
        page.keyboard.press("Tab")
        now = _focused(page)
        assert now != before, f"the focus is trapped on {before}"
        ring = page.evaluate(RING)
        passed.append(ring["control"])
        if not ring["ringed"]:
            unringed.append(ring["control"])
        name = page.evaluate("document.activeElement.name || ''")
        if name.startswith("tricks_"):
            count = next(counts, None)
            if count:
                page.keyboard.type(count)
        if page.evaluate("document.activeElement.type") == "submit":
            break
    else:
        pytest.fail(f"Tab never reached the record button: {passed}")
    assert not unringed, f"no visible focus ring on {unringed}"

    with page.expect_response(lambda r: r.url.endswith("/deals/") and r.request.method == "POST"):
        page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    expect(page.locator("#deal-log li.deal")).to_have_count(deals + 1)
    assert page.evaluate("window.__noReload") is True
    page.wait_for_timeout(300)  # the drawing fragment loads after the deal
    audit = Audit()
    audit.check(page, f"the pulka after a keyboard deal ({viewport['width']} px)")
    assert not audit.violations + audit.too_wide, "\n".join(audit.violations + audit.too_wide)
    context.close()
