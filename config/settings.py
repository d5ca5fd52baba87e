"""Pulka's one settings module, driven by the environment.

Every knob a deployment needs is an environment variable (see README.md). The defaults are
safe for production: DEBUG is off, cookies are secure and HTTPS is enforced unless DEBUG is on.
`make run` turns DEBUG on and uses the embedded SQLite database.
"""

import os
import sys
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def envint(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    if raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from exc


def email_settings_from_url(url: str) -> dict[str, object]:
    """Django's SMTP settings from one URL, e.g. ``smtp://user:pass@mail.example.org:587``.

    ``smtp://`` sends with STARTTLS on port 587 unless ``?tls=false`` (then port 25);
    ``smtps://`` uses implicit TLS on port 465. User and password are percent-decoded, so
    a password may hold ``@`` or ``:`` written as ``%40`` and ``%3A``.
    """
    parts = urlsplit(url)
    if parts.scheme not in {"smtp", "smtps"} or not parts.hostname:
        raise ImproperlyConfigured(
            "EMAIL_URL must look like smtp://user:password@host:587 or smtps://...:465, "
            f"not {parts.scheme or url!r}"
        )
    query = parse_qs(parts.query)
    ssl = parts.scheme == "smtps"
    tls = not ssl and query.get("tls", ["true"])[0].lower() not in {"0", "false", "no", "off"}
    try:
        port = parts.port
    except ValueError as exc:
        raise ImproperlyConfigured("EMAIL_URL has a port that is not a number") from exc
    return {
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port or (465 if ssl else 587 if tls else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": tls,
        "EMAIL_USE_SSL": ssl,
    }


# pytest and `manage.py test` serve plain HTTP from a live server: no HTTPS redirect there.
TESTING = "pytest" in sys.modules or sys.argv[1:2] == ["test"]

DEBUG = envbool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not (DEBUG or TESTING):
        # A silent fallback key would sign every session and password-reset link with a value
        # that is public in this repository: refuse to start instead.
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Pulka refuses to start without it while DEBUG is off. "
            "Make one with: python -c 'import secrets; print(secrets.token_urlsafe(50))' "
            "and set it in the environment (or set DEBUG=true for local work)."
        )
    SECRET_KEY = "django-insecure-pulka-development-key-only"
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
# The site's own name and domain, which every mail's links and greeting use (never the Host
# header a request came with). `migrate` writes them into django.contrib.sites' row.
SITE_ID = 1
LOOPBACK_HOSTS = ("*", "localhost", "127.0.0.1", "[::1]")
SITE_NAME = os.environ.get("SITE_NAME", "Pulka")
SITE_DOMAIN = os.environ.get("SITE_DOMAIN") or next(
    (host.lstrip(".") for host in ALLOWED_HOSTS if host not in LOOPBACK_HOSTS),
    "testserver" if TESTING else "localhost:8000",
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.contrib.sites",
    "django_htmx",
    "django_tables2",
    "template_partials",
    "csp",
    "allauth",
    "allauth.account",
    "club",
    "scoring",
    "competition",
    "federation",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "club.middleware.TenantGateMiddleware",
    # allauth's login flow (pending sign-ups, e-mail verification stages) keeps its state here.
    "allauth.account.middleware.AccountMiddleware",
    # After a login, the language stored on the account becomes the language cookie.
    "club.middleware.AccountLanguageMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=envint("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent secretaries on the embedded database: wait for the write lock, do not fail;
    # with WAL, readers (the live pages) never wait for a writer.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that hangs (accepts, then never answers) must not hold every request until
    # gunicorn's timeout: give up connecting after DATABASE_CONNECT_TIMEOUT seconds.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault(
        "connect_timeout", envint("DATABASE_CONNECT_TIMEOUT", 5)
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background work (django-tasks, the backport of Django 6's django.tasks). "immediate" runs a
# task at once, inside the request that asked for it: `make run` and the tests need no second
# process. "database" queues it in a table (django-tasks-db) for `manage.py db_worker`, so a
# correction of an old deal no longer waits for the club's whole rating history.
TASKS_BACKENDS = {
    "immediate": "django_tasks.backends.immediate.ImmediateBackend",
    "database": "django_tasks_db.DatabaseBackend",
}
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "immediate")
if TASKS_BACKEND not in TASKS_BACKENDS:
    raise ImproperlyConfigured(f"TASKS_BACKEND must be one of {', '.join(TASKS_BACKENDS)}")
# Three queues: "default" for the re-rates, "files" for the prepared files
# (competition.files.services.QUEUE), "notices" for the players' mails and Telegram messages
# (club.notices.QUEUE), each with its own `db_worker --queue-name`, so that a long printout
# never makes a club's ratings wait, nor a long re-rate a round's seating notices.
TASKS = {
    "default": {
        "BACKEND": TASKS_BACKENDS[TASKS_BACKEND],
        "QUEUES": ["default", "files", "notices"],
    },
}
# Files prepared in the background (competition.files.services): the builds one member, and
# one club, may ask for in an hour. A file already prepared for the same data is shared and
# counts for neither.
FILE_BUILDS_PER_MEMBER_HOUR = envint("FILE_BUILDS_PER_MEMBER_HOUR", 20)
FILE_BUILDS_PER_CLUB_HOUR = envint("FILE_BUILDS_PER_CLUB_HOUR", 60)

# The cache keeps the tables' sheets (keyed by pulka version: never stale), the league
# rankings and their HTML (keyed by Club.results_version), what the spectators' polls check
# (scoring.live) and allauth's counts of wrong passwords (the login throttle). With REDIS_URL
# every app server and worker shares one Redis. Without it, in production (DEBUG off) they
# share Django's database cache (a table that `migrate` creates), so that the throttle counts
# every worker's attempts together; `make run` and the tests keep a local-memory cache.
# Correctness never depends on the cache: a poll trusts it to say "nothing changed" only when
# it is shared.
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHE_TABLE = "pulka_cache"
DATABASE_CACHE = {
    "BACKEND": "django.core.cache.backends.db.DatabaseCache",
    "LOCATION": CACHE_TABLE,
    "OPTIONS": {"MAX_ENTRIES": 20000},
}
if REDIS_URL:
    # Redis down degrades, it never breaks (club.cache): an operation Redis does not answer
    # within half a second goes to the database cache (so the login throttle still counts),
    # except the live polls' generations, which are then misses.
    CACHES = {
        "default": {
            "BACKEND": "club.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "pulka",
            "OPTIONS": {
                "socket_connect_timeout": 0.5,
                "socket_timeout": 0.5,
                "FALLBACK": "fallback",
                "NO_FALLBACK_PREFIXES": ["scoring:live:"],
                "RETRY_AFTER": 2,
                "RETRY_MAX": 30,
            },
        },
        "fallback": {**DATABASE_CACHE, "KEY_PREFIX": "pulka"},
    }
elif DEBUG or TESTING:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "pulka",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    }
else:
    CACHES = {"default": DATABASE_CACHE}
CACHE_SHARED = CACHES["default"]["BACKEND"] != "django.core.cache.backends.locmem.LocMemCache"

# Sessions live in the database, never only in the cache: a Redis outage logs nobody out.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",  # the Django admin's login
    "allauth.account.auth_backends.AuthenticationBackend",  # e-mail or username
]

