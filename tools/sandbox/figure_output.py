"""What a figure run gives back: the verified PNG and what the model reads, or
SandboxUnavailable.

The sandbox copies out only what the code wrote and how it ended; none of it is trusted.
The PNG is checked before it is kept (a real PNG, not a decompression bomb, not blank), and
every other ending becomes one sentence that tells the model what to change.
"""

from __future__ import annotations

import contextlib
import json
import signal
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labscribe.tools.sandbox.out_files import copy_whole, out_folder
from labscribe.tools.sandbox.sandbox_limits import (
    FILE_SIZE_LIMIT,
    HARNESS_PNG,
    MEMORY_LIMIT,
    TAIL_CHARS,
)

MAX_PIXELS = 40_000_000
"""A larger image is refused before decoding (Pillow would otherwise decode it in full)."""


@dataclass(frozen=True)
class FigureResult:
    """One figure run.

    `ok` is True exactly when `png` is a verified, non-blank PNG at `out_dir/<name>.png`.
    Otherwise `error` says, for the model, what to change. `stdout`/`stderr` are the last
    characters the code printed; `elapsed` is wall seconds including the policy check.
    """

    ok: bool
    png: Path | None
    error: str
    stdout: str = ""
    stderr: str = ""
    elapsed: float = 0.0


class SandboxUnavailable(RuntimeError):
    """The host cannot build the sandbox (user namespaces forbidden): figures cannot run."""


def _read_tail(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-TAIL_CHARS:]
    except OSError:
        return ""


def collect(
    staging: Path, reply: dict[str, Any], out_dir: Path, stem: str, timeout: float
) -> FigureResult:
    """Turn what the supervisor copied out into a FigureResult; copy the PNG on success."""
    out = staging / "out"
    stdout = _read_tail(out / "stdout.txt")
    stderr = _read_tail(out / "stderr.txt")
    status: dict[str, Any] = {}
    with contextlib.suppress(OSError, ValueError):
        status = json.loads((out / "status.json").read_text())
    if reply.get("error"):
        raise SandboxUnavailable(str(reply["error"]))

    def fail(error: str) -> FigureResult:
        return FigureResult(False, None, error, stdout, stderr)

    if reply.get("timed_out") or status.get("timed_out"):
        return fail(
            f"Error: the figure code did not finish within {timeout:g} s and was stopped "
            "(all its processes were killed). Make it faster: fewer points, no endless loops."
        )
    if reply.get("worker_failed") or not status:
        # The supervisor's own traceback is for the operator, not the model.
        log = _read_tail(out / "supervisor.log")
        return FigureResult(
            False,
            None,
            "Error: the figure sandbox failed before the code finished; try again.",
            stdout,
            f"{stderr}\n[sandbox] {log}".strip(),
        )
    error_text = _read_tail(out / "error.txt").strip()
    if error_text:
        return fail(f"Error: the figure code raised an exception:\n{error_text}")
    signum = status.get("signal")
    if signum:
        return fail(_signal_error(int(signum)))
    if status.get("exit_code") not in (0, None):
        return fail(f"Error: the figure code exited with status {status.get('exit_code')}.")
    chosen = _choose_png(out, status.get("pngs", []))
    if chosen is None:
        return fail(
            "Error: the code made no figure. Draw with matplotlib (plt.plot, ...); the "
            "current figure is saved for you, or call plt.savefig('figure.png')."
        )
    problem = verify_png(chosen)
    if problem is not None:
        return fail(f"Error: {problem}")
    target = copy_whole(chosen, out_folder(out_dir) / f"{stem}.png")
    return FigureResult(True, target, "", stdout, stderr)


def _signal_error(signum: int) -> str:
    name = signal.Signals(signum).name if signum in signal.valid_signals() else str(signum)
    hint = {
        signal.SIGKILL: "it was killed, most likely for using too much memory or CPU time",
        signal.SIGXCPU: "it used more CPU time than allowed",
        signal.SIGXFSZ: f"it wrote a file larger than {FILE_SIZE_LIMIT // 2**20} MB",
        signal.SIGSEGV: f"it crashed, most likely out of memory ({MEMORY_LIMIT // 2**20} MB)",
    }.get(signum, "it was stopped by the sandbox")
    return f"Error: the figure code was terminated by {name}: {hint}. Use less data or memory."


def _choose_png(out: Path, pngs: list[str]) -> Path | None:
    """The figure to keep: the last PNG the code saved itself, else the harness's capture."""
    saved = [out / "png" / p for p in pngs if p != HARNESS_PNG]
    if saved:
        return saved[-1]
    harness = out / "png" / HARNESS_PNG
    return harness if HARNESS_PNG in pngs else None


def verify_png(path: Path) -> str | None:
    """None when `path` is a real PNG with non-zero size and more than one colour.

    Otherwise a sentence for the model. The header is read before decoding, so a
    decompression bomb is refused without being decoded.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with quiet_about_size(), Image.open(path) as probe:
            if probe.format != "PNG":
                return f"the saved file is {probe.format}, not a PNG; save as PNG"
            width, height = probe.size
            if width <= 0 or height <= 0:
                return "the figure has zero size"
            if width * height > MAX_PIXELS:
                return f"the figure is too large ({width}x{height} pixels); lower dpi or figsize"
            probe.verify()
        with Image.open(path) as image:
            image.load()
            if image.getcolors(maxcolors=1) is not None:
                return "the figure is blank (a single colour); plot some data on it"
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        return f"the saved file is not a valid PNG ({exc})"
    return None


@contextlib.contextmanager
def quiet_about_size() -> Iterator[None]:
    """Pillow's warning about a huge declared size, silenced while an image is opened: the
    size is checked against MAX_PIXELS right after, and refused in words the model reads,
    not printed on the user's terminal."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        yield
