"""``Annotated[str, OneOf(values)]``: a string that must be one of a list defined elsewhere.

Validated and documented exactly as a ``Literal`` of the same values would be (an inline enum
in the JSON schema, pydantic's ``literal_error`` when it is none of them), so an API or a
structured output can offer a vocabulary's values without spelling them out a second time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema


@dataclass(frozen=True, init=False)
class OneOf:
    values: tuple[str, ...]

    def __init__(self, values: Iterable[str]) -> None:
        object.__setattr__(self, "values", tuple(str(value) for value in values))

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.literal_schema(list(self.values))
