"""What every explore tool shares: the folder it acts on, its error channel, its spec."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from labscribe.guards.paths import PATH_OUTSIDE_ERROR, resolve_inside


class ToolError(Exception):
    """A failure the model can fix: returned to it as an error tool result, never raised on."""


@dataclass(frozen=True)
class Folder:
    """The data folder the explorer may read. Nothing outside `root` is reachable."""

    root: Path
    figures: Path | None = None
    """Where make_figure saves PNGs (OUT/figures); None when figures cannot be kept."""
    vision: Callable[[bytes, str], str] | None = None
    """Reads an image with a vision-capable model; None: read_image runs OCR."""

    def resolve(self, requested: str | None) -> Path:
        """The real path of `requested` inside the folder, or a ToolError the model reads."""
        target = resolve_inside(self.root, requested)
        if target is None:
            raise ToolError(PATH_OUTSIDE_ERROR.format(path=requested))
        return target

    def relative(self, path: Path) -> str:
        """`path` as the model should name it: relative to the folder, POSIX separators."""
        rel = path.relative_to(self.root.resolve()).as_posix()
        return rel or "."


ARGS_INVALID_ERROR = "Error: invalid arguments for {tool}: {errors}. Fix them and call again."
TIMEOUT_ERROR = (
    "Error: {tool} did not finish within {seconds:g} s and was abandoned. "
    "Ask for less (a smaller limit, another file)."
)


@dataclass(frozen=True)
class Outcome:
    """A tool's answer: `content` for the model, `ok` False for an error result."""

    content: str
    ok: bool
    args: BaseModel | None = None


def _brief(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(map(str, err['loc'])) or 'arguments'}: {err['msg']}" for err in exc.errors()
    )


@dataclass(frozen=True)
class Tool:
    """One explore tool: its model-facing name, description and argument schema, and its code.

    `target` names the file a read-only call depends on, so an unchanged target can be
    served from cache and a changed one (size or mtime) counts as a new call.
    """

    name: str
    description: str
    args_schema: type[BaseModel]
    run: Callable[[Folder, Any], str]
    target: Callable[[Folder, Any], Path | None] = lambda folder, args: None
    records: Callable[[Any], dict[str, Any]] | None = None
    """What a successful call adds to the run's state (make_figure: the figure it kept)."""
    free_text: tuple[str, ...] = ()
    """Arguments that describe a call without changing what it does (a caption)."""

    def invoke(
        self, folder: Folder, args: dict[str, Any], *, timeout: float | None = None
    ) -> Outcome:
        """Validate `args` and run, within `timeout` seconds when given.

        Failures the model can fix, a timeout included, come back as error outcomes.
        """
        try:
            parsed = self.args_schema.model_validate(args)
        except ValidationError as exc:
            return Outcome(ARGS_INVALID_ERROR.format(tool=self.name, errors=_brief(exc)), ok=False)
        try:
            return Outcome(_within(timeout, self.run, folder, parsed), ok=True, args=parsed)
        except ToolError as exc:
            return Outcome(f"Error: {exc}", ok=False)
        except TimeoutError:
            return Outcome(TIMEOUT_ERROR.format(tool=self.name, seconds=timeout), ok=False)

    def identity(self, args: Any) -> Any:
        """What makes two calls the same call, for the loop guards: the arguments validated,
        defaults filled in, without free text or fields the tool ignores (models add a
        `reason` to calls, or spell out a default). Invalid arguments stay as they came."""
        try:
            parsed = self.args_schema.model_validate(args)
        except ValidationError:
            return args
        return parsed.model_dump(mode="json", exclude=set(self.free_text))

    def stamp(self, folder: Folder, args: dict[str, Any]) -> str | None:
        """`size:mtime_ns` of the call's target file, or None when it has none or it is invalid."""
        try:
            target = self.target(folder, self.args_schema.model_validate(args))
            info = target.stat() if target is not None else None
        except (ValidationError, ToolError, OSError):
            return None
        return f"{info.st_size}:{info.st_mtime_ns}" if info else None

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


def human_size(n: float) -> str:
    """`1234567` as `1.2 MB`: sizes as the model and users read them."""
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{int(n)} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


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
