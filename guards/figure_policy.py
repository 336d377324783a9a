"""Static policy for model-written figure code: the first of two layers around `make_figure`.

`check_figure_code(code)` reads the code's syntax tree (stdlib `ast` only; nothing is imported
or run) and returns the problems a model can read and fix; an empty list means the code may
run. It never raises: a syntax error is a problem like any other.

Besides imports and introspection it refuses the entry points of the allowed libraries that
run code they are handed: pickle loaders (`pd.read_pickle`, `np.load(allow_pickle=True)`,
HDF5 and the columnar engines), string evaluators (`pd.eval`, `DataFrame.query`, and the
string forms `df.agg('eval', ...)`), Jinja2 templates (pandas Styler), test runners,
backends chosen by module name (`module://...`, `backend_registry`), and the features that
start processes (clipboard, animation writers, `text.usetex`).

This layer is a fast, readable filter, not the security boundary. Python has too many ways
to reach an object's internals for any AST check to be complete (a method name computed at
run time still reaches what a literal one would), so the OS sandbox in
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
        # Found by walking the attributes the allowed libraries expose: `enum.bltns` is the
        # builtins module, `operator.attrgetter` a getattr, `traceback.walk_stack` yields
        # frames, `linecache.getlines` reads any file (`types` is refused by member: the
        # name is also pandas' `pd.api.types`).
        "bltns",
        "operator",
        "traceback",
        "linecache",
        "copyreg",
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

_CSV_HINT = "read CSV or JSON files from data/ instead"
REFUSED_NAMES: dict[str, str] = {
    name: reason
    for names, reason in (
        (
            ("eval", "query", "exec"),
            "it evaluates a string as code and reaches dunders through it; filter with "
            "boolean masks such as df[df['x'] > 0]",
        ),
        (
            ("read_hdf", "to_hdf", "HDFStore"),
            f"HDF5 through PyTables unpickles objects; {_CSV_HINT}",
        ),
        (
            ("read_parquet", "to_parquet", "read_feather", "to_feather", "read_orc", "to_orc",
             "read_iceberg", "to_iceberg"),
            "it hands the file to optional engines (pyarrow, fastparquet, pyiceberg) that can "
            f"unpickle data or connect out; {_CSV_HINT}",
        ),
        (
            ("read_sql", "read_sql_query", "read_sql_table", "to_sql", "read_gbq", "to_gbq"),
            f"it connects to a database; {_CSV_HINT}",
        ),
        (("read_clipboard", "to_clipboard"), f"it runs clipboard programs; {_CSV_HINT}"),
        (("test", "testing", "rundocs"), "it runs test suites, which import and run other files"),
        (("core", "compat"), "it reaches the library's internals; use its public functions"),
        (
            ("backend", "backend_registry", "load_backend_module", "register_backend"),
            "it chooses a backend, which imports a module by name; figures render with Agg "
            "already",
        ),
        (
            ("rc_file", "rc_params_from_file"),
            "an rc file can name a backend module or programs to start; set plt.rcParams "
            "keys in the code",
        ),
        (
            ("animation",),
            "animations are written by ffmpeg or ImageMagick processes, which the sandbox "
            "cannot start; draw one still figure",
        ),
        (
            ("usetex",),
            "TeX and Ghostscript run as processes, which the sandbox cannot start; use "
            "mathtext such as '$\\alpha$'",
        ),
        (
            ("env", "loader", "from_string", "from_custom_template", "template_html",
             "template_html_table", "template_html_style", "template_latex",
             "template_string"),
            "pandas Styler templates are Jinja2 code; format the values in Python",
        ),
        (
            ("system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp", "spawnv",
             "spawnl", "execv", "execve", "execl", "execvp", "startfile", "import_module",
             "import_optional_dependency", "find_spec", "run_path", "run_module"),
            "it starts a process or imports a module by name",
        ),
        (
            ("CodeType", "FunctionType", "LambdaType"),
            "it builds functions from bytecode; define functions with def",
        ),
    )
    for name in names
}  # fmt: skip
"""Attributes and imported names refused wherever they appear, each with the reason the
model reads: entry points of the allowed libraries that run code handed to them."""

PICKLE_HINT = "pickle runs code from the file it loads; read CSV, JSON or .npy files"
"""Any identifier containing 'pickle' is refused (read_pickle, to_pickle, pickle_compat)."""

STRING_DISPATCHED: frozenset[str] = frozenset({"eval", "query", "exec"})
"""Refused even as a plain string: pandas calls a method named by a string
(`df.agg('eval', expr=...)`)."""

PROGRAM_SETTINGS: dict[str, str] = {
    key: REFUSED_NAMES[kind]
    for kind, keys in (
        ("backend", ("backend", "plotting.backend")),
        ("usetex", ("text.usetex", "pgf.texsystem", "ps.usedistiller")),
        ("animation", ("animation.writer", "animation.ffmpeg_path", "animation.convert_path")),
    )
    for key in keys
}
"""Settings (matplotlib rcParams, pandas options) naming a module to import or a program
to start, refused as string literals with the reason."""

GUARDED_CALLS: frozenset[str] = frozenset(
    {"load", "read_array", "NpzFile", "use", "switch_backend", "set_option", "option_context"}
)
"""Callables allowed only as a direct call whose risky arguments are literals: the numpy
loaders (allow_pickle), backend and style choice (module://), option names. Any other
reference (`f = np.load`, `map(np.load, ...)`) would pass arguments unseen."""

_LOADERS = frozenset({"load", "read_array", "NpzFile"})
_MODULE_BACKEND = "module://"
_DUNDER = re.compile(r"__\w+__")

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
        # The `func` nodes of calls already checked: a guarded name is fine only there.
        self._called: set[int] = set()

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
        elif _refused(name):
            self.add(node, f"'{dotted}' is not allowed: {_refused(name)}")
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
        # A bare name reaches a refused entry point only once imported, which is checked.
        self._check_guarded_reference(node, name)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._check_attribute(node, node.attr)
        self._check_guarded_reference(node, node.attr)
        self.generic_visit(node)

    def _check_guarded_reference(self, node: ast.expr, name: str) -> None:
        if name in GUARDED_CALLS and id(node) not in self._called:
            self.add(node, f"'{name}' may only be called directly, as in {name}(...)")

    def _check_attribute(self, node: ast.AST, attr: str) -> None:
        if _refused(attr):
            self.add(node, f"'.{attr}' is not allowed: {_refused(attr)}")
        elif attr in BANNED_BUILTINS:
            # The same builtins reached as attributes (`enum.bltns.getattr`, `gzip.open`).
            self.add(node, f"access to '.{attr}' is not allowed")
        elif _is_dunder(attr):
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
        if not isinstance(node.value, str):
            return
        text = node.value
        reached = _format_reach(text)
        if reached is not None:
            self.add(node, f"format string reaches attribute '{reached}'; format plain values only")
        problem = _string_problem(text)
        if problem is not None:
            self.add(node, problem)

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
        if called in GUARDED_CALLS:
            self._called.add(id(func))
            self._check_guarded_call(node, called)
        for keyword in node.keywords:
            self._check_keyword(node, keyword)
        self.generic_visit(node)

    def _check_keyword(self, node: ast.Call, keyword: ast.keyword) -> None:
        name = keyword.arg
        if name == "allow_pickle":
            if not (isinstance(keyword.value, ast.Constant) and keyword.value.value is False):
                self.add(node, f"allow_pickle must be False: {PICKLE_HINT}")
        elif name is not None and "pickle" in name.lower():
            self.add(node, f"the argument '{name}' is not allowed: {PICKLE_HINT}")
        elif name in {"backend", "usetex"}:
            self.add(node, f"the argument '{name}=' is not allowed: {REFUSED_NAMES[name]}")

    def _check_guarded_call(self, node: ast.Call, called: str) -> None:
        if any(keyword.arg is None for keyword in node.keywords):
            self.add(node, f"{called}() may not take **arguments; name each argument")
        if called in _LOADERS:
            if len(node.args) > 1 or any(isinstance(a, ast.Starred) for a in node.args):
                self.add(
                    node,
                    f"{called}() takes the file as its only positional argument; pass the "
                    "others by name (mmap_mode=...)",
                )
        elif called in {"use", "switch_backend"}:
            if not node.args or not _literal_choice(node.args[0]):
                self.add(
                    node,
                    f"{called}() needs a literal style or backend name such as 'ggplot'",
                )
        elif not all(_is_str(a) for a in node.args[::2]):
            self.add(node, f"{called}() needs literal option names such as 'display.precision'")

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


def _refused(name: str) -> str | None:
    """Why the attribute or imported name `name` is refused, else None."""
    if "pickle" in name.lower():
        return PICKLE_HINT
    return REFUSED_NAMES.get(name)


def _is_str(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _literal_choice(node: ast.expr) -> bool:
    """A style or backend given as literals: a name, a list of names, or a style dict."""
    if isinstance(node, ast.List | ast.Tuple):
        return all(_is_str(item) for item in node.elts)
    if isinstance(node, ast.Dict):
        return all(key is not None and _is_str(key) for key in node.keys)
    return _is_str(node)


def _string_problem(text: str) -> str | None:
    """Why the string literal `text` is refused: it names a module, program or method."""
    if text.startswith(_MODULE_BACKEND):
        return f"the string '{text}' is not allowed: {REFUSED_NAMES['backend']}"
    if text in PROGRAM_SETTINGS:
        return f"the setting '{text}' is not allowed: {PROGRAM_SETTINGS[text]}"
    if text in STRING_DISPATCHED:
        return (
            f"the string '{text}' is not allowed: pandas calls the method it names, and "
            f"{REFUSED_NAMES[text]}"
        )
    dunder = _DUNDER.search(text)
    if dunder is not None and dunder.group() != "__main__":
        return (
            f"the string reaches '{dunder.group()}' (dunder names are refused, in strings "
            "too: pandas evaluates some strings as expressions)"
        )
    return None
