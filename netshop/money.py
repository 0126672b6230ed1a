"""Money as people read it: one formatter for every page that shows yen.

Money is an integer number of yen everywhere in the shop. Japanese text writes it after
the number (「12,800円」), English and the staff pages before it ("¥12,800"); each caller
says which language it writes in.
"""

from __future__ import annotations


def yen(amount: object, *, language: str = "en") -> str:
    """12800 -> "¥12,800" (en, the default) or "12,800円" (ja).

    Answers "" for a missing or malformed amount (None, a bool, text that is not a number),
    so a page never shows ``None``; a fractional amount is shown truncated to whole yen.
    """
    if isinstance(amount, bool):
        return ""
    try:
        value = int(amount)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return ""
    return f"{value:,}円" if language == "ja" else f"¥{value:,}"
