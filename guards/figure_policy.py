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
`labscribe.tools.sandbox.figure_sandbox` holds on its own even when this check is switched off.

This module walks the tree; what is allowed or refused is in figure_policy_tables.py, the
rules on single values in figure_policy_literals.py, and the problems' words in messages.py.
"""

from __future__ import annotations

import ast

from labscribe.guards.figure_policy_literals import (
    escaping_path,
    format_reach,
    is_dunder,
    is_str,
    literal_choice,
    module_allowed,
    plain_filename,
    refusal_reason,
    string_problem,
)
from labscribe.guards.figure_policy_tables import (
    ALLOWED_MODULES,
    BANNED_BUILTINS,
    DANGEROUS_MODULES,
    FILE_CALLS,
    GUARDED_CALLS,
    INTROSPECTION_NAMES,
    LOADERS,
    REFUSED_NAMES,
    SAVE_CALLS,
)
from labscribe.guards.messages import (
    FIGURE_ALLOW_PICKLE,
    FIGURE_ARGUMENT_REFUSED,
    FIGURE_ATTRIBUTE_REFUSED,
    FIGURE_ATTRIBUTE_REFUSED_BECAUSE,
    FIGURE_CALL_ONLY,
    FIGURE_COMPUTED_SAVE_PATH,
    FIGURE_DUNDER_ATTRIBUTE,
    FIGURE_DUNDER_DEFINITION,
    FIGURE_DUNDER_NAME,
    FIGURE_FORMAT_REACH,
    FIGURE_IMPORT_REFUSED,
    FIGURE_INTROSPECTION_ATTRIBUTE,
    FIGURE_INTROSPECTION_NAME,
    FIGURE_LITERAL_CHOICE,
    FIGURE_LITERAL_OPTIONS,
    FIGURE_LOADER_POSITIONAL,
    FIGURE_MODULE_ATTRIBUTE,
    FIGURE_NAME_REFUSED,
    FIGURE_NAME_REFUSED_BECAUSE,
    FIGURE_PATH_OUTSIDE,
    FIGURE_PICKLE_ARGUMENT,
    FIGURE_PRIVATE_ATTRIBUTE,
    FIGURE_PROBLEM_AT,
    FIGURE_RELATIVE_IMPORT,
    FIGURE_SAVE_PATH_NOT_PLAIN,
    FIGURE_STAR_IMPORT,
    FIGURE_SYNTAX_ERROR,
    FIGURE_TOO_NESTED,
    FIGURE_UNPACKED_ARGUMENTS,
    FIGURE_UNPARSABLE,
)

_ALLOWED_LIST = ", ".join(ALLOWED_MODULES)


def check_figure_code(code: str) -> list[str]:
    """The problems that stop `code` from running, each as `line N: ...`; empty when allowed.

    Promises: never raises (a syntax error is returned as one problem); imports nothing the
    code names; reports every violation found, in source order, without duplicates.
    """
    try:
        tree = ast.parse(code, filename="figure.py", mode="exec")
    except SyntaxError as exc:
        problem = FIGURE_SYNTAX_ERROR.format(message=exc.msg)
        return [
            FIGURE_PROBLEM_AT.format(line=exc.lineno, problem=problem) if exc.lineno else problem
        ]
    except (ValueError, MemoryError, RecursionError) as exc:
        # ValueError: NUL bytes in the source; the others: absurdly nested code.
        return [FIGURE_UNPARSABLE.format(kind=type(exc).__name__)]
    checker = _Checker()
    try:
        checker.visit(tree)
    except RecursionError:
        return [FIGURE_TOO_NESTED]
    seen: set[str] = set()
    ordered: list[str] = []
    for _, problem in sorted(checker.problems, key=lambda item: item[0]):
        if problem not in seen:
            seen.add(problem)
            ordered.append(problem)
    return ordered


class _Checker(ast.NodeVisitor):
    """Collects `(line, problem)` pairs; one visit over the whole tree."""

    def __init__(self) -> None:
        self.problems: list[tuple[int, str]] = []
        # The `func` nodes of calls already checked: a guarded name is fine only there.
        self._called: set[int] = set()

    def add(self, node: ast.AST, problem: str) -> None:
        line = getattr(node, "lineno", 0)
        self.problems.append((line, FIGURE_PROBLEM_AT.format(line=line, problem=problem)))

    # imports -------------------------------------------------------------------------------

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not module_allowed(alias.name):
                self._refuse_import(node, alias.name)
            self._check_binding(node, alias.asname)
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            self.add(node, FIGURE_RELATIVE_IMPORT.format(allowed=_ALLOWED_LIST))
        elif not module_allowed(module):
            self._refuse_import(node, module)
        else:
            for alias in node.names:
                self._check_from_name(node, module, alias)
        self.generic_visit(node)

    def _refuse_import(self, node: ast.AST, module: str) -> None:
        self.add(node, FIGURE_IMPORT_REFUSED.format(module=module, allowed=_ALLOWED_LIST))

    def _check_from_name(self, node: ast.ImportFrom, module: str, alias: ast.alias) -> None:
        name = alias.name
        dotted = f"{module}.{name}"
        if name == "*":
            self.add(node, FIGURE_STAR_IMPORT.format(module=module))
        elif name in DANGEROUS_MODULES or (name.startswith("_") and not module_allowed(dotted)):
            self._refuse_import(node, dotted)
        elif name in BANNED_BUILTINS or name in INTROSPECTION_NAMES:
            self.add(node, FIGURE_NAME_REFUSED.format(name=name))
        elif reason := refusal_reason(name):
            self.add(node, FIGURE_NAME_REFUSED_BECAUSE.format(name=dotted, reason=reason))
        self._check_binding(node, alias.asname)

    def _check_binding(self, node: ast.AST, asname: str | None) -> None:
        if asname is not None and is_dunder(asname):
            self.add(node, FIGURE_DUNDER_NAME.format(name=asname))

    # names and attributes --------------------------------------------------------------------

    def visit_Name(self, node: ast.Name) -> None:
        name = node.id
        if name in BANNED_BUILTINS:
            self.add(node, FIGURE_NAME_REFUSED.format(name=name))
        elif is_dunder(name) and name != "__name__":
            # `__name__` only names the script ("__main__"); every other dunder name
            # (`__builtins__`, `__loader__`, `__spec__`...) leads to the import machinery.
            self.add(node, FIGURE_DUNDER_NAME.format(name=name))
        elif name in INTROSPECTION_NAMES:
            self.add(node, FIGURE_INTROSPECTION_NAME.format(name=name))
        # A bare name reaches a refused entry point only once imported, which is checked.
        self._check_guarded_reference(node, name)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._check_attribute(node, node.attr)
        self._check_guarded_reference(node, node.attr)
        self.generic_visit(node)

    def _check_guarded_reference(self, node: ast.expr, name: str) -> None:
        if name in GUARDED_CALLS and id(node) not in self._called:
            self.add(node, FIGURE_CALL_ONLY.format(name=name))

    def _check_attribute(self, node: ast.AST, attr: str) -> None:
        if reason := refusal_reason(attr):
            self.add(node, FIGURE_ATTRIBUTE_REFUSED_BECAUSE.format(attr=attr, reason=reason))
        elif attr in BANNED_BUILTINS:
            # The same builtins reached as attributes (`enum.bltns.getattr`, `gzip.open`).
            self.add(node, FIGURE_ATTRIBUTE_REFUSED.format(attr=attr))
        elif is_dunder(attr):
            self.add(node, FIGURE_DUNDER_ATTRIBUTE.format(attr=attr))
        elif attr in INTROSPECTION_NAMES:
            self.add(node, FIGURE_INTROSPECTION_ATTRIBUTE.format(attr=attr))
        elif attr in DANGEROUS_MODULES:
            self.add(node, FIGURE_MODULE_ATTRIBUTE.format(attr=attr))
        elif attr.startswith("_"):
            self.add(node, FIGURE_PRIVATE_ATTRIBUTE.format(attr=attr))

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
        if is_dunder(name):
            self.add(node, FIGURE_DUNDER_DEFINITION.format(name=name))

    # strings and calls -----------------------------------------------------------------------

    def visit_Constant(self, node: ast.Constant) -> None:
        if not isinstance(node.value, str):
            return
        text = node.value
        reached = format_reach(text)
        if reached is not None:
            self.add(node, FIGURE_FORMAT_REACH.format(attr=reached))
        problem = string_problem(text)
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
                self.add(node, FIGURE_ALLOW_PICKLE)
        elif name is not None and "pickle" in name.lower():
            self.add(node, FIGURE_PICKLE_ARGUMENT.format(name=name))
        elif name in {"backend", "usetex"}:
            self.add(node, FIGURE_ARGUMENT_REFUSED.format(name=name, reason=REFUSED_NAMES[name]))

    def _check_guarded_call(self, node: ast.Call, called: str) -> None:
        if any(keyword.arg is None for keyword in node.keywords):
            self.add(node, FIGURE_UNPACKED_ARGUMENTS.format(call=called))
        if called in LOADERS:
            if len(node.args) > 1 or any(isinstance(a, ast.Starred) for a in node.args):
                self.add(node, FIGURE_LOADER_POSITIONAL.format(call=called))
        elif called in {"use", "switch_backend"}:
            if not node.args or not literal_choice(node.args[0]):
                self.add(node, FIGURE_LITERAL_CHOICE.format(call=called))
        elif not all(is_str(a) for a in node.args[::2]):
            self.add(node, FIGURE_LITERAL_OPTIONS.format(call=called))

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
            self.add(node, FIGURE_COMPUTED_SAVE_PATH.format(call=called))
        elif not plain_filename(target.value):
            self.add(node, FIGURE_SAVE_PATH_NOT_PLAIN.format(call=called, path=target.value))

    def _check_file_call(self, node: ast.Call, called: str) -> None:
        target = self._path_argument(node)
        if (
            isinstance(target, ast.Constant)
            and isinstance(target.value, str)
            and escaping_path(target.value)
        ):
            self.add(node, FIGURE_PATH_OUTSIDE.format(call=called, path=target.value))
