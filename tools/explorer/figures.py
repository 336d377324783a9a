"""make_figure: model-written matplotlib code, run in the sandbox, kept only if it rendered."""

from __future__ import annotations

import atexit
import hashlib
import threading
from pathlib import Path

from pydantic import BaseModel, Field

from labscribe.guards.detectors import ToolClass
from labscribe.guards.guard_state import Meaning
from labscribe.tools.base import Answer, ToolError
from labscribe.tools.messages import FIGURES_NOT_KEPT
from labscribe.tools.sandbox import children
from labscribe.tools.sandbox.figure_names import free_name, sanitize_name, taken_names
from labscribe.tools.sandbox.figure_output import FigureResult, SandboxUnavailable
from labscribe.tools.sandbox.figure_sandbox import FigureWorker, run_figure
from labscribe.tools.sandbox.sandbox_limits import DATA_DIR_IN_SANDBOX
from labscribe.tools.tool import Folder, Tool

FIGURE_SECONDS = 30.0
RENAMED = "the name {wanted} belongs to another figure, so this one is named {name}"

_worker: FigureWorker | None = None
_worker_lock = threading.Lock()


class MakeFigureArgs(BaseModel):
    code: str = Field(
        description=(
            f"Python using numpy, pandas, matplotlib, math, csv or json that draws one figure. "
            f"Read data files as {DATA_DIR_IN_SANDBOX}/<path in the data folder>. The current "
            "figure is saved; label the axes with units."
        )
    )
    name: str = Field(description="File name of the figure: letters, digits, - and _.")
    caption: str = Field(default="", description="One sentence saying what the figure shows.")


def figure_worker() -> FigureWorker:
    """The process's warm figure worker: matplotlib imported once, one fork per figure."""
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = FigureWorker()
            atexit.register(_worker.close)
            children.on_cancel(_worker.kill)  # a cancel must not wait for a figure to finish
        return _worker


def render(folder: Folder, code: str, name: str) -> FigureResult:
    """Render `code` into `folder.figures` through the sandbox, as `name` or, when a figure
    already has that name, a free one (figure_names.free_name): the result's `png`.

    A host that cannot build the sandbox renders nothing: model code never runs unconfined.
    """
    if folder.figures is None:
        raise ToolError(FIGURES_NOT_KEPT)
    try:
        return run_figure(
            code,
            data_dir=Path(folder.base()),
            data_identity=folder.identity,
            out_dir=folder.figures,
            name=free_name(name, taken_names(folder.figures)),
            timeout=FIGURE_SECONDS,
            worker=figure_worker(),
        )
    except SandboxUnavailable as exc:
        return FigureResult(ok=False, png=None, error=f"figures are unavailable here: {exc}")


def figure_record(png: Path, caption: str) -> dict[str, str]:
    """How the writer and the checks know a kept figure: its path under OUT/, its caption."""
    return {"path": f"figures/{png.name}", "caption": caption}


def make_figure(folder: Folder, args: MakeFigureArgs) -> Answer:
    result = render(folder, args.code, args.name)
    if not result.ok or result.png is None:
        # The sandbox words a failed run as a whole tool result, "Error: " included, and
        # Tool.invoke prefixes every ToolError: the model must read the prefix once.
        raise ToolError(result.error.removeprefix("Error: "))
    record = figure_record(result.png, args.caption)
    text = f"figure saved: {record['path']}" + (f" ({args.caption})" if args.caption else "")
    if (wanted := sanitize_name(args.name)) != result.png.stem:
        text += f"; {RENAMED.format(wanted=wanted, name=result.png.stem)}"
    # the same picture is no news, whatever free name it was saved under
    picture = hashlib.blake2b(result.png.read_bytes(), digest_size=16).hexdigest()
    return Answer(text, record={"figures": [record]}, shows=f"figure {picture}")


MAKE_FIGURE = Tool(
    name="make_figure",
    description=(
        "Draw a figure from the data with matplotlib, run in a sandbox (no files, no network, "
        "no imports beyond numpy, pandas, matplotlib, math, statistics, csv, json). Returns "
        "the PNG's path under figures/."
    ),
    args_schema=MakeFigureArgs,
    run=make_figure,
    tool_class=ToolClass.MUTATING,
    # The same code draws the same figure, whatever file name or caption it is given.
    meaning=Meaning(code=("code",), ignored=("name", "caption")),
)
