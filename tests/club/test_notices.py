"""club.notices: queueing by the channels an account allows and has, in its language; sending
in the background (mail.outbox), retried with a backoff, never twice; the summary a round
page reads; the preferences on the account page."""

from __future__ import annotations

import datetime
import smtplib
import threading

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import connection
from django.utils import timezone, translation

from club import notices
from club.models import AccountSettings, Notice, NoticeChannel, NoticeState
from tests.club.factories import (
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    visible_text,
)
from tests.conftest import HTMX, make_user

pytestmark = pytest.mark.django_db

NOTICES = "/accounts/profile/notices/"
ACCOUNT = "/accounts/profile/"


def render(user):
    """A notice that says who it is for and in which language it was written."""
    return f"For {user.username}", f"{user.username} in {translation.get_language()}"


def person(username: str, *, email: bool = True, **chosen) -> object:
    user = make_user(username=username, email=f"{username}@example.org" if email else "")
    if chosen:
        AccountSettings.objects.create(user=user, **chosen)
    return user


def rows(topic: str = "round:1") -> set[tuple[str, str, str]]:
    return set(Notice.objects.filter(topic=topic).values_list("user__username", "channel", "state"))


def queue(users, *, kind=notices.SEATING, topic="round:1", **kw):
    return notices.queue(kind=kind, topic=topic, users=users, render=render, **kw)


# --- queueing ------------------------------------------------------------------------------------


def test_each_account_gets_a_row_per_channel_it_allows_and_has_and_the_rest_are_counted():
    anna = person("anna")
    boris = person("boris", email=False)
    vera = person("vera", seating_by_mail=False)
    gleb = person("gleb", telegram_chat_id=42)  # a chat, but this site has no bot

    result = queue([anna, boris, vera, gleb])

    assert result == notices.QueueResult(queued=2, reached=2, unreachable=2)
    assert rows() == {
        ("anna", NoticeChannel.MAIL, NoticeState.PENDING),
        ("gleb", NoticeChannel.MAIL, NoticeState.PENDING),
        ("boris", NoticeChannel.NONE, NoticeState.UNREACHABLE),
        ("vera", NoticeChannel.NONE, NoticeState.UNREACHABLE),
    }


def test_confirmation_requests_by_mail_are_off_unless_chosen():
    anna = person("anna")
    boris = person("boris", confirm_by_mail=True)

    queue([anna, boris], kind=notices.CONFIRM, topic="deal:7")

    assert rows("deal:7") == {
        ("anna", NoticeChannel.NONE, NoticeState.UNREACHABLE),
        ("boris", NoticeChannel.MAIL, NoticeState.PENDING),
    }


def test_each_notice_is_written_in_its_recipients_language():
    users = [
        person("olena", language="uk"),
        person("oleg", language="ru"),
        person("nobody"),  # no language of his own: the site's
    ]

    queue(users)

    texts = dict(Notice.objects.values_list("user__username", "text"))
    assert texts == {"olena": "olena in uk", "oleg": "oleg in ru", "nobody": "nobody in en"}


def test_an_unknown_kind_is_refused_before_anything_is_written():
    with pytest.raises(ValueError, match="kind"):
        queue([person("anna")], kind="gossip")
    assert not Notice.objects.exists()


def test_nothing_is_sent_before_the_commit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        queue([person("anna")])

    assert mail.outbox == []
    assert len(callbacks) == 1


# --- sending -------------------------------------------------------------------------------------


def test_after_the_commit_each_notice_is_mailed_once_and_marked_sent(
    django_capture_on_commit_callbacks,
):
    anna, boris = person("anna"), person("boris")

    with django_capture_on_commit_callbacks(execute=True):
        queue([anna, boris])

    assert sorted((m.to[0], m.subject, m.body) for m in mail.outbox) == [
        ("anna@example.org", "For anna", "anna in en"),
        ("boris@example.org", "For boris", "boris in en"),
    ]
    assert rows() == {
        ("anna", NoticeChannel.MAIL, NoticeState.SENT),
        ("boris", NoticeChannel.MAIL, NoticeState.SENT),
    }
    assert notices.send_due() == 0  # nothing is sent twice
    assert len(mail.outbox) == 2


class BrokenConnection:
    """An SMTP server that cannot be reached."""

    def open(self):
        raise ConnectionRefusedError("Connection refused")

    def close(self):
        pass


