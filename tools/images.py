"""Backend of the explorer's `read_image` tool: the text and numbers in a picture.

Lab folders hold photos of plots, tables and instrument screens whose numbers belong in
the report. With no vision model the tool runs a local OCR engine (RapidOCR: PP-OCR models
shipped inside its wheel, Chinese and English) and lists every text box with its position
and confidence in reading order, within the same character budget as read_file.

A vision-capable chat model can read the image instead: the run gives its folder a
`vision` reader (`VisionReader(name, chat_model)`), or a caller passes
`vision=` to `read_image`. OCR stays the default, and is the fallback whenever the vision
call fails or answers with nothing.

Pillow and rapidocr-onnxruntime are imported only when an image is read, so importing this
module (and registering the tool) never fails or slows down on a machine without them.
"""

from __future__ import annotations

import base64
import io
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from labscribe.guards.identity import Meaning
from labscribe.guards.ladder import ToolClass
from labscribe.tools.base import Folder, Tool, ToolError, file_version, open_regular, os_reason
from labscribe.tools.reading import READ_CHARS

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

# Longest side the OCR (and a vision model) sees. PP-OCR's detector resizes to about this
# anyway, so more only costs time and memory; phone photos are often 4000 px and up.
MAX_SIDE = 2000
# Enough of the file to recognise every supported signature.
_SNIFF_BYTES = 32
# The header sizes a BMP's DIB header can have (core, info, v2-v5).
_BMP_DIB_SIZES = frozenset({12, 40, 52, 56, 64, 108, 124})
OCR_LABEL = "rapidocr"
SUPPORTED = "PNG, JPEG, BMP, TIFF, WebP and GIF"

NOT_IMAGE_ERROR = "{name} is not an image ({kind}); use read_file"
DECODE_ERROR = "cannot decode image {name}: {reason}"
NO_TEXT_NOTE = "(no text recognised: OCR reads printed text only, not curves, markers or pictures)"

VISION_PROMPT = (
    "This image comes from a lab experiment's data folder: a plot, a table, an instrument "
    "screen or handwritten notes. Transcribe every number and label exactly as shown, with "
    "units. For a plot, give the axis labels, units, ranges and tick values, and the notable "
    "features of each curve (peaks, minima, crossings) with approximate coordinates. Mark "
    "anything illegible as illegible; never guess a value."
)

Vision = Callable[[bytes, str], str]
"""A vision reader: (image bytes, MIME type) -> the model's text about the image."""


class ChatModel(Protocol):
    """What `describe_with_vision` needs of a chat model: LangChain's `invoke`."""

    def invoke(self, input: Any, /) -> Any: ...


class ReadImageArgs(BaseModel):
    path: str = Field(description="Image to read, relative to the data folder.")


@dataclass(frozen=True)
class Picture:
    """An image ready to read: upright, RGB, its longest side at most MAX_SIDE."""

    image: PILImage
    width: int
    """Full-size width of the upright image, in pixels."""
    height: int
    scale: float
    """`image` pixels per full-size pixel: 1.0 unless the image was downscaled."""
    format: str
    frames: int


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


# --- module-level state: one OCR engine per process ---------------------------------------

_engine: Any = None
_engine_lock = threading.Lock()


def ocr_engine() -> Any:
    """The process's RapidOCR engine, created on first use and reused after.

    Creating it loads three ONNX models (a fraction of a second, tens of MB), so it is never
    done at import time nor more than once. The lock matters because tool calls run on
    worker threads (see base._within). ToolError if the OCR package is missing or broken.
    """
    global _engine
    with _engine_lock:
        if _engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR

                _engine = RapidOCR()
            except Exception as exc:  # ImportError, or onnxruntime failing to load a model
                raise ToolError(
                    f"OCR is not available on this machine ({type(exc).__name__}: {exc}); "
                    "install rapidocr-onnxruntime and Pillow"
                ) from exc
        return _engine


# --- the tool ----------------------------------------------------------------------------


def read_image(folder: Folder, args: ReadImageArgs, *, vision: Vision | None = None) -> str:
    """The text in the image at `args.path`: OCR boxes, or a vision model's description.

    `vision`, else the folder's vision reader, else OCR. The result starts with a
    header line naming the file, its full size and any downscaling; OCR boxes follow one per
    line, top to bottom then left to right, positioned in full-size pixels. It never exceeds
    READ_CHARS characters (a note says what was cut). An image without text is a normal
    result, not an error. Paths outside the folder, folders, non-images and undecodable
    images raise ToolError.
    """
    target = folder.resolve(args.path)
    if target.is_dir():
        raise ToolError(f"{args.path!r} is a folder; list it with list_dir")
    name = folder.relative(target)
    picture = load_picture(target, name, fd=folder.open(target))
    reader = vision or folder.vision
    fallback_note = ""
    if reader is not None:
        try:
            described = reader(*encode_picture(picture)).strip()
        except Exception as exc:  # any endpoint failure: the image is still readable by OCR
            fallback_note = f"(vision model failed: {type(exc).__name__}: {exc}; OCR used instead)"
        else:
            if described:
                return _vision_result(_header(name, picture, positions=False), described)
            fallback_note = "(vision model returned no text; OCR used instead)"
    boxes = ocr_boxes(picture)
    return _ocr_result(_header(name, picture), boxes, fallback_note)


