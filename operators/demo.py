"""The console's share of the demo: canned replies in both languages, so the composer's
"Canned reply" list can be tried at once (added whenever ``seed_demo`` runs, never twice)."""

from __future__ import annotations

from typing import Any

from operators.models import CannedReply

# (language, title, body): a few answers a support team writes every day.
DEMO_CANNED_REPLIES: tuple[tuple[str, str, str], ...] = (
    (
        "ja",
        "確認して折り返します",
        "お問い合わせいただきありがとうございます。担当者が内容を確認のうえ、"
        "本日中に改めてご連絡いたします。",
    ),
    (
        "ja",
        "返金の手続き完了",
        "ご返金の手続きが完了いたしました。カード会社によっては、ご利用明細への反映まで"
        "数日かかる場合がございます。",
    ),
    (
        "ja",
        "お届け先の確認",
        "恐れ入りますが、お届け先のご住所（郵便番号から）をお知らせいただけますでしょうか。",
    ),
    (
        "en",
        "Looking into it",
        "Thank you for getting in touch. A member of our team is looking into this and will "
        "write to you again today.",
    ),
    (
        "en",
        "Refund completed",
        "Your refund has been completed. Depending on your card issuer, it may take a few "
        "days to appear on your statement.",
    ),
    (
        "en",
        "Delivery address",
        "Could you tell us the full delivery address, including the postal code?",
    ),
)


def canned_replies_seed(sender: Any, report: Any, **kwargs: Any) -> None:
    """``demo_seeded``'s receiver: the demo's canned replies, each once (by language and
    title; a manager's later edits of its body are kept)."""
    for language, title, body in DEMO_CANNED_REPLIES:
        _, created = CannedReply.objects.get_or_create(
            language=language, title=title, defaults={"body": body}
        )
        report.record(CannedReply, created=created, changed=created)
