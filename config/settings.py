"""Pulka's one settings module, driven by the environment.

Every knob a deployment needs is an environment variable (see README.md). The defaults are
safe for production: DEBUG is off, cookies are secure and HTTPS is enforced unless DEBUG is on.
`make run` turns DEBUG on and uses the embedded SQLite database.
"""

import os
import sys
from datetime import timedelta
from pathlib import Path

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

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "django_tables2",
    "template_partials",
    "csp",
    "axes",
    "club",
    "scoring",
    "competition",
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
    # Last, as django-axes asks: it turns a lockout flagged during the login into its page.
    "axes.middleware.AxesMiddleware",
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
    # Concurrent secretaries on the embedded database: wait for the write lock, do not fail.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache keeps the tables' sheets (keyed by pulka version: never stale), the league
# rankings and their HTML (keyed by Club.results_version), and what the
# spectators' polls check (scoring.live). Local memory is per process; with several app
# servers (or gunicorn workers) set REDIS_URL so that they share one cache. Correctness never
# depends on it: a poll trusts the cache to say "nothing changed" only when it is shared.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "pulka",
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "pulka",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    }
CACHE_SHARED = bool(REDIS_URL)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Login throttling (django-axes): ten wrong passwords in a row for one username from one
# address lock that pair out for the cool-off; the eleventh attempt is refused even with the
# right password, on the login page itself (club.login.lockout_response). django-allauth's
# rate limits replace this when accounts land.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=envint("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True  # "in a row": a good login forgets the failures before it
# A retry during the lockout does not restart the clock: the cool-off is counted from the
# last counted failure, so a secretary who waits the 15 minutes gets in.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "club.login.lockout_response"
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "csrfmiddlewaretoken"]
AXES_VERBOSE = False
# The throttle needs only the failures; a row per successful login (address, browser) would
# be personal data kept for nothing.
AXES_DISABLE_ACCESS_LOG = True
AXES_CLIENT_IP_CALLABLE = "club.login.client_address"  # BEHIND_PROXY: from X-Forwarded-For

LOGIN_URL = "login"
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
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31536000 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", SECURE)
# Load balancers probe /healthz over plain HTTP on the app servers' own port.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
BEHIND_PROXY = envbool("BEHIND_PROXY", False)
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
