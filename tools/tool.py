"""One explore tool: the folder it acts on, its spec, the call prepared once (arguments,
paths resolved inside the folder, identity, version), and its run within its time and
memory bounds (tools/worker)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from labscribe.guards.detectors import ToolClass
from labscribe.guards.guard_state import Meaning, identify
from labscribe.guards.paths import is_inside, opened_path, real_path, relative_to, resolve_under
from labscribe.tools.base import Answer, ToolError, open_regular
from labscribe.tools.messages import (
    ARGS_INVALID_ERROR,
    FOLDER_CHANGED_ERROR,
    PATH_OUTSIDE_ERROR,
    TIMEOUT_ERROR,
    TOOL_FAILED,
)
from labscribe.tools.worker import WorkerFailed, answer_in_worker, in_thread


def folder_identity(root: Path | str) -> tuple[int, int]:
    """Which folder `root` names now: its (st_dev, st_ino). OSError if it names none."""
    info = os.stat(root)
    return info.st_dev, info.st_ino


@dataclass(frozen=True)
class Folder:
    """The data folder the explorer may read. Nothing outside `root` is reachable."""

    root: Path
    figures: Path | None = None
    """Where make_figure saves PNGs (OUT/figures); None when figures cannot be kept."""
    vision: Callable[[bytes, str], str] | None = None
    """Reads an image with a vision-capable model; None: read_image runs OCR."""
    analysis: Mapping[str, Any] = field(default_factory=dict)
    """The analysis so far (tools.analysis.folder.Analysis as JSON, with the explorer's fits and
    derived quantities): what `derive` computes with, handed only to a tool that reads it
    (`Tool.reads_analysis`)."""
    identity: tuple[int, int] | None = None
    """The folder's `folder_identity` when the run started; None: as `root` names it now.
    Every access opens the folder and checks it, so a folder moved, replaced or swapped for
    a link to somewhere else after the run started is refused, never read."""
    resolved: Mapping[str, Path] = field(default_factory=dict)
    """Where a prepared call's paths resolved, by how the call spelled them (`Tool.prepare`):
    its version and its run read them without resolving them again. Whatever they open is
    still checked as opened (`open`)."""

    def __post_init__(self) -> None:
        if self.identity is None:
            with contextlib.suppress(OSError):  # a missing folder: every access says so
                object.__setattr__(self, "identity", folder_identity(self.root))

    def resolve(self, requested: str | None) -> Path:
        """The real path of `requested` inside the folder, or a ToolError the model reads."""
        if requested in self.resolved:
            return self.resolved[requested]
        target = resolve_under(self.base(), requested)
        if target is None:
            raise ToolError(PATH_OUTSIDE_ERROR.format(path=requested))
        return target

    def resolving(self, requested: Iterable[Any]) -> Folder:
        """This folder, remembering where each of the paths `requested` resolves inside it."""
        found = {}
        for path in requested:
            if isinstance(path, str):
                with contextlib.suppress(ToolError):  # the call's run says why, as it reads
                    found[path] = self.resolve(path)
        return dataclasses.replace(self, resolved={**self.resolved, **found})

    def relative(self, path: Path) -> str:
        """`path` as the model should name it: relative to the folder, POSIX separators."""
        return relative_to(Path(self.base()), path)

    def base(self) -> str:
        """The folder's real path, once it is checked to be the run's folder."""
        fd = self._opened_root()
        try:
            return self._base_of(fd)
        finally:
            os.close(fd)

    def open(self, path: Path, *, directory: bool = False) -> int:
        """A descriptor for `path` (which the path guard resolved), or a ToolError.

        Opened beneath the folder as opened and checked (`openat`), then checked as opened:
        it must lie inside the folder, so a symlink that a second writer (a sync client, a
        shared drive) swapped in after the path guard's check is refused, not read, and so
        is the folder itself moved or swapped for another.
        """
        root = self._opened_root()
        try:
            base = self._base_of(root)
            inside = is_inside(base, str(path))
            name = relative_to(Path(base), path) if inside else path.name
            beneath = os.path.relpath(path, base) if inside else str(path)
            fd = open_regular(Path(beneath), name, directory=directory, dir_fd=root)
        finally:
            os.close(root)
        try:
            real = opened_path(fd)
            if real is None:  # no /proc: the descriptor must be the file the path names now
                opened, here = os.fstat(fd), os.stat(path)
                same = (here.st_ino, here.st_dev) == (opened.st_ino, opened.st_dev)
                real = str(path) if same else ""
            if not is_inside(base, real):
                raise ToolError(PATH_OUTSIDE_ERROR.format(path=name))
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _base_of(self, root: int) -> str:
        """The real path of the folder open as `root`; without /proc, as `root` names it."""
        return opened_path(root) or real_path(str(self.root))

    def _opened_root(self) -> int:
        """The folder opened (O_PATH) and checked to be the one the run started with."""
        try:
            fd = os.open(self.root, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise ToolError(FOLDER_CHANGED_ERROR.format(root=self.root)) from exc
        info = os.fstat(fd)
        if self.identity is not None and (info.st_dev, info.st_ino) != tuple(self.identity):
            os.close(fd)
            raise ToolError(FOLDER_CHANGED_ERROR.format(root=self.root))
        return fd


def version_in(folder: Folder, rel: str) -> str | None:
    """`file_version` of the file `rel` names in `folder`, or None if none is readable there."""
    try:
        return file_version(folder.resolve(rel))
    except (ToolError, OSError):
        return None


def file_version(path: Path) -> str:
    """Which file `path` is now and which state it is in (`stat_version`); raises OSError
    if it is gone."""
    return stat_version(path.stat())


def path_version(folder: Folder, args: Any) -> str:
    """The version of the file a call names by its `path` argument (`file_version`)."""
    return file_version(folder.resolve(args.path))


def stat_version(info: os.stat_result) -> str:
    """The version of the file `info` describes. The inode is in it: a same-size replacement
    renamed over the file with its mtime preserved (rsync -t, cp -p) is still a different
    file. So is the change time, which moves on every write and cannot be set back: a
    rewrite in place that keeps the size and restores the mtime is still a new version."""
    return f"{info.st_dev}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}"


@dataclass(frozen=True)
class Outcome:
    """A tool's answer: `content` for the model, `ok` False for an error result."""

    content: str
    ok: bool
    args: BaseModel | None = None
    lines: tuple[int, int] | None = None
    """The window of lines shown, for a read of part of a file."""
    compared: int | None = None
    """The leading characters of `content` that say what was shown (`Answer.compared`)."""
    record: dict[str, Any] | None = None
    """What the call adds to the run's state (`Answer.record`)."""
    shows: str | None = None
    """What the answer showed where its text names something else (`Answer.shows`)."""

    @property
    def shown(self) -> str:
        """What the answer showed, as the loop guards compare answers."""
        return self.shows if self.shows is not None else self.content[: self.compared]


