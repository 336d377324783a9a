"""What LoopBench's runs compute again and again with one answer, computed once per process.

Every trajectory explores the same folder (folder.json), so two costs repeat with the same
result, and neither is what LoopBench measures:
- labscribe's scan analyses the folder's tables (fits) and draws their figures before the
  explorer's first turn: 2 s of a trajectory's 2.4 s. The analysis is given to the next
  runs as a copy, the figures copied into each run's own folder. A trajectory's file
  changes come with its replies, after the scan, so the folder's files as written are
  the key.
- read_image's OCR of the folder's picture: three quarters of every replayed policy's
  time, since a loop that re-reads the picture runs the OCR model each time. The boxes
  are kept per picture (its pixels and scale).
- make_figure's sandboxed run, once OCR was kept: 15 s of a replayed policy's 21 s (101
  figures at 0.15 s each), since every policy replays the same figure code on the same
  data. The result (the PNG's bytes, or the error) is kept per code and data folder's
  files, and a later run gets the PNG written under its own free name; the first run of
  each code still goes through the sandbox.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

from labscribe.nodes import scan as scan_node
from labscribe.tools.analysis.data_figures import draw_data_figures
from labscribe.tools.analysis.folder import Analysis, analyse
from labscribe.tools.explorer import figures as figure_tool
from labscribe.tools.explorer import images as image_tool
from labscribe.tools.explorer.ocr import TextBox, ocr_boxes
from labscribe.tools.explorer.pictures import Picture
from labscribe.tools.sandbox.figure_names import sanitize_name
from labscribe.tools.sandbox.figure_output import FigureResult
from labscribe.tools.tool import Folder

_ANALYSES: dict[str, Analysis] = {}
_FIGURES: dict[str, list[dict[str, str]]] = {}
_BOXES: dict[str, list[TextBox]] = {}
_DRAWN: dict[str, tuple[bytes | None, str]] = {}
_KEPT = Path(tempfile.mkdtemp(prefix="loopbench-figures-"))
atexit.register(shutil.rmtree, _KEPT, ignore_errors=True)


def folder_key(files: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]


@contextmanager
def scanned_once(key: str) -> Iterator[None]:
    """Within this block, the scan node analyses and draws the folder `key` names once."""

    def analysed(folder: Folder, **options: Any) -> Analysis:
        if key not in _ANALYSES:
            _ANALYSES[key] = analyse(folder, **options)
        return _ANALYSES[key].model_copy(deep=True)

    def drawn(
        folder: Folder, analysis: Analysis, figures: Path, announce: Callable[..., None]
    ) -> list[dict[str, str]]:
        kept = _KEPT / key
        if key not in _FIGURES:
            _FIGURES[key] = draw_data_figures(folder, analysis, kept, announce=announce)
        drawings = _FIGURES[key]
        for number in range(1, len(drawings) + 1):
            announce(number, len(drawings))
        figures.mkdir(parents=True, exist_ok=True)
        for drawing in kept.iterdir():
            shutil.copy2(drawing, figures / drawing.name)
        return [dict(figure) for figure in drawings]

    with (
        patch.object(scan_node, "analyse", analysed),
        patch.object(scan_node, "draw_data_figures", drawn),
    ):
        yield


@contextmanager
def computed_once() -> Iterator[None]:
    """Within this block, read_image runs OCR once per picture and make_figure renders each
    code once per state of the data folder."""
    with ocr_once(), figures_once():
        yield


@contextmanager
def figures_once() -> Iterator[None]:
    """Within this block, make_figure renders a code once per state of the data folder."""
    render = figure_tool.run_figure

    def rendered(
        code: str, *, data_dir: Path, out_dir: Path, name: str, **options: Any
    ) -> FigureResult:
        data = hashlib.sha256(code.encode())
        for path in sorted(data_dir.rglob("*")):
            if path.is_file():
                data.update(f"{path.relative_to(data_dir)}\0".encode() + path.read_bytes())
        key = data.hexdigest()
        if key not in _DRAWN:
            result = render(code, data_dir=data_dir, out_dir=out_dir, name=name, **options)
            _DRAWN[key] = (result.png.read_bytes() if result.ok and result.png else None,
                           result.error)  # fmt: skip
            return result
        png, error = _DRAWN[key]
        if png is None:
            return FigureResult(ok=False, png=None, error=error)
        out_dir.mkdir(parents=True, exist_ok=True)
        kept = out_dir / f"{sanitize_name(name)}.png"
        kept.write_bytes(png)
        return FigureResult(ok=True, png=kept, error="")

    with patch.object(figure_tool, "run_figure", rendered):
        yield


@contextmanager
def ocr_once() -> Iterator[None]:
    """Within this block, read_image runs OCR once per picture."""

    def boxes(picture: Picture) -> list[TextBox]:
        pixels = hashlib.sha256(picture.image.tobytes())
        pixels.update(f"{picture.image.size} {picture.scale}".encode())
        key = pixels.hexdigest()
        if key not in _BOXES:
            _BOXES[key] = ocr_boxes(picture)
        return list(_BOXES[key])

    with patch.object(image_tool, "ocr_boxes", boxes):
        yield
