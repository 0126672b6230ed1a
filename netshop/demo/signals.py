"""``demo_seeded``: sent when ``seed_demo`` has written the shop's demo data, so the apps
above the shop (the console's canned replies, say) add their own without the shop knowing
them. Receivers get ``report`` (a ``SeedReport``) to record what they wrote."""

from django.dispatch import Signal

demo_seeded = Signal()
