"""An image file made ready to read: recognised by its signature, decoded, turned upright
and downscaled.

Phone photos of plots and instrument screens arrive rotated by their EXIF tag, at 4000 px and
more, with transparency or in 16-bit; OCR and vision models read a small upright RGB picture
best, and a decompression bomb must never be decoded in full. Pillow is imported only when
an image is read, so registering read_image never fails or slows down without it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from labscribe.tools.base import ToolError, cannot_read, open_regular
from labscribe.tools.formats.decoding import DECODING
from labscribe.tools.formats.signatures import (
    IMAGE_KINDS,
    PDF_SIGNATURE,
    SIGNATURE_BYTES,
    binary_kind,
)
from labscribe.tools.messages import DECODE_ERROR, NOT_IMAGE_ERROR, PILLOW_MISSING, TOO_MANY_PIXELS
from labscribe.tools.sandbox.figure_output import MAX_PIXELS, quiet_about_size
from labscribe.tools.worker import WorkerStopped, framed, in_worker, unframed

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

# Longest side the OCR (and a vision model) sees. PP-OCR's detector resizes to about this
# anyway, so more only costs time and memory; phone photos are often 4000 px and up.
MAX_SIDE = 2000
SUPPORTED = "PNG, JPEG, BMP, TIFF, WebP and GIF"


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


def load_picture(path: Path, name: str, *, fd: int | None = None) -> Picture:
    """`path` decoded, turned upright (EXIF) and downscaled; ToolError if not a usable image.

    Files are recognised by their signature, not their suffix, so `notes.md` is refused as
    text whatever it is called and a renamed PNG still reads. GIF and multi-page TIFF give
    their first frame. `fd`, when given, is `path` already opened (`Folder.open`); it is
    decoded and closed. Without it, `path` must be a regular file (a FIFO would block).
    Decoding runs in a bounded worker (tools.worker): an image codec is native code that
    trusts what a file declares. The worker answers with the upright picture's RGB pixels.
    """
    with os.fdopen(fd if fd is not None else open_regular(path, name), "rb") as handle:
        try:
            finished = in_worker(partial(_pixels, handle, path, name), DECODING)
        except WorkerStopped as stop:
            how = "took too long" if stop.wall or stop.out_of_cpu else "needed too much memory"
            raise ToolError(DECODE_ERROR.format(name=name, reason=f"decoding it {how}")) from None
    head, pixels = unframed(finished.answer)
    if "error" in head:
        raise ToolError(head["error"])
    from PIL import Image

    image = Image.frombytes("RGB", tuple(head.pop("size")), pixels)
    return Picture(image, **head)


def _pixels(handle: BinaryIO, path: Path, name: str) -> bytes:
    """In the worker: the decoded picture as its RGB pixels and sizes, or why not."""
    try:
        picture = _decode(handle, path, name)
    except ToolError as exc:
        return framed({"error": str(exc)})
    except MemoryError:
        return framed({"error": DECODE_ERROR.format(name=name, reason="it needs too much memory")})
    head = {"size": picture.image.size, "width": picture.width, "height": picture.height,
            "scale": picture.scale, "format": picture.format, "frames": picture.frames}  # fmt: skip
    return framed(head, picture.image.tobytes())


def _decode(handle: BinaryIO, path: Path, name: str) -> Picture:
    try:
        prefix = handle.read(SIGNATURE_BYTES)
        handle.seek(0)
    except OSError as exc:
        raise cannot_read(name, exc) from exc
    if binary_kind(prefix) not in IMAGE_KINDS:
        raise ToolError(NOT_IMAGE_ERROR.format(name=name, kind=_other_kind(path, prefix)))
    try:
        from PIL import Image, ImageOps
    except ImportError as exc:
        raise ToolError(PILLOW_MISSING) from exc
    try:
        with quiet_about_size(), Image.open(handle) as opened:
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
            # The header declares the size; a small file can declare a huge one (a pixel
            # bomb). Pillow only warns below twice its own MAX_IMAGE_PIXELS and decodes in
            # full, so the size that would be decoded (after any draft) is checked here.
            if opened.width * opened.height > MAX_PIXELS:
                too_many = TOO_MANY_PIXELS.format(
                    width=opened.width, height=opened.height, limit=f"{MAX_PIXELS:,}"
                )
                raise ToolError(DECODE_ERROR.format(name=name, reason=too_many))
            upright = ImageOps.exif_transpose(opened)
            image = _to_rgb(upright)
    except ToolError:
        raise
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


def _other_kind(path: Path, prefix: bytes) -> str:
    """What a file without an image signature is, in a few words for the refusal."""
    if prefix.startswith(PDF_SIGNATURE):
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
