from django.apps import AppConfig


class NetshopConfig(AppConfig):
    name = "netshop"
    verbose_name = "NetShop"

    def ready(self) -> None:
        # A malformed or weak audit key stops every process at start, not at its first write.
        from netshop.audit.keys import keyring

        keyring()
