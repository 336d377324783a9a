"""The figure policy's tables: which modules, names, calls and settings figure code may use.

Kept apart from the tree walk (figure_policy.py) because they are what a reviewer audits
and what a new escape adds to: each table says which names it holds and why they are
allowed or refused, with no checking code between them. The reasons the model reads are in
guards/messages.py.
"""

from __future__ import annotations

from labscribe.guards.messages import (
    FIGURE_WHY_ANIMATION,
    FIGURE_WHY_BACKEND,
    FIGURE_WHY_BYTECODE,
    FIGURE_WHY_CLIPBOARD,
    FIGURE_WHY_COLUMNAR,
    FIGURE_WHY_DATABASE,
    FIGURE_WHY_EVAL,
    FIGURE_WHY_HDF5,
    FIGURE_WHY_INTERNALS,
    FIGURE_WHY_PROCESSES,
    FIGURE_WHY_RC_FILE,
    FIGURE_WHY_TEMPLATES,
    FIGURE_WHY_TESTS,
    FIGURE_WHY_USETEX,
)

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

REFUSED_NAMES: dict[str, str] = {
    name: reason
    for names, reason in (
        (("eval", "query", "exec"), FIGURE_WHY_EVAL),
        (("read_hdf", "to_hdf", "HDFStore"), FIGURE_WHY_HDF5),
        (
            ("read_parquet", "to_parquet", "read_feather", "to_feather", "read_orc", "to_orc",
             "read_iceberg", "to_iceberg"),
            FIGURE_WHY_COLUMNAR,
        ),
        (
            ("read_sql", "read_sql_query", "read_sql_table", "to_sql", "read_gbq", "to_gbq"),
            FIGURE_WHY_DATABASE,
        ),
        (("read_clipboard", "to_clipboard"), FIGURE_WHY_CLIPBOARD),
        (("test", "testing", "rundocs"), FIGURE_WHY_TESTS),
        (("core", "compat"), FIGURE_WHY_INTERNALS),
        (
            ("backend", "backend_registry", "load_backend_module", "register_backend"),
            FIGURE_WHY_BACKEND,
        ),
        (("rc_file", "rc_params_from_file"), FIGURE_WHY_RC_FILE),
        (("animation",), FIGURE_WHY_ANIMATION),
        (("usetex",), FIGURE_WHY_USETEX),
        (
            ("env", "loader", "from_string", "from_custom_template", "template_html",
             "template_html_table", "template_html_style", "template_latex",
             "template_string"),
            FIGURE_WHY_TEMPLATES,
        ),
        (
            ("system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp", "spawnv",
             "spawnl", "execv", "execve", "execl", "execvp", "startfile", "import_module",
             "import_optional_dependency", "find_spec", "run_path", "run_module"),
            FIGURE_WHY_PROCESSES,
        ),
        (("CodeType", "FunctionType", "LambdaType"), FIGURE_WHY_BYTECODE),
    )
    for name in names
}  # fmt: skip
"""Attributes and imported names refused wherever they appear, each with the reason the
model reads: entry points of the allowed libraries that run code handed to them. Any name
containing 'pickle' is refused too (`refusal_reason`)."""

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

LOADERS: frozenset[str] = frozenset({"load", "read_array", "NpzFile"})
"""The guarded numpy loaders: the file is their only positional argument."""
MODULE_BACKEND = "module://"
"""How a matplotlib backend names a module to import."""