@dataclass(frozen=True)
class Versioned:
    """A version read by answering: the answer is the state it versions (a folder's listing),
    so the call's run gives it instead of reading again."""

    version: str
    answer: str | Answer


@dataclass(frozen=True)
class Prepared:
    """A call's arguments validated once, its paths resolved once, and what the loop guards
    read of it; the call runs on the same object (`Tool.run_prepared`)."""

    folder: Folder
    """The folder the call acts on, with the call's paths resolved (`Folder.resolving`)."""
    parsed: BaseModel | None
    """The arguments validated, defaults filled in; None when they are invalid."""
    problem: str | None = None
    """Why they are invalid, as the model reads it."""
    identity: Any = None
    """What the call asks by meaning (`guards.guard_state`); invalid arguments as they came."""
    version: str | None = None
    """The version of what the call reads; None when it reads nothing or cannot run."""
    answer: str | Answer | None = None
    """The answer, where reading the version read it whole (`Versioned`)."""


def _brief(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(map(str, err['loc'])) or 'arguments'}: {err['msg']}" for err in exc.errors()
    )


def _no_version(folder: Folder, args: Any) -> str | None:
    return None


@dataclass(frozen=True)
class Tool:
    """One explore tool: its model-facing name, description and argument schema, its class on
    the loop ladder, how its arguments are meant, and its code.

    `version` says which state of the folder a read-only call's answer depends on: the same
    request with the same version gets the same answer, so it may come from the cache.
    """

    name: str
    description: str
    args_schema: type[BaseModel]
    run: Callable[[Folder, Any], str | Answer]
    tool_class: ToolClass
    meaning: Meaning = field(default_factory=Meaning)
    version: Callable[[Folder, Any], str | Versioned | None] = _no_version
    isolated: bool = False
    """Whether a call with a timeout runs in a bounded worker process (tools.worker), not a
    thread: formula work a big-integer power holds the interpreter in (`9^9^9`), which a
    thread join never stops. Its answer comes back as data."""
    reads_analysis: bool = False
    """Whether the call computes with the analysis so far (`Folder.analysis`): only such a
    call is handed it, since reading it back out of the state costs every call its size."""

    def prepare(self, folder: Folder, args: Any) -> Prepared:
        """Validate `args` once, and read what the loop guards know of the call: what it asks
        (paths resolved, code normalised, descriptions and fields the tool ignores left out:
        models add a `reason`, or spell out a default), and the version of what it reads."""
        validated = self._validated(folder, args)
        if validated.parsed is None:
            return validated
        fields = validated.parsed.model_dump(mode="json")
        folder = folder.resolving(fields.get(name) for name in self.meaning.paths)
        resolved = {name: str(folder.resolved[fields[name]]) for name in self.meaning.paths
                    if fields.get(name) in folder.resolved}  # fmt: skip
        identity = identify(self.meaning, folder.root, fields, resolved)
        try:
            version = self.version(folder, validated.parsed)
        except (ToolError, OSError):
            version = None
        answer = version.answer if isinstance(version, Versioned) else None
        version = version.version if isinstance(version, Versioned) else version
        return dataclasses.replace(validated, folder=folder, identity=identity, version=version,
                                   answer=answer)  # fmt: skip

    def invoke(
        self, folder: Folder, args: dict[str, Any], *, timeout: float | None = None
    ) -> Outcome:
        """Validate `args` and run, within `timeout` seconds when given (`run_prepared`)."""
        return self.run_prepared(self._validated(folder, args), timeout=timeout)

    def _validated(self, folder: Folder, args: Any) -> Prepared:
        try:
            return Prepared(folder, self.args_schema.model_validate(args), identity=args)
        except ValidationError as exc:
            problem = ARGS_INVALID_ERROR.format(tool=self.name, errors=_brief(exc))
            return Prepared(folder, None, problem, identity=args)

    def run_prepared(self, prepared: Prepared, *, timeout: float | None = None) -> Outcome:
        """Run on arguments validated once, within `timeout` seconds when given.

        Every failure comes back as an error outcome, never raised: those the model can fix
        (invalid arguments, a ToolError, a timeout), and a tool's own failure on input it did
        not foresee.
        """
        parsed = prepared.parsed
        if parsed is None:
            return Outcome(prepared.problem or "", ok=False)
        try:
            bounded = answer_in_worker if self.isolated and timeout else in_thread
            answer = prepared.answer
            if answer is None:
                answer = bounded(timeout, self.run, prepared.folder, parsed)
        except ToolError as exc:
            return Outcome(f"Error: {exc}", ok=False)
        except TimeoutError:
            return Outcome(TIMEOUT_ERROR.format(tool=self.name, seconds=timeout), ok=False)
        except Exception as exc:  # a tool's bug on odd input is the model's error to route round
            named = isinstance(exc, WorkerFailed)  # named in its worker already
            error = (str(exc) if named else f"{type(exc).__name__}: {exc}")[:300]
            return Outcome(TOOL_FAILED.format(tool=self.name, error=error), ok=False)
        if isinstance(answer, Answer):
            return Outcome(answer.text, True, parsed, answer.lines, answer.compared, answer.record,
                           answer.shows)  # fmt: skip
        return Outcome(answer, ok=True, args=parsed)

    def openai_schema(self) -> dict[str, Any]:
        """The OpenAI function-calling spec the model is bound with."""
        parameters = self.args_schema.model_json_schema()
        parameters.pop("title", None)
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": parameters,
            },
        }
