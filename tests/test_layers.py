"""The floors run one way: graph → nodes → nodes/runtime → tools → guards.

Every import of a labscribe module counts, wherever it stands (a function body, an
`if TYPE_CHECKING:` block), so no import can hide an arrow upward or a cycle.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLOORS = ("guards", "tools", "nodes.runtime", "nodes", "graph")
"""From the bottom up: a module imports from its own floor and those below it."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    module_name(path): path
    for floor in ("guards", "tools", "nodes", "graph")
    for path in sorted((ROOT / floor).rglob("*.py"))
}


def floor_of(module: str) -> int:
    """The index in FLOORS of the innermost floor that holds `module`."""
    holding = [f for f in FLOORS if module == f or module.startswith(f"{f}.")]
    return FLOORS.index(max(holding, key=len))


def imported(module: str) -> set[str]:
    """The labscribe modules `module` imports anywhere in its text: `from labscribe.x import
    y` counts as x.y when y is a module, else as x."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text())):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{module}: relative import"
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            targets = [n if n.removeprefix("labscribe.") in MODULES else node.module for n in names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        found |= {t.removeprefix("labscribe.") for t in targets if t and t.startswith("labscribe.")}
    return found


IMPORTS = {module: imported(module) for module in MODULES}


def test_every_module_is_seen() -> None:
    seen = {"graph.builder", "nodes.explore", "nodes.runtime.state", "tools.base", "guards.guard"}
    assert seen <= set(MODULES)
    assert sum(len(targets) for targets in IMPORTS.values()) > 300


@pytest.mark.parametrize("floor", FLOORS)
def test_no_import_goes_up(floor: str) -> None:
    upward = sorted(
        f"{module} imports {target}"
        for module, targets in IMPORTS.items()
        if FLOORS[floor_of(module)] == floor
        for target in targets
        if floor_of(target) > floor_of(module)
    )
    assert upward == []


def test_no_cycle_between_modules() -> None:
    """Not even through a function-local import: a cycle is a cycle wherever its import stands."""
    state = dict.fromkeys(IMPORTS, 0)  # 0 unseen, 1 on the path, 2 done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(IMPORTS[module]):
            if target not in IMPORTS or target == module:
                continue
            if state[target] == 1:
                return [*path[path.index(target) :], target]
            if state[target] == 0 and (cycle := visit(target)):
                return cycle
        state[module] = 2
        path.pop()
        return None

    for module in IMPORTS:
        if state[module] == 0:
            assert (cycle := visit(module)) is None, " -> ".join(cycle)


def test_every_package_is_installed() -> None:
    """pyproject.toml names its packages one by one: a package left out of the list is
    importable from a checkout (an editable install) and missing from a wheel."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    declared = set(setuptools["packages"])
    on_disk = {
        "labscribe." + module_name(init)
        for floor in ("guards", "tools", "nodes", "graph")
        for init in (ROOT / floor).rglob("__init__.py")
    }
    assert declared == on_disk


def test_tools_stand_in_rooms() -> None:
    """tools/ keeps only what every room shares (the tool, its folder, its words, the
    worker); the rest stands in a room by concern, each saying what it owns."""
    shared = {"__init__", "base", "messages", "tool", "worker"}
    assert {path.stem for path in (ROOT / "tools").glob("*.py")} == shared
    rooms = list((ROOT / "tools").glob("*/__init__.py"))
    assert len(rooms) >= 6
    for init in rooms:
        owns = ast.get_docstring(ast.parse(init.read_text()))
        assert owns and len(owns) > 80, f"{init.parent.name} does not say what it owns"


def test_a_tool_error_is_worded_in_tools_messages() -> None:
    """What a tool tells the model it can fix is a named template of tools/messages.py, not
    text written where the error is raised."""
    inline = sorted(
        f"{module}:{node.lineno}"
        for module, path in MODULES.items()
        if module.startswith("tools.")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "ToolError"
        and node.args
        and isinstance(node.args[0], ast.Constant | ast.JoinedStr)
    )
    assert inline == []
