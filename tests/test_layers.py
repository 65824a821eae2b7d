"""Imports point one way: the layer table of ``docs/architecture.md`` holds, with no circle.

Every module under ``energies/`` is read with ``ast`` (nothing is imported): its imports at
module level and inside functions, relative ones resolved, and ``importlib.import_module``
/ ``__import__`` calls with a literal name. Each module belongs to a layer (its package below
``energies``; each companion game under ``energies/games/`` is a layer of its own). The test
fails on an arrow the table in ``docs/architecture.md`` does not allow — the table is parsed
from that page, so the page is the one source — and on any circle between modules. The rule
-> function table of the same page is checked too: every function it names exists.
"""

from __future__ import annotations

import ast
import importlib
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "energies"
ARCHITECTURE = REPO / "docs" / "architecture.md"

LAYER_HEADING = "## Who may import whom"
RULES_HEADING = "## Rules and the functions that implement them"
EVERYTHING = "anything"  # the facade's row: it may import any layer
NOTHING = "nothing"


# ==============================================================================================
# Reading the imports
# ==============================================================================================


@dataclass(frozen=True)
class Arrow:
    """One import: ``importer`` names ``imported`` on ``line``; ``lazy`` when inside a function.

    ``through``: set when the import names a module inside ``imported``, a package that
    Python runs first (``import energies.a.b`` runs ``energies/a/__init__.py``).
    """

    importer: str
    imported: str
    line: int
    lazy: bool
    through: str = ""

    def __str__(self) -> str:
        where = "inside a function" if self.lazy else "at module level"
        via = f", importing {self.through}" if self.through else ""
        return f"{self.importer} -> {self.imported} (line {self.line}, {where}{via})"


