"""Imports go one way and never in a circle.

The directions are import-linter's contracts (``pyproject.toml``, run by ``scripts/test``):
operators -> agents -> netshop, and inside ``agents`` the layers. These tests check what the tool
does not: that every part of a layered package is placed in a layer, and that no modules import
each other in a circle.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The Django app's own modules, which sit beside the layers rather than in one.
APP_SHELL = {"apps", "migrations", "models"}


def import_contracts() -> list[dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def layered(contract_id: str) -> set[str]:
    """The modules a layers contract names, each sibling of a ``a | b`` layer apart."""
    (contract,) = (c for c in import_contracts() if c.get("id") == contract_id)
    prefix = f"{contract['containers'][0]}." if "containers" in contract else ""
    return {prefix + name.strip() for layer in contract["layers"] for name in layer.split("|")}


def children(package: str) -> set[str]:
    folder = ROOT.joinpath(*package.split("."))
    return {
        f"{package}.{path.stem if path.suffix else path.name}"
        for path in folder.iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    }


@pytest.mark.parametrize(
    ("package", "contract_id"),
    [
        ("agents", "agents-layers"),
        ("agents.team", "team"),
        ("agents.support", "support"),
        ("operators", "operators"),
    ],
)
def test_every_part_of_a_layered_package_is_in_a_layer(package: str, contract_id: str) -> None:
    """import-linter checks only the modules a contract names: a new sub-package left out of
    the layers would escape them, so each must be placed."""
    shell = {f"{package}.{name}" for name in APP_SHELL}

    assert children(package) - shell - layered(contract_id) == set()


def test_the_top_level_layers_are_the_three_packages() -> None:
    assert layered("top") == {"operators", "agents", "netshop"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def first_party_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in ("netshop", "agents", "operators")
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }


def imported_modules(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """The first-party modules ``path`` imports, at the top or inside a function alike."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(_known_prefix(alias.name, known) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else _known_prefix(base, known))
    found.discard("")
    found.discard(name)
    return found


def _known_prefix(name: str, known: dict[str, Path]) -> str:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph.get(module, set()):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while (member := stack.pop()) != module:
                group.append(member)
            if group:
                cycles.append(sorted([*group, module]))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return cycles


def test_the_cycle_finder_finds_a_cycle_and_nothing_else() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}

    assert import_cycles(graph) == [["a", "b", "c"]]


def test_no_module_imports_itself_through_others() -> None:
    known = first_party_modules()
    graph = {name: imported_modules(path, name, known) for name, path in known.items()}

    assert import_cycles(graph) == []
