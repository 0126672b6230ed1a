"""The shop's calendar: NetShop is in Japan, so its days, slots and receipts are Tokyo's.

Defined once here; every layer that reads a date as the shop does imports it.
"""

from __future__ import annotations

import datetime as dt
from typing import Final
from zoneinfo import ZoneInfo

from django.utils import timezone

SHOP_TZ: Final = ZoneInfo("Asia/Tokyo")


def shop_today() -> dt.date:
    """Today in Japan: delivery slots and windows are the shop's local dates."""
    return timezone.localdate(timezone=SHOP_TZ)
