from django.apps import AppConfig


class NetshopConfig(AppConfig):
    name = "netshop"
    verbose_name = "NetShop"
