from pathlib import Path

from django.apps import AppConfig
from django.conf import settings


class NetshopConfig(AppConfig):
    name = "netshop"
    verbose_name = "NetShop"

    def ready(self) -> None:
        local_folders()
        # A malformed or weak audit key stops every process at start, not at its first write
        # (an embedded DEBUG run's own key is made here, in var/).
        from netshop.audit.keys import keyring

        keyring()
        from netshop.converters import register_converters

        register_converters()


def local_folders() -> None:
    """The folders the process writes to, made at start rather than when settings are read:
    the SQLite database's (embedded shape) and STATIC_ROOT (WhiteNoise warns when it is
    missing; collectstatic fills it)."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        Path(database["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    Path(settings.STATIC_ROOT).mkdir(parents=True, exist_ok=True)
