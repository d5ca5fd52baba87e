"""Telegram against a fake Bot API on 127.0.0.1 (tests/fake_telegram.py): linking a chat from
the account page through the bot's webhook (its secret, wrong and spent codes, /stop),
notices sent to the chat, retries after the Bot API failed, and a site without a bot."""

from __future__ import annotations

import datetime
import json

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.utils import timezone, translation

from club import notices, telegram
from club.models import AccountSettings, Notice, NoticeChannel, NoticeState, TelegramCode
from tests.club.factories import (
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    assert_not_found,
    visible_text,
)
from tests.conftest import HTMX, make_user
from tests.fake_telegram import BOT_TOKEN, WEBHOOK_SECRET, bot_site

pytestmark = pytest.mark.django_db

ACCOUNT = "/accounts/profile/"
LINK = "/accounts/profile/telegram/link/"
UNLINK = "/accounts/profile/telegram/unlink/"
WEBHOOK = "/telegram/webhook/"
CHAT = 777000111


@pytest.fixture
def bot(settings):
    with bot_site(settings) as fake:
        yield fake


@pytest.fixture
def olena(db):
    user = make_user(username="olena", first_name="Olena", email="olena@example.org")
    AccountSettings.objects.create(user=user, language="uk")
    return user


def update(text: str, chat: int = CHAT, **message) -> dict:
    return {
        "update_id": 1,
        "message": {
            "message_id": 5,
            "chat": {"id": chat, "type": "private"},
            "from": {"id": chat, "is_bot": False, "language_code": "en"},
            "text": text,
            **message,
        },
    }


def post_update(client, body, secret: str | None = WEBHOOK_SECRET, **kwargs):
    headers = {} if secret is None else {"X-Telegram-Bot-Api-Secret-Token": secret}
    raw = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.post(WEBHOOK, raw, content_type="application/json", headers=headers, **kwargs)


def code_of(user) -> str:
    return TelegramCode.objects.get(user=user).code


# --- a site without a bot ------------------------------------------------------------------------


def test_without_a_bot_token_there_is_no_telegram_anywhere(client, olena):
    client.force_login(olena)

    page = assert_full_page(client.get(ACCOUNT), "account-notices")

    assert "Telegram" not in page
    assert_not_found(client.post(LINK))
    assert_not_found(client.post(UNLINK))
    client.logout()
    assert_not_found(post_update(client, update("/start x")))
    assert not TelegramCode.objects.exists()


# --- linking from the account page ---------------------------------------------------------------


def test_anonymous_is_sent_to_log_in_from_the_telegram_buttons(client, bot):
    for url in (LINK, UNLINK):
        assert_login_redirect(client.post(url), url)
        assert_htmx_login_redirect(client.post(url, headers=HTMX))
    assert not TelegramCode.objects.exists()


def test_link_telegram_gives_a_one_time_deep_link_to_the_bot(client, bot, olena):
    client.force_login(olena)
    assert 'id="telegram-deep-link"' not in client.get(ACCOUNT).content.decode()

    response = client.post(LINK, headers=HTMX)

    text = assert_fragment(response, "telegram-part")
    code = code_of(olena)
    assert f'href="https://t.me/pulka_test_bot?start={code}"' in text
    assert 'id="account-sign-in"' not in text
    assert TelegramCode.objects.get().expires_at > timezone.now() + datetime.timedelta(minutes=14)


def test_link_telegram_without_htmx_shows_the_link_on_the_account_page(client, bot, olena):
    client.force_login(olena)

    response = client.post(LINK)

    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/#account-telegram"
    page = assert_full_page(client.get(ACCOUNT), "telegram-part")
    assert f"?start={code_of(olena)}" in page


def test_a_new_link_kills_the_old_one(client, bot, olena):
    client.force_login(olena)
    client.post(LINK)
    old = code_of(olena)

    client.post(LINK)

    assert code_of(olena) != old
    answer = post_update(client, update(f"/start {old}")).json()
    assert AccountSettings.objects.get(user=olena).telegram_chat_id is None
    with translation.override("en"):  # nobody's chat: the Telegram app's language
        assert answer["text"] == telegram.reply_text("expired", None)


# --- the webhook ---------------------------------------------------------------------------------


