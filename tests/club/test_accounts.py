"""Accounts with django-allauth: sign-up with an e-mail address, its confirmation by mail,
logging in by address or by an old username, password reset without enumeration, and the
allauth pages inside the site's page, under its Content-Security-Policy."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail

from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db

SIGNUP = "/accounts/signup/"
LOGIN = "/accounts/login/"
RESET = "/accounts/password/reset/"
NEW_PASSWORD = "a-long-new-secret-41"


def sign_up(client, email="oksana@example.org", name="", language="en"):
    data = {"email": email, "password1": PASSWORD, "password2": PASSWORD, "first_name": name}
    return client.post(SIGNUP, data, headers={"accept-language": language})


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def link_in(message) -> str:
    """The one link of a mail, as a path on the test server."""
    url = re.search(r"https?://testserver(\S+)", message.body)
    assert url, message.body
    return url.group(1)


def log_in(client, login: str, password: str = PASSWORD):
    return client.post(LOGIN, {"login": login, "password": password})


# Sign-up and confirmation


def test_signing_up_sends_a_confirmation_and_the_link_logs_in(client):
    response = sign_up(client, name="Оксана Петренко")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    assert not logged_in(client)  # mandatory verification: not before the address is confirmed
    user = get_user_model().objects.get(email="oksana@example.org")
    assert user.get_full_name() == "Оксана Петренко"
    assert not EmailAddress.objects.get(user=user).verified
    (message,) = mail.outbox
    assert message.to == ["oksana@example.org"]
    assert message.subject == "[Pulka] Confirm your e-mail address"

    confirm = link_in(message)
    page = client.get(confirm)
    assert page.status_code == 200
    assert "oksana@example.org" in page.content.decode()
    response = client.post(confirm)

    assert response.status_code == 302
    assert logged_in(client)
    assert EmailAddress.objects.get(user=user).verified


def test_where_the_visitor_was_going_survives_the_sign_up_and_the_confirmation(client):
    """An invitation link sends a stranger to sign up with ?next=: he lands back on it."""
    data = {"email": "a@example.org", "password1": PASSWORD, "password2": PASSWORD}
    client.post(SIGNUP + "?next=/clubs/new/", {**data, "next": "/clubs/new/"})

    response = client.post(link_in(mail.outbox[0]))

    assert response.status_code == 302
    assert response["Location"] == "/clubs/new/"
    assert logged_in(client)


def test_before_confirming_the_password_alone_does_not_log_in(client):
    sign_up(client)
    mail.outbox.clear()

    response = log_in(client, "oksana@example.org")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    assert not logged_in(client)
    assert len(mail.outbox) == 0  # the cool-off: one confirmation mail every 3 minutes


def test_after_confirming_the_address_and_password_log_in(client):
    sign_up(client)
    client.post(link_in(mail.outbox[0]))
    client.post("/accounts/logout/")
    assert not logged_in(client)

    response = log_in(client, "Oksana@Example.org")

    assert response.status_code == 302
    assert logged_in(client)


def test_the_display_name_is_optional(client):
    sign_up(client, email="nameless@example.org")

    user = get_user_model().objects.get(email="nameless@example.org")
    assert user.get_full_name() == ""
    assert user.username  # allauth makes one from the address


def test_an_address_already_taken_is_not_revealed_and_makes_no_second_account(client):
    make_user(username="taken", email="taken@example.org")
    EmailAddress.objects.create(
        user=get_user_model().objects.get(username="taken"),
        email="taken@example.org",
        verified=True,
        primary=True,
    )

    response = sign_up(client, email="taken@example.org")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"  # as for a new address
    assert get_user_model().objects.filter(email__iexact="taken@example.org").count() == 1
    (message,) = mail.outbox  # the owner of the address is told instead
    assert message.to == ["taken@example.org"]


def test_verification_can_be_made_optional(client, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"

    response = sign_up(client)

    assert response.status_code == 302
    assert logged_in(client)  # at once
    assert len(mail.outbox) == 1  # and the confirmation is still sent


def test_the_sign_up_mail_speaks_the_visitors_language(client):
    sign_up(client, language="uk")

    (message,) = mail.outbox
    assert message.subject == "[Pulka] Підтвердьте адресу електронної пошти"
    assert "Ви отримали цей лист" in message.body


def test_a_bad_sign_up_is_refused_with_reasons_and_saves_nothing(client):
    response = client.post(
        SIGNUP,
        {"email": "not-an-address", "password1": "1", "password2": "2", "first_name": "x" * 151},
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "Enter an e-mail address like name@example.org." in html
    assert "at most 150 characters" in html
    assert not get_user_model().objects.exists()
    assert not mail.outbox


# Logging in


def test_an_old_account_logs_in_with_its_username(client):
    """Accounts made before sign-up (the demo, the admin) have no address: the username
    and password still work, with no confirmation asked."""
    make_user(username="secretary")

    response = log_in(client, "secretary")

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert logged_in(client)


def test_an_account_with_an_address_logs_in_with_the_address_or_the_username(client):
    user = make_user(username="owner", email="owner@pulka.example")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)

    assert log_in(client, "owner@pulka.example").status_code == 302
    assert logged_in(client)
    client.post("/accounts/logout/")
    assert log_in(client, "owner").status_code == 302
    assert logged_in(client)


def test_a_wrong_password_is_refused_in_the_page(client):
    make_user(username="petro")

    response = log_in(client, "petro", "wrong")

    assert response.status_code == 200
    assert "The username and/or password you specified are not correct." in (
        response.content.decode()
    )
    assert not logged_in(client)


def test_the_login_page_keeps_its_address_and_url_names(client):
    from django.urls import reverse

    assert reverse("login") == reverse("account_login") == LOGIN
    assert reverse("logout") == reverse("account_logout") == "/accounts/logout/"
    html = client.get(LOGIN + "?next=/c/sochi/").content.decode()
    assert 'name="login"' in html
    assert 'name="password"' in html
    assert 'value="/c/sochi/"' in html
    assert 'href="/accounts/signup/?next=%2Fc%2Fsochi%2F"' in html
    assert 'href="/accounts/password/reset/"' in html


def test_logging_out_takes_a_post(client):
    client.force_login(make_user())

    assert client.post("/accounts/logout/").status_code == 302
    assert not logged_in(client)


# Password reset and change


def test_the_reset_page_says_the_same_for_a_known_and_an_unknown_address(client):
    user = make_user(username="anna", email="anna@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)

    known = client.post(RESET, {"email": "anna@example.org"})
    unknown = client.post(RESET, {"email": "nobody@example.org"})

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == "/accounts/password/reset/done/"
    done = client.get(known["Location"]).content.decode()
    assert "We have sent you a mail with a link to set a new password." in done
    # Both addresses get a mail, so not even the mail traffic tells them apart.
    assert [m.to for m in mail.outbox] == [["anna@example.org"], ["nobody@example.org"]]
    assert "/accounts/password/reset/key/" in mail.outbox[0].body
    assert "/accounts/password/reset/key/" not in mail.outbox[1].body


def test_the_reset_link_sets_a_new_password(client):
    user = make_user(username="anna", email="anna@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    client.post(RESET, {"email": "anna@example.org"})

    form = client.get(link_in(mail.outbox[0]), follow=True)
    action = form.redirect_chain[-1][0] if form.redirect_chain else link_in(mail.outbox[0])
    response = client.post(action, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert log_in(client, "anna@example.org", NEW_PASSWORD).status_code == 302
    assert logged_in(client)


def test_reset_mails_to_one_address_are_limited(client):
    for _ in range(5):
        client.post(RESET, {"email": "nobody@example.org"})

    assert len(mail.outbox) == 3  # ACCOUNT_RATE_LIMITS["reset_password"]: 3 an hour


def test_the_password_change_page_needs_a_login_and_changes_it(client):
    response = client.get("/accounts/password/change/")
    assert response.status_code == 302
    assert response["Location"].startswith(LOGIN + "?next=")

    user = make_user()
    client.force_login(user)
    assert 'id="account-page"' in client.get("/accounts/password/change/").content.decode()
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_changing_the_address_sends_a_confirmation_to_the_new_one(client):
    user = make_user(username="anna", email="anna@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    client.force_login(user)

    response = client.post("/accounts/email/", {"action_add": "", "email": "anna@new.example"})

    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.to == ["anna@new.example"]
    client.post(link_in(message))
    user.refresh_from_db()
    assert user.email == "anna@new.example"
    assert list(EmailAddress.objects.filter(user=user).values_list("email", flat=True)) == [
        "anna@new.example"
    ]


# The pages: the site's template and style, and the Content-Security-Policy

ANONYMOUS_PAGES = [
    LOGIN,
    SIGNUP,
    RESET,
    "/accounts/password/reset/done/",
    "/accounts/confirm-email/",
]
ACCOUNT_PAGES = ["/accounts/email/", "/accounts/password/change/", "/accounts/logout/"]

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)


def assert_site_page_without_inline_code(html: str) -> None:
    assert 'id="account-page"' in html  # allauth's content, in our card
    assert 'class="site-header"' in html  # our base.html
    assert "/static/css/pulka.css" in html
    assert not INLINE_SCRIPT.search(html), INLINE_SCRIPT.search(html).group(0)
    assert "style=" not in html
    assert "<style" not in html
    assert not re.search(r"\son[a-z]+=", html)


@pytest.mark.parametrize("path", ANONYMOUS_PAGES)
def test_allauth_pages_for_visitors_use_the_site_page_and_no_inline_code(client, path):
    response = client.get(path)

    assert response.status_code == 200
    assert_site_page_without_inline_code(response.content.decode())


@pytest.mark.parametrize("path", ACCOUNT_PAGES)
def test_allauth_pages_for_accounts_use_the_site_page_and_no_inline_code(client, path):
    user = make_user(email="a@example.org")
    EmailAddress.objects.create(user=user, email="a@example.org", verified=False, primary=True)
    client.force_login(user)
    # A pending change shows the most of the e-mail page (its hidden form among it).
    EmailAddress.objects.create(user=user, email="b@example.org", verified=False, primary=False)

    response = client.get(path)

    assert response.status_code == 200
    html = response.content.decode()
    assert_site_page_without_inline_code(html)
    if path != "/accounts/logout/":
        assert 'id="back-to-account"' in html


def test_the_confirmation_page_of_a_link_uses_the_site_page(client):
    sign_up(client)

    response = client.get(link_in(mail.outbox[0]))

    assert_site_page_without_inline_code(response.content.decode())


def test_a_forged_confirmation_link_gets_a_clear_page(client):
    response = client.get("/accounts/confirm-email/forged-key/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "This confirmation link is out of date or wrong." in html
    assert_site_page_without_inline_code(html)


@pytest.mark.parametrize(
    ("language", "words"),
    [("uk", "Вже маєте обліковий запис?"), ("ru", "Уже есть учётная запись?")],
)
def test_the_sign_up_page_speaks_the_visitors_language(client, language, words):
    html = client.get(SIGNUP, headers={"accept-language": language}).content.decode()

    assert f'<html lang="{language}">' in html
    assert words in html


def test_staff_still_log_in_to_the_django_admin(client):
    get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)

    response = client.post(
        "/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD, "next": "/admin/"}
    )

    assert response.status_code == 302
    assert response["Location"] == "/admin/"
    assert "Site administration" in client.get("/admin/").content.decode()
    assert client.get("/admin/account/emailaddress/").status_code == 200
