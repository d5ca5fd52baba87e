"""The bot's webhook: Telegram posts each update of the bot here (club.telegram).

Not a page: no session, no CSRF token (Telegram has none), guarded instead by the secret
Telegram sends back in X-Telegram-Bot-Api-Secret-Token, the one `manage.py telegram_webhook`
registered (compared in constant time). A bounded body; what is not JSON gets 400, an update
we do not handle 200 with nothing to do (else Telegram retries it for a day).
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from club import telegram

MAX_BODY = 64 * 1024  # an update with a message is a few kilobytes
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


@csrf_exempt
@require_POST
def webhook(request: HttpRequest) -> HttpResponse:
    if not telegram.enabled():
        raise Http404("Telegram is off on this site")
    given = request.headers.get(SECRET_HEADER, "")
    if not given or not constant_time_compare(given, settings.TELEGRAM_WEBHOOK_SECRET):
        return HttpResponse(status=403)
    try:
        length = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        length = MAX_BODY + 1
    if length > MAX_BODY:
        return HttpResponse(status=413)
    try:
        update = json.loads(request.body)
    except (ValueError, RecursionError):
        return HttpResponse(status=400)
    answer = telegram.update_answer(update)
    if answer is None:
        return HttpResponse(status=200)
    return JsonResponse(answer)