def load_picture(path: Path, name: str, *, fd: int | None = None) -> Picture:
    """`path` decoded, turned upright (EXIF) and downscaled; ToolError if not a usable image.

    Files are recognised by their signature, not their suffix, so `notes.md` is refused as
    text whatever it is called and a renamed PNG still reads. GIF and multi-page TIFF give
    their first frame. `fd`, when given, is `path` already opened (`Folder.open`); it is
    decoded and closed. Without it, `path` must be a regular file (a FIFO would block).
    """
    with os.fdopen(fd if fd is not None else open_regular(path, name), "rb") as handle:
        return _decode(handle, path, name)


def _decode(handle: BinaryIO, path: Path, name: str) -> Picture:
    try:
        prefix = handle.read(_SNIFF_BYTES)
        handle.seek(0)
    except OSError as exc:
        raise ToolError(f"cannot read {name}: {os_reason(exc)}") from exc
    if _image_format(prefix) is None:
        raise ToolError(NOT_IMAGE_ERROR.format(name=name, kind=_other_kind(path, prefix)))
    try:
        from PIL import Image, ImageOps
    except ImportError as exc:
        raise ToolError("reading images needs Pillow, which is not installed") from exc
    try:
        with Image.open(handle) as opened:
            frames = getattr(opened, "n_frames", 1)
            fmt = opened.format or "image"
            width, height = opened.size
            if _exif_rotates(opened):
                width, height = height, width
            # JPEG can decode at 1/2, 1/4 or 1/8 size directly: a 24 MP photo costs a
            # fraction of the time and memory of a full decode followed by a resize.
            longest = max(opened.size)
            if longest > MAX_SIDE:
                ratio = MAX_SIDE / longest
                opened.draft(None, (round(opened.width * ratio), round(opened.height * ratio)))
            upright = ImageOps.exif_transpose(opened)
            image = _to_rgb(upright)
    except Image.DecompressionBombError as exc:
        raise ToolError(DECODE_ERROR.format(name=name, reason=f"too large ({exc})")) from exc
    except Exception as exc:
        # Corrupt files surface from Pillow as OSError, ValueError, SyntaxError, EOFError,
        # struct.error and more, depending on the codec; to the model they are all one case.
        reason = str(exc) or type(exc).__name__
        raise ToolError(DECODE_ERROR.format(name=name, reason=reason)) from exc
    if max(image.size) > MAX_SIDE:
        image.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    scale = image.width / width if width else 1.0
    return Picture(image, width, height, scale, fmt, frames)


def ocr_boxes(picture: Picture) -> list[TextBox]:
    """The text boxes OCR finds in `picture`, in full-size pixels and reading order."""
    engine = ocr_engine()
    try:
        found, _timings = engine(picture.image)
    except Exception as exc:  # an engine crash on one odd image must not end the run
        raise ToolError(f"OCR failed on this image ({type(exc).__name__}: {exc})") from exc
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


@dataclass(frozen=True)
class VisionReader:
    """A vision-capable chat model reading images for read_image, known by its name."""

    name: str
    model: ChatModel

    def __call__(self, image_bytes: bytes, mime: str) -> str:
        return describe_with_vision(self.model, image_bytes, mime)


def reader_name(folder: Folder) -> str:
    """Who reads the folder's images: a cached answer is only good for the same reader."""
    if folder.vision is None:
        return OCR_LABEL
    return f"vision:{getattr(folder.vision, 'name', type(folder.vision).__name__)}"


def describe_with_vision(
    model: ChatModel, image_bytes: bytes, mime: str, prompt: str = VISION_PROMPT
) -> str:
    """Ask a vision-capable chat model what `image_bytes` shows; its reply's text.

    The image goes as an OpenAI-style `image_url` content part holding a base64 data URL,
    which OpenAI-compatible endpoints accept through LangChain. Errors from the model are
    the caller's to handle (read_image falls back to OCR).
    """
    url = f"data:{mime};base64,{base64.b64encode(image_bytes).decode('ascii')}"
    message = HumanMessage(
        content=[
            {"type": "text", "text": prompt},
            {"type": "image_url", "image_url": {"url": url}},
        ]
    )
    return str(model.invoke([message]).text)


def encode_picture(picture: Picture) -> tuple[bytes, str]:
    """The downscaled image as file bytes and their MIME type, for a vision model.

    JPEG sources stay JPEG (already lossy, and a photo as PNG is several times larger);
    everything else becomes PNG so thin plot lines and small digits stay sharp.
    """
    buffer = io.BytesIO()
    if picture.format == "JPEG":
        picture.image.save(buffer, format="JPEG", quality=90)
        return buffer.getvalue(), "image/jpeg"
    picture.image.save(buffer, format="PNG")
    return buffer.getvalue(), "image/png"


