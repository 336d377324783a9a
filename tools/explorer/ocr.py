"""OCR of a picture with RapidOCR: its text boxes, positioned, in reading order.

With no vision model, read_image still reads the numbers in a photo of a table or a plot:
PP-OCR's models ship inside the rapidocr-onnxruntime wheel (Chinese and English), so it
runs offline. The engine is imported and built on first use only, and once per process.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from labscribe.tools.base import ToolError
from labscribe.tools.explorer.pictures import Picture
from labscribe.tools.messages import OCR_FAILED, OCR_UNAVAILABLE

OCR_LABEL = "rapidocr"


@dataclass(frozen=True)
class TextBox:
    """One OCR result, in full-size pixels: top-left corner, size, text, confidence 0-1."""

    x: int
    y: int
    width: int
    height: int
    text: str
    score: float

    @property
    def middle(self) -> float:
        return self.y + self.height / 2


_engine: Any = None
_engine_lock = threading.Lock()


def ocr_engine() -> Any:
    """The process's RapidOCR engine, created on first use and reused after.

    Creating it loads three ONNX models (a fraction of a second, tens of MB), so it is never
    done at import time nor more than once. The lock matters because tool calls run on
    worker threads (see worker.in_thread). ToolError if the OCR package is missing or broken.
    """
    global _engine
    with _engine_lock:
        if _engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR

                _engine = RapidOCR()
            except Exception as exc:  # ImportError, or onnxruntime failing to load a model
                error = f"{type(exc).__name__}: {exc}"
                raise ToolError(OCR_UNAVAILABLE.format(error=error)) from exc
        return _engine


def ocr_boxes(picture: Picture) -> list[TextBox]:
    """The text boxes OCR finds in `picture`, in full-size pixels and reading order."""
    engine = ocr_engine()
    try:
        found, _timings = engine(picture.image)
    except Exception as exc:  # an engine crash on one odd image must not end the run
        raise ToolError(OCR_FAILED.format(error=f"{type(exc).__name__}: {exc}")) from exc
    boxes = []
    for corners, text, score in found or ():
        xs = [point[0] / picture.scale for point in corners]
        ys = [point[1] / picture.scale for point in corners]
        left, top = round(min(xs)), round(min(ys))
        boxes.append(
            TextBox(
                x=left,
                y=top,
                width=round(max(xs)) - left,
                height=round(max(ys)) - top,
                text=str(text),
                score=float(score),
            )
        )
    return reading_order(boxes)


def reading_order(boxes: list[TextBox]) -> list[TextBox]:
    """`boxes` top to bottom, and left to right within a line.

    A plain (y, x) sort scatters one printed line whenever its boxes' tops differ by a
    pixel or two, so boxes whose vertical middles lie within half a box height of the
    line's first box count as the same line.
    """
    lines: list[list[TextBox]] = []
    for box in sorted(boxes, key=lambda b: (b.middle, b.x)):
        if lines:
            first = lines[-1][0]
            if box.middle - first.middle <= max(first.height, box.height) / 2:
                lines[-1].append(box)
                continue
        lines.append([box])
    return [box for line in lines for box in sorted(line, key=lambda b: b.x)]
