"""Static policy for model-written figure code: the first of two layers around `make_figure`.

`check_figure_code(code)` reads the code's syntax tree (stdlib `ast` only; nothing is imported
or run) and returns the problems a model can read and fix; an empty list means the code may
run. It never raises: a syntax error is a problem like any other.

This layer is a fast, readable filter, not the security boundary. Python has too many ways
to reach an object's internals for any AST check to be complete, so the OS sandbox in
`labscribe.tools.sandbox` holds on its own even when this check is switched off.
"""

from __future__ import annotations

import ast
import re
import string

ALLOWED_MODULES: tuple[str, ...] = (
    "numpy",
    "pandas",
    "matplotlib",
    "math",
    "statistics",
    "csv",
    "json",
)
"""Top-level modules the code may import (shown to the model in every import problem)."""

ALLOWED_SUBMODULES: frozenset[str] = frozenset(
    {
        "matplotlib.pyplot",
        "matplotlib.ticker",
        "matplotlib.dates",
        "matplotlib.colors",
        "matplotlib.cm",
        "matplotlib.patches",
        "matplotlib.lines",
        "matplotlib.gridspec",
        "matplotlib.markers",
        "numpy.linalg",
        "numpy.random",
        "numpy.fft",
        "numpy.polynomial",
    }
)
"""Submodules of allowed packages that plotting code needs; any other submodule is refused."""

BANNED_BUILTINS: frozenset[str] = frozenset(
    {
        "open",
        "eval",
        "exec",
        "compile",
        "__import__",
        "getattr",
        "setattr",
        "delattr",
        "globals",
        "locals",
        "vars",
        "input",
        "breakpoint",
        "exit",
        "quit",
        "help",
        "memoryview",
    }
)
"""Builtins refused by any reference, not only by call: `f = eval; f(s)` is the same escape."""

INTROSPECTION_NAMES: frozenset[str] = frozenset(
    {
        "gi_frame",
        "gi_code",
        "gi_yieldfrom",
        "cr_frame",
        "cr_code",
        "cr_await",
        "ag_frame",
        "ag_code",
        "ag_await",
        "tb_frame",
        "tb_next",
        "f_globals",
        "f_locals",
        "f_builtins",
        "f_back",
        "f_code",
        "co_code",
        "func_globals",
        "func_code",
        "mro",
    }
)
"""Frame, generator and code-object attributes: each leads back to module globals."""

DANGEROUS_MODULES: frozenset[str] = frozenset(
    {
        "os",
        "sys",
        "subprocess",
        "socket",
        "shutil",
        "ctypes",
        "importlib",
        "builtins",
        "pathlib",
        "io",
        "signal",
        "multiprocessing",
        "threading",
        "urllib",
        "http",
        "requests",
        "pickle",
        "marshal",
        "code",
        "pty",
        "inspect",
        "gc",
        "resource",
        "posix",
        "nt",
        # Not in the list, but module-valued attributes of numpy/matplotlib that
        # load native code, spawn compilers or touch files as freely as the ones above.
        "ctypeslib",
        "f2py",
        "distutils",
        "tempfile",
        "glob",
        "mmap",
        "fcntl",
        "runpy",
        "zipimport",
        "webbrowser",
        "asyncio",
        "select",
        "site",
        "sysconfig",
        "platform",
    }
)
"""Names refused as attributes: `matplotlib.os`, `np.sys`, `pd.io.common.os` reach real modules."""

SAVE_CALLS: frozenset[str] = frozenset({"savefig", "imsave"})
"""Calls whose file argument must be a plain relative file name (the sandbox sets the cwd)."""

FILE_CALLS: frozenset[str] = frozenset(
    {
        "loadtxt",
        "genfromtxt",
        "load",
        "fromfile",
        "save",
        "savez",
        "savez_compressed",
        "savetxt",
        "tofile",
        "read_csv",
        "read_table",
        "read_json",
        "read_excel",
        "to_csv",
        "to_json",
        "to_excel",
        "imread",
    }
)
"""Calls taking a path: a literal absolute or `..` path is refused, since it can only escape."""

_ALLOWED_LIST = ", ".join(ALLOWED_MODULES)
DATA_HINT = "read data files by relative path under 'data/'"


def check_figure_code(code: str) -> list[str]:
    """The problems that stop `code` from running, each as `line N: ...`; empty when allowed.

    Promises: never raises (a syntax error is returned as one problem); imports nothing the
    code names; reports every violation found, in source order, without duplicates.
    """
    try:
        tree = ast.parse(code, filename="figure.py", mode="exec")
    except SyntaxError as exc:
        where = f"line {exc.lineno}: " if exc.lineno else ""
        return [f"{where}syntax error: {exc.msg}; send valid Python 3 code"]
    except (ValueError, MemoryError, RecursionError) as exc:
        # ValueError: NUL bytes in the source; the others: absurdly nested code.
        return [f"the code cannot be parsed ({type(exc).__name__}); send plain Python 3 code"]
    checker = _Checker()
    try:
        checker.visit(tree)
    except RecursionError:
        return ["the code is nested too deeply to check; flatten it"]
    seen: set[str] = set()
    ordered: list[str] = []
    for _, problem in sorted(checker.problems, key=lambda item: item[0]):
        if problem not in seen:
            seen.add(problem)
            ordered.append(problem)
    return ordered


def _module_allowed(module: str) -> bool:
    return module in ALLOWED_MODULES or module in ALLOWED_SUBMODULES


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__") and len(name) > 4