# --- helpers -----------------------------------------------------------------------------


def _image_format(prefix: bytes) -> str | None:
    """The supported format whose signature starts `prefix`, if any."""
    if prefix.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if prefix.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if prefix.startswith((b"GIF87a", b"GIF89a")):
        return "GIF"
    if prefix.startswith((b"II*\x00", b"MM\x00*")):
        return "TIFF"
    if prefix.startswith(b"RIFF") and prefix[8:12] == b"WEBP":
        return "WebP"
    # "BM" alone could start a text file; the DIB header sizes that follow cannot.
    if prefix.startswith(b"BM") and int.from_bytes(prefix[14:18], "little") in _BMP_DIB_SIZES:
        return "BMP"
    return None


def _other_kind(path: Path, prefix: bytes) -> str:
    """What a file without an image signature is, in a few words for the refusal."""
    if prefix.startswith(b"%PDF"):
        return "PDF document"
    if path.suffix.lower() == ".svg" or prefix.lstrip().lower().startswith(b"<svg"):
        return "SVG drawing, which is text"
    # Binary formats put NUL bytes in their first few bytes; text in any 8-bit encoding
    # (UTF-8, GBK, Latin-1) does not. read_file tells the binary kinds apart in detail.
    if b"\x00" in prefix:
        return f"unrecognised binary data; read_image reads {SUPPORTED}"
    return "text file"


def _exif_rotates(image: PILImage) -> bool:
    """Whether the EXIF orientation turns the image by 90 degrees (swapping its sides)."""
    try:
        return image.getexif().get(0x0112) in {5, 6, 7, 8}
    except Exception:  # broken EXIF: exif_transpose ignores it too
        return False


def _to_rgb(image: PILImage) -> PILImage:
    """`image` as 8-bit RGB, transparent areas on white and 16-bit or float data stretched.

    A plain convert("RGB") would turn transparent pixels (often stored black) black, hiding
    black text, and clip 16-bit instrument TIFFs to solid white.
    """
    from PIL import Image

    if image.mode in {"I", "I;16", "I;16B", "I;16L", "I;16N", "F"}:
        import numpy as np

        data = np.asarray(image, dtype=np.float64)
        low, high = float(data.min()), float(data.max())
        span = high - low or 1.0
        image = Image.fromarray(((data - low) / span * 255).astype(np.uint8))
    if image.mode in {"RGBA", "LA", "PA"} or "transparency" in image.info:
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, rgba).convert("RGB")
    return image.convert("RGB")


def _header(name: str, picture: Picture, *, positions: bool = True) -> str:
    size = f"{picture.width}x{picture.height} px"
    if picture.frames > 1:
        size += f", first of {picture.frames} frames"
    if picture.scale < 1:
        where = "; positions are full-size px" if positions else ""
        size += f" (scaled {picture.scale:.3g} for reading{where})"
    return f"{name}: {size}"


def _ocr_result(header: str, boxes: list[TextBox], note: str) -> str:
    noun = "text box" if len(boxes) == 1 else "text boxes"
    lines = [f"[{header}, {len(boxes)} {noun}, OCR {OCR_LABEL}]"]
    if note:
        lines.append(note)
    if not boxes:
        lines.append(NO_TEXT_NOTE)
        return "\n".join(lines)
    used = sum(len(line) + 1 for line in lines)
    # Room for the truncation note, so the whole result stays within READ_CHARS.
    budget = READ_CHARS - 80
    for shown, box in enumerate(boxes):
        line = f"(x={box.x},y={box.y}) {box.score:.2f} {json.dumps(box.text, ensure_ascii=False)}"
        if used + len(line) + 1 > budget:
            lines.append(
                f"... {len(boxes) - shown} more text boxes not shown "
                f"(output capped at {READ_CHARS} characters)"
            )
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


def _vision_result(header: str, described: str) -> str:
    first = f"[{header}, described by the vision model]"
    room = READ_CHARS - len(first) - 60
    if len(described) > room:
        described = described[:room] + f"\n... (description cut at {READ_CHARS} characters)"
    return f"{first}\n{described}"


READ_IMAGE = Tool(
    name="read_image",
    description=(
        f"Read the text and numbers in an image inside the data folder ({SUPPORTED}): "
        "photos of plots, tables, instrument screens. Returns one line per text box found, "
        "top to bottom: (x,y) of its top-left corner in pixels, confidence 0-1, the text. "
        "Check low-confidence numbers against other files before using them."
    ),
    args_schema=ReadImageArgs,
    run=read_image,
    tool_class=ToolClass.READ_ONLY,
    meaning=Meaning(paths=("path",)),
    version=lambda folder, args: f"{file_version(folder.resolve(args.path))}:{reader_name(folder)}",
)