def module_files(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def resolve(name: str, level: int, package: str) -> str:
    """The absolute name of ``from <level dots><name> import ...`` written in ``package``."""
    if not level:
        return name
    base = package.split(".")
    if level > len(base):
        raise ImportError(f"relative import beyond the top of {package!r}")
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


class _ImportReader(ast.NodeVisitor):
    """Collects the arrows of one module, remembering whether each runs inside a function."""

    def __init__(self, module: str, package: str, known: Iterable[str]) -> None:
        self.module, self.package, self.known = module, package, set(known)
        self.depth = 0
        self.arrows: list[Arrow] = []

    def _add(self, imported: str, node: ast.AST) -> None:
        self.arrows.append(Arrow(self.module, imported, node.lineno, self.depth > 0))

    def _inside_function(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _inside_function

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        source = resolve(node.module or "", node.level, self.package)
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            # ``from .engine import awards`` names the module <package>.engine.awards
            self._add(submodule if submodule in self.known else source, node)

    def visit_Call(self, node: ast.Call) -> None:
        function = node.func
        name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
        first = node.args[0] if node.args else None
        literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
        if name in ("import_module", "__import__") and literal:
            target = first.value
            if target.startswith("."):  # import_module(".x", anchor): relative to the anchor
                anchor = self._anchor(node.args[1] if len(node.args) > 1 else None)
                level = len(target) - len(target.lstrip("."))
                target = resolve(target.lstrip("."), level, anchor)
            self._add(target, node)
        self.generic_visit(node)

    def _anchor(self, node: ast.AST | None) -> str:
        """The package a relative ``import_module`` name starts from, as importlib reads it."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name) and node.id == "__name__":
            return self.module
        if isinstance(node, ast.Name) and node.id == "__package__":
            return self.package
        where = f"{self.module}, line {getattr(node, 'lineno', '?')}"
        raise AssertionError(f"{where}: an import_module anchor this test cannot read")


def arrows_of(module: str, source: str, known: Iterable[str], is_package: bool) -> list[Arrow]:
    """The imports of one module's source that name a module of ``energies``."""
    package = module if is_package else module.rpartition(".")[0]
    reader = _ImportReader(module, package, known)
    reader.visit(ast.parse(source))
    # (``from x import a, b`` names x twice on one line: one arrow)
    arrows = dict.fromkeys(a for a in reader.arrows if a.imported.split(".")[0] == "energies")
    return list(arrows)


def with_packages_run_first(arrows: Iterable[Arrow]) -> list[Arrow]:
    """The arrows, plus one to each package an import runs before the module it names,
    except the importer's own packages (Python is already running those)."""
    found = []
    for arrow in arrows:
        found.append(arrow)
        own = arrow.importer.split(".")
        parts = arrow.imported.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            if parts[:cut] == own[:cut]:
                break
            package = ".".join(parts[:cut])
            found.append(Arrow(arrow.importer, package, arrow.line, arrow.lazy, arrow.imported))
    return found


def all_arrows(root: Path = PACKAGE) -> list[Arrow]:
    modules = module_files(root)
    arrows = []
    for module, path in modules.items():
        source = path.read_text(encoding="utf-8")
        arrows += arrows_of(module, source, modules, path.name == "__init__.py")
    return with_packages_run_first(arrows)


# ==============================================================================================
# Layers and the table of docs/architecture.md
# ==============================================================================================


def layer_of(module: str) -> str:
    """The layer a module belongs to: its package below ``energies`` (``energies`` itself is
    the facade); under ``energies.games`` each game's package is a layer of its own."""
    parts = module.split(".")
    if len(parts) == 1:
        return parts[0]
    if parts[1] == "games" and len(parts) > 3 and parts[3] == "widget":
        return "games.*.widget"  # a companion game's app: a layer above the game
    if parts[1] == "games" and len(parts) > 2:
        return f"games.{parts[2]}"
    return parts[1]


@dataclass(frozen=True)
class LayerRule:
    """What one layer may import: always, and only inside a function (``lazily``)."""

    anywhere: frozenset[str]
    lazily: frozenset[str]


def _section(text: str, heading: str) -> str:
    start = text.find(f"\n{heading}\n")
    if start < 0:
        raise AssertionError(f"docs/architecture.md has no section {heading!r}")
    end = text.find("\n## ", start + len(heading) + 2)
    return text[start : end if end >= 0 else len(text)]


def table_rows(section: str) -> list[list[str]]:
    """The body rows of the first markdown table in ``section``, as lists of cells."""
    rows = [line for line in section.splitlines() if line.startswith("|")]
    if len(rows) < 3:
        raise AssertionError("expected a markdown table (header, rule, rows)")
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def read_layer_table(text: str) -> dict[str, LayerRule]:
    """The layer table: ``| layers | may import | may import inside a function only |``."""
    table: dict[str, LayerRule] = {}
    for row in table_rows(_section(text, LAYER_HEADING)):
        layers, anywhere, lazily = row[0], row[1], row[2] if len(row) > 2 else ""
        allowed = {EVERYTHING} if anywhere.startswith(EVERYTHING) else set(_names(anywhere))
        if not allowed and not anywhere.startswith(NOTHING):
            raise AssertionError(f"cannot read what {layers!r} may import: {anywhere!r}")
        for layer in _names(layers):
            table[layer] = LayerRule(frozenset(allowed), frozenset(_names(lazily)))
    return table


def matches(layer: str, pattern: str) -> bool:
    """``games.*`` names every companion game's layer; other names only themselves."""
    if pattern.endswith(".*"):
        return layer.startswith(pattern[:-1])
    return layer == pattern


def rule_for(layer: str, table: dict[str, LayerRule]) -> LayerRule | None:
    if layer in table:  # a row naming the layer itself comes before a pattern
        return table[layer]
    found = [rule for pattern, rule in table.items() if matches(layer, pattern)]
    return found[0] if found else None


def forbidden(arrows: Iterable[Arrow], table: dict[str, LayerRule]) -> list[str]:
    """Why each arrow the table does not allow is wrong, in words."""
    problems = []
    for arrow in arrows:
        source, target = layer_of(arrow.importer), layer_of(arrow.imported)
        if arrow.through and layer_of(arrow.through) == target:
            continue  # the import itself is judged: a package of the same layer adds nothing
        rule = rule_for(source, table)
        if rule is None:
            problems.append(f"{arrow}: the layer {source!r} is not in the table")
        elif (
            source == target
            or EVERYTHING in rule.anywhere
            or any(matches(target, allowed) for allowed in rule.anywhere)
            or arrow.lazy
            and any(matches(target, allowed) for allowed in rule.lazily)
        ):
            continue
        elif any(matches(target, allowed) for allowed in rule.lazily):
            problems.append(f"{arrow}: {source} may import {target} only inside a function")
        else:
            problems.append(f"{arrow}: {source} may not import {target}")
    return problems


# ==============================================================================================
# Circles
# ==============================================================================================


def circles(graph: dict[str, set[str]]) -> list[tuple[list[str], list[str]]]:
    """Each group of modules that import one another (a strongly connected component, found
    by Tarjan's algorithm without recursion), with one shortest circle through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return [(group, _shortest_circle(graph, group)) for group in sorted(groups)]


def _shortest_circle(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """The shortest path from the group's first module back to itself, inside the group."""
    members, start = set(group), group[0]
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if nxt in members and nxt not in came_from:
                    came_from[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no circle in the group {group}")  # a group always has one


def import_graph(arrows: Iterable[Arrow]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for arrow in arrows:
        if arrow.importer != arrow.imported:
            graph.setdefault(arrow.importer, set()).add(arrow.imported)
    return graph


def show_circle(group: list[str], circle: list[str], arrows: Iterable[Arrow]) -> str:
    where = {}
    for arrow in arrows:  # the first arrow of each pair: an import that names it directly
        where.setdefault((arrow.importer, arrow.imported), arrow)
    steps = [str(where[pair]) for pair in itertools.pairwise(circle)]
    return (
        f"{len(group)} modules import one another: {', '.join(group)}\n  for example:\n    "
        + "\n    ".join(steps)
    )


# ==============================================================================================
# The tests on the package
# ==============================================================================================


@pytest.fixture(scope="module")
def arrows() -> list[Arrow]:
    return all_arrows()


@pytest.fixture(scope="module")
def table() -> dict[str, LayerRule]:
    return read_layer_table(ARCHITECTURE.read_text(encoding="utf-8"))


def test_every_arrow_is_one_the_layer_table_allows(arrows, table):
    problems = forbidden(arrows, table)
    assert not problems, "arrows docs/architecture.md does not allow:\n" + "\n".join(problems)


def upward_exceptions_left_out(arrows: Iterable[Arrow], table: dict[str, LayerRule]) -> list[Arrow]:
    """The arrows without the documented upward imports inside a function (the third column:
    a game drawing itself imports viz, which imports the game): each of those closes a circle
    on purpose, and runs only when the object is drawn, long after both modules loaded."""
    kept = []
    for arrow in arrows:
        source, target = layer_of(arrow.importer), layer_of(arrow.imported)
        rule = rule_for(source, table)
        upward = (
            arrow.lazy
            and rule is not None
            and any(matches(target, allowed) for allowed in rule.lazily)
            and not any(matches(target, allowed) for allowed in rule.anywhere)
        )
        if not upward:
            kept.append(arrow)
    return kept


def test_no_module_imports_itself_round_a_circle(arrows, table):
    arrows = upward_exceptions_left_out(arrows, table)
    found = circles(import_graph(arrows))
    assert not found, "\n".join(show_circle(group, circle, arrows) for group, circle in found)


def test_every_import_names_a_module_of_the_tree(arrows):
    """An import of a path that is no module (an old flat path such as energies.state, kept
    only for users by energies._moved) would hide an arrow from these tests."""
    modules = module_files()
    unknown = [str(a) for a in arrows if a.imported not in modules]
    assert not unknown, "imports of paths that are no module:\n" + "\n".join(unknown)


def test_every_layer_of_the_tree_is_in_the_table(table):
    layers = {layer_of(module) for module in module_files()}
    missing = sorted(layer for layer in layers if rule_for(layer, table) is None)
    assert not missing, f"layers docs/architecture.md does not list: {missing}"


def test_the_table_keeps_the_contract_at_the_bottom(table):
    """A page edit that the parser misreads must not quietly allow everything."""
    assert table["kit"] == LayerRule(frozenset(), frozenset())
    assert EVERYTHING in table["energies"].anywhere
    assert table["newenergies"].anywhere == {"kit"}
    assert rule_for("games.shelfie", table).anywhere == {"kit"}
    assert rule_for("games.shelfie", table).lazily  # the documented drawing exception
    facade = {"energies", "__main__", "_moved"}
    assert {layer for layer, rule in table.items() if EVERYTHING in rule.anywhere} == facade


def test_only_the_command_and_the_facade_import_the_class_server(table, arrows):
    """The class server sits on top (docs/architecture.md): the apps it shows and the class
    database it keeps are below it, and nothing but the command and the facade reaches it."""
    server = rule_for("server", table)
    assert server is not None and {"widgets", "classroom", "kit"} <= server.anywhere
    importers = {layer for layer, rule in table.items() if "server" in rule.anywhere | rule.lazily}
    assert importers == {"cli"}
    reached = {layer_of(a.importer) for a in arrows if layer_of(a.imported) == "server"}
    assert reached <= {"server", "cli", "energies"}, reached


# ==============================================================================================
# The checker itself can fail (small made-up packages)
# ==============================================================================================


def test_reader_resolves_relative_lazy_and_string_imports():
    known = {"energies.a", "energies.a.b", "energies.a.c", "energies.d"}
    source = (
        "import json\n"
        "from . import c\n"
        "from .c import thing\n"
        "from ..d import other\n"
        "def later():\n"
        "    import importlib\n"
        "    from .. import d\n"
        "    importlib.import_module('energies.d')\n"
        "    return importlib.import_module('.c', __package__)\n"
    )
    found = {(a.imported, a.lazy) for a in arrows_of("energies.a.b", source, known, False)}
    assert found == {
        ("energies.a.c", False),
        ("energies.d", False),
        ("energies.d", True),
        ("energies.a.c", True),
    }
    package_source = "from . import b\nimport_module('.c', __name__)\n"
    in_package = arrows_of("energies.a", package_source, known, True)
    assert [a.imported for a in in_package] == ["energies.a.b", "energies.a.c"]


def test_table_reader_and_checker_catch_a_wrong_arrow():
    page = (
        "# x\n\n" + LAYER_HEADING + "\n\n"
        "| layer | may import | inside a function only |\n|---|---|---|\n"
        "| `kit` | nothing | |\n"
        "| `games.*` | `kit` | `viz` |\n"
        "| `viz` | `kit` | |\n\n## next\n"
    )
    table = read_layer_table(page)
    arrows = [
        Arrow("energies.kit.a", "energies.viz.b", 1, True),  # kit may import nothing
        Arrow("energies.games.x.draw", "energies.viz", 2, False),  # only inside a function
        Arrow("energies.games.x.game", "energies.viz", 3, True),  # allowed lazily
        Arrow("energies.games.x.game", "energies.games.y", 4, True),  # another game
        Arrow("energies.viz.b", "energies.kit", 5, False),
        Arrow("energies.cli", "energies.kit", 6, False),  # cli is not in this table
    ]
    problems = forbidden(arrows, table)
    assert [p.split(" (line ")[0] for p in problems] == [
        "energies.kit.a -> energies.viz.b",
        "energies.games.x.draw -> energies.viz",
        "energies.games.x.game -> energies.games.y",
        "energies.cli -> energies.kit",
    ]


def test_circles_are_found_with_their_path():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"f"}, "f": {"e"}}
    assert circles(graph) == [
        (["a", "b", "c"], ["a", "b", "c", "a"]),
        (["e", "f"], ["e", "f", "e"]),
    ]
    assert circles({"a": {"b"}, "b": {"c"}}) == []


# ==============================================================================================
# The rule -> function table cannot rot
# ==============================================================================================


def resolve_dotted(name: str):
    """The object a dotted name such as ``energies.x.y.function`` or ``...Class.method`` names."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(name)


def rule_table_names(text: str) -> list[str]:
    names = []
    for row in table_rows(_section(text, RULES_HEADING)):
        names += [n for cell in row[1:] for n in _names(cell) if n.startswith("energies.")]
    return names


def test_every_function_of_the_rule_table_exists():
    names = rule_table_names(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(names) >= 40  # the table names the check, listing and effect of each rule
    missing = []
    for name in names:
        try:
            found = resolve_dotted(name)
        except (ImportError, AttributeError):
            missing.append(name)
            continue
        if not callable(found):
            missing.append(f"{name} (not a function)")
    assert not missing, f"docs/architecture.md names what does not exist: {missing}"
