"""The demo data set: fixed orders to try every support flow on, plus a generated shop.

``seed_demo`` writes it (idempotently); ``build_demo_data`` describes it without a database.
"""

from netshop.demo.orders import build_demo_data
from netshop.demo.seed import (
    DEFAULT_DEMO_PASSWORD,
    DEMO_CUSTOMER_LOGINS,
    DEMO_PASSWORD_ENV,
    DEMO_STAFF,
    SeedReport,
    demo_password,
    seed_demo,
)

__all__ = [
    "DEFAULT_DEMO_PASSWORD",
    "DEMO_CUSTOMER_LOGINS",
    "DEMO_PASSWORD_ENV",
    "DEMO_STAFF",
    "SeedReport",
    "build_demo_data",
    "demo_password",
    "seed_demo",
]
