"""What changed between two versions of an article's text, for the version history.

By character rather than by line: Japanese has no spaces to split words at, and a changed
number ("14日" for "7日") is the change a manager is looking for. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

Op = Literal["same", "added", "removed"]


@dataclass(frozen=True)
class Piece:
    op: Op
    text: str


def text_diff(old: str, new: str) -> list[Piece]:
    """``old`` turned into ``new``: runs kept, removed and added, in reading order (a
    replacement is its removal then its addition)."""
    pieces: list[Piece] = []
    matcher = SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pieces.append(Piece("same", old[i1:i2]))
            continue
        if i2 > i1:
            pieces.append(Piece("removed", old[i1:i2]))
        if j2 > j1:
            pieces.append(Piece("added", new[j1:j2]))
    return pieces