class RefusingConnection:
    """An SMTP server that refuses one recipient and takes the others."""

    def __init__(self, refused: str):
        self.refused = refused

    def open(self):
        return True

    def close(self):
        pass

    def send_messages(self, messages):
        for message in messages:
            if self.refused in message.to:
                raise smtplib.SMTPRecipientsRefused({self.refused: (550, b"no such user")})
            mail.outbox.append(message)
        return len(messages)


def test_a_broken_mail_server_never_fails_the_caller_and_the_notice_is_retried(
    monkeypatch, django_capture_on_commit_callbacks
):
    anna = person("anna")
    monkeypatch.setattr(notices, "get_connection", BrokenConnection)

    with django_capture_on_commit_callbacks(execute=True):
        queue([anna])

    row = Notice.objects.get()
    assert (row.state, row.attempts) == (NoticeState.PENDING, 1)
    assert "Connection refused" in row.last_error
    assert row.next_attempt_at > timezone.now() + datetime.timedelta(seconds=10)
    monkeypatch.undo()
    assert notices.send_due() == 0  # not due yet: it waits for its backoff
    with time_machine.travel(row.next_attempt_at + datetime.timedelta(seconds=1)):
        assert notices.send_due() == 1
    row.refresh_from_db()
    assert (row.state, row.attempts, row.last_error) == (NoticeState.SENT, 2, "")
    assert [m.to for m in mail.outbox] == [["anna@example.org"]]


def test_a_notice_failing_every_attempt_is_left_failed_with_its_error(monkeypatch):
    queue([person("anna")])
    monkeypatch.setattr(notices, "get_connection", BrokenConnection)

    later = timezone.now()
    for _attempt in range(notices.ATTEMPTS):
        with time_machine.travel(later):
            notices.send_due()
        later += datetime.timedelta(hours=1)

    row = Notice.objects.get()
    assert (row.state, row.attempts) == (NoticeState.FAILED, notices.ATTEMPTS)
    assert "ConnectionRefusedError" in row.last_error
    with time_machine.travel(later):
        assert notices.send_due() == 0


def test_a_refused_address_fails_at_once_and_the_others_go(monkeypatch):
    queue([person("anna"), person("boris")])
    monkeypatch.setattr(notices, "get_connection", lambda: RefusingConnection("anna@example.org"))

    assert notices.send_due() == 1

    assert rows() == {
        ("anna", NoticeChannel.MAIL, NoticeState.FAILED),
        ("boris", NoticeChannel.MAIL, NoticeState.SENT),
    }
    assert [m.to for m in mail.outbox] == [["boris@example.org"]]


