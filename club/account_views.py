"""One's own account: the name, the language, links to allauth's e-mail and password pages,
and deleting the account. Per user, so there is no club and no tenant gate: a view only ever
reads and writes request.user, never an account named in the URL.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from allauth.core import ratelimit
from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from club import selectors, services
from club.access import LoginRequired
from club.account_adapter import logs_in_by_username
from club.account_forms import AccountDeleteForm, AccountForm
from club.language import set_language_cookie
from club.rendering import after_action, render_page
from club.services import ClubError


def _account_page(request: HttpRequest, form: AccountForm) -> HttpResponse:
    user = request.user
    context = {
        "form": form,
        "email": EmailAddress.objects.filter(user=user, primary=True).first(),
        "pending_email": EmailAddress.objects.filter(user=user, verified=False).first(),
        "by_username": logs_in_by_username(user),
        "memberships": selectors.memberships_for_user(user),
    }
    return render_page(request, "club/account.html", context, fragment="account-form")


@require_http_methods(["GET", "HEAD", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        raise LoginRequired
    user = request.user
    if request.method != "POST":
        initial = {"name": user.get_full_name(), "language": selectors.account_language(user)}
        return _account_page(request, AccountForm(initial=initial))
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
