"""Django settings for the NetShop support console.

Two shapes from one file, chosen by what the environment configures (SPEC section 1):

* production: ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` set; Celery workers run as
  separate processes, the channel layer is channels-redis and checkpoints go to PostgreSQL;
* embedded (nothing set): SQLite, a worker thread inside the server process, an in-memory
  channel layer. Meant for trying the product on one machine.
"""

from __future__ import annotations

import os
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
    "channels",
    "ninja",
    "netshop",
    "agents",
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
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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

if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
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
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise expects it, even if empty
WHITENOISE_AUTOREFRESH = DEBUG

LOGIN_URL = "/accounts/login/"
# Staff land in the console and demo customers on the help page (one view decides).
LOGIN_REDIRECT_URL = "console:home"
LOGOUT_REDIRECT_URL = "login"

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES")
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES")
X_FRAME_OPTIONS = "DENY"

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

# --- Celery -------------------------------------------------------------------------------
# Runs are long and idempotent: acknowledge late, take one task at a time, and keep the
# visibility timeout well above the longest run so Redis does not redeliver a live task.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Each pool process warms up (graph, saver pool, bound models) before it reports for work;
# Celery's default 4 s would kill a child whose first database connection is slow.
CELERY_WORKER_PROC_ALIVE_TIMEOUT = 60
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 2 * 60 * 60}
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "recover-runs": {"task": "agents.tasks.recover_runs", "schedule": 60.0},
    "prune-checkpoints": {
        "task": "agents.tasks.prune_checkpoints",
        "schedule": 24 * 60 * 60.0,
        "kwargs": {"days": int(os.environ.get("NETSHOP_CHECKPOINT_RETENTION_DAYS", "30"))},
    },
}
# In the embedded shape tasks run on a thread pool inside the server process.
NETSHOP_EMBEDDED_WORKER = EMBEDDED

# --- Shop policy --------------------------------------------------------------------------
NETSHOP_COUPON_CAP_YEN = int(os.environ.get("NETSHOP_COUPON_CAP_YEN", "1000"))
NETSHOP_REDELIVERY_WINDOW_DAYS = 7
NETSHOP_DATE_CHANGE_WINDOW_DAYS = 14
NETSHOP_RETRY_BACKOFF_S = float(os.environ.get("NETSHOP_RETRY_BACKOFF_S", "0.2"))
NETSHOP_APPROVAL_DEADLINE_MINUTES = int(os.environ.get("NETSHOP_APPROVAL_DEADLINE_MINUTES", "240"))

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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {name: {"level": "WARNING"} for name in ("httpx", "httpx2", "openai")},
}
