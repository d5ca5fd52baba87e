from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse

from club.access import LoginRequired


class LoginRequiredMiddleware:
    """Turns the tenant gate's LoginRequired into a trip to the login page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, LoginRequired):
            return None
        next_url = request.get_full_path()
        if getattr(request, "htmx", False):
            next_url = request.htmx.current_url_abs_path or next_url
            response = redirect_to_login(next_url)
            htmx_response = HttpResponse(status=204)
            htmx_response["HX-Redirect"] = response["Location"]
            return htmx_response
        return redirect_to_login(next_url)
