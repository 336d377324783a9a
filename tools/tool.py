"""One explore tool: its spec, the call prepared once (arguments, paths, identity,
version), and its run within its time and memory bounds."""

from __future__ import annotations

import dataclasses
import json
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pydantic import BaseModel, ValidationError

from labscribe.guards.detectors import ToolClass
from labscribe.guards.guard_state import Meaning, identify
from labscribe.tools.base import Folder, ToolError
from labscribe.tools.messages import (
    ARGS_INVALID_ERROR,
    TIMEOUT_ERROR,
    TOOL_FAILED,
    WORK_TOO_BIG,
)
from labscribe.tools.worker import Bounds, WorkerStopped, in_worker

# A fit's worker holds its table and lmfit, and decodes the file in a worker of its own
# (tools.formats.decoding), which cannot take more than this bound leaves it.
ISOLATED_MEMORY = 3 * 1024 * 1024 * 1024
ISOLATED_ANSWER_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Answer:
    """What a tool shows the model, and, for a window of a file, which lines it showed."""

    text: str
    lines: tuple[int, int] | None = None
    """First and last line shown, 1-based: how the loop guards tell windows apart."""
    compared: int | None = None
    """How many leading characters of `text` say what was shown, when the rest only echoes
    the request (a continuation note naming the `limit` asked for); None: all of it."""
    record: dict[str, Any] | None = None
    """What the call adds to the run's state (a figure kept, a fit, a derived quantity)."""
    shows: str | None = None
    """What the answer showed, where its text names something else: a figure by its
    picture, not by the free file name each run gets (`slow-2.png`); None: the text."""


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
            bounded = answer_in_worker if self.isolated and timeout else _within
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


class WorkerFailed(Exception):
    """A tool's own failure in its worker, as `TypeName: message`."""


def answer_in_worker(timeout: float, run: Callable[..., str | Answer], *args: Any) -> Answer:
    """`run(*args)` in a worker bounded to `timeout` seconds of CPU and of wall clock and to
    ISOLATED_MEMORY; TimeoutError when it meets a time bound, ToolError when it meets the
    memory bound or raises one."""
    bounds = Bounds(ISOLATED_MEMORY, math.ceil(timeout), timeout, ISOLATED_ANSWER_BYTES)
    try:
        finished = in_worker(partial(_answered, run, *args), bounds)
    except WorkerStopped as stop:
        if stop.wall or stop.out_of_cpu:
            raise TimeoutError from None
        raise ToolError(WORK_TOO_BIG.format(megabytes=ISOLATED_MEMORY // 2**20)) from None
    head = json.loads(finished.answer)
    if "tool_error" in head:
        raise ToolError(head["tool_error"])
    if "failed" in head:
        raise WorkerFailed(head["failed"])
    lines = head.pop("lines")
    return Answer(**head, lines=tuple(lines) if lines else None)


def _answered(run: Callable[..., str | Answer], *args: Any) -> bytes:
    """In the worker: `run(*args)`'s answer, or its failure, as JSON."""
    try:
        answer = run(*args)
    except ToolError as exc:
        return json.dumps({"tool_error": str(exc)}).encode()
    except Exception as exc:
        return json.dumps({"failed": f"{type(exc).__name__}: {exc}"}).encode()
    answer = answer if isinstance(answer, Answer) else Answer(answer)
    return json.dumps(dataclasses.asdict(answer)).encode()


def _within(timeout: float | None, run: Callable[..., str], *args: Any) -> str:
    """`run(*args)`, or TimeoutError after `timeout` seconds.

    The work runs on a daemon thread: a read stuck on a slow disk is abandoned, never waited
    for, and cannot keep the process alive at exit.
    """
    if timeout is None:
        return run(*args)
    result: list[str] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(run(*args))
        except BaseException as exc:  # handed to the caller's thread below
            failure.append(exc)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise TimeoutError
    if failure:
        raise failure[0]
    return result[0]
