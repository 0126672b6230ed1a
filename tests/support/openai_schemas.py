"""The JSON Schema subset OpenAI's Structured Outputs accept, as pure functions.

Source: OpenAI's Structured Outputs guide, "Supported schemas"
(https://platform.openai.com/docs/guides/structured-outputs#supported-schemas), which the
function calling guide applies to ``"strict": true`` tools too. What it says, and what is
checked here:

- Supported types: string, number, boolean, integer, object, array, enum, anyOf (``null`` in
  a type list or an ``anyOf`` is how its own examples write an optional field).
- Supported keywords: strings ``pattern`` and ``format`` (date-time, time, date, duration,
  email, hostname, ipv4, ipv6, uuid); numbers ``multipleOf``, ``maximum``,
  ``exclusiveMaximum``, ``minimum``, ``exclusiveMinimum``; arrays ``minItems``,
  ``maxItems``. Definitions (``$defs`` with ``$ref``) and recursion (``"$ref": "#"``) are
  supported. Not supported: ``allOf``, ``not``, ``dependentRequired``, ``dependentSchemas``,
  ``if``, ``then``, ``else``. Anything else (``default``, ``prefixItems``, ``oneOf``,
  ``patternProperties``, ``minLength`` ...) is outside the documented subset and refused:
  the API's own wording for it is "'default' is not permitted". ``title`` and
  ``description`` pass: OpenAI's SDK sends both in the schemas it builds from Pydantic.
- The root is an object, never ``anyOf``; ``additionalProperties: false`` on every object;
  every key of ``properties`` listed in ``required``.
- Limits: see the constants below, each quoted from the guide.

Problems read like the API's 400 messages: ``In context=('properties', 'x'), ...``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]
Context = tuple[str, ...]

# "A schema may have up to 5000 object properties total, with up to 10 levels of nesting."
MAX_PROPERTIES = 5000
MAX_NESTING = 10  # counted in objects: the guide's heading is "Objects have limitations..."
# "total string length of all property names, definition names, enum values, and const
# values cannot exceed 120,000 characters."
MAX_TEXT = 120_000
# "A schema may have up to 1000 enum values across all enum properties."
MAX_ENUM_VALUES = 1000
# "For a single enum property with string values, the total string length of all enum
# values cannot exceed 15,000 characters when there are more than 250 enum values."
LARGE_ENUM = 250
MAX_LARGE_ENUM_TEXT = 15_000

TYPES = frozenset({"string", "number", "boolean", "integer", "object", "array", "null"})
STRING_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
_NUMBER = frozenset({"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"})
KEYWORDS_BY_TYPE: dict[str, frozenset[str]] = {
    "string": frozenset({"pattern", "format"}),
    "number": _NUMBER,
    "integer": _NUMBER,
    "array": frozenset({"items", "minItems", "maxItems"}),
    "object": frozenset({"properties", "required", "additionalProperties"}),
}
# The JSON each structural keyword holds; a schema breaking these is not walked further.
SHAPES: dict[str, type] = {
    "properties": dict,
    "$defs": dict,
    "definitions": dict,
    "required": list,
    "anyOf": list,
    "enum": list,
}
ANY_TYPE_KEYWORDS = frozenset(
    {"type", "enum", "const", "anyOf", "$ref", "$defs", "definitions", "title", "description"}
)


def strict_problems(schema: Any) -> list[str]:
    """Why Structured Outputs (``strict: true``) would refuse ``schema``; empty if it would not."""
    if not isinstance(schema, dict):
        return ["In context=(), schema must be a JSON object."]
    if "anyOf" in schema or _types(schema) != ["object"]:
        return [f"In context=(), {_not_an_object(schema)}"]
    walk = _Walk(schema)
    walk.node(schema, ())
    problems = [f"In context={context!r}, {problem}." for context, problem in walk.problems]
    return problems + walk.limit_problems()


def basic_problems(schema: Any) -> list[str]:
    """A schema sent without ``strict`` is only taken as a JSON object describing an object."""
    if not isinstance(schema, dict):
        return ["In context=(), schema must be a JSON object."]
    if "type" in schema and _types(schema) != ["object"]:
        return [f"In context=(), {_not_an_object(schema)}"]
    return []


def _not_an_object(schema: Json) -> str:
    got = json.dumps(schema.get("type"))
    return f"schema must be a JSON Schema of 'type: \"object\"', got 'type: {got}'."


def _types(schema: Json) -> list[str]:
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [] if kind is None else [kind]
    return [str(k) for k in kinds]


@dataclass
class _Walk:
    """One pass over the schema as written ($defs once each), counting what the limits count."""

    root: Json
    problems: list[tuple[Context, str]] = field(default_factory=list)
    properties: int = 0
    enum_values: int = 0
    text: int = 0

    def node(self, schema: Any, context: Context) -> None:
        if not isinstance(schema, dict):
            self.problems.append((context, "schema must be a JSON object"))
            return
        misshapen = [
            key for key, kind in SHAPES.items() if not isinstance(schema.get(key, kind()), kind)
        ]
        for key in misshapen:
            json_kind = "object" if SHAPES[key] is dict else "array"
            self.problems.append((context, f"'{key}' must be a JSON {json_kind}"))
        if misshapen:
            return
        types = _types(schema)
        self._keywords(schema, types, context)
        if "object" in types:
            self._object(schema, context)
        if "array" in types:
            self._array(schema, context)
        self._values(schema, context)
        for index, option in enumerate(schema.get("anyOf") or []):
            self.node(option, (*context, "anyOf", str(index)))
        if "$ref" in schema and _resolve(self.root, schema["$ref"]) is None:
            self.problems.append((context, f"reference {schema['$ref']!r} does not resolve"))
        for key in ("$defs", "definitions"):
            for name, definition in (schema.get(key) or {}).items():
                self.text += len(name)
                self.node(definition, (*context, key, name))

    def _keywords(self, schema: Json, types: list[str], context: Context) -> None:
        for kind in types:
            if kind not in TYPES:
                self.problems.append((context, f"type {kind!r} is not supported"))
        if not types and not {"anyOf", "$ref", "enum", "const"} & schema.keys():
            self.problems.append((context, "schema must have a 'type' key"))
        allowed = ANY_TYPE_KEYWORDS.union(*(KEYWORDS_BY_TYPE.get(t, ()) for t in types))
        for key in schema:
            if key not in allowed:
                self.problems.append((context, f"'{key}' is not permitted"))
        form = schema.get("format")
        if "format" in allowed and form is not None and form not in STRING_FORMATS:
            self.problems.append((context, f"format {form!r} is not supported"))

    def _object(self, schema: Json, context: Context) -> None:
        if schema.get("additionalProperties") is not False:
            problem = "'additionalProperties' is required to be supplied and to be false"
            self.problems.append((context, problem))
        properties = schema.get("properties") or {}
        required = schema.get("required") or []
        missing = [name for name in properties if name not in required]
        if missing:
            problem = (
                "'required' is required to be supplied and to be an array including every key"
                f" in properties. Missing {missing[0]!r}"
            )
            self.problems.append((context, problem))
        for extra in (name for name in required if name not in properties):
            self.problems.append((context, f"Extra required key {extra!r} supplied"))
        for name, child in properties.items():
            self.properties += 1
            self.text += len(name)
            self.node(child, (*context, "properties", name))

    def _array(self, schema: Json, context: Context) -> None:
        if "items" not in schema:
            self.problems.append((context, "array schema missing items"))
        else:
            self.node(schema["items"], (*context, "items"))

    def _values(self, schema: Json, context: Context) -> None:
        values = schema.get("enum") or []
        strings = [value for value in values if isinstance(value, str)]
        self.enum_values += len(values)
        self.text += sum(map(len, strings))
        if len(values) > LARGE_ENUM and sum(map(len, strings)) > MAX_LARGE_ENUM_TEXT:
            problem = (
                f"an enum of more than {LARGE_ENUM} values may hold at most"
                f" {MAX_LARGE_ENUM_TEXT} characters in all"
            )
            self.problems.append((context, problem))
        if isinstance(schema.get("const"), str):
            self.text += len(schema["const"])

    def limit_problems(self) -> list[str]:
        texts = "characters of property names, definition names, enum and const values"
        counted = [
            (self.properties, MAX_PROPERTIES, "object properties"),
            (_nesting(self.root, self.root, frozenset()), MAX_NESTING, "levels of object nesting"),
            (self.text, MAX_TEXT, texts),
            (self.enum_values, MAX_ENUM_VALUES, "enum values"),
        ]
        return [
            f"Invalid schema: {found} {what}, more than the {limit} allowed."
            for found, limit, what in counted
            if found > limit
        ]


def _nesting(schema: Any, root: Json, following: frozenset[str]) -> int:
    """Levels of objects within ``schema``; a ``$ref`` is followed unless it recurses."""
    if not isinstance(schema, dict):
        return 0
    ref = schema.get("$ref")
    through_ref = 0
    if isinstance(ref, str) and ref not in following:
        through_ref = _nesting(_resolve(root, ref), root, following | {ref})
    inner = max((_nesting(child, root, following) for child in _children(schema)), default=0)
    return max(through_ref, inner + ("object" in _types(schema)))


def _children(schema: Json) -> Iterator[Any]:
    yield from (schema.get("properties") or {}).values()
    if "items" in schema:
        yield schema["items"]
    yield from schema.get("anyOf") or []


def _resolve(root: Json, ref: Any) -> Any:
    """The schema a local reference (``#`` or ``#/$defs/name``) names; None if none."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    target: Any = root
    for part in filter(None, ref[1:].split("/")):
        if not isinstance(target, dict) or part not in target:
            return None
        target = target[part]
    return target