def _plain_filename(path: str) -> bool:
    """A file name the sandbox can keep: no directory part, not absolute, not `.` or `..`."""
    return (
        bool(path)
        and "/" not in path
        and "\\" not in path
        and "\x00" not in path
        and path not in {".", ".."}
        and not path.startswith("~")
    )


def _escaping_path(path: str) -> bool:
    parts = path.replace("\\", "/").split("/")
    return path.startswith(("/", "\\", "~")) or ".." in parts


class _Checker(ast.NodeVisitor):
    """Collects `(line, problem)` pairs; one visit over the whole tree."""

    def __init__(self) -> None:
        self.problems: list[tuple[int, str]] = []

    def add(self, node: ast.AST, message: str) -> None:
        line = getattr(node, "lineno", 0)
        self.problems.append((line, f"line {line}: {message}"))

    # imports -------------------------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not _module_allowed(alias.name):
                self.add(node, f"import of '{alias.name}' is not allowed; allowed: {_ALLOWED_LIST}")
            self._check_binding(node, alias.asname)
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            self.add(node, f"relative import is not allowed; allowed: {_ALLOWED_LIST}")
        elif not _module_allowed(module):
            self.add(node, f"import of '{module}' is not allowed; allowed: {_ALLOWED_LIST}")
        else:
            for alias in node.names:
                self._check_from_name(node, module, alias)
        self.generic_visit(node)

    def _check_from_name(self, node: ast.ImportFrom, module: str, alias: ast.alias) -> None:
        name = alias.name
        dotted = f"{module}.{name}"
        if name == "*":
            self.add(node, f"'from {module} import *' is not allowed; import names explicitly")
        elif name in DANGEROUS_MODULES or (name.startswith("_") and not _module_allowed(dotted)):
            self.add(node, f"import of '{dotted}' is not allowed; allowed: {_ALLOWED_LIST}")
        elif name in BANNED_BUILTINS or name in INTROSPECTION_NAMES:
            self.add(node, f"'{name}' is not allowed")
        self._check_binding(node, alias.asname)

    def _check_binding(self, node: ast.AST, asname: str | None) -> None:
        if asname is not None and _is_dunder(asname):
            self.add(node, f"the name '{asname}' is not allowed (dunder names are refused)")

    # names and attributes --------------------------------------------------------------------

    def visit_Name(self, node: ast.Name) -> None:
        name = node.id
        if name in BANNED_BUILTINS:
            self.add(node, f"'{name}' is not allowed")
        elif _is_dunder(name) and name != "__name__":
            # `__name__` only names the script ("__main__"); every other dunder name
            # (`__builtins__`, `__loader__`, `__spec__`...) leads to the import machinery.
            self.add(node, f"the name '{name}' is not allowed (dunder names are refused)")
        elif name in INTROSPECTION_NAMES:
            self.add(node, f"the name '{name}' is not allowed (introspection is refused)")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._check_attribute(node, node.attr)
        self.generic_visit(node)

    def _check_attribute(self, node: ast.AST, attr: str) -> None:
        if _is_dunder(attr):
            self.add(node, f"access to '{attr}' is not allowed (dunder attributes are refused)")
        elif attr in INTROSPECTION_NAMES:
            self.add(node, f"access to '{attr}' is not allowed (introspection is refused)")
        elif attr in DANGEROUS_MODULES:
            self.add(node, f"access to '.{attr}' is not allowed (it reaches the '{attr}' module)")
        elif attr.startswith("_"):
            self.add(node, f"access to private attribute '{attr}' is not allowed")

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._check_definition(node, node.name)
        self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._check_definition(node, node.name)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._check_definition(node, node.name)
        self.generic_visit(node)

    def _check_definition(self, node: ast.AST, name: str) -> None:
        # A dunder method (`__getattr__`, `__del__`, `__reduce__`) is a hook the runtime calls
        # on the code's behalf; a plotting script has no use for one.
        if _is_dunder(name):
            self.add(node, f"defining '{name}' is not allowed (dunder names are refused)")

    # strings and calls -----------------------------------------------------------------------

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            reached = _format_reach(node.value)
            if reached is not None:
                self.add(
                    node,
                    f"format string reaches attribute '{reached}'; format plain values only",
                )

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        called = (
            func.attr
            if isinstance(func, ast.Attribute)
            else func.id
            if isinstance(func, ast.Name)
            else None
        )
        if called in SAVE_CALLS:
            self._check_save(node, called)
        elif called in FILE_CALLS:
            self._check_file_call(node, called)
        self.generic_visit(node)

    def _path_argument(self, node: ast.Call) -> ast.expr | None:
        if node.args:
            return node.args[0]
        for keyword in node.keywords:
            if keyword.arg in {"fname", "fname_or_fh", "path", "filepath_or_buffer", "file"}:
                return keyword.value
        return None

    def _check_save(self, node: ast.Call, called: str) -> None:
        target = self._path_argument(node)
        if target is None:
            return
        if not (isinstance(target, ast.Constant) and isinstance(target.value, str)):
            self.add(
                node,
                f"{called}() needs a plain file name string such as 'figure.png', "
                "not a computed path",
            )
        elif not _plain_filename(target.value):
            self.add(
                node,
                f"{called}() path '{target.value}' is not a plain file name; "
                "use a name such as 'figure.png' (no folders, no '..', not absolute)",
            )

    def _check_file_call(self, node: ast.Call, called: str) -> None:
        target = self._path_argument(node)
        if (
            isinstance(target, ast.Constant)
            and isinstance(target.value, str)
            and _escaping_path(target.value)
        ):
            self.add(
                node,
                f"{called}() path '{target.value}' is outside the sandbox; {DATA_HINT}",
            )


def _format_reach(text: str) -> str | None:
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
