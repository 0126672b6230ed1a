"""Django settings for the NetShop support console.

Two shapes from one file, chosen by what the environment configures (SPEC section 1):

* production: ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` set; Celery workers run as
  separate processes, the channel layer is channels-redis and checkpoints go to PostgreSQL;
* embedded (nothing set): SQLite, a worker thread inside the server process, an in-memory
  channel layer. Meant for trying the product on one machine.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured


def env_bool(name: str, *, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("NETSHOP_VAR_DIR", BASE_DIR / "var"))

DEBUG = env_bool("DEBUG")
DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
EMBEDDED = not (DATABASE_URL and REDIS_URL)

# A development key is only acceptable when the operator explicitly runs in DEBUG mode.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set (or DEBUG=1 for a local dev run).")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"  # noqa: S105


# The audit chain's HMAC key (``KEY_ID:SECRET``): outside the database, or the chain proves
# nothing to whoever can write it. Only an embedded DEBUG run may make its own, in var/.
NETSHOP_AUDIT_KEY = os.environ.get("NETSHOP_AUDIT_KEY", "")
NETSHOP_AUDIT_KEY_FILE: Path | None = None
NETSHOP_AUDIT_KEYS_OLD = os.environ.get("NETSHOP_AUDIT_KEYS_OLD", "")
if not NETSHOP_AUDIT_KEY:
    if not (DEBUG and EMBEDDED):
        raise ImproperlyConfigured(
            "NETSHOP_AUDIT_KEY must be set (KEY_ID:SECRET, kept out of the database; "
            "scripts/run generates var/audit_key)."
        )
    # A key of its own in var/: made on first use (at start, by NetshopConfig.ready), not here.
    NETSHOP_AUDIT_KEY_FILE = VAR_DIR / "audit_key"
NETSHOP_AUDIT_ANCHOR_PATH = Path(
    os.environ.get("NETSHOP_AUDIT_ANCHOR_PATH", VAR_DIR / "audit-anchors.jsonl")
)
NETSHOP_AUDIT_ANCHOR_SINK = os.environ.get(
    "NETSHOP_AUDIT_ANCHOR_SINK", "netshop.audit.anchors.FileAnchorSink"
)
# The schema owner's URL: ``manage.py migrate`` and ``db_roles`` connect with it, the app
# itself with ``DATABASE_URL`` (a role that owns nothing and may not alter the audit log).
MIGRATION_DATABASE_URL = os.environ.get("MIGRATION_DATABASE_URL", "")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
CSRF_FAILURE_VIEW = "operators.api.errors.csrf_failure"  # JSON under /api/, Django's page elsewhere

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    "channels",
    "ninja",
    "netshop",
    "agents",
    "agents.simulation",
    "operators",
]

MIDDLEWARE = [
    "operators.api.errors.JsonApiErrors",  # outermost: every /api/ error answers JSON
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the locale and the login: a staff member's saved language and time zone.
    "operators.preferences.StaffPreferences",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "netshop.middleware.NoStoreMiddleware",
    # Inside every header-adding middleware, so its 400 and 404 carry their headers too.
    "netshop.middleware.RefuseUnstorableText",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "netshop.urls"
WSGI_APPLICATION = "netshop.wsgi.application"
ASGI_APPLICATION = "netshop.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Runs in flight per worker process: a run waiting for a model holds a thread, not a process,
# so a worker keeps dozens in flight (README, "Running the production shape by hand").
NETSHOP_WORKER_CONCURRENCY = int(os.environ.get("NETSHOP_WORKER_CONCURRENCY", "48"))
# Connections each process keeps for Django: a run's threads borrow one for each step's
# queries and give it back, so far fewer are needed than runs in flight. Empty or 0: no pool.
NETSHOP_DB_POOL_SIZE = int(os.environ.get("NETSHOP_DB_POOL_SIZE") or "12")
# Recovering runs whose worker died (``agents.team.runs.recovery``). A run in flight whose
# lease no worker holds, unmoved for the grace (time for a task just queued to start), is
# dispatched again; beat looks this often. A run sent again is not sent again for the
# redispatch window unless a worker took it meanwhile (one copy behind a task waiting in a busy
# queue, not one per sweep). Where other processes cannot see leases (SQLite: the embedded shape),
# age alone judges, over the longer stale window.
NETSHOP_RUN_RECOVERY_GRACE_S = float(os.environ.get("NETSHOP_RUN_RECOVERY_GRACE_S", "10"))
NETSHOP_RUN_RECOVER_EVERY_S = float(os.environ.get("NETSHOP_RUN_RECOVER_EVERY_S", "10"))
NETSHOP_RUN_REDISPATCH_S = int(os.environ.get("NETSHOP_RUN_REDISPATCH_S", "120"))
NETSHOP_RUN_STALE_S = float(os.environ.get("NETSHOP_RUN_STALE_S", "120"))

if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if NETSHOP_DB_POOL_SIZE > 0:
        # A pooled connection the server dropped while idle (a restart, a failover) is
        # replaced when it is handed out, not given to a query that would fail on it.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": NETSHOP_DB_POOL_SIZE,
            "timeout": 30,  # a thread that finds every connection busy waits this long
        }
else:
    DATABASES = {  # its folder is made at start (NetshopConfig.ready), not on import
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "netshop.sqlite3"),
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Tokyo"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
# Static files are served by the app itself (WhiteNoise) in both shapes; finders let it serve
# them straight from the source folders, so a missing collectstatic never breaks a page.
WHITENOISE_USE_FINDERS = True
# WhiteNoise expects STATIC_ROOT, even empty: NetshopConfig.ready makes it (collectstatic fills it).
WHITENOISE_AUTOREFRESH = DEBUG
# Files browsers ask for at the site's root (/favicon.ico, which the admin's pages and the API
# docs do not link), served by WhiteNoise in both shapes like the static files.
WHITENOISE_ROOT = BASE_DIR / "public"

LOGIN_URL = "/accounts/login/"
# Staff land in the console and demo customers on the help page (one view decides).
LOGIN_REDIRECT_URL = "console:home"
LOGOUT_REDIRECT_URL = "login"

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES")
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES")
X_FRAME_OPTIONS = "DENY"

# --- The perimeter ------------------------------------------------------------------------
# HTTPS as the deployment terminates it (README, "Deploying behind HTTPS"). Everything is off
# by default so a plain-HTTP local run keeps working.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")
# Only behind a proxy that sets X-Forwarded-Proto itself (and strips the client's own).
if env_bool("SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Every page loads its scripts, styles and images from this origin only: no inline script or
# style, no CDN. 'self' covers the console's same-host ws:/wss: sockets in CSP Level 3.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],  # Swagger UI's icons are data: URIs in its CSS
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Failed logins (django-axes): after NETSHOP_LOGIN_FAILURE_LIMIT failures for one username
# from one address, that pair is refused until the cool-off passes or someone unlocks it
# (`manage.py axes_reset_username USERNAME`, or delete the attempt in the admin).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: it refuses a locked-out pair outright
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("NETSHOP_LOGIN_FAILURE_LIMIT", "5"))
_LOGIN_COOLOFF_MINUTES = int(os.environ.get("NETSHOP_LOGIN_COOLOFF_MINUTES", "30"))
# 0 minutes: locked until unlocked by hand.
AXES_COOLOFF_TIME = timedelta(minutes=_LOGIN_COOLOFF_MINUTES) if _LOGIN_COOLOFF_MINUTES else None
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # staff logins are in the audit trail; no second log of IPs
AXES_LOCKOUT_CALLABLE = "netshop.perimeter.lockout_response"
AXES_CLIENT_IP_CALLABLE = "netshop.perimeter.client_ip"
# How many proxies in front of the app append to X-Forwarded-For (0: use the socket's peer).
NETSHOP_TRUSTED_PROXY_COUNT = int(os.environ.get("NETSHOP_TRUSTED_PROXY_COUNT", "0"))

# Password reset mails a link: it is offered only when there is a mail server to send it.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "support@localhost")
# Without a mail server, mail is written to the process's output (a dev machine sees it).
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
# Staff notifications (operators.notifications): approvals at or above this amount are mailed
# when they open; open waits this many minutes before their deadline; the sweep's period.
NETSHOP_NOTIFY_APPROVAL_YEN = int(os.environ.get("NETSHOP_NOTIFY_APPROVAL_YEN", "30000"))
NETSHOP_NOTIFY_DEADLINE_MINUTES = int(os.environ.get("NETSHOP_NOTIFY_DEADLINE_MINUTES", "30"))
NETSHOP_NOTIFY_SWEEP_S = float(os.environ.get("NETSHOP_NOTIFY_SWEEP_S", "60"))
# Where the console is reached from a mail (links are absolute).
NETSHOP_CONSOLE_URL = os.environ.get("NETSHOP_CONSOLE_URL", "http://localhost:8000").rstrip("/")

# --- API ----------------------------------------------------------------------------------
# Inquiries one storefront token may submit per window ("600/m"; empty: no limit). The counts
# are shared by every web process through Redis in the production shape.
NETSHOP_INTAKE_RATE = os.environ.get("NETSHOP_INTAKE_RATE", "600/m").strip()
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "throttle": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle"}
    ),
    # Which runs recovery sent again and no worker has taken yet: shared by every worker
    # through Redis; the embedded shape has no beat, and recovery is a command run by hand.
    "runs": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "runs"}
    ),
}

# --- Channels -----------------------------------------------------------------------------
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": 1000, "expiry": 60},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# An open socket re-checks its login this often (seconds): it catches what no signal reports
# (an expired or deleted session, a queryset update); logout and role changes close it at once.
NETSHOP_SOCKET_RECHECK_S = float(os.environ.get("NETSHOP_SOCKET_RECHECK_S", "15"))

# --- Celery -------------------------------------------------------------------------------
# Runs are long and idempotent: acknowledge late, take one task at a time, and keep the
# visibility timeout well above the longest run so Redis does not redeliver a live task.
CELERY_BROKER_URL = REDIS_URL or "memory://"
if REDIS_URL:  # kombu's Redis transport, surviving a broker restart (netshop/celery_transport.py)
    CELERY_BROKER_TRANSPORT = "netshop.celery_transport:Transport"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker is one process running its tasks on threads: runs spend their time waiting for the
# model and the database, and a thread waits for a fraction of a process's memory and CPU.
CELERY_WORKER_POOL = "threads"
CELERY_WORKER_CONCURRENCY = NETSHOP_WORKER_CONCURRENCY
# Each pool process warms up (graph, saver pool, bound models) before it reports for work;
# Celery's default 4 s would kill a child whose first database connection is slow.
CELERY_WORKER_PROC_ALIVE_TIMEOUT = 60
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 2 * 60 * 60}
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
# Task modules outside an app's own ``tasks`` module, which autodiscovery finds by itself.
CELERY_IMPORTS = [
    "agents.team.runs.tasks",
    "netshop.webhooks.tasks",
    "operators.notifications.tasks",
    "agents.simulation.tasks",
]
# Webhook deliveries have a queue of their own, which every worker also takes from: a push
# waits behind other pushes, not behind every run queued before it.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES: dict[str, dict[str, str]] = {"celery": {}, "webhooks": {}}
CELERY_TASK_ROUTES = {"netshop.webhooks.tasks.deliver_webhook": {"queue": "webhooks"}}
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "recover-runs": {
        "task": "agents.team.runs.tasks.recover_runs",
        "schedule": NETSHOP_RUN_RECOVER_EVERY_S,
        # A sweep left waiting in a busy queue is dropped, not run in a pile with later ones.
        "options": {"expires": NETSHOP_RUN_RECOVER_EVERY_S},
    },
    "lapse-conversations": {
        "task": "agents.team.runs.tasks.lapse_conversations",
        "schedule": 300.0,
    },
    "prune-checkpoints": {
        "task": "agents.team.runs.tasks.prune_checkpoints",
        "schedule": 24 * 60 * 60.0,
        "kwargs": {"days": int(os.environ.get("NETSHOP_CHECKPOINT_RETENTION_DAYS", "30"))},
    },
    "audit-anchor": {"task": "netshop.tasks.audit_anchor", "schedule": 60.0},
    "expire-claims": {"task": "agents.team.runs.tasks.expire_claims", "schedule": 60.0},
    "move-overdue-approvals": {
        "task": "agents.team.runs.tasks.move_overdue_approvals",
        "schedule": 60.0,
    },
    "deliver-due-webhooks": {
        "task": "netshop.webhooks.tasks.deliver_due_webhooks",
        "schedule": float(os.environ.get("NETSHOP_WEBHOOK_SWEEP_S", "30")),
    },
    "notify-deadlines": {
        "task": "operators.notifications.tasks.notifications_sweep",
        "schedule": NETSHOP_NOTIFY_SWEEP_S,
    },
}
# In the embedded shape tasks run on a thread pool inside the server process.
NETSHOP_EMBEDDED_WORKER = EMBEDDED

# --- Shop policy --------------------------------------------------------------------------
# The issuer printed on receipts (領収書).
NETSHOP_SHOP_NAME = os.environ.get("NETSHOP_SHOP_NAME", "NetShop株式会社")
NETSHOP_COUPON_CAP_YEN = int(os.environ.get("NETSHOP_COUPON_CAP_YEN", "1000"))
# Apology coupons per customer over a rolling window of days; a cause must also be recent.
NETSHOP_COUPON_LIMIT_PER_CUSTOMER = int(os.environ.get("NETSHOP_COUPON_LIMIT_PER_CUSTOMER", "1"))
NETSHOP_COUPON_WINDOW_DAYS = int(os.environ.get("NETSHOP_COUPON_WINDOW_DAYS", "30"))
NETSHOP_REDELIVERY_WINDOW_DAYS = 7
NETSHOP_DATE_CHANGE_WINDOW_DAYS = 14
# The FAQ's returns policy: unused items within 14 days of delivery; sized items are
# exchanged once, unworn, within the same 14 days.
NETSHOP_RETURN_WINDOW_DAYS = int(os.environ.get("NETSHOP_RETURN_WINDOW_DAYS", "14"))
NETSHOP_EXCHANGE_WINDOW_DAYS = int(os.environ.get("NETSHOP_EXCHANGE_WINDOW_DAYS", "14"))
NETSHOP_RETRY_BACKOFF_S = float(os.environ.get("NETSHOP_RETRY_BACKOFF_S", "0.2"))
# A hand-off verdict reads the system of record: a failed read is tried again this many times
# (doubling the back-off) before the outcome counts as unconfirmed.
NETSHOP_VERIFY_ATTEMPTS = int(os.environ.get("NETSHOP_VERIFY_ATTEMPTS", "4"))
NETSHOP_VERIFY_BACKOFF_S = float(os.environ.get("NETSHOP_VERIFY_BACKOFF_S", "0.05"))
NETSHOP_APPROVAL_DEADLINE_MINUTES = int(os.environ.get("NETSHOP_APPROVAL_DEADLINE_MINUTES", "240"))
# A claim whose holder did nothing with it (claim, preview, decision attempt) for this long
# goes back to the queue.
NETSHOP_CLAIM_TIMEOUT_MINUTES = int(os.environ.get("NETSHOP_CLAIM_TIMEOUT_MINUTES", "30"))

# Four eyes: a refund or cancellation of this many yen or more needs a second approval by a
# manager who is not the first approver; an operator may not approve one above their limit.
NETSHOP_FOUR_EYES_YEN = int(os.environ.get("NETSHOP_FOUR_EYES_YEN", "30000"))
NETSHOP_OPERATOR_LIMIT_YEN = int(os.environ.get("NETSHOP_OPERATOR_LIMIT_YEN", "100000"))
# Conversations: how long a question the AI asked waits for the customer before the
# conversation is closed, and how long after closing a customer's reply still reopens it.
NETSHOP_AWAITING_CUSTOMER_HOURS = int(os.environ.get("NETSHOP_AWAITING_CUSTOMER_HOURS", "72"))
NETSHOP_REOPEN_DAYS = int(os.environ.get("NETSHOP_REOPEN_DAYS", "7"))
# The share of conversations the AI resolved that join the queue for a person's review,
# drawn per intent (``agents.support.escalations.review_sample``); 0 turns it off.
NETSHOP_REVIEW_SAMPLE = float(os.environ.get("NETSHOP_REVIEW_SAMPLE", "0.10"))
if not 0 <= NETSHOP_REVIEW_SAMPLE <= 1:
    raise ImproperlyConfigured("NETSHOP_REVIEW_SAMPLE must be a share between 0 and 1, e.g. 0.10")
# A turn read less surely than this is a draft whatever its intent's autonomy: a person sends
# its reply (``agents.support.autonomy``).
NETSHOP_AUTONOMY_MIN_CONFIDENCE = float(os.environ.get("NETSHOP_AUTONOMY_MIN_CONFIDENCE", "0.3"))
if not 0 <= NETSHOP_AUTONOMY_MIN_CONFIDENCE <= 1:
    raise ImproperlyConfigured("NETSHOP_AUTONOMY_MIN_CONFIDENCE must be between 0 and 1, e.g. 0.3")
# Storefront webhooks: each attempt's timeout, the back-off (doubling from the first, capped)
# and how long after an event its delivery is retried before it is given up.
NETSHOP_WEBHOOK_TIMEOUT_S = float(os.environ.get("NETSHOP_WEBHOOK_TIMEOUT_S", "10"))
NETSHOP_WEBHOOK_BACKOFF_S = float(os.environ.get("NETSHOP_WEBHOOK_BACKOFF_S", "10"))
NETSHOP_WEBHOOK_BACKOFF_MAX_S = float(os.environ.get("NETSHOP_WEBHOOK_BACKOFF_MAX_S", "3600"))
NETSHOP_WEBHOOK_RETRY_FOR_S = float(os.environ.get("NETSHOP_WEBHOOK_RETRY_FOR_S", str(24 * 3600)))
# Callback URLs may point at loopback, private, link-local or other non-global addresses only
# when this is on: a receiver on a developer's machine, never in production (it lets whoever
# sets a callback URL make the workers POST into the internal network).
NETSHOP_WEBHOOK_ALLOW_PRIVATE = env_bool("NETSHOP_WEBHOOK_ALLOW_PRIVATE")

# External systems: the built-in simulators take their latency and fault rates from here.
NETSHOP_CARRIER = {
    "latency_ms": int(os.environ.get("NETSHOP_CARRIER_LATENCY_MS", "0")),
    "fault_rate": float(os.environ.get("NETSHOP_CARRIER_FAULT_RATE", "0")),
}
NETSHOP_GATEWAY = {
    "latency_ms": int(os.environ.get("NETSHOP_GATEWAY_LATENCY_MS", "0")),
    "fault_rate": float(os.environ.get("NETSHOP_GATEWAY_FAULT_RATE", "0")),
}

# --- Models -------------------------------------------------------------------------------
# "offline" (the built-in deterministic model) unless an OpenAI-compatible endpoint is set.
NETSHOP_MODEL_PROVIDER = os.environ.get(
    "NETSHOP_MODEL_PROVIDER", "openai" if os.environ.get("OPENAI_API_KEY") else "offline"
)
OPENAI_API_KEY = os.environ.get("OPENAI_API_KEY", "")
OPENAI_BASE_URL = os.environ.get("OPENAI_BASE_URL", "")
NETSHOP_MODEL_NAMES = {
    "supervisor": os.environ.get("NETSHOP_MODEL_SUPERVISOR", "gpt-4o-mini"),
    "specialist": os.environ.get("NETSHOP_MODEL_SPECIALIST", "gpt-4o-mini"),
    "writer": os.environ.get("NETSHOP_MODEL_WRITER", "gpt-4o-mini"),
}
NETSHOP_MODEL_TIMEOUT_S = float(os.environ.get("NETSHOP_MODEL_TIMEOUT_S", "30"))
# The offline model's router file (``train_router``'s output); empty: the one shipped in the
# repository. A simulation's candidate points it at a retrained router.
NETSHOP_ROUTER_MODEL = os.environ.get("NETSHOP_ROUTER_MODEL", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {name: {"level": "WARNING"} for name in ("httpx", "httpx2", "openai", "axes")},
}

# The candidate configurations the simulation pages offer (``*.json``/``*.toml`` files, the
# format of ``agents.simulation.candidates``): kept with the deployment, so what a candidate
# may point the sandbox at (a model server, a key's variable, a router file) is the deployer's
# choice, not a web form's.
NETSHOP_SIMULATION_CANDIDATES = Path(
    os.environ.get("NETSHOP_SIMULATION_CANDIDATES", BASE_DIR / "simulations" / "candidates")
)