def test_start_with_the_code_links_the_chat_and_answers_in_the_accounts_language(
    client, bot, olena
):
    telegram.code_create(user=olena)

    response = post_update(client, update(f"/start {code_of(olena)}"))

    assert response.status_code == 200
    chosen = AccountSettings.objects.get(user=olena)
    assert chosen.telegram_chat_id == CHAT
    assert chosen.telegram_linked_at is not None
    assert not TelegramCode.objects.exists()  # spent
    answer = response.json()
    with translation.override("uk"):
        expected = telegram.reply_text("linked", olena)
    assert answer == {"method": "sendMessage", "chat_id": CHAT, "text": expected}
    assert "Olena" in answer["text"]


@pytest.mark.parametrize(
    "secret", [None, "", "wrong", WEBHOOK_SECRET[:-1], WEBHOOK_SECRET + "x"], ids=repr
)
def test_the_webhook_refuses_a_request_without_the_right_secret(client, bot, olena, secret):
    telegram.code_create(user=olena)

    response = post_update(client, update(f"/start {code_of(olena)}"), secret=secret)

    assert response.status_code == 403
    assert AccountSettings.objects.get(user=olena).telegram_chat_id is None
    assert TelegramCode.objects.filter(user=olena).exists()


def test_a_wrong_or_expired_code_links_nothing(client, bot, olena):
    telegram.code_create(user=olena)
    code = code_of(olena)

    wrong = post_update(client, update("/start not-a-code")).json()
    with time_machine.travel(timezone.now() + telegram.CODE_LIFETIME + datetime.timedelta(1)):
        expired = post_update(client, update(f"/start {code}")).json()

    assert AccountSettings.objects.get(user=olena).telegram_chat_id is None
    with translation.override("en"):
        assert wrong["text"] == expired["text"] == telegram.reply_text("expired", None)


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"\xff\xfe",
        b"[" * 50_000,
    ],
    ids=["broken", "not utf-8", "deep"],
)
def test_what_is_not_json_gets_400(client, bot, body):
    response = post_update(client, body)

    assert (response.status_code, response.content) == (400, b"")
    assert not AccountSettings.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {},
        [],
        {"message": "hi"},
        {"message": {"chat": {"id": "7"}, "text": "/start x"}},
        {"message": {"chat": {"id": True}, "text": "/start x"}},
        {"message": {"chat": {"id": 2**70}, "text": "/start x"}},
        {"message": {"chat": {"id": 7}, "text": ["/start"]}},
        {"message": {"chat": {"id": 7, "type": "group"}, "text": "/start x"}},
        {"edited_message": {"chat": {"id": 7}, "text": "/start x"}},
        update("hello"),
    ],
)
def test_an_update_we_do_not_handle_gets_200_and_changes_nothing(client, bot, body):
    response = post_update(client, body)

    assert (response.status_code, response.content) == (200, b"")
    assert not AccountSettings.objects.exists()


def test_a_body_too_big_is_refused_unread(client, bot, olena):
    telegram.code_create(user=olena)
    padding = "x" * 70_000
    body = update(f"/start {code_of(olena)}", padding=padding)

    response = post_update(client, body)

    assert (response.status_code, response.content) == (413, b"")
    assert AccountSettings.objects.get(user=olena).telegram_chat_id is None


def test_stop_from_the_chat_unlinks_it(client, bot, olena):
    telegram.code_create(user=olena)
    post_update(client, update(f"/start {code_of(olena)}"))

    answer = post_update(client, update("/stop")).json()

    assert AccountSettings.objects.get(user=olena).telegram_chat_id is None
    with translation.override("uk"):
        assert answer["text"] == telegram.reply_text("unlinked", olena)


def test_one_chat_belongs_to_one_account_the_last_that_linked_it(client, bot, olena):
    boris = make_user(username="boris")
    for user in (olena, boris):
        telegram.code_create(user=user)
        post_update(client, update(f"/start {code_of(user)}"))

    assert dict(AccountSettings.objects.values_list("user__username", "telegram_chat_id")) == {
        "olena": None,
        "boris": CHAT,
    }


def test_unlink_on_the_account_page(client, bot, olena):
    AccountSettings.objects.filter(user=olena).update(telegram_chat_id=CHAT)
    client.force_login(olena)
    page = assert_full_page(client.get(ACCOUNT), "telegram-linked")
    assert 'id="telegram-unlink"' in page

    text = assert_fragment(client.post(UNLINK, headers=HTMX), "telegram-part")

    assert AccountSettings.objects.get(user=olena).telegram_chat_id is None
    assert 'id="telegram-link"' in text
    again = assert_fragment(client.post(UNLINK, headers=HTMX), "telegram-part")
    assert 'id="telegram-outcome"' in again  # "no chat was linked", in her language


