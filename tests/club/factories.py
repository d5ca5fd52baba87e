"""What the club tests share: the status each persona gets, small readers of an answer, and
the club's factories beyond tests/conftest.py's personas (an invitation)."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import quote

from django.http import HttpResponse

from club import invitations
from club.models import Invitation, Role
from tests.conftest import make_member

# The status each persona gets on a page of club A (private) that needs...
READ = {"anonymous": 404, "outsider": 404, "player": 200, "secretary": 200, "owner": 200}
RECORD = {"anonymous": 404, "outsider": 404, "player": 403, "secretary": 200, "owner": 200}
MANAGE = {"anonymous": 404, "outsider": 404, "player": 403, "secretary": 403, "owner": 200}


# The attributes whose text a reader sees or hears.
VISIBLE_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}


class VisibleText(HTMLParser):
    """The text a reader sees or hears: data, and the labels of attributes (not hidden
    inputs' values such as the CSRF token); not scripts and styles."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        for name, value in attrs:
            if name in VISIBLE_ATTRIBUTES and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """The page's visible text, its pieces joined by spaces."""
    parser = VisibleText()
    parser.feed(html)
    return " ".join(parser.parts)


def html(response: HttpResponse) -> str:
    return response.content.decode()


def assert_fragment(response: HttpResponse, element_id: str) -> str:
    """An htmx fragment: 200, the element's id, no page around it, varies on HX-Request."""
    text = html(response)
    assert response.status_code == 200, text[:500]
    assert f'id="{element_id}"' in text
    assert "<html" not in text
    assert "HX-Request" in response.get("Vary", "")
    return text


def assert_full_page(response: HttpResponse, element_id: str) -> str:
    text = html(response)
    assert response.status_code == 200, text[:500]
    assert f'id="{element_id}"' in text
    assert "<html" in text
    return text


def assert_login_redirect(response: HttpResponse, next_url: str) -> None:
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={quote(next_url, safe='/')}"


def assert_htmx_login_redirect(response: HttpResponse) -> None:
    assert response.status_code == 204
    assert response["HX-Redirect"].startswith("/accounts/login/?next=")


def make_invitation(
    club, *, role=Role.PLAYER, player=None, created_by=None, **kwargs
) -> Invitation:
    # By default made by an owner of the club: a link is good only while its maker may grant it.
    maker = created_by or make_member(club, Role.OWNER).user
    return invitations.invitation_create(
        club=club, role=role, player=player, created_by=maker, **kwargs
    )


def assert_not_found(response: HttpResponse, *hidden: str) -> None:
    """The site's 404 page (or its htmx message), and none of `hidden` (what the page would
    have shown)."""
    text = html(response)
    assert response.status_code == 404, text[:500]
    assert 'id="error-404"' in text
    assert [word for word in hidden if word in text] == []


def assert_forbidden(response: HttpResponse, *hidden: str) -> None:
    """The site's 403 page (or its htmx message), and none of `hidden` (what the page would
    have shown)."""
    text = html(response)
    assert response.status_code == 403, text[:500]
    assert 'id="error-403"' in text
    assert [word for word in hidden if word in text] == []


def assert_method_refused(response: HttpResponse, allowed: str = "POST") -> None:
    """A request with the wrong method: 405, nothing rendered, the methods that are allowed
    in the Allow header."""
    assert response.status_code == 405
    assert response["Allow"] == allowed
    assert response.content == b""
