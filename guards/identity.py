"""Call identity by meaning: when two tool calls ask for the same thing.

A tool declares how its arguments are meant (`Meaning`): which name a path in the data
folder, which hold code, which only describe the call (a caption, a file name for the
result), and which select a window of a longer answer. Two calls are the same call when
their validated arguments agree once paths are resolved as the path guard resolves them,
code is compared without comments or layout, descriptive arguments are dropped, and, for a
read, the window is the one the read actually returned. An identity is then written down
(`fingerprint`: the tool's name and its arguments as canonical JSON) and hashed to the
short keys the guards count by (`call_key`), whatever the size of the arguments.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import tokenize
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labscribe.guards.paths import canonical_path


@dataclass(frozen=True)
class Meaning:
    """How a tool's arguments are compared. Declared on the tool, next to its schema."""

    paths: tuple[str, ...] = ()
    """Arguments naming a file or folder in the data folder."""
    code: tuple[str, ...] = ()
    """Arguments holding Python source."""
    ignored: tuple[str, ...] = ()
    """Arguments that describe a call without changing what it shows or does."""
    window: tuple[str, ...] = ()
    """Arguments that select the part of the answer shown: a read is counted by the part it
    returned instead."""


def identify(
    meaning: Meaning, root: Path, args: Mapping[str, Any], resolved: Mapping[str, str] = {}
) -> dict[str, Any]:
    """The meaning of validated `args`: paths canonical, code normalised, descriptions gone.
    `resolved` holds the real path of each path argument the path guard resolved already.

    The window arguments stay as asked; once the answer is known, the window it returned
    takes their place (`answer_key`).
    """
    meant: dict[str, Any] = {}
    for name, value in args.items():
        if name in meaning.ignored:
            continue
        if name in meaning.paths:
            value = canonical_path(root, value, real=resolved.get(name))
        elif name in meaning.code and isinstance(value, str):
            value = normalise_code(value)
        meant[name] = value
    return meant


def answer_key(tool: str, target: str, lines: tuple[int, int] | None, shown: str) -> str:
    """The key a read-only call is counted by: what it asked for without its window
    (`target`, a `call_key` of `without_window`), the window it returned, and a digest of
    what it showed. A read whose `limit` grows while the character cap returns the same
    lines is the same read; a poll whose answer changed is a new one."""
    return call_key(tool, target, f"lines {lines}", shown)


def without_window(meaning: Meaning, identity: Any) -> Any:
    """What a call is about, whichever part of it it shows: `identity` without its window."""
    if not isinstance(identity, Mapping):
        return identity
    return {name: value for name, value in identity.items() if name not in meaning.window}


def normalise_code(source: str) -> str:
    """`source` without comments, blank lines or layout: what the interpreter would run.

    Code that does not parse is compared token by token without comments, or, when it does
    not even tokenize, with runs of whitespace collapsed.
    """
    try:
        return ast.unparse(_without_dead_constants(ast.parse(source)))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    kept: list[str] = []
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type not in skip and token.string:
                kept.append(token.string)
    except tokenize.TokenError:
        pass  # an unclosed bracket or string at the end: every token came before it
    except SyntaxError:  # an inconsistent dedent stops tokenizing midway
        return " ".join(source.split())
    return " ".join(kept)


def _without_dead_constants(tree: ast.Module) -> ast.Module:
    """`tree` without the statements that change nothing it runs: a bare constant (a
    docstring, a stray `"note"`) and a constant bound to a name nothing reads
    (`UNUSED = 3`). Code that differs from other code only by these draws the same figure."""
    read = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
            and not isinstance(node.ctx, ast.Store)}  # fmt: skip

    def dead(statement: ast.stmt) -> bool:
        if isinstance(statement, ast.Expr):
            return isinstance(statement.value, ast.Constant)
        if isinstance(statement, ast.Assign | ast.AnnAssign) and isinstance(
            statement.value, ast.Constant
        ):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            return all(isinstance(t, ast.Name) and t.id not in read for t in targets)
        return False

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and all(isinstance(s, ast.stmt) for s in body):
            kept = [statement for statement in body if not dead(statement)]
            node.body = kept or [ast.Pass()]  # type: ignore[attr-defined]
    return tree


def fingerprint(name: str, args: Any) -> str:
    """`name|canonical JSON of all arguments`, keys sorted at every depth.

    Every argument counts, so `read_file` at offset 0 and at offset 100 are different
    calls and legitimate paging is never punished. Key order never matters. It never
    raises: arguments JSON cannot encode fall back to their `repr`.
    """
    try:
        canonical = json.dumps(args, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        canonical = _safe_repr(args)
    return f"{name}|{canonical}"


def call_key(name: str, identity: Any, *qualifiers: str) -> str:
    """`name|digest` of the call's identity and `qualifiers` (what it returned, a version).

    Fixed-size whatever the arguments (figure code can run to kilobytes), so counting,
    caching and the checkpointed guard state stay small.
    """
    text = "\n".join([fingerprint(name, identity), *qualifiers])
    return f"{name}|{digest(text)}"


def digest(text: str) -> str:
    """A short stable digest of `text`: 96 bits, far from colliding in one run."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def tool_of(key: str) -> str:
    """The tool name a call key starts with."""
    return key.split("|", 1)[0]


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception:  # a broken __repr__ must not take the loop down with it
        return f"<unrepresentable {type(value).__name__}>"
