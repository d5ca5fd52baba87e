"""Telegram, optional per site: an account links its chat, then gets its notices there too.

Off unless settings.TELEGRAM_BOT_TOKEN is set; then the account page offers "Link Telegram":
a one-time code (TelegramCode, CODE_LIFETIME) in a deep link, t.me/<bot>?start=<code>. The
person presses Start in Telegram, Telegram posts "/start <code>" to our webhook
(club.telegram_views.webhook, guarded by the secret-token header), and `update_answer` links
that chat to the code's account and answers in the account's language. "/stop" in the chat,
or "Unlink" on the account page, undoes it.

Plain HTTPS calls with httpx rather than a bot framework: we use two Bot API methods,
sendMessage (club.notices, in a worker) and setWebhook (`manage.py telegram_webhook`), and
answer the webhook itself with a method in the response body. python-telegram-bot, the
well-kept library, is async-first and built around its own application loop and polling,
which a synchronous Django worker would have to wrap; aiogram is asyncio only. httpx gives
one synchronous client with timeouts and connection reuse for a batch, and the base URL is a
setting (TELEGRAM_API_URL), so that the tests talk to a fake server on 127.0.0.1.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

import httpx
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from club.models import AccountSettings, TelegramCode

CODE_LIFETIME = datetime.timedelta(minutes=15)
TIMEOUT = httpx.Timeout(10.0, connect=5.0)
TEXT_LIMIT = 4096  # the Bot API's longest message


class TelegramError(Exception):
    """A Bot API call that failed; `permanent`: trying again cannot help (the bot was
    blocked, the chat is gone), as opposed to a timeout, a 429 or a 5xx."""

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


def enabled() -> bool:
    return bool(settings.TELEGRAM_BOT_TOKEN)


def client() -> httpx.Client:
    """One client for a batch of calls (it keeps the connection)."""
    return httpx.Client(timeout=TIMEOUT)


def _call(http: httpx.Client, method: str, payload: dict[str, Any]) -> dict[str, Any]:
    url = f"{settings.TELEGRAM_API_URL}/bot{settings.TELEGRAM_BOT_TOKEN}/{method}"
    try:
        response = http.post(url, json=payload)
    except httpx.HTTPError as exc:
        # The message of a transport error may carry the URL, and so the token: not kept.
        raise TelegramError(f"{method}: {type(exc).__name__}") from exc
    try:
        answer = response.json()
    except ValueError:
        answer = {}
    if response.status_code == 200 and answer.get("ok"):
        return answer
    description = str(answer.get("description", ""))[:300] if isinstance(answer, dict) else ""
    permanent = 400 <= response.status_code < 500 and response.status_code != 429
    raise TelegramError(f"{method}: {response.status_code} {description}", permanent=permanent)


def send_message(http: httpx.Client, chat_id: int, text: str) -> None:
    _call(http, "sendMessage", {"chat_id": chat_id, "text": text[:TEXT_LIMIT]})


def set_webhook(url: str) -> None:
    """Tell Telegram where to post the bot's updates, with the secret it must send back."""
    with client() as http:
        _call(
            http,
            "setWebhook",
            {
                "url": url,
                "secret_token": settings.TELEGRAM_WEBHOOK_SECRET,
                "allowed_updates": ["message"],
            },
        )


# --- linking a chat ----------------------------------------------------------------------------


def deep_link(code: str) -> str:
    return f"https://t.me/{settings.TELEGRAM_BOT_USERNAME}?start={code}"


@transaction.atomic
def code_create(*, user: AbstractBaseUser) -> TelegramCode:
    """A fresh code for the account; its older ones stop working."""
    TelegramCode.objects.filter(user=user).delete()
    return TelegramCode.objects.create(
        user=user,
        code=secrets.token_urlsafe(24),
        expires_at=timezone.now() + CODE_LIFETIME,
    )


def code_pending(user: AbstractBaseUser) -> TelegramCode | None:
    return TelegramCode.objects.filter(user=user, expires_at__gt=timezone.now()).first()


