"""The figure policy's rules on single values: an identifier, a string literal, a path.

Apart from the tree walk (figure_policy.py) because each is a rule that needs no syntax
tree: whether a module may be imported, why a name is refused, what a format string or a
setting reaches, whether a path stays in the sandbox. The walk only finds the values.
"""

from __future__ import annotations

import ast
import re
import string

from labscribe.guards.figure_policy_tables import (
    ALLOWED_MODULES,
    ALLOWED_SUBMODULES,
    DANGEROUS_MODULES,
    INTROSPECTION_NAMES,
    MODULE_BACKEND,
    PROGRAM_SETTINGS,
    REFUSED_NAMES,
    STRING_DISPATCHED,
)
from labscribe.guards.messages import (
    FIGURE_DISPATCHED_STRING,
    FIGURE_DUNDER_STRING,
    FIGURE_SETTING_REFUSED,
    FIGURE_STRING_REFUSED,
    FIGURE_WHY_PICKLE,
)

_DUNDER = re.compile(r"__\w+__")


def module_allowed(module: str) -> bool:
    return module in ALLOWED_MODULES or module in ALLOWED_SUBMODULES


def is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__") and len(name) > 4


def refusal_reason(name: str) -> str | None:
    """Why the attribute or imported name `name` is refused, else None."""
    # Every pickle entry point is refused, named or not yet (read_pickle, pickle_compat).
    if "pickle" in name.lower():
        return FIGURE_WHY_PICKLE
    return REFUSED_NAMES.get(name)


def plain_filename(path: str) -> bool:
    """A file name the sandbox can keep: no directory part, not absolute, not `.` or `..`."""
    return (
        bool(path)
        and "/" not in path
        and "\\" not in path
        and "\x00" not in path
        and path not in {".", ".."}
        and not path.startswith("~")
    )


def escaping_path(path: str) -> bool:
    parts = path.replace("\\", "/").split("/")
    return path.startswith(("/", "\\", "~")) or ".." in parts


def is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def literal_choice(node: ast.expr) -> bool:
    """A style or backend given as literals: a name, a list of names, or a style dict."""
    if isinstance(node, ast.List | ast.Tuple):
        return all(is_str(item) for item in node.elts)
    if isinstance(node, ast.Dict):
        return all(key is not None and is_str(key) for key in node.keys)
    return is_str(node)


def format_reach(text: str) -> str | None:
    """The first refused attribute a `str.format` field in `text` would reach, else None.

    Checked on every string literal, not only on `.format(...)` receivers, because the
    template can be bound to a variable first (`s = '{0.__class__}'; s.format(x)`).
    """
    if "{" not in text:
        return None
    try:
        fields = [field for _, field, _, _ in string.Formatter().parse(text) if field]
    except ValueError:
        return None
    for field in fields:
        for part in _field_parts(field):
            if part.startswith("_") or part in INTROSPECTION_NAMES or part in DANGEROUS_MODULES:
                return part
    return None


def _field_parts(field: str) -> list[str]:
    """`0.a[b].c` as `['a', 'b', 'c']`: the attribute and index names a format field walks."""
    return [part.strip() for part in re.split(r"[.\[\]]", field)[1:] if part.strip()]


def string_problem(text: str) -> str | None:
    """Why the string literal `text` is refused: it names a module, program or method."""
    if text.startswith(MODULE_BACKEND):
        return FIGURE_STRING_REFUSED.format(text=text, reason=REFUSED_NAMES["backend"])
    if text in PROGRAM_SETTINGS:
        return FIGURE_SETTING_REFUSED.format(text=text, reason=PROGRAM_SETTINGS[text])
    if text in STRING_DISPATCHED:
        return FIGURE_DISPATCHED_STRING.format(text=text, reason=REFUSED_NAMES[text])
    dunder = _DUNDER.search(text)
    if dunder is not None and dunder.group() != "__main__":
        return FIGURE_DUNDER_STRING.format(dunder=dunder.group())
    return None
