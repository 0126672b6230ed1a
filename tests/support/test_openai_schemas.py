"""The Structured Outputs schema subset the fake OpenAI server holds schemas to.

Each rule of OpenAI's "Supported schemas" section: a schema that keeps it passes, the same
schema breaking it is refused with the API's wording.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.openai_schemas import basic_problems, strict_problems

Json = dict[str, Any]


def closed(**properties: Json) -> Json:
    """An object schema as strict mode wants it: closed, every property required."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


STRING = {"type": "string"}


@pytest.mark.parametrize(
    "schema",
    [
        closed(name=STRING),
        closed(unit={"type": ["string", "null"], "enum": ["F", "C", None]}),
        closed(when={"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]}),
        closed(code={"type": "string", "pattern": "^ORD-[0-9]+$", "description": "an order"}),
        closed(share={"type": "number", "minimum": 0, "maximum": 1, "multipleOf": 0.01}),
        closed(count={"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 9}),
        closed(pair={"type": "array", "items": STRING, "minItems": 2, "maxItems": 2}),
        closed(kind={"const": "refund", "title": "Kind"}),
        {**closed(step={"$ref": "#/$defs/step"}), "$defs": {"step": closed(text=STRING)}},
        closed(name=STRING, children={"type": "array", "items": {"$ref": "#"}}),
    ],
    ids=[
        "string",
        "nullable-enum",
        "anyOf-with-format",
        "pattern",
        "number-bounds",
        "exclusive-bounds",
        "array-length",
        "const",
        "definitions",
        "recursion",
    ],
)
def test_a_schema_inside_the_subset_passes(schema: Json) -> None:
    assert strict_problems(schema) == []


@pytest.mark.parametrize(
    ("schema", "problem"),
    [
        (
            {"type": "object", "properties": {"a": STRING}, "required": ["a"]},
            "In context=(), 'additionalProperties' is required to be supplied and to be false.",
        ),
        (
            closed(inner={"type": "object", "properties": {}, "additionalProperties": True}),
            "In context=('properties', 'inner'), 'additionalProperties' is required to be"
            " supplied and to be false.",
        ),
        (
            {**closed(a=STRING, b=STRING), "required": ["a"]},
            "In context=(), 'required' is required to be supplied and to be an array including"
            " every key in properties. Missing 'b'.",
        ),
        (
            {**closed(a=STRING), "required": ["a", "z"]},
            "In context=(), Extra required key 'z' supplied.",
        ),
    ],
    ids=["open-root", "open-nested-object", "optional-property", "unknown-required"],
)
def test_every_object_is_closed_and_requires_every_property(schema: Json, problem: str) -> None:
    assert strict_problems(schema) == [problem]


@pytest.mark.parametrize(
    ("field", "keyword"),
    [
        ({"type": "boolean", "default": False}, "default"),
        (
            {"type": "array", "items": STRING, "prefixItems": [STRING, STRING]},
            "prefixItems",
        ),
        ({"allOf": [STRING]}, "allOf"),
        ({"type": "string", "not": {"const": "x"}}, "not"),
        ({"oneOf": [STRING, {"type": "null"}]}, "oneOf"),
        ({"type": "string", "if": STRING, "then": STRING}, "if"),
        ({"type": "string", "minLength": 1}, "minLength"),
        ({"type": "string", "minimum": 1}, "minimum"),
        ({"type": "object", "additionalProperties": False, "patternProperties": {}},
         "patternProperties"),
    ],
    ids=["default", "prefixItems", "allOf", "not", "oneOf", "if", "minLength", "minimum-on-string",
         "patternProperties"],
)  # fmt: skip
def test_a_keyword_outside_the_subset_is_not_permitted(field: Json, keyword: str) -> None:
    problems = strict_problems(closed(field=field))

    assert f"In context=('properties', 'field'), '{keyword}' is not permitted." in problems


@pytest.mark.parametrize(
    ("field", "problem"),
    [
        ({"type": "string", "format": "uri"}, "format 'uri' is not supported"),
        ({"type": "tuple"}, "type 'tuple' is not supported"),
        ({"description": "anything"}, "schema must have a 'type' key"),
        ({"type": "array"}, "array schema missing items"),
        ({"$ref": "#/$defs/missing"}, "reference '#/$defs/missing' does not resolve"),
        (
            {"type": "object", "properties": [], "additionalProperties": False},
            "'properties' must be a JSON object",
        ),
    ],
    ids=["format", "type", "untyped", "items", "ref", "misshapen"],
)
def test_only_the_documented_types_and_formats_pass(field: Json, problem: str) -> None:
    assert strict_problems(closed(field=field)) == [
        f"In context=('properties', 'field'), {problem}."
    ]


@pytest.mark.parametrize(
    "schema",
    [
        {"anyOf": [closed(a=STRING), closed(b=STRING)]},
        {"type": "array", "items": STRING},
    ],
    ids=["anyOf", "array"],
)
def test_the_root_is_an_object_not_anyof(schema: Json) -> None:
    [problem] = strict_problems(schema)

    assert problem.startswith("In context=(), schema must be a JSON Schema of 'type: \"object\"'")


def nested(levels: int) -> Json:
    schema = closed(leaf=STRING)
    for _ in range(levels - 1):
        schema = closed(child=schema)
    return schema


def test_objects_nest_at_most_ten_levels() -> None:
    assert strict_problems(nested(10)) == []
    assert strict_problems(nested(11)) == [
        "Invalid schema: 11 levels of object nesting, more than the 10 allowed."
    ]


def test_nesting_counts_through_definitions_but_not_around_recursion() -> None:
    deep = {**closed(top={"$ref": "#/$defs/deep"}), "$defs": {"deep": nested(10)}}
    recursive = closed(name=STRING, children={"type": "array", "items": {"$ref": "#"}})

    assert strict_problems(deep) == [
        "Invalid schema: 11 levels of object nesting, more than the 10 allowed."
    ]
    assert strict_problems(recursive) == []


def test_a_schema_holds_at_most_5000_properties() -> None:
    def wide(count: int) -> Json:
        return closed(
            **{f"p{i}": closed(**{f"q{j}": STRING for j in range(100)}) for i in range(count)}
        )

    assert strict_problems(wide(49)) == []  # 49 + 4,900
    assert strict_problems(wide(50)) == [
        "Invalid schema: 5050 object properties, more than the 5000 allowed."
    ]


def test_a_schema_holds_at_most_1000_enum_values() -> None:
    def enums(count: int) -> Json:
        return closed(a={"type": "integer", "enum": list(range(count))}, b={"enum": [1]})

    assert strict_problems(enums(999)) == []
    assert strict_problems(enums(1000)) == [
        "Invalid schema: 1001 enum values, more than the 1000 allowed."
    ]


def test_a_large_string_enum_holds_at_most_15000_characters() -> None:
    def words(count: int, size: int) -> Json:
        return closed(word={"type": "string", "enum": [f"{i:0{size}d}" for i in range(count)]})

    assert strict_problems(words(250, 100)) == []  # 25,000 characters, but only 250 values
    assert strict_problems(words(300, 50)) == []  # exactly 15,000
    assert strict_problems(words(300, 51)) == [
        "In context=('properties', 'word'), an enum of more than 250 values may hold at most"
        " 15000 characters in all."
    ]


def test_names_and_values_hold_at_most_120000_characters() -> None:
    long_names = closed(**{f"{i:03d}" + "x" * 397: STRING for i in range(300)})  # 120,000
    longer = {**long_names, "$defs": {"d": closed(c={"const": "y"})}}

    assert strict_problems(long_names) == []
    assert strict_problems(longer) == [
        "Invalid schema: 120003 characters of property names, definition names, enum and const"
        " values, more than the 120000 allowed."
    ]


def test_without_strict_any_object_schema_passes() -> None:
    loose = {"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}

    assert basic_problems(loose) == []
    assert basic_problems({}) == []
    assert basic_problems({"type": "string"}) == [
        "In context=(), schema must be a JSON Schema of 'type: \"object\"', got 'type: \"string\"'."
    ]
    assert basic_problems(["not", "a", "schema"]) == [
        "In context=(), schema must be a JSON object."
    ]
