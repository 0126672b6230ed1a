"""The whole approval loop in the embedded shape (SQLite, in-process worker), as a script.

Run in a clean environment by ``tests/agents/team/runs/test_embedded_shape.py``; prints one JSON
line.
"""

from __future__ import annotations

import json
import os
import time


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "netshop.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from agents.models import Escalation, Inquiry
    from agents.support.conversations.intake import inquiry_create
    from agents.support.escalations.services import escalation_decide
    from netshop.demo.seed import seed_demo
    from netshop.models import Customer, Refund

    call_command("migrate", verbosity=0)
    seed_demo(password="embedded-test")
    customer = Customer.objects.get(code="C0001")
    inquiry = inquiry_create(customer=customer, text="ORD-1003が壊れていました。返金してください。")
    waited = _wait(lambda: Inquiry.objects.get(pk=inquiry.pk).status == "awaiting_approval")
    escalation = Escalation.objects.get(inquiry=inquiry)
    escalation_decide(
        escalation_id=escalation.pk, user=User.objects.get(username="operator"), decision="approve"
    )
    resolved = _wait(lambda: Inquiry.objects.get(pk=inquiry.pk).status == "resolved")
    print(
        json.dumps(
            {
                "engine": settings.DATABASES["default"]["ENGINE"],
                "channel_layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
                "waited": waited,
                "resolved": resolved,
                "refunds": Refund.objects.filter(payment__order__number="ORD-1003").count(),
                "reply": Inquiry.objects.get(pk=inquiry.pk).reply,
            },
            ensure_ascii=False,
        )
    )


def _wait(predicate: object, timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


if __name__ == "__main__":
    main()
