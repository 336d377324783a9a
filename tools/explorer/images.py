"""Backend of the explorer's `read_image` tool: the text and numbers in a picture.

Lab folders hold photos of plots, tables and instrument screens whose numbers belong in
the report. With no vision model the tool runs a local OCR engine (`ocr`) and lists every
text box with its position and confidence in reading order, within the same character
budget as read_file.

A vision-capable chat model can read the image instead (`vision`): the run gives its folder
a `vision` reader (`VisionReader(name, chat_model)`), or a caller passes `vision=` to
`read_image`. OCR stays the default, and is the fallback whenever the vision call fails or
answers with nothing. Either reads the picture `pictures` decoded; this module is what the
tool answers.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from labscribe.guards.detectors import ToolClass
from labscribe.guards.guard_state import Meaning
from labscribe.tools.base import ToolError
from labscribe.tools.explorer.ocr import OCR_LABEL, TextBox, ocr_boxes
from labscribe.tools.explorer.pictures import SUPPORTED, Picture, load_picture
from labscribe.tools.explorer.reading import READ_CHARS
from labscribe.tools.explorer.vision import Vision, encode_picture
from labscribe.tools.messages import FOLDER_NOT_FILE, NO_TEXT_NOTE
from labscribe.tools.tool import Folder, Tool, path_version


class ReadImageArgs(BaseModel):
    path: str = Field(description="Image to read, relative to the data folder.")


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
        raise ToolError(FOLDER_NOT_FILE.format(path=args.path))
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


def reader_name(folder: Folder) -> str:
    """Who reads the folder's images: a cached answer is only good for the same reader."""
    if folder.vision is None:
        return OCR_LABEL
    return f"vision:{getattr(folder.vision, 'name', type(folder.vision).__name__)}"


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
    version=lambda folder, args: f"{path_version(folder, args)}:{reader_name(folder)}",
)