# --- notices in Telegram -------------------------------------------------------------------------


def render(user):
    return "Your table", f"Table 2 for {user.username}"


def test_notices_go_to_the_linked_chat_and_by_mail_as_chosen(
    bot, olena, django_capture_on_commit_callbacks
):
    AccountSettings.objects.filter(user=olena).update(telegram_chat_id=CHAT)
    boris = make_user(username="boris", email="")
    AccountSettings.objects.create(user=boris, telegram_chat_id=CHAT + 1, seating_by_mail=False)
    vera = make_user(username="vera", email="vera@example.org")
    AccountSettings.objects.create(user=vera, telegram_chat_id=CHAT + 2, seating_by_telegram=False)

    with django_capture_on_commit_callbacks(execute=True):
        notices.queue(
            kind=notices.SEATING, topic="round:9", users=[olena, boris, vera], render=render
        )

    assert sorted((m["chat_id"], m["text"]) for m in bot.messages()) == [
        (CHAT, "Table 2 for olena"),
        (CHAT + 1, "Table 2 for boris"),
    ]
    assert all(call.token == BOT_TOKEN for call in bot.calls)
    assert sorted(m.to[0] for m in mail.outbox) == ["olena@example.org", "vera@example.org"]
    assert notices.summary("round:9") == (3, 3, 0)


def test_confirmation_requests_go_to_telegram_by_default(bot, olena):
    AccountSettings.objects.filter(user=olena).update(telegram_chat_id=CHAT)

    notices.queue(kind=notices.CONFIRM, topic="deal:1", users=[olena], render=render)

    assert set(Notice.objects.values_list("channel", flat=True)) == {NoticeChannel.TELEGRAM}


def test_a_failing_bot_api_is_retried_then_the_message_goes_once(bot, olena):
    AccountSettings.objects.filter(user=olena).update(telegram_chat_id=CHAT, seating_by_mail=False)
    notices.queue(kind=notices.SEATING, topic="round:9", users=[olena], render=render)
    bot.fail_next(2, status=502)

    later = timezone.now()
    for _attempt in range(2):
        with time_machine.travel(later):
            assert notices.send_due() == 0
        later += datetime.timedelta(hours=1)
    row = Notice.objects.get()
    assert (row.state, row.attempts) == (NoticeState.PENDING, 2)
    assert "502" in row.last_error
    assert BOT_TOKEN not in row.last_error
    with time_machine.travel(later):
        assert notices.send_due() == 1

    assert bot.refused == 2
    assert [m["text"] for m in bot.messages()] == ["Table 2 for olena"]
    assert Notice.objects.get().state == NoticeState.SENT


def test_a_blocked_bot_fails_at_once(bot, olena):
    AccountSettings.objects.filter(user=olena).update(telegram_chat_id=CHAT, seating_by_mail=False)
    notices.queue(kind=notices.SEATING, topic="round:9", users=[olena], render=render)
    bot.fail_next(1, status=403)

    notices.send_due()

    row = Notice.objects.get()
    assert (row.state, row.attempts) == (NoticeState.FAILED, 1)
    assert bot.messages() == []


def test_an_unreachable_bot_api_is_retried(settings, olena, django_capture_on_commit_callbacks):
    with bot_site(settings):
        pass  # the server is gone: nothing answers there any more
    AccountSettings.objects.filter(user=olena).update(telegram_chat_id=CHAT, seating_by_mail=False)

    with django_capture_on_commit_callbacks(execute=True):
        notices.queue(kind=notices.SEATING, topic="round:9", users=[olena], render=render)

    row = Notice.objects.get()
    assert (row.state, row.attempts) == (NoticeState.PENDING, 1)
    assert "ConnectError" in row.last_error


def test_the_telegram_webhook_command_registers_the_secret(bot, settings):
    call_command("telegram_webhook", "https://pulka.example.org/telegram/webhook/")

    [call] = bot.calls
    assert call.method == "setWebhook"
    assert call.payload["url"] == "https://pulka.example.org/telegram/webhook/"
    assert call.payload["secret_token"] == WEBHOOK_SECRET


def test_the_account_page_with_a_bot_offers_the_telegram_choices(client, bot, olena):
    client.force_login(olena)

    page = client.get(ACCOUNT).content.decode()

    assert 'name="seating_by_telegram"' in page
    assert 'name="confirm_by_telegram" id="id_confirm_by_telegram" checked' in page
    assert 'id="telegram-link"' in page
    assert "Telegram" in visible_text(page)
