"""The server's side of offline entry (static/js/offline-core.js): a deal the device kept
while it had no connection is sent later with a header saying so, and is answered in JSON,
for the queue to read, rather than with a fragment to swap. The pages the device may keep
for entry say so in a header of their own (the service worker keeps only those)."""

from __future__ import annotations

from django.forms.forms import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse, JsonResponse

from scoring.forms import DealForm
from scoring.models import Deal, Pulka

QUEUE_HEADER = "Pulka-Queue"
PAGE_HEADER = "Pulka-Offline"
# An entry form's answer names the deal its key recorded (new, or recorded before): the page
# remembers the key as used, so that a copy of the page kept from before it (offline) never
# sends another deal with that key (which would be taken for this one, and dropped).
RECORDED_HEADER = "Pulka-Recorded"


def from_queue(request: HttpRequest) -> bool:
    return request.headers.get(QUEUE_HEADER) == "1"


def keep_for_entry(response: HttpResponse) -> HttpResponse:
    """Marks a page that records deals as one the service worker keeps, so that it reloads
    offline (config/offline.py)."""
    response[PAGE_HEADER] = "entry"
    return response


def answer(
    pulka: Pulka, outcome: str, message: str = "", *, next_number: int | None = None, **extra
) -> JsonResponse:
    """What the device's queue is told about a deal it sent: "recorded", "already" (its key
    was recorded before: it counts as sent) or "refused" (the queue stops there and shows
    `message`). `next` is the number the pulka goes on with, so that the deals waiting behind
    a refused one can be renumbered (counted unless the caller knows it)."""
    if next_number is None:
        next_number = Deal.objects.filter(pulka=pulka).order_by().count() + 1
    status = 409 if outcome == "refused" else 200
    body = {"outcome": outcome, "message": message, "next": next_number, **extra}
    return JsonResponse(body, status=status)


def refused(pulka: Pulka, form: DealForm) -> JsonResponse:
    """A deal whose form the server refused: every error, the form's own first."""
    errors = list(form.non_field_errors())
    for name, field_errors in form.errors.items():
        if name != NON_FIELD_ERRORS:
            errors.extend(str(error) for error in field_errors)
    return answer(pulka, "refused", " ".join(errors))


def recorded(response: HttpResponse, number: int) -> HttpResponse:
    response[RECORDED_HEADER] = str(number)
    return response
