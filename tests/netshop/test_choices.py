"""``OneOf``: a vocabulary's values offered as a Literal would be, without spelling them again."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, ValidationError

from netshop.choices import OneOf

COLOURS = ("red", "green")


class Picked(BaseModel):
    colour: Annotated[str, OneOf(COLOURS)]


class Spelt(BaseModel):
    colour: Literal["red", "green"]


def test_the_schema_is_the_literals_inline_enum() -> None:
    assert Picked.model_json_schema()["properties"] == Spelt.model_json_schema()["properties"]
    assert Picked.model_json_schema()["properties"]["colour"]["enum"] == ["red", "green"]


def test_a_listed_value_is_accepted_as_the_plain_string() -> None:
    picked = Picked(colour="green")

    assert picked.colour == "green"
    assert type(picked.colour) is str


def test_any_other_value_is_refused_as_a_literal_refuses_it() -> None:
    with pytest.raises(ValidationError) as refused:
        Picked(colour="blue")
    with pytest.raises(ValidationError) as spelt:
        Spelt(colour="blue")  # type: ignore[arg-type]  # refused on purpose

    assert refused.value.errors()[0]["type"] == spelt.value.errors()[0]["type"] == "literal_error"
