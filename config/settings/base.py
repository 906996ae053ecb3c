"""Settings shared by every environment.

Everything that differs between a laptop and production comes from the
environment. With nothing set, Shtab runs embedded: a SQLite file and Celery
executing tasks eagerly in-process. ``DATABASE_URL`` (postgres://...) and
``REDIS_URL`` (redis://...) switch to the production shape.
"""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me")
DEBUG = env_bool("DJANGO_DEBUG", True)
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "campaign",
    "battles",
    "rosters",
]

MIDDLEWARE = [
    # Outermost of all: a request id for the request's log lines and its answer (config.logs), and the
    # request's time and answer counted under its route's name for /metrics (config.monitoring).
    "config.logs.RequestIdMiddleware",
    "config.monitoring.RequestMetricsMiddleware",
    # Outermost: pages, the feed and the API's JSON go out gzipped to a client that asks. BREACH: Django's
    # GZipMiddleware pads each compressed response by a random length ("Heal the BREACH", Django >= 4.2) and
    # the CSRF token is masked anew in every response, so the one secret a page carries can't be guessed
    # from compressed sizes. Static files are compressed ahead of time by WhiteNoise (production).
    "django.middleware.gzip.GZipMiddleware",
    # It shapes API errors raised by the middleware below it (Host, body size, database outage).
    "config.middleware.ApiErrorMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.CSPMiddleware",  # django-csp's, its policy built once
    "config.middleware.security_headers",
    "config.page_middleware.SessionMiddleware",  # Django's page middleware: a token API request passes these four
    "django.middleware.locale.LocaleMiddleware",
    "config.page_middleware.CommonMiddleware",
    # A GET answered 200 gets an ETag of its body (not one marked no-store), and a client that already holds
    # it (If-None-Match), or holds a page not modified since its Last-Modified (the feed's), a 304: the
    # feed and the read-only API revalidate for a few hundred bytes. Inside GZipMiddleware, so the ETag is
    # the uncompressed body's (gzip makes it weak on the way out, and If-None-Match compares weakly).
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "config.page_middleware.AuthenticationMiddleware",
    "config.page_middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out login into its 429 answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "campaign.context_processors.game_master_todo",
            ],
        },
    },
]

# --- Security headers (every environment, so tests and the browser tests see them) ---
# Scripts only from our own static files, or inline blocks carrying this
# response's nonce (the battle page's live polling, the roster builder):
# never 'unsafe-inline' for scripts, and no inline handlers (onclick=…),
# which shtab/shtab.js wires from data attributes instead. Styles may be
# inline (the pages' <style> blocks and the API docs' widgets).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        # The Redoc API browser builds its search worker from a blob; the battle page's service worker is a
        # file of our own (/battles/sw.js, docs/offline.md).
        "worker-src": [SELF, "blob:"],
        "manifest-src": [SELF],  # the battle page's web app manifest (battles.table.offline.manifest)
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
PERMISSIONS_POLICY = ("camera=(), microphone=(), geolocation=(), payment=(), usb=(), "
                      "accelerometer=(), gyroscope=(), magnetometer=()")
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# The probes and /metrics answer a monitor on the machine itself over plain HTTP: production's HTTPS redirect
# passes them by (SECURE_REDIRECT_EXEMPT, config.settings.production). Nothing on them is secret (/metrics:
# SHTAB_METRICS_ALLOW).
PROBE_PATHS = [r"^(healthz|readyz|metrics)$"]

# --- Database -------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")))}
    if DATABASES["default"]["ENGINE"].endswith("postgresql") and os.environ.get("SHTAB_DB_PREPARED", "1") != "0":
        # Server-side binding: psycopg sends a query's parameters apart from
        # its text, and prepares a query once it has run five times on a
        # connection (psycopg's threshold; Django's default, None, prepares
        # nothing), so PostgreSQL parses and plans each query once a
        # connection, not at every request. On game night planning took more
        # of PostgreSQL's time than running the queries did (2.3 s against
        # 2.0 s over a probe of 60 tables): PostgreSQL's CPU a table-second
        # 2.6 → 1.7-2.1 ms (bench/HISTORY.md, "Game night, eleventh
        # session"). The append's statements ask to be prepared at once
        # (``execute(..., prepare=True)``, docs/append.md). SHTAB_DB_PREPARED=0
        # for a pooler that cannot keep prepared statements (PgBouncer in
        # transaction mode before 1.21): client-side binding, none prepared.
        DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)
    if DATABASES["default"]["ENGINE"].endswith("postgresql") and int(os.environ.get("SHTAB_DB_POOL", "0")):
        # A pool of connections a process (psycopg_pool, Django's "pool" option) instead of one kept by each
        # thread: the production server's threads are many (a battle page's live request waits in one,
        # battles.log.moves), its connections few. A thread takes one for a request and gives it back after.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 2, "max_size": int(os.environ["SHTAB_DB_POOL"])}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # IMMEDIATE takes SQLite's write lock at BEGIN, so concurrent appends
            # queue up instead of failing with "database is locked" on upgrade.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 30},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# How long a battle page's live request may wait for the battle to move (battles.log.moves): 0 (the
