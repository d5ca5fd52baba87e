"""Pulka pages: the sheet, the deal-entry form, the deal log and its corrections.

Every view starts with the tenant gate and scopes the pulka by its club. htmx requests get
the page's named partials; without JavaScript every form posts and redirects (PRG).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.forms.forms import NON_FIELD_ERRORS
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap, retarget

from club import selectors as club_selectors
from club.access import ClubAccess, get_club_for_user
from club.models import Role
from club.params import int_param
from club.rendering import (
    after_action,
    club_context,
    nothing_changed,
    private_poll,
    render_fragment,
    render_page,
    wants_fragment,
)
from scoring import engine, live, queue, selectors, services
from scoring.access import (
    PUBLIC,
    get_pulka_for_user,
    poll_unchanged,
    public_access,
    public_answer,
    public_poll,
)
from scoring.drawing import pulka_drawing
from scoring.forms import (
    DealForm,
    PulkaCreateForm,
    RulesForm,
    convention_description,
    convention_summary,
    deal_initial,
)
from scoring.models import Deal, Pulka, PulkaStatus

PAGE = "scoring/pulka_detail.html"
# The largest number a deal's number or version column holds (PositiveIntegerField).
DEAL_NUMBER_MAX = 2_147_483_647


def _can_change(access: ClubAccess, pulka: Pulka) -> bool:
    """Whether the visitor may change the pulka: a secretary, or only the owner (as a judge,
    giving a reason) once the pulka is locked."""
    return access.can_record and (not pulka.is_locked or access.can_manage)


def _controls(access: ClubAccess, pulka: Pulka) -> dict:
    """What decides the pulka's controls: every fragment that swaps them gets these.

    `offline_entry`: the new deal's form keeps its deals on the device when the connection
    drops (static/js/offline.js), for whoever records deals on a running pulka."""
    can_change = _can_change(access, pulka)
    return {
        "can_change": can_change,
        "judge": pulka.is_locked,
        "offline_entry": can_change and pulka.is_running,
    }


def _urls(pulka: Pulka) -> dict[str, str]:
    args = [pulka.evening.club.slug, pulka.pk]
    return {
        "page": reverse("scoring:pulka-detail", args=args),
        "form": reverse("scoring:deal-form", args=args),
        "create": reverse("scoring:deal-create", args=args),
    }


def _new_deal_form(pulka: Pulka, names: list[str], sheet: engine.Sheet, data=None) -> DealForm:
    return DealForm.next_entry(names, sheet, _urls(pulka)["form"], data)


def _insert_deal_form(
    pulka: Pulka, names: list[str], deals: list[Deal], deal: Deal, sheet: engine.Sheet, data=None
) -> DealForm:
    """The entry form of a forgotten deal, to go before `deal`: its dealer is the one the
    rotation gives after the deal before it; it carries `deal`'s version (a stale one is
    refused)."""
    earlier = [d.to_engine(names) for d in deals if d.number < deal.number]
    rotation = names.index(engine.dealer_for_next_deal(names, names[pulka.first_dealer], earlier))
    return DealForm(
        data,
        names=names,
        rules=sheet.rules,
        rotation_dealer=rotation,
        refresh_url=reverse(
            "scoring:deal-insert", args=[pulka.evening.club.slug, pulka.pk, deal.number]
        ),
        initial={"version": deal.version},
    )


def _edit_deal_form(
    pulka: Pulka, names: list[str], deals: list[Deal], deal: Deal, sheet: engine.Sheet, data=None
) -> DealForm:
    earlier = [d.to_engine(names) for d in deals if d.number < deal.number]
    rotation = engine.dealer_for_next_deal(names, names[pulka.first_dealer], earlier)
    dealer = sheet.snapshots[deal.number - 1].dealer
    initial = deal_initial(deal.to_pulka_dict(names), names, dealer)
    initial.update(rotation_dealer=names.index(rotation), version=deal.version)
    return DealForm(
        data,
        names=names,
        rules=sheet.rules,
        rotation_dealer=names.index(rotation),
        refresh_url=reverse(
            "scoring:deal-edit", args=[pulka.evening.club.slug, pulka.pk, deal.number]
        ),
        initial=initial,
    )


def _who(access: ClubAccess, user_ids: list[int | None]) -> dict[int, str] | None:
    """Who entered or changed what, named for the club's members only (None: a visitor of a
    public club, who sees no names; members see display names, never login names)."""
    if access.role is None:
        return None
    return club_selectors.display_names(access.club, user_ids, known=access.viewer)


def _log(
    access: ClubAccess, names: list[str], deals: list[Deal], sheet: engine.Sheet
) -> list[dict]:
    """The deal log, newest first: each deal with the entries the engine says it wrote."""
    who = _who(access, [pk for d in deals for pk in (d.entered_by_id, d.changed_by_id)])
    return [
        _log_item(deal, names, snapshot, who)
        for deal, snapshot in reversed(list(zip(deals, sheet.snapshots, strict=True)))
    ]


def _log_item(
    deal: Deal, names: list[str], snapshot: engine.DealSnapshot, who: dict[int, str] | None
) -> dict:
    return {
        "deal": deal,
        "data": deal.to_pulka_dict(names),
        "dealer": snapshot.dealer,
        "entries": snapshot.entries,
        "raspasy_cost": snapshot.raspasy_cost,
        "entered_by": who.get(deal.entered_by_id) if who else None,
        "changed_by": who.get(deal.changed_by_id) if who else None,
        "check": selectors.deal_check(deal, names),
    }


def _context(
    request: HttpRequest,
    access: ClubAccess,
    pulka: Pulka,
    *,
    deals: list[Deal] | None = None,
    sheet: engine.Sheet | None = None,
    form: DealForm | None = None,
    mode: str = "new",
    target: Deal | None = None,
) -> dict:
    names = pulka.names
    if deals is None:
        deals = selectors.pulka_deals(pulka)
    if sheet is None:
        sheet = selectors.pulka_sheet(pulka, deals)
    controls = _controls(access, pulka)
    if form is None and controls["can_change"] and pulka.is_running and mode == "new":
        form = _new_deal_form(pulka, names, sheet)
    # What the new deal's form needs on the device (offline), drawn once in the page: from a
    # new deal's form, whatever the page shows (a correction, on a page opened to correct).
    device_form = None
    if controls["offline_entry"]:
        device_form = form if mode == "new" else _new_deal_form(pulka, names, sheet)
    return club_context(
        access,
        **controls,
        device_form=device_form,
        pulka=pulka,
        evening=pulka.evening,
        names=names,
        sheet=sheet,
        rows=selectors.sheet_rows(sheet, names),
        pool_sum=selectors.pool_sum(sheet),
        convention=convention_summary(sheet.rules),
        drawing=pulka_drawing(sheet, names),
        deals=deals,
        log=_log(access, names, deals, sheet),
        form=form,
        mode=mode,
        target=target,
        target_data=target.to_pulka_dict(names) if target else None,
        urls=_urls(pulka),
        next_number=len(deals) + 1,
        rule=services.time_rule(pulka, len(deals) + 1),
    )


@require_safe
def pulka_detail(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id)
    context = _context(request, access, pulka)
    response = render_page(request, PAGE, context, fragment="pulka")
    return queue.keep_for_entry(response) if context["offline_entry"] else response


@require_safe
@gzip_page
def pulka_live(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    """A spectator's poll: 204 while nothing changed (no replay), else the new sheet and the
    deal rows that changed since the version the poll holds (?v=). A pulka that stopped
    running gets the whole page fragment, which no longer polls.

    A poll with no session at a public club is the same for all such spectators
    (public_poll): its answer is shared (Cache-Control: public, an ETag; a conditional poll
    gets a 304), and costs no query with a shared cache (one without). Any other poll is
    private: an unchanged one costs what poll_unchanged says. A change is rendered once per
    version, language and audience, and served from the cache to every spectator after it.
    Gzipped: these answers carry no CSRF token (BREACH needs a secret in the page), except a
    secretary's, whose token Django masks anew in every answer.
    """
    keys = live.pulka_keys(pulka_id, club_slug)
    held = request.GET.get("v", "")
    read = lambda user: selectors.pulka_live_state(user, club_slug, pulka_id)  # noqa: E731
    watch = public_poll(request, keys, read)
    if watch is not None:
        return _public_live(request, watch, club_slug, pulka_id, held)
    # Read before the database, as the cached answers' keys must be (scoring.live).
    watch = live.Watch(keys)
    if poll_unchanged(request, keys, read, held, watch=watch):
        return private_poll(nothing_changed())
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id)
    if not wants_fragment(request):
        return redirect(pulka.get_absolute_url())
    if held == str(pulka.version):
        return private_poll(nothing_changed())
    return private_poll(_live(request, access, pulka, held, watch))


def _public_live(
    request: HttpRequest, watch: live.Watch, club_slug: str, pulka_id: int, held: str
) -> HttpResponse:
    def changed() -> tuple[HttpResponse, str] | None:
        pulka = selectors.pulka_with_role(AnonymousUser(), club_slug, pulka_id)
        if pulka is None or not pulka.evening.club.is_public:
            return None
        access = public_access(pulka.evening.club)
        return _live(request, access, pulka, held, watch), str(pulka.version)

    since = int_param(held, low=0, high=DEAL_NUMBER_MAX)
    answer = public_answer(request, watch, held, changed, since)
    if answer is not None:
        return answer
    # Gone or made private since the cache said otherwise: the full gate answers.
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id)
    return private_poll(_live(request, access, pulka, held, None))


def _audience(access: ClubAccess, pulka: Pulka) -> str | None:
    """Whom a live answer is for, when many may share it: a visitor of a public club (no
    names), or a member of that role; None: one with the controls, whose answer carries his
    CSRF token and is his alone."""
    if _can_change(access, pulka):
        return None
    return access.role or PUBLIC


def _live(
    request: HttpRequest, access: ClubAccess, pulka: Pulka, held: str, watch: live.Watch | None
) -> HttpResponse:
    """What a poll swaps after a change: the sheet and the changed deal rows, or the whole
    pulka; rendered once for everyone of the same audience and language."""
    audience = _audience(access, pulka)
    since = int_param(held, low=0, high=DEAL_NUMBER_MAX)
    key = None
    if audience is not None and watch is not None:
        key = watch.render_key(pulka.version, since, get_language(), audience)
    return live.rendered(key, lambda: _live_render(request, access, pulka, since, audience))


def _live_render(
    request: HttpRequest, access: ClubAccess, pulka: Pulka, since: int | None, audience: str | None
) -> tuple[HttpResponse, bool]:
    deals = selectors.pulka_deals(pulka)
    # The deals are those of the version read before them only if it has not moved since.
    consistent = selectors.pulka_version(pulka) == pulka.version
    context = _context(request, access, pulka, deals=deals)
    if not pulka.is_running:
        return _whole_pulka(request, context), consistent
    # The rows a secretary sees carry the same controls for every secretary: her answer is
    # hers alone (her CSRF token is in the pulka's actions), her rows' prints are not.
    rows = audience or "controls"
    prints = [_row_print(item) for item in reversed(context["log"])]
    if consistent:
        live.rows_store(pulka.pk, pulka.version, rows, prints)
    before = None
    if since is not None and since < pulka.version:
        before = live.rows_of(pulka.pk, since, rows)
    context["changes"] = _log_changes(before, prints, context["log"])
    return _fragment(request, context, "live"), consistent


def _row_print(item: dict) -> str:
    """A fingerprint of everything a deal row shows (see the deal-item partial)."""
    deal = item["deal"]
    shown = (
        deal.pk,
        deal.number,
        deal.version,
        deal.entered_at,
        item["data"],
        item["dealer"],
        item["entries"],
        item["raspasy_cost"],
        item["entered_by"],
        item["changed_by"],
        item["check"],
    )
    return hashlib.blake2b(repr(shown).encode(), digest_size=8).hexdigest()


def _log_changes(
    before: list[str] | None, after: list[str], log: list[dict]
) -> dict[str, list[dict]] | None:
    """The log rows a page showing the rows `before` lacks (`new`, newest first) or shows
    otherwise (`changed`); None: send the whole log (rows unknown, or a deal gone)."""
    if before is None or len(after) < len(before):
        return None
    new, changed = [], []
    for item in log:
        number = item["deal"].number
        if number > len(before):
            new.append(item)
        elif before[number - 1] != after[number - 1]:
            changed.append(item)
    if len(changed) > len(after) // 2:
        return None  # a correction early in a long pulka: the whole log is as short
    return {"new": new, "changed": changed}


@require_safe
@gzip_page
def pulka_drawing_view(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    """The drawn pulka alone: loaded after a deal is entered, so entry stays fast."""
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id)
    if not wants_fragment(request):
        return redirect(pulka.get_absolute_url())
    sheet = selectors.pulka_sheet(pulka)
    context = club_context(access, pulka=pulka, drawing=pulka_drawing(sheet, pulka.names))
    return render_fragment(request, "scoring/_drawing.html", context)


@require_safe
def deal_form(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    """Re-render the entry form for the choices made so far (htmx), without validating."""
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id, role=Role.SECRETARY)
    if not wants_fragment(request):
        return redirect(pulka.get_absolute_url())
    names = pulka.names
    sheet = selectors.pulka_sheet(pulka)
    form = _new_deal_form(pulka, names, sheet, data=request.GET)
    context = club_context(
        access,
        **_controls(access, pulka),
        pulka=pulka,
        form=form,
        urls=_urls(pulka),
        mode="new",
        next_number=len(sheet.snapshots) + 1,
        draft=True,
    )
    return _fragment(request, context, "deal-form")


@require_POST
def deal_create(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id, role=Role.SECRETARY)
    names = pulka.names
    form = DealForm.posted_entry(request.POST, pulka, names, _urls(pulka)["form"])
    queued = queue.from_queue(request)
    if form.is_valid():
        try:
            deal, sheet = services.deal_record(
                pulka=pulka,
                data=form.deal_data,
                entered_by=request.user,
                number=form.cleaned_data["number"],
                entry_key=form.cleaned_data["entry_key"],
                reason=form.cleaned_data.get("reason") or "",
            )
        except services.DealAlreadyRecorded as exc:
            if queued:
                return queue.answer(pulka, "already", exc.message, number=exc.number)
            answer = _entry_answer(request, access, pulka, notice=exc.message)
            return queue.recorded(answer, exc.number)
        except services.DealNumberTaken as exc:
            if queued:
                return queue.answer(pulka, "refused", exc.message)
            return _entry_answer(request, access, pulka, error=exc.message)
        except services.ScoringError as exc:
            form.add_error(None, exc.message)
        else:
            if queued:
                return queue.answer(
                    pulka, "recorded", number=deal.number, next_number=deal.number + 1
                )
            answer = after_action(
                request,
                url=pulka.get_absolute_url(),
                fragment=lambda _: _deal_created(request, access, pulka, names, deal, sheet),
            )
            return queue.recorded(answer, deal.number)
    elif form.has_error(NON_FIELD_ERRORS, "outdated") and not queued:
        return _entry_answer(request, access, pulka, error=form.non_field_errors()[0])
    elif not pulka.is_running:
        form.add_error(None, _("This pulka is over: no deal can be added to it."))
    if queued:
        return queue.refused(pulka, form)
    if not wants_fragment(request):
        return render(request, PAGE, _context(request, access, pulka, form=form))
    context = club_context(
        access,
        **_controls(access, pulka),
        pulka=pulka,
        form=form,
        urls=_urls(pulka),
        mode="new",
        next_number=form.cleaned_data.get("number") or 1,
    )
    return _fragment(request, context, "deal-form")


def _deal_created(request, access, pulka, names, deal, sheet) -> HttpResponse:
    """htmx answer to a new deal: a fresh form, the new sheet and the new log line.

    The deal that closes the last pool finishes the pulka: then the whole page is swapped.
    """
    if not pulka.is_running:
        return _whole_pulka(request, _context(request, access, pulka))
    context = club_context(
        access,
        **_controls(access, pulka),
        pulka=pulka,
        names=names,
        sheet=sheet,
        rows=selectors.sheet_rows(sheet, names),
        pool_sum=selectors.pool_sum(sheet),
        form=_new_deal_form(pulka, names, sheet),
        mode="new",
        urls=_urls(pulka),
        next_number=deal.number + 1,
        rule=services.time_rule(pulka, deal.number + 1),
        item=_log_item(deal, names, sheet.snapshots[-1], _who(access, [deal.entered_by_id])),
    )
    return _fragment(request, context, "deal-created")


def _entry_answer(
    request: HttpRequest,
    access: ClubAccess,
    pulka: Pulka,
    *,
    notice: str | None = None,
    error: str | None = None,
) -> HttpResponse:
    """The sheet as it stands and a fresh form, when the posted form recorded nothing new:
    its deal was already recorded (`notice`), or another entry took its number (`error`).

    With htmx: the deal-created fragment, with the whole log (the page may have missed
    deals); without JavaScript: back to the pulka, the words as a message.
    """

    def fresh(_outcome: str) -> HttpResponse:
        # The pulka as it is now: others may have moved it on since the view read it.
        pulka.refresh_from_db(fields=["status", "version", "finished_at"])
        context = _context(request, access, pulka)
        context.update(notice=notice, entry_error=error)
        if not pulka.is_running:
            return _whole_pulka(request, context)
        return _fragment(request, context, "deal-created")

    return after_action(
        request,
        notice or error or "",
        level=messages.INFO if notice else messages.ERROR,
        url=pulka.get_absolute_url(),
        fragment=fresh,
    )


def _fragment(request: HttpRequest, context: dict, name: str) -> HttpResponse:
    return render_fragment(request, f"{PAGE}#{name}", context)


def _whole_pulka(request: HttpRequest, context: dict) -> HttpResponse:
    """The whole pulka in place of whatever part asked: it is over, or changed throughout."""
    return retarget(reswap(_fragment(request, context, "pulka"), "outerHTML"), "#pulka")


def _deal_for(pulka: Pulka, deals: list[Deal], number: int) -> Deal:
    for deal in deals:
        if deal.number == number:
            return deal
    raise Http404


def _after_change(
    request: HttpRequest,
    access: ClubAccess,
    pulka: Pulka,
    outcome: str,
    *,
    level: int = messages.SUCCESS,
) -> HttpResponse:
    """After a change to the whole pulka: for htmx the pulka as it now is, saying the
    outcome at once (a message flashed would wait for the next page)."""

    def whole(outcome: str) -> HttpResponse:
        context = _context(request, access, pulka)
        context["notice" if level < messages.WARNING else "entry_error"] = outcome
        return _whole_pulka(request, context)

    return after_action(request, outcome, level=level, url=pulka.get_absolute_url(), fragment=whole)


def _refused(request: HttpRequest, context: dict, fragment: str) -> HttpResponse:
    """A correction refused or mistyped: for htmx the whole pulka, its sheet as it still
    stands with the form and its message; else the page."""
    if wants_fragment(request):
        return _whole_pulka(request, context)
    return render_page(request, PAGE, context, fragment=fragment)


def _correction(
    request: HttpRequest,
    club_slug: str,
    pulka_id: int,
    number: int,
    *,
    mode: str,
    make_form: Callable[..., DealForm],
    save: Callable[..., object],
    done: str,
) -> HttpResponse:
    """The form that corrects deal `number` (`mode` "edit") or writes in a forgotten deal
    before it ("insert"): `save(pulka, form)` calls the service, `done` says it worked."""
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id, role=Role.SECRETARY)
    names = pulka.names
    deals = selectors.pulka_deals(pulka)
    deal = _deal_for(pulka, deals, number)
    sheet = selectors.pulka_sheet(pulka, deals)
    if pulka.status == PulkaStatus.ABANDONED:
        return _after_change(
            request,
            access,
            pulka,
            _("This pulka was abandoned: its deals can no longer be changed."),
            level=messages.ERROR,
        )
    if request.method != "POST" and wants_fragment(request) and "kind" in request.GET:
        # A choice changed while filling the form: re-render it, do not validate.
        form = make_form(pulka, names, deals, deal, sheet, data=request.GET)
        context = club_context(
            access,
            **_controls(access, pulka),
            pulka=pulka,
            form=form,
            urls=_urls(pulka),
            mode=mode,
            target=deal,
            draft=True,
        )
        return _fragment(request, context, "deal-form")
    data = request.POST if request.method == "POST" else None
    form = make_form(pulka, names, deals, deal, sheet, data=data)
    if request.method == "POST" and form.is_valid():
        try:
            save(pulka, form)
        except services.ScoringError as exc:
            form.add_error(None, exc.message)
        else:
            return _after_change(request, access, pulka, done)
    context = _context(request, access, pulka, deals=deals, sheet=sheet, form=form)
    context.update(mode=mode, target=deal)
    if request.method == "POST":
        return _refused(request, context, "entry")
    return render_page(request, PAGE, context, fragment="entry")


@require_http_methods(["GET", "HEAD", "POST"])
def deal_edit(request: HttpRequest, club_slug: str, pulka_id: int, number: int) -> HttpResponse:
    """Correct deal `number` as it was played."""

    def save(pulka: Pulka, form: DealForm) -> None:
        services.deal_update(
            pulka=pulka,
            number=number,
            data=form.deal_data,
            expected_version=form.cleaned_data.get("version") or 0,
            changed_by=request.user,
            reason=form.cleaned_data.get("reason") or "",
        )

    done = _("Deal %(number)s corrected.") % {"number": number}
    return _correction(
        request,
        club_slug,
        pulka_id,
        number,
        mode="edit",
        make_form=_edit_deal_form,
        save=save,
        done=done,
    )


@require_http_methods(["GET", "HEAD", "POST"])
def deal_insert(request: HttpRequest, club_slug: str, pulka_id: int, number: int) -> HttpResponse:
    """Write in a forgotten deal before deal `number` (the later deals move down one)."""

    def save(pulka: Pulka, form: DealForm) -> None:
        services.deal_insert(
            pulka=pulka,
            before=number,
            data=form.deal_data,
            expected_version=form.cleaned_data.get("version") or 0,
            inserted_by=request.user,
            reason=form.cleaned_data.get("reason") or "",
        )

    done = _("A deal was inserted as deal %(number)s; the later deals moved down one.") % {
        "number": number
    }
    return _correction(
        request,
        club_slug,
        pulka_id,
        number,
        mode="insert",
        make_form=_insert_deal_form,
        save=save,
        done=done,
    )


@require_http_methods(["GET", "HEAD", "POST"])
def deal_delete(request: HttpRequest, club_slug: str, pulka_id: int, number: int) -> HttpResponse:
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id, role=Role.SECRETARY)
    deals = selectors.pulka_deals(pulka)
    deal = _deal_for(pulka, deals, number)
    error = None
    if request.method == "POST":
        # No usable version: no deal has it, so the service refuses it as stale.
        version = int_param(request.POST.get("version"), low=0, high=DEAL_NUMBER_MAX)
        if version is None:
            version = -1
        try:
            services.deal_delete(
                pulka=pulka,
                number=number,
                expected_version=version,
                deleted_by=request.user,
                reason=request.POST.get("reason", ""),
            )
        except services.ScoringError as exc:
            error = exc.message
        else:
            return _after_change(
                request, access, pulka, _("Deal %(number)s deleted.") % {"number": number}
            )
    context = _context(request, access, pulka, deals=deals, mode="delete", target=deal)
    context["error"] = error
    if request.method == "POST":
        # The confirmation posts into the whole pulka: it keeps the sheet on screen.
        return _refused(request, context, "pulka")
    return render_page(request, PAGE, context, fragment="entry")


@require_POST
def deal_keep(request: HttpRequest, club_slug: str, pulka_id: int, number: int) -> HttpResponse:
    """The judge keeps deal `number` as its table entered it (disputed, or never confirmed):
    it becomes confirmed. A correction or a deletion is the other way to resolve it."""
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id, role=Role.SECRETARY)
    version = int_param(request.POST.get("version"), low=0, high=DEAL_NUMBER_MAX)
    try:
        services.deal_keep(
            pulka=pulka,
            number=number,
            expected_version=-1 if version is None else version,
            kept_by=request.user,
            reason=request.POST.get("reason", ""),
        )
    except services.ScoringError as exc:
        return _after_change(request, access, pulka, exc.message, level=messages.ERROR)
    done = _("Deal %(number)s is kept as entered: it is confirmed.") % {"number": number}
    return _after_change(request, access, pulka, done)


@require_safe
def pulka_history(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id)
    # A deal number that no deal can have shows the whole history.
    number = int_param(request.GET.get("deal"), low=1, high=DEAL_NUMBER_MAX)
    revisions = selectors.pulka_history(pulka, number)
    who = _who(access, [line.user_id for line in revisions])
    names = pulka.names
    for line in revisions:
        line.who = who.get(line.user_id) if who else None
        # Who did it at the table (through its link): the seat and its player's name.
        line.at_seat = selectors.seat_label(names, getattr(line, "seat", None))
    context = club_context(
        access,
        pulka=pulka,
        evening=pulka.evening,
        names=names,
        revisions=revisions,
        number=number,
    )
    return render_page(request, "scoring/pulka_history.html", context, fragment="revisions")


@require_http_methods(["GET", "HEAD", "POST"])
def pulka_rules(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    """The pulka's conventions: shown to all, editable by a secretary until the first deal."""
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id)
    has_deals = Deal.objects.filter(pulka=pulka).exists()
    editable = access.can_record and not has_deals and pulka.is_running
    if request.method == "POST":
        if not access.can_record:
            get_club_for_user(request, club_slug, role=Role.SECRETARY)
        form = RulesForm(request.POST, prefix="rules", rules=pulka.rules)
        if form.applied:
            # "Fill in its options" without JavaScript: the form shows the convention's
            # values, to be checked and saved.
            pass
        elif not editable:
            form.is_valid()
            form.add_error(None, _("The conventions can be changed only before the first deal."))
        elif form.is_valid():
            try:
                services.pulka_update_rules(pulka=pulka, rules=form.rules)
            except services.ScoringError as exc:
                form.add_error(None, exc.message)
            else:
                return after_action(request, _("Conventions saved."), url=pulka.get_absolute_url())
    else:
        form = RulesForm(prefix="rules", rules=pulka.rules)
    context = club_context(
        access,
        pulka=pulka,
        evening=pulka.evening,
        names=pulka.names,
        form=form,
        editable=editable,
        convention=convention_description(pulka.engine_rules(), len(pulka.names)),
    )
    return render_page(request, "scoring/pulka_rules.html", context, fragment="rules")


