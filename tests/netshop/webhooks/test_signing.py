"""The signature scheme storefronts implement: pure functions, checked against a fixed vector."""

from __future__ import annotations

import json

from netshop.webhooks.signing import (
    body_bytes,
    signature,
    signature_valid,
    signed_headers,
)

SECRET = "whsec_test"
TIMESTAMP = 1_700_000_000
# hex(HMAC-SHA256(b"whsec_test", b'1700000000.{"a":1}')), computed once and written down
VECTOR = "v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789"


def test_the_signature_is_hmac_sha256_over_timestamp_dot_body() -> None:
    assert signature(secret=SECRET, timestamp=TIMESTAMP, body=b'{"a":1}') == VECTOR


def valid(body: bytes, header: str, *, now: float = TIMESTAMP, secret: str = SECRET) -> bool:
    return signature_valid(
        secret=secret, timestamp=TIMESTAMP, body=body, header=header, now=now, tolerance_s=300
    )


def test_a_receiver_accepts_the_signature_and_refuses_any_change() -> None:
    assert valid(b'{"a":1}', VECTOR)
    assert not valid(b'{"a":2}', VECTOR)
    assert not valid(b'{"a":1}', VECTOR, secret="whsec_other")
    assert not valid(b'{"a":1}', VECTOR.replace("v1=3", "v1=4"))


def test_a_stale_timestamp_is_refused_even_with_a_good_signature() -> None:
    assert valid(b'{"a":1}', VECTOR, now=TIMESTAMP + 300)
    assert not valid(b'{"a":1}', VECTOR, now=TIMESTAMP + 301)
    assert not valid(b'{"a":1}', VECTOR, now=TIMESTAMP - 301)


def test_one_of_several_signatures_is_enough() -> None:
    assert valid(b'{"a":1}', f"v1=deadbeef, {VECTOR}")


def test_the_body_is_the_same_bytes_every_time_and_keeps_customer_text_as_data() -> None:
    text = '注文 ORD-4003 "}, <script>alert(1)</script>\n'
    payload = {"z": 1, "a": {"text": text}}

    first, second = body_bytes(payload), body_bytes(dict(reversed(payload.items())))

    assert first == second
    assert first.startswith(b'{"a":{"text":"')
    assert json.loads(first) == payload


def test_the_headers_carry_id_event_timestamp_and_signature() -> None:
    headers = signed_headers(
        secret=SECRET,
        delivery_id="d-1",
        event="conversation.replied",
        timestamp=TIMESTAMP,
        body=b'{"a":1}',
    )

    assert headers == {
        "Content-Type": "application/json",
        "User-Agent": "NetShop-Webhooks/1",
        "NetShop-Webhook-Id": "d-1",
        "NetShop-Webhook-Event": "conversation.replied",
        "NetShop-Webhook-Timestamp": "1700000000",
        "NetShop-Webhook-Signature": VECTOR,
    }