# default, and always on SQLite) answers at once and the page asks every second; the production server
# (config.serve) waits up to 20 s, so an idle page costs nothing and a move reaches it at once.
LIVE_WAIT_SECONDS = float(os.environ.get("SHTAB_LIVE_WAIT", "0"))

# --- Celery ---------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes the worker's database connection before and after every task, whatever
# CONN_MAX_AGE says (celery/celery#4116; its fix was reverted in #9824): a replay then paid a new PostgreSQL
# connection, a tenth of the worker's time under the bench's load. With this, it closes them every 1,000
# tasks instead, and Django's CONN_MAX_AGE and health checks keep them sound in between.
CELERY_DB_REUSE_MAX = int(os.environ.get("CELERY_DB_REUSE_MAX", "1000"))
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "shtab")
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE = {
    "sweep-lagging-projections": {
        "task": "battles.tasks.sweep_lagging_projections",
        "schedule": float(os.environ.get("SHTAB_SWEEP_SECONDS", "15")),
    },
    "sweep-unconcluded-battles": {
        "task": "campaign.tasks.sweep_unconcluded_battles",
        "schedule": float(os.environ.get("SHTAB_SWEEP_SECONDS", "15")),
    },
    "prune-webhook-deliveries": {
        "task": "campaign.tasks.prune_webhook_deliveries",
        "schedule": 3600.0,
    },
}

# --- Cache (rendered standings fragments, keyed by projection version) -----
CACHES = {
    "default": (
        # Short timeouts: the cache is an accelerator; when Redis is down a page
        # is rendered from the database at once (config/cache.py), not after a hang.
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": "shtab",
         "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}
        if REDIS_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shtab"}
    ),
    # A token's user, kept a few seconds by this process (config.authentication).
    "tokens": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shtab-tokens"},
}

# --- Auth and API ---------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
    # Bodies are JSON only (a form or multipart body is a 415), so the schema offers clients one content
    # type; JSON refused when nested too deep or holding NUL / lone surrogates (config.inputs, config.parsers).
    # The HTML pages post their forms to Django views, which parse them themselves.
    "DEFAULT_PARSER_CLASSES": ["config.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    # DRF's negotiation, its choice kept per Accept header (a twentieth of an append's CPU)
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.negotiation.CachedContentNegotiation",
    # APIClient in tests sends JSON, as the API takes.
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Shtab API",
    "DESCRIPTION": "Campaign service of a WWII miniatures club: append-only battle log, projections, campaigns.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # A request body and a response are separate components (``FooRequest`` and ``Foo``): read-only fields
    # are not asked of a client, and generated clients parse answers with the response's required fields.
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI and Redoc served from our own static files: works offline at the club.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "CampaignStatusEnum": "campaign.models.CampaignStatus",
        "ProposalStatusEnum": "campaign.models.Proposal.Status",
        "RankEnum": "campaign.models.Rank",
        "RosterStatusEnum": "rosters.models.Status",
        "MembershipStatusEnum": "campaign.models.Membership.Status",
    },
}

# --- i18n -----------------------------------------------------------------
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "config" / "locale"]
# One date format per language on every page, the admin and the cards (01.12.2026 in Russian).
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = "Europe/Moscow"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
MEDIA_URL = "media/"
MEDIA_ROOT = BASE_DIR / "media"

