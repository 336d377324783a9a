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
from labscribe.tools.base import Folder
from labscribe.tools.explorer import images as image_tool
from labscribe.tools.explorer.ocr import TextBox, ocr_boxes
from labscribe.tools.explorer.pictures import Picture

_ANALYSES: dict[str, Analysis] = {}
_FIGURES: dict[str, list[dict[str, str]]] = {}
_BOXES: dict[str, list[TextBox]] = {}
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
