"""One's own account: the name, the language, links to allauth's e-mail and password pages,
which notices it gets by mail and in Telegram (club.notices), linking a Telegram chat
(club.telegram), and deleting the account. Per user, so there is no club and no tenant
gate: a view only ever reads and writes request.user, never an account named in the URL.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from allauth.core import ratelimit
from django.conf import settings
from django.contrib.auth import logout
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from club import notices, selectors, services, telegram
from club.access import LoginRequired
from club.account_adapter import logs_in_by_username
from club.account_forms import AccountDeleteForm, AccountForm, NoticeForm
from club.language import set_language_cookie
from club.rendering import after_action, render_page
from club.services import ClubError


def _account_context(request: HttpRequest, **parts) -> dict:
    user = request.user
    context = {
        "email": EmailAddress.objects.filter(user=user, primary=True).first(),
        "pending_email": EmailAddress.objects.filter(user=user, verified=False).first(),
        "by_username": logs_in_by_username(user),
        "memberships": selectors.memberships_for_user(user),
        "telegram_on": telegram.enabled(),
        **parts,
    }
    context.setdefault("form", AccountForm(initial=_account_initial(user)))
    context.setdefault(
        "notice_form",
        NoticeForm(initial=notices.preferences(user), telegram=telegram.enabled()),
    )
    if telegram.enabled():
        code = telegram.code_pending(user)
        context["telegram_chat"] = telegram.linked_chat(user)
        context["telegram_link"] = telegram.deep_link(code.code) if code else ""
        context["telegram_expires"] = code.expires_at if code else None
    return context


def _account_initial(user) -> dict:
    return {"name": user.get_full_name(), "language": selectors.account_language(user)}


def _account_page(request: HttpRequest, form: AccountForm) -> HttpResponse:
    context = _account_context(request, form=form)
    return render_page(request, "club/account.html", context, fragment="account-form")


@require_http_methods(["GET", "HEAD", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        raise LoginRequired
    user = request.user
    if request.method != "POST":
        return _account_page(request, AccountForm(initial=_account_initial(user)))
    form = AccountForm(request.POST)
    if not form.is_valid():
        return _account_page(request, form)
    try:
        services.account_update(
            user=user, name=form.cleaned_data["name"], language=form.cleaned_data["language"]
        )
    except ClubError as exc:
        exc.add_to_form(form)
        return _account_page(request, form)
    language = form.cleaned_data["language"]
    if language:
        translation.activate(language)  # the notice is in the language just chosen
    response = after_action(request, _("Your account is saved."), url=reverse("club:account"))
    if language:
        set_language_cookie(response, language)
    return response


def _account_part(request: HttpRequest, fragment: str, outcome: str = "", **parts) -> HttpResponse:
    context = _account_context(request, outcome=outcome, **parts)
    return render_page(request, "club/account.html", context, fragment=fragment)


@require_POST
def account_notices(request: HttpRequest) -> HttpResponse:
    """Which notices the account gets, by mail and (on a site with a bot) in Telegram."""
    if not request.user.is_authenticated:
        raise LoginRequired
    form = NoticeForm(request.POST, telegram=telegram.enabled())
    if not form.is_valid():  # a form of checkboxes is always valid; kept for its shape
        return _account_part(request, "notices-form", notice_form=form)
    notices.preferences_save(user=request.user, choices=form.cleaned_data)
    return after_action(
        request,
        _("Your notices are saved."),
        url=reverse("club:account") + "#account-notices",
        fragment=lambda said: _account_part(request, "notices-form", said),
    )


def _telegram_gate(request: HttpRequest) -> None:
    if not request.user.is_authenticated:
        raise LoginRequired
    if not telegram.enabled():
        raise Http404("Telegram is off on this site")


@require_POST
def telegram_link(request: HttpRequest) -> HttpResponse:
    """A one-time code for the bot's deep link: the account page shows the link."""
    _telegram_gate(request)
    telegram.code_create(user=request.user)
    return after_action(
        request,
        _("Open the link below in Telegram and press Start."),
        url=reverse("club:account") + "#account-telegram",
        fragment=lambda said: _account_part(request, "telegram", said),
    )


@require_POST
def telegram_unlink(request: HttpRequest) -> HttpResponse:
    _telegram_gate(request)
    unlinked = telegram.chat_unlink(user=request.user)
    outcome = _("Telegram is unlinked.") if unlinked else _("No Telegram chat was linked.")
    return after_action(
        request,
        outcome,
        url=reverse("club:account") + "#account-telegram",
        fragment=lambda said: _account_part(request, "telegram", said),
    )


@require_http_methods(["GET", "HEAD", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    """Delete one's own account after typing the password again (club.services.account_delete
    says what goes and what stays)."""
    if not request.user.is_authenticated:
        raise LoginRequired
    user = request.user
    form = AccountDeleteForm(user, request.POST if request.method == "POST" else None)
    if request.method == "POST":
        # Each try checks a password: allauth's limit on re-entering it (per account).
        if not ratelimit.consume(request, action="reauthenticate", user=user):
            form.add_error(None, _("Too many tries. Wait a minute and try again."))
        elif form.is_valid():
            try:
                services.account_delete(user=user)
            except ClubError as exc:
                exc.add_to_form(form)
            else:
                logout(request)
                return after_action(request, _("Your account is deleted."), url=reverse("home"))
    context = {
        "form": form,
        "ownerless": selectors.clubs_left_ownerless(user),
        "memberships": selectors.memberships_for_user(user),
    }
    return render_page(request, "club/account_delete.html", context, fragment="delete-form")


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch; for a logged-in account the choice is also stored on it,
    so that the next login, on any device, comes back in that language."""
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if (
        request.user.is_authenticated
        and language in dict(settings.LANGUAGES)
        and check_for_language(language)
    ):
        services.account_set_language(user=request.user, language=language)
    return response