# --- Shtab ----------------------------------------------------------------
SHTAB = {
    # Events loaded per query while replaying a long log.
    "REPLAY_CHUNK": int(os.environ.get("SHTAB_REPLAY_CHUNK", "5000")),
    # Largest batch accepted by one append.
    "MAX_BATCH": int(os.environ.get("SHTAB_MAX_BATCH", "1000")),
    # The cyclic garbage collector's thresholds in every process that loads the apps
    # (battles.apps): a process keeps the engine states of up to 256 battles
    # (battles.log.cache.STATE_CACHE), and Python's default (700, 10, 10) walks them in
    # full collections of tens of milliseconds in the middle of appends (docs/append.md).
    # "700,10,10" restores the default.
    "GC_THRESHOLD": tuple(int(x) for x in os.environ.get("SHTAB_GC_THRESHOLD", "50000,20,100").split(",")),
    # How long a process keeps a token's user (config.authentication; 0: read on every request).
    "TOKEN_CACHE_SECONDS": float(os.environ.get("SHTAB_TOKEN_CACHE_SECONDS", "5")),
    # Login throttling (campaign.accounts): this many wrong passwords in a row lock
    # that username out from that address for the cool-off, right password included.
    "LOGIN_FAILURE_LIMIT": int(os.environ.get("SHTAB_LOGIN_FAILURE_LIMIT", "10")),
    # ... and this many from one address, whatever the names, lock the address out (one password sprayed
    # over many names). Higher than a name's: a club shares one Wi-Fi address.
    "LOGIN_ADDRESS_FAILURE_LIMIT": int(os.environ.get("SHTAB_LOGIN_ADDRESS_FAILURE_LIMIT", "30")),
    "LOGIN_COOLOFF_MINUTES": int(os.environ.get("SHTAB_LOGIN_COOLOFF_MINUTES", "15")),
    # Reverse proxies in front of the server that append to X-Forwarded-For (0: none).
    "TRUSTED_PROXIES": int(os.environ.get("SHTAB_TRUSTED_PROXIES", "0")),
    # Largest character photo accepted, in pixels, checked before decoding (a
    # decompression bomb is a few KB on disk and gigabytes decoded).
    "PHOTO_MAX_PIXELS": int(os.environ.get("SHTAB_PHOTO_MAX_PIXELS", "40000000")),
    # Notifications (campaign.notify): off unless a webhook or a Telegram bot is set.
    "NOTIFY_WEBHOOK_URL": os.environ.get("SHTAB_NOTIFY_WEBHOOK_URL", ""),
    "TELEGRAM_BOT_TOKEN": os.environ.get("SHTAB_TELEGRAM_BOT_TOKEN", ""),
    "TELEGRAM_CHAT_ID": os.environ.get("SHTAB_TELEGRAM_CHAT_ID", ""),
    "TELEGRAM_API": os.environ.get("SHTAB_TELEGRAM_API", "https://api.telegram.org"),
    "NOTIFY_LANGUAGE": os.environ.get("SHTAB_NOTIFY_LANGUAGE", "ru"),
    "NOTIFY_RETRIES": int(os.environ.get("SHTAB_NOTIFY_RETRIES", "5")),
    # The address people reach the site at: the webhook's ``url`` is this plus the page's path.
    "SITE_URL": os.environ.get("SHTAB_SITE_URL", "http://127.0.0.1:8000"),
    # With a secret, every webhook body is signed: ``X-Shtab-Signature-256: sha256=<HMAC-SHA256 hex>``.
    "WEBHOOK_SECRET": os.environ.get("SHTAB_WEBHOOK_SECRET", ""),
    # Webhook deliveries (shown in the admin) older than this are pruned by beat.
    "WEBHOOK_KEEP_DAYS": int(os.environ.get("SHTAB_WEBHOOK_KEEP_DAYS", "30")),
    # The authority of the Atom feed's ``tag:`` ids (RFC 4151): a domain or e-mail the club owns. Never change it
    # once the feed is followed (the ids would change and readers would show every entry again).
    "FEED_TAG_AUTHORITY": os.environ.get("SHTAB_FEED_TAG_AUTHORITY", "shtab"),
    # Who may read /metrics (config.monitoring): comma-separated addresses or networks; empty: anyone.
    "METRICS_ALLOW": os.environ.get("SHTAB_METRICS_ALLOW", ""),
}

# Django's database sessions, a request's session read by one plain query (config.sessions).
SESSION_ENGINE = "config.sessions"
# Flash messages ride in the session. Django's default (a signed cookie, the session as overflow) builds its
# cookie signer on every request, an API append's included: 4 % of the server's CPU an append under the bench.
# The session store is lazy: a request that never shows or adds a message never reads it.
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

# --- Login throttling (django-axes; counts kept in the database, so every
# process and every backend agrees: SQLite, PostgreSQL, with or without Redis) ---
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, the signed-in user read with his groups in one query (config.authentication).
    "config.authentication.SessionUserBackend",
]
AXES_FAILURE_LIMIT = SHTAB["LOGIN_FAILURE_LIMIT"]
AXES_COOLOFF_TIME = timedelta(minutes=SHTAB["LOGIN_COOLOFF_MINUTES"])
# What a successful login resets; the per-address limit is counted by the handler (campaign.accounts).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "campaign.accounts.ShtabAxesHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "campaign.accounts.lockout_response"
AXES_CLIENT_IP_CALLABLE = "campaign.accounts.client_ip"
AXES_VERBOSE = False

# --- Mail: only the password reset sends any (campaign.accounts.PasswordResetView). With no
# EMAIL_HOST nothing can be delivered: the console backend, and the reset page says so.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
                               else "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "shtab@localhost")

# SHTAB_LOG_JSON=1: one JSON object a line (time, level, logger, message, request_id; config.logs), Django's
# own loggers included (their handlers handed to the root's), and the Celery worker's (it keeps this setup).
LOG_JSON = env_bool("SHTAB_LOG_JSON")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.logs.RequestIdFilter"}},
    "formatters": {"json": {"()": "config.logs.JsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["request_id"],
                             **({"formatter": "json"} if LOG_JSON else {})}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # WeasyPrint (formulary-card PDFs) logs every layout step at INFO.
    "loggers": {
        **{name: {"level": "WARNING"} for name in ("weasyprint", "fontTools")},
        **({name: {"handlers": [], "propagate": True} for name in ("django", "django.server")} if LOG_JSON else {}),
    },
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = not LOG_JSON
