"""The explorer's guard state (counters, the halt history and the read cache, as plain
data), and call identity by meaning, the keys it counts by.

It lives in the graph state as a dict (checkpointed, visible in Studio); nodes load it
with `GuardState.load`, hand it to the guards' one entry (guards/guard.py, which alone
changes it), and store `dump()` back. Everything but the tallies, the halt history and the
cache belongs to one attempt: a human's nudge on resume starts a new one
(`restart_attempt`).

Call identity by meaning: when two tool calls ask for the same thing. A tool declares how
its arguments are meant (`Meaning`): which name a path in the data folder, which hold code,
which only describe the call (a caption, a file name for the result), and which select a
window of a longer answer. Two calls are the same call when their validated arguments agree
once paths are resolved as the path guard resolves them, code is compared without comments
or layout, descriptive arguments are dropped, and, for a read, the window is the one the
read actually returned. An identity is then written down (`fingerprint`: the tool's name and
its arguments as canonical JSON) and hashed to the short keys the guards count by
(`call_key`), whatever the size of the arguments.

Part of the state is what the explorer was shown, which decides progress: whether an answer
showed the explorer anything it had not seen in this attempt. A collapsing model rarely
repeats one call to the letter. It asks for the file it has under another spelling, grows a
`limit` the character cap ignores, shifts a window by a line, polls a file rewritten with
the same bytes, or redraws a figure under a new name. Each such call looks new; its answer
is not. So every answer is summarised as what it shows (`Shown`), and `Seen` remembers those
summaries for the attempt: an answer whose content was seen before, or a window of a file
whose lines were mostly shown already, adds nothing. A failed call shows its error's kind
(`failed`): a failure like one already met teaches nothing, so failures that take turns (a
bad call, a path outside the folder, a guessed name, again and again) add nothing either,
whatever their kinds, while debugging whose errors change does.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import io
import json
import tokenize
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from labscribe.guards.paths import canonical_path


class ProgressPolicy(BaseModel):
    """What counts as progress, and how progress tempers the counting of identical calls."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # A quarter: paging and reads of new places show at least that much new text; a window
    # shifted by a line or two, or the head of a file read again, shows almost none.
    min_new_share: float = Field(
        default=0.25,
        gt=0,
        le=1,
        description="Share of a window's lines that must be new for a read to be progress.",
    )
    # Two: an identical call after two productive calls is a look back at something the
    # model needs again, answered from the cache; a re-read after every single productive
    # step is a model that cannot move on, and climbs the ladder.
    reread_spacing: int | None = Field(
        default=2,
        ge=1,
        description="Productive calls between two identical calls that make the second an "
        "occasional re-read, whose count starts again; None: identical calls always climb.",
    )


@dataclass(frozen=True)
class Shown:
    """What one answer showed the explorer."""

    target: str
    """What it is about: a tool and its canonical request, without the window."""
    digest: str
    """Digest of exactly what was shown."""
    lines: tuple[int, int] | None = None
    """For a window of a file: the first and last line shown, 1-based."""
    version: str | None = None
    """The file's version when the window was read: line numbers compare within one."""


@dataclass(kw_only=True)
class Seen:
    """What the explorer was shown in this attempt, as small plain data."""

    answers: dict[str, int] = field(default_factory=dict)
    """Digest of each (target, content) pair shown, to how many times it was shown."""
    lines: dict[str, list[list[int]]] = field(default_factory=dict)
    """Per target and version, the line ranges shown, merged, sorted."""

    @classmethod
    def load(cls, data: dict[str, Any] | None) -> Seen:
        return cls(**(data or {}))

    def dump(self) -> dict[str, Any]:
        return asdict(self)

    def take(self, shown: Shown) -> float:
        """Remember `shown`; the share of it the explorer had not seen: 0.0 to 1.0."""
        answer = _answer_key(shown)
        before = self.answers.get(answer, 0)
        self.answers[answer] = before + 1
        if shown.lines is None:
            return 0.0 if before else 1.0
        spans = self.lines.setdefault(_lines_key(shown), [])
        first, last = shown.lines
        covered = sum(max(0, min(last, end) - max(first, start) + 1) for start, end in spans)
        spans[:] = _merged([*spans, [first, last]])
        return 0.0 if before else 1.0 - covered / (last - first + 1)


def failed(kind: str) -> Shown:
    """What a failed call showed: the kind of its error (`failures.failure_kind`)."""
    return Shown(FAILED, digest(kind))


FAILED = "!failed"
"""The target every failure is shown under; no call's target starts with `!`."""


def _answer_key(shown: Shown) -> str:
    return digest(f"{shown.target}\n{shown.digest}")


def _lines_key(shown: Shown) -> str:
    return digest(f"{shown.target}\n{shown.version}")


def _merged(spans: list[list[int]]) -> list[list[int]]:
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


@dataclass(kw_only=True)
class GuardState:
    counts: dict[str, list[int]] = field(default_factory=dict)
    """Per call key: [identical calls so far, productive calls when it was last made]."""
    recent: list[str] = field(default_factory=list)
    """Call keys of the latest counted calls, oldest first: what the cycle check reads."""
    seen: Seen = field(default_factory=Seen)
    """What the explorer was shown in this attempt."""
    productive: int = 0
    """Calls in this attempt that showed something new."""
    idle: int = 0
    """Counted calls in a row that showed nothing new."""
    nudged: bool = False
    """Whether the closing nudge was given in this attempt: once, since it costs context."""
    failure_streak: int = 0
    """Failures of one kind in a row."""
    failure_kind: str | None = None
    """The kind the streak counts (`failures.failure_kind`)."""
    empty_replies: int = 0
    """Replies in a row with neither text nor a tool call."""
    warned: int = 0
    blocked: int = 0
    halts: list[dict[str, Any]] = field(default_factory=list)
    """Every halt the guards called in this thread, in the one shape every halt has. The halt
    in force is the thread's (`halted` in the graph state, nodes/halts.py)."""
    cache: dict[str, str] = field(default_factory=dict)
    """Cache key of a successful read-only call to the id of the tool message holding it."""

    @classmethod
    def load(cls, data: dict[str, Any] | None) -> GuardState:
        """A copy of the dict in the graph state (what the guards change is theirs), including
        a thread checkpointed by an older labscribe: fields it lacks start fresh, fields it had
        that are gone are dropped."""
        known = {f.name for f in fields(cls)}
        values = {key: copy.deepcopy(value) for key, value in (data or {}).items() if key in known}
        values["seen"] = Seen.load(values.get("seen"))
        values["counts"] = {
            key: count if isinstance(count, list) else [count, 0]
            for key, count in (values.get("counts") or {}).items()
        }
        return cls(**values)

    def dump(self) -> dict[str, Any]:
        return asdict(self)

    def restart_attempt(self) -> None:
        """A human nudged the thread: a new attempt, from the ladder's first rung, warning
        included. The tallies, the halt history and the read cache stay."""
        fresh = GuardState(warned=self.warned, blocked=self.blocked, halts=self.halts)
        fresh.cache = self.cache
        self.__dict__.update(fresh.__dict__)


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
