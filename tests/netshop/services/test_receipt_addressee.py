"""receipt_addressee_clean: a receipt's addressee (宛名) is a name, never a forged line. Pure."""

from __future__ import annotations

import pytest
from django.utils import translation

from netshop.errors import DomainError
from netshop.services.receipt_addressee import receipt_addressee_clean


@pytest.mark.parametrize(
    ("given", "printed"),
    [
        ("株式会社ネットショップ 御中", "株式会社ネットショップ 御中"),
        ("山田 太郎 様", "山田 太郎 様"),
        ("株式会社\u3000サンプル", "株式会社 サンプル"),
        ("（株）みなと商店", "（株）みなと商店"),
        ("ヤマダ・タロウ", "ヤマダ・タロウ"),
        ("円山 花子", "円山 花子"),  # a surname with 円 is not an amount
        ("Acme Trading Ltd.", "Acme Trading Ltd."),
        ("Kestrel Foods Co., Ltd.", "Kestrel Foods Co., Ltd."),
        ("O'Brien & Sons", "O'Brien & Sons"),
        ("  Hewlett-Packard\tJapan  ", "Hewlett-Packard Japan"),
        ("7-Eleven Japan", "7-Eleven Japan"),
        ("Zoë Müller", "Zoë Müller"),
        ("", ""),
    ],
)
def test_a_name_is_printed_as_written_with_its_spaces_tidied(given: str, printed: str) -> None:
    assert receipt_addressee_clean(given) == printed


@pytest.mark.parametrize(
    "given",
    [
        "金額 ¥999,999 (税込)",
        "山田商店 金額 999,999円",
        "株式会社サンプル ￥12,800-",
        "九十九万円",
        "12,800円",
        "100円ショップ",
        "税抜 山田",
        "合計 山田商店",
        "山田 但し品代として",
        "Acme $999,999",
        "Acme 999999",
        "Acme Ltd. 12.800",
        "Acme Ltd - Total paid",
        "Acme 500 yen",
        "Acme (tax incl.)",
        "Acme €12",
    ],
)
def test_an_amount_currency_or_tax_wording_is_refused(given: str) -> None:
    with pytest.raises(DomainError) as refused:
        receipt_addressee_clean(given)

    assert (refused.value.code, refused.value.variant) == ("receipt_addressee_invalid", "amount")


@pytest.mark.parametrize(
    "given",
    [
        "Acme\u202e000,999 ¥",  # right-to-left override: printed reversed
        "\u202d山田商店",
        "山田\u2066商店\u2069",
        "山田\u200e商店",
        "山田\u200f商店",
        "山田\u200b商店",  # zero-width space
        "Acme\x00Ltd",
        "Acme\x1b[31mLtd",
        "\ufeffAcme",
    ],
)
def test_control_and_bidi_characters_are_refused(given: str) -> None:
    with pytest.raises(DomainError) as refused:
        receipt_addressee_clean(given)

    assert (refused.value.code, refused.value.variant) == ("receipt_addressee_invalid", "control")


@pytest.mark.parametrize(
    "given", ["12", "---", "Acme: paid in full?", "山田 <b>商店</b>", "Acme = 5", "☆山田☆", "①"]
)
def test_what_is_not_a_name_is_refused(given: str) -> None:
    with pytest.raises(DomainError) as refused:
        receipt_addressee_clean(given)

    assert refused.value.code == "receipt_addressee_invalid"


def test_a_name_over_sixty_characters_is_refused_not_cut() -> None:
    assert receipt_addressee_clean("あ" * 60) == "あ" * 60
    with pytest.raises(DomainError) as refused:
        receipt_addressee_clean("あ" * 61)

    assert (refused.value.variant, refused.value.params) == ("too_long", {"limit": 60})


@pytest.mark.parametrize(
    ("given", "en", "ja"),
    [
        (
            "金額 ¥999,999 (税込)",
            "The addressee must be a name only: an amount, a currency or tax wording cannot be "
            "printed there.",
            "宛名にはお名前のみを記載できます。金額・通貨・税に関する語句は記載できません。",
        ),
        (
            "Acme\u202eLtd",
            "The addressee contains invisible control or text-direction characters, which "
            "cannot be printed.",
            "宛名に、印字できない制御文字（文字の向きを変える記号など）が含まれています。",
        ),
        (
            "☆山田☆",
            "The addressee must be a person's or a company's name only.",
            "宛名には、個人名または会社名のみを記載できます。",
        ),
    ],
)
def test_the_refusal_says_why_in_english_and_japanese(given: str, en: str, ja: str) -> None:
    with pytest.raises(DomainError) as refused:
        receipt_addressee_clean(given)

    with translation.override("ja"):
        localized = refused.value.localized()
    assert (refused.value.message, localized) == (en, ja)