# What a secretary can do to a whole pulka: finish, reopen or abandon it.


def _status_change(
    request: HttpRequest,
    club_slug: str,
    pulka_id: int,
    change: Callable[[Pulka, AbstractBaseUser, str], object],
    done: str,
) -> HttpResponse:
    """`change(pulka, by, reason)` calls the service; `done` is what the page says after it
    (`reason`: a judge's, for a locked pulka)."""
    access, pulka = get_pulka_for_user(request, club_slug, pulka_id, role=Role.SECRETARY)
    try:
        change(pulka, request.user, request.POST.get("reason", ""))
    except services.ScoringError as exc:
        return _after_change(request, access, pulka, exc.message, level=messages.ERROR)
    return _after_change(request, access, pulka, done)


@require_POST
def pulka_finish(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    return _status_change(
        request,
        club_slug,
        pulka_id,
        lambda pulka, by, reason: services.pulka_finish(pulka=pulka, finished_by=by, reason=reason),
        _("The pulka is over: settled as it stands."),
    )


@require_POST
def pulka_reopen(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    return _status_change(
        request,
        club_slug,
        pulka_id,
        lambda pulka, by, reason: services.pulka_reopen(pulka=pulka, reopened_by=by, reason=reason),
        _("The pulka is running again."),
    )


@require_POST
def pulka_abandon(request: HttpRequest, club_slug: str, pulka_id: int) -> HttpResponse:
    return _status_change(
        request,
        club_slug,
        pulka_id,
        lambda pulka, by, reason: services.pulka_abandon(
            pulka=pulka, abandoned_by=by, reason=reason
        ),
        _("The pulka was abandoned: it counts for nobody."),
    )


@require_http_methods(["GET", "HEAD", "POST"])
def pulka_create(request: HttpRequest, club_slug: str, evening_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    evening = selectors.evening_for_club(access.club, evening_id)
    form = PulkaCreateForm(request.POST or None, club=access.club)
    if request.method == "POST" and form.is_valid():
        players = form.cleaned_data["players"]
        try:
            pulka = services.pulka_create(
                evening=evening,
                players=players,
                first_dealer=players[form.cleaned_data["first_dealer"]],
                rules=form.rules_form.rules,
                created_by=request.user,
            )
        except services.ScoringError as exc:
            form.add_error(None, exc.message)
        else:
            return after_action(request, url=pulka.get_absolute_url())
    context = club_context(access, evening=evening, new_table_form=form)
    return render_page(request, "scoring/pulka_create.html", context, fragment="new-table")
