"""A tool call a specialist's turn proposes: the tool's name and its arguments."""

from __future__ import annotations

from typing import Any

Call = tuple[str, dict[str, Any]]