# Accounts (django-allauth). Sign-up asks for an e-mail address and a password (and an
# optional display name, club.account_forms.SignupForm); one logs in with the address or, for
# accounts made before sign-up existed (the demo, the admin, import_club), the username.
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_SIGNUP_FORM_CLASS = "club.account_forms.SignupForm"
ACCOUNT_ADAPTER = "club.account_adapter.AccountAdapter"
ACCOUNT_FORMS = {
    name: f"club.account_signup.{form}"
    for name, form in {
        "login": "LoginForm",
        "signup": "SignupForm",
        "reset_password": "ResetPasswordForm",
        "reset_password_from_key": "ResetPasswordKeyForm",
        "change_password": "ChangePasswordForm",
        "set_password": "SetPasswordForm",
        "reauthenticate": "ReauthenticateForm",
        "add_email": "AddEmailForm",
    }.items()
}
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True  # one address per account; a new one replaces it once confirmed
# "mandatory": no login until the address is confirmed from the mail; "optional": the mail
# is sent, and the account works at once.
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
if ACCOUNT_EMAIL_VERIFICATION not in {"mandatory", "optional"}:
    raise ImproperlyConfigured(
        "ACCOUNT_EMAIL_VERIFICATION must be mandatory or optional, "
        f"not {ACCOUNT_EMAIL_VERIFICATION!r}"
    )
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
# The reset page answers the same whether the address has an account or not (no
# enumeration); an unknown address gets a mail saying it has no account.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"

# Rate limits (allauth, counted in the cache: set REDIS_URL when running more than one
# process, or each process counts on its own). login_failed: LOGIN_FAILURE_LIMIT wrong
# passwords in a row for one login from one address (club.account_adapter keys it by both)
# pause that pair for LOGIN_COOLOFF_MINUTES; the next attempt is refused even with the right
# password. A club room shares one address, so the per-address limit is looser.
LOGIN_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 10)
LOGIN_COOLOFF_MINUTES = envint("LOGIN_COOLOFF_MINUTES", 15)
ACCOUNT_RATE_LIMITS = {
    "login_failed": (
        f"{5 * LOGIN_FAILURE_LIMIT}/{LOGIN_COOLOFF_MINUTES}m/ip,"
        f"{LOGIN_FAILURE_LIMIT}/{LOGIN_COOLOFF_MINUTES}m/key"
    ),
    "signup": "20/h/ip",
    "reset_password": "20/h/ip,3/h/key",  # key: the address the mail goes to
    "reset_password_from_key": "20/m/ip",
    "confirm_email": "1/3m/key",  # one confirmation mail per address every 3 minutes
}