def linked_chat(user: AbstractBaseUser) -> int | None:
    return (
        AccountSettings.objects.filter(user=user).values_list("telegram_chat_id", flat=True).first()
    )


@transaction.atomic
def chat_link(*, code: str, chat_id: int) -> AbstractBaseUser | None:
    """Link the chat to the account of `code` (spent, even if the chat was linked to another
    account: that one loses it); None if there is no such unexpired code."""
    found = (
        TelegramCode.objects.select_for_update()
        .select_related("user")
        .filter(code=code, expires_at__gt=timezone.now())
        .first()
    )
    if found is None:
        return None
    user = found.user
    TelegramCode.objects.filter(user=user).delete()
    AccountSettings.objects.filter(telegram_chat_id=chat_id).exclude(user=user).update(
        telegram_chat_id=None, telegram_linked_at=None
    )
    AccountSettings.objects.update_or_create(
        user=user, defaults={"telegram_chat_id": chat_id, "telegram_linked_at": timezone.now()}
    )
    return user


def chat_unlink(*, user: AbstractBaseUser) -> bool:
    """Forget the account's chat; False if none was linked."""
    return bool(
        AccountSettings.objects.filter(user=user, telegram_chat_id__isnull=False).update(
            telegram_chat_id=None, telegram_linked_at=None
        )
    )


def _language(user: AbstractBaseUser | None, asked: Any) -> str:
    """The account's language; without one, the Telegram app's if the site has it."""
    chosen = (
        AccountSettings.objects.filter(user=user).values_list("language", flat=True).first()
        if user is not None
        else ""
    )
    if chosen:
        return chosen
    if isinstance(asked, str) and asked[:2] in dict(settings.LANGUAGES):
        return asked[:2]
    return settings.LANGUAGE_CODE


def update_answer(update: Any) -> dict[str, Any] | None:
    """What to answer an update Telegram posted to the webhook: a sendMessage for the chat
    (the webhook's response body carries it), or None for anything we do not handle."""
    message = update.get("message") if isinstance(update, dict) else None
    if not isinstance(message, dict):
        return None
    chat = message.get("chat")
    text = message.get("text")
    chat_id = chat.get("id") if isinstance(chat, dict) else None
    if (
        not isinstance(chat_id, int)
        or isinstance(chat_id, bool)
        or not -(2**63) < chat_id < 2**63
        or not isinstance(text, str)
    ):
        return None
    if chat.get("type", "private") != "private":
        return None  # a group has no account; the bot stays quiet there
    sender = message.get("from")
    asked = sender.get("language_code") if isinstance(sender, dict) else None
    command, _space, argument = text.strip().partition(" ")
    command = command.split("@", 1)[0]
    if command == "/start":
        user = chat_link(code=argument.strip()[:64], chat_id=chat_id) if argument else None
        what = "linked" if user is not None else "expired"
    elif command == "/stop":
        owner = AccountSettings.objects.filter(telegram_chat_id=chat_id).first()
        user = get_user_model().objects.filter(pk=owner.user_id).first() if owner else None
        if user is not None:
            chat_unlink(user=user)
        what = "unlinked" if user is not None else "unknown"
    else:
        return None
    with translation.override(_language(user, asked)):
        reply = reply_text(what, user)
    return {"method": "sendMessage", "chat_id": chat_id, "text": reply}


def reply_text(what: str, user: AbstractBaseUser | None) -> str:
    """The bot's answer in the active language: "linked", "expired" (a code that is wrong,
    spent or too old), "unlinked" (after /stop), "unknown" (/stop from a chat of nobody)."""
    if what == "linked":
        return _(
            "Linked to your account, %(name)s. Your table and the deals awaiting your "
            "confirmation will come here. Send /stop to unlink."
        ) % {"name": user.get_full_name() or user.get_username()}
    if what == "expired":
        return _(
            "This link has expired or was already used. Open your account page on the "
            "site and press “Link Telegram” again."
        )
    if what == "unlinked":
        return _("Unlinked: no more notices here.")
    return _("This chat is not linked to an account.")
