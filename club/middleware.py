from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.http.response import HttpResponseRedirectBase
from django.urls import reverse

from club.access import ClubMoved, LoginRequired
from club.language import set_language_cookie


class HttpResponsePermanentRedirectSameMethod(HttpResponseRedirectBase):
    """308: like 301, but the browser repeats the same method and body at the new URL."""

    status_code = 308


class TenantGateMiddleware:
    """Turns the tenant gate's exceptions into responses.

    LoginRequired: a trip to the login page (an HX-Redirect for htmx). ClubMoved: the same URL
    under the club's current short name. GET and HEAD get a 301, which browsers and search
    engines remember. Any other method gets a 308: a form opened before the rename and sent
    after it (a deal typed at the table) is posted again at the new address, body and CSRF
    token included, instead of being lost; htmx follows it the same way.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, LoginRequired):
            return self._to_login(request)
        if isinstance(exception, ClubMoved):
            return self._to_new_slug(request, exception.slug)
        return None

    def _to_login(self, request: HttpRequest) -> HttpResponse:
        next_url = request.get_full_path()
        if getattr(request, "htmx", False):
            next_url = request.htmx.current_url_abs_path or next_url
            response = redirect_to_login(next_url)
            htmx_response = HttpResponse(status=204)
            htmx_response["HX-Redirect"] = response["Location"]
            return htmx_response
        return redirect_to_login(next_url)

    def _to_new_slug(self, request: HttpRequest, slug: str) -> HttpResponse:
        match = request.resolver_match
        url = reverse(match.view_name, args=match.args, kwargs={**match.kwargs, "club_slug": slug})
        if request.META.get("QUERY_STRING"):
            url += "?" + request.META["QUERY_STRING"]
        if request.method in ("GET", "HEAD"):
            return HttpResponsePermanentRedirect(url)
        return HttpResponsePermanentRedirectSameMethod(url)


class AccountLanguageMiddleware:
    """After a login, the language stored on the account becomes the language cookie.

    club.receivers notes the account's language on the request when someone logs in (any
    way: the login form, a confirmed address, a reset password); the response that answers
    the login carries the cookie, and LocaleMiddleware reads it from the next page on.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        language = getattr(request, "account_language", "")
        if language:
            set_language_cookie(response, language)
        return response