# E-mail. With DEBUG on (make run) mails are printed on the console; tests keep them in
# django.core.mail.outbox. Otherwise SMTP from EMAIL_URL (smtp://user:password@host:587,
# smtps:// for implicit TLS, ?tls=false to send in clear) or from EMAIL_HOST and friends.
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Pulka <pulka@localhost>")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
EMAIL_URL = os.environ.get("EMAIL_URL", "")
if EMAIL_URL:
    _email = email_settings_from_url(EMAIL_URL)
    EMAIL_HOST = _email["EMAIL_HOST"]
    EMAIL_PORT = _email["EMAIL_PORT"]
    EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
    EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
    EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
    EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
else:
    EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_SSL = envbool("EMAIL_USE_SSL", False)
    EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
    EMAIL_PORT = envint("EMAIL_PORT", 465 if EMAIL_USE_SSL else 587 if EMAIL_USE_TLS else 25)
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", 20)
if DEBUG and not EMAIL_URL and not os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"

# Telegram, optional (club.telegram): with a bot token an account may link its chat and get
# its notices there too; empty, the site shows nothing of Telegram. The webhook secret is
# what Telegram sends back in X-Telegram-Bot-Api-Secret-Token (`manage.py telegram_webhook`
# registers it); the API URL is a setting so that the tests talk to a fake server.
TELEGRAM_BOT_TOKEN = os.environ.get("TELEGRAM_BOT_TOKEN", "")
TELEGRAM_BOT_USERNAME = os.environ.get("TELEGRAM_BOT_USERNAME", "")
TELEGRAM_WEBHOOK_SECRET = os.environ.get("TELEGRAM_WEBHOOK_SECRET", "")
TELEGRAM_API_URL = os.environ.get("TELEGRAM_API_URL", "https://api.telegram.org").rstrip("/")
if TELEGRAM_BOT_TOKEN and not (TELEGRAM_BOT_USERNAME and TELEGRAM_WEBHOOK_SECRET):
    raise ImproperlyConfigured(
        "TELEGRAM_BOT_TOKEN needs TELEGRAM_BOT_USERNAME and TELEGRAM_WEBHOOK_SECRET too"
    )

# A federation imports another Pulka site's results file from its address: addresses that
# resolve to private or loopback networks are refused, unless this is true (the tests read a
# live test server on 127.0.0.1; a federation's own intranet site would need it too).
FEDERATION_IMPORT_ALLOW_PRIVATE = envbool("FEDERATION_IMPORT_ALLOW_PRIVATE", False)

LOGIN_URL = "login"  # /accounts/login/, allauth's login page
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("uk", _("Ukrainian")), ("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Kyiv")
USE_I18N = True
USE_TZ = True
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Production hardening; DEBUG turns the HTTPS parts off for local work.
SECURE = not DEBUG and not TESTING
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", SECURE)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", SECURE)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", SECURE)
# A refused CSRF token gets the site's 403 page, which says to reload the page and send again.
CSRF_FAILURE_VIEW = "config.views.csrf_failure"
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31536000 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", SECURE)
# Load balancers probe /healthz over plain HTTP on the app servers' own port.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
BEHIND_PROXY = envbool("BEHIND_PROXY", False)
# The rate limits' address: behind our proxy, the last X-Forwarded-For entry, the one the
# proxy appended (earlier entries are whatever the visitor sent); else REMOTE_ADDR.
ALLAUTH_TRUSTED_PROXY_COUNT = 1 if BEHIND_PROXY else 0
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    USE_X_FORWARDED_HOST = True

# Content-Security-Policy (django-csp): everything from our own origin, no inline script or
# style anywhere (htmx is told not to eval and not to inject its indicator style, see
# base.html), never framed. `data:` images are not used, so they are not allowed either.
SELF = "'self'"
NONE = "'none'"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [SELF],
    },
}

DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

# Everything goes to stderr; a request's errors say its path and the user's id (never the
# body or a password: config.log.RequestContextFilter reads only those two).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_context": {"()": "config.log.RequestContextFilter"}},
    "formatters": {
        "plain": {
            "format": "%(asctime)s %(levelname)s %(name)s path=%(path)s user=%(user_id)s "
            "%(message)s",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "filters": ["request_context"],
            "formatter": "plain",
        },
    },
    "loggers": {
        # On the logger too, so that every handler (pytest's caplog among them) sees the
        # request's path and user on django.request's records.
        "django.request": {"filters": ["request_context"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