def test_a_claimed_notice_is_not_claimed_again():
    queue([person("anna"), person("boris")])

    first = notices._claim(10)

    assert len(first) == 2
    assert notices._claim(10) == []
    assert set(Notice.objects.values_list("state", flat=True)) == {NoticeState.SENDING}


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks across threads need PostgreSQL"
)
def test_two_workers_sending_at_once_never_send_a_notice_twice(monkeypatch):
    # Only the two below send (a worker finding the other's rows still sending asks again).
    monkeypatch.setattr(notices, "_enqueue", lambda *args, **kwargs: None)
    monkeypatch.setattr(notices, "BATCH", 5)  # many claims each, taking turns
    queue([person(f"p{i}") for i in range(60)])
    barrier = threading.Barrier(2)
    counts = []

    def work():
        try:
            barrier.wait()
            counts.append(notices.send_due())
        finally:
            connection.close()

    workers = [threading.Thread(target=work) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    assert sum(counts) == 60
    assert sorted(m.to[0] for m in mail.outbox) == sorted(f"p{i}@example.org" for i in range(60))
    assert set(Notice.objects.values_list("state", flat=True)) == {NoticeState.SENT}


def test_a_notice_queued_again_while_being_sent_goes_again_with_its_new_text():
    anna = person("anna")
    queue([anna])
    [claimed] = notices._claim(10)
    with time_machine.travel(timezone.now() + datetime.timedelta(seconds=1)):
        notices.queue(
            kind=notices.SEATING,
            topic="round:1",
            users=[anna],
            render=lambda user: ("Correction", "the new seat"),
        )

    notices._sent(claimed)  # the older run finishes: it must not mark the new text sent

    row = Notice.objects.get()
    assert (row.state, row.text) == (NoticeState.PENDING, "the new seat")
    assert notices.send_due() == 1
    assert [m.body for m in mail.outbox] == ["the new seat"]


def test_a_correction_resends_a_notice_already_sent(django_capture_on_commit_callbacks):
    anna = person("anna")
    with django_capture_on_commit_callbacks(execute=True):
        queue([anna])
    with django_capture_on_commit_callbacks(execute=True):
        notices.queue(
            kind=notices.SEATING,
            topic="round:1",
            users=[anna],
            render=lambda user: ("Correction", "your seat changed"),
        )

    assert [m.subject for m in mail.outbox] == ["For anna", "Correction"]
    row = Notice.objects.get()
    assert (row.state, row.attempts) == (NoticeState.SENT, 1)


def test_a_notice_left_sending_by_a_dead_worker_is_sent_by_the_next_task():
    queue([person("anna")])
    notices._claim(10)  # the worker dies here

    assert notices.send_due() == 0  # too fresh to be taken for dead
    with time_machine.travel(timezone.now() + notices.STALE_AFTER + datetime.timedelta(seconds=1)):
        assert notices.send_due() == 1
    assert len(mail.outbox) == 1


def test_a_queue_that_cannot_take_the_task_is_logged_not_raised(
    monkeypatch, django_capture_on_commit_callbacks, caplog
):
    class Down:
        def enqueue(self):
            raise ConnectionError("the database is gone")

    monkeypatch.setattr(notices, "send_notices_task", Down())

    with django_capture_on_commit_callbacks(execute=True):
        result = queue([person("anna")])

    assert result.queued == 1
    assert Notice.objects.get().state == NoticeState.PENDING
    assert "could not be queued" in caplog.text


# --- what a round page reads ---------------------------------------------------------------------


def test_the_summary_counts_accounts_not_rows(django_capture_on_commit_callbacks):
    anna = person("anna")
    boris = person("boris", email=False)
    vera = person("vera")
    queue([anna, boris, vera])
    notices._claim(1)  # anna's: being sent

    assert notices.summary("round:1") == (0, 3, 1)
    notices.send_due()
    assert notices.summary("round:1") == notices.Summary(notified=1, total=3, unreachable=1)
    assert notices.summary("round:2") == (0, 0, 0)


# --- the account page's preferences --------------------------------------------------------------


@pytest.fixture
def olena(db):
    user = make_user(username="olena", first_name="Olena", email="olena@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def test_anonymous_is_sent_to_log_in_from_the_preferences(client):
    assert_login_redirect(client.post(NOTICES, {"seating_by_mail": "on"}), NOTICES)
    assert_htmx_login_redirect(client.post(NOTICES, {"seating_by_mail": "on"}, headers=HTMX))
    assert not AccountSettings.objects.exists()


def test_the_account_page_shows_the_notice_choices_with_their_defaults(client, olena):
    client.force_login(olena)

    text = assert_full_page(client.get(ACCOUNT), "notices-form")

    assert 'name="seating_by_mail" id="id_seating_by_mail" checked' in text
    assert 'name="confirm_by_mail" id="id_confirm_by_mail">' in text
    assert "telegram" not in text.lower()  # this site has no bot


def test_saving_the_choices_stores_them_and_answers_htmx_with_the_form(client, olena):
    client.force_login(olena)

    response = client.post(NOTICES, {"confirm_by_mail": "on"}, headers=HTMX)

    text = assert_fragment(response, "notices-form")
    assert "Your notices are saved." in visible_text(text)
    assert 'id="account-sign-in"' not in text
    assert notices.preferences(olena) == {
        "seating_by_mail": False,
        "seating_by_telegram": True,  # not on the form here: kept
        "confirm_by_mail": True,
        "confirm_by_telegram": True,
    }


def test_saving_the_choices_without_htmx_goes_back_to_the_account_page(client, olena):
    client.force_login(olena)

    response = client.post(NOTICES, {"seating_by_mail": "on"})

    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/#account-notices"
    assert notices.preferences(olena)["seating_by_mail"] is True
    assert notices.preferences(olena)["confirm_by_mail"] is False


def test_the_preferences_decide_what_is_queued(client, olena):
    client.force_login(olena)
    client.post(NOTICES, {})  # everything off

    queue([olena])

    assert rows() == {("olena", NoticeChannel.NONE, NoticeState.UNREACHABLE)}
