"""What the club tests share: the status each persona gets, and small readers."""

from __future__ import annotations

from urllib.parse import quote

from django.http import HttpResponse

# The status each persona gets on a page of club A (private) that needs...
READ = {"anonymous": 404, "outsider": 404, "player": 200, "secretary": 200, "owner": 200}
RECORD = {"anonymous": 404, "outsider": 404, "player": 403, "secretary": 200, "owner": 200}
MANAGE = {"anonymous": 404, "outsider": 404, "player": 403, "secretary": 403, "owner": 200}


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
