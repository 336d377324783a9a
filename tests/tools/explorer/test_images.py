import base64
import importlib.util
import json
import os
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from PIL import Image, ImageDraw, ImageFont

from labscribe.tools import Folder
from labscribe.tools.base import ToolError
from labscribe.tools.explorer import pictures
from labscribe.tools.explorer.images import READ_IMAGE, ReadImageArgs, read_image
from labscribe.tools.explorer.ocr import TextBox, ocr_engine, reading_order
from labscribe.tools.explorer.pictures import load_picture
from labscribe.tools.explorer.vision import describe_with_vision
from labscribe.tools.messages import DECODE_ERROR, NO_TEXT_NOTE, PATH_OUTSIDE_ERROR, TOO_MANY_PIXELS
from labscribe.tools.sandbox.figure_output import MAX_PIXELS
from labscribe.tools.worker import Bounds


def _font_path() -> Path | None:
    """A TrueType font this machine has: matplotlib's bundled DejaVu, else a system one."""
    spec = importlib.util.find_spec("matplotlib")
    candidates = []
    if spec is not None and spec.origin is not None:
        candidates.append(Path(spec.origin).parent / "mpl-data/fonts/ttf/DejaVuSans.ttf")
    candidates += [
        Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
        Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
        Path("/usr/share/fonts/TTF/DejaVuSans.ttf"),
        Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
    ]
    return next((path for path in candidates if path.is_file()), None)


FONT = _font_path()
needs_font = pytest.mark.skipif(
    FONT is None and not os.environ.get("CI"),
    reason="no TrueType font on this machine (CI installs fonts-dejavu-core: .ci/run)",
)


def _draw(size: tuple[int, int], lines: list[tuple[tuple[int, int], str]], points: int) -> Any:
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), points)
    for position, text in lines:
        draw.text(position, text, fill="black", font=font)
    return image


BOX_LINE = re.compile(r'^\(x=(\d+),y=(\d+)\) (\d\.\d\d) (".*")$')


def _parse(line: str) -> tuple[int, int, float, str]:
    """One OCR result line as (x, y, confidence, text)."""
    match = BOX_LINE.match(line)
    assert match, line
    return int(match[1]), int(match[2]), float(match[3]), json.loads(match[4])


@pytest.fixture
def folder(tmp_path: Path) -> Folder:
    root = tmp_path / "data"
    root.mkdir()
    (root / "notes.md").write_text("Resonance near 5 kHz.\n")
    (tmp_path / "outside.png").write_bytes(b"")
    return Folder(root)


@pytest.fixture
def plot(folder: Folder) -> Path:
    """A clear 'photo' of results: a title and two values on one line below it."""
    lines = [((40, 40), "Resonance curve"), ((40, 150), "f0 = 5032 Hz"), ((500, 150), "Q = 5.36")]
    path = folder.root / "plot.png"
    _draw((900, 300), lines, 48).save(path)
    return path


@needs_font
def test_read_image_returns_the_numbers_in_reading_order(folder: Folder, plot: Path) -> None:
    outcome = READ_IMAGE.invoke(folder, {"path": "plot.png"})
    assert outcome.ok, outcome.content
    lines = outcome.content.splitlines()
    assert lines[0] == "[plot.png: 900x300 px, 3 text boxes, OCR rapidocr]"
    boxes = [_parse(line) for line in lines[1:]]
    assert [text for *_, text in boxes] == ["Resonance curve", "f0 = 5032 Hz", "Q = 5.36"]
    x, y, _, _ = boxes[1]
    assert abs(x - 40) <= 10 and abs(y - 150) <= 20
    assert all(0.5 <= score <= 1 for _, _, score, _ in boxes)


@needs_font
def test_read_image_downscales_large_images_and_says_so(folder: Folder) -> None:
    lines = [((200, 200), "V_max = 7.25 V"), ((200, 600), "T = 293 K")]
    _draw((4000, 1000), lines, 160).save(folder.root / "screen.jpg", quality=95)
    outcome = READ_IMAGE.invoke(folder, {"path": "screen.jpg"})
    assert outcome.ok, outcome.content
    header, *boxes = outcome.content.splitlines()
    assert header.startswith(
        "[screen.jpg: 4000x1000 px (scaled 0.5 for reading; positions are full-size px)"
    )
    first, second = (_parse(line) for line in boxes)
    assert "7.25" in first[3] and "293" in second[3]
    # Positions are mapped back to the full-size image, not the 2000 px copy OCR saw.
    assert abs(second[0] - 200) <= 30 and abs(second[1] - 600) <= 60


@needs_font
def test_read_image_reads_black_text_on_a_transparent_background(folder: Folder) -> None:
    # Transparent pixels are stored black: flattened naively, the text would vanish.
    image = Image.new("RGBA", (600, 160), (0, 0, 0, 0))
    font = ImageFont.truetype(str(FONT), 48)
    ImageDraw.Draw(image).text((30, 50), "R = 47.0 ohm", fill=(0, 0, 0, 255), font=font)
    image.save(folder.root / "label.png")
    outcome = READ_IMAGE.invoke(folder, {"path": "label.png"})
    assert outcome.ok, outcome.content
    assert "47.0" in outcome.content


def test_read_image_refuses_a_text_file_with_a_hint(folder: Folder) -> None:
    outcome = READ_IMAGE.invoke(folder, {"path": "notes.md"})
    assert not outcome.ok
    assert outcome.content == "Error: notes.md is not an image (text file); use read_file"


def test_read_image_refuses_a_corrupt_png(folder: Folder) -> None:
    good = folder.root / "good.png"
    Image.new("RGB", (200, 100), "white").save(good)
    (folder.root / "broken.png").write_bytes(good.read_bytes()[:60])
    outcome = READ_IMAGE.invoke(folder, {"path": "broken.png"})
    assert not outcome.ok
    prefix = "Error: " + DECODE_ERROR.format(name="broken.png", reason="")
    assert outcome.content.startswith(prefix)
    assert len(outcome.content) > len(prefix)


def test_read_image_reports_an_image_without_text(folder: Folder) -> None:
    Image.new("RGB", (640, 480), "white").save(folder.root / "blank.png")
    outcome = READ_IMAGE.invoke(folder, {"path": "blank.png"})
    assert outcome.ok
    assert outcome.content == f"[blank.png: 640x480 px, 0 text boxes, OCR rapidocr]\n{NO_TEXT_NOTE}"


@pytest.mark.parametrize("path", ["../outside.png", "/etc/hostname", "missing.png"])
def test_read_image_refuses_paths_outside_the_folder(folder: Folder, path: str) -> None:
    outcome = READ_IMAGE.invoke(folder, {"path": path})
    assert outcome.content == "Error: " + PATH_OUTSIDE_ERROR.format(path=path)


class _FakeVisionModel:
    """A scripted chat model: records the messages, answers with fixed text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.requests: list[list[BaseMessage]] = []

    def invoke(self, messages: list[BaseMessage]) -> "_FakeVisionModel":
        self.requests.append(messages)
        return self


def test_describe_with_vision_sends_a_data_url_and_returns_the_text() -> None:
    model = _FakeVisionModel("f0 = 5032 Hz")
    assert describe_with_vision(model, b"\x89PNG fake", "image/png") == "f0 = 5032 Hz"
    [[message]] = model.requests
    text_part, image_part = message.content
    assert text_part["type"] == "text"
    assert image_part["type"] == "image_url"
    url = image_part["image_url"]["url"]
    assert url == "data:image/png;base64," + base64.b64encode(b"\x89PNG fake").decode()


def test_read_image_uses_the_vision_reader_when_given(folder: Folder) -> None:
    Image.new("RGB", (3000, 1500), "white").save(folder.root / "photo.png")
    model = _FakeVisionModel("A resonance peak at 5.0 kHz.")
    seen: list[tuple[int, str]] = []

    def vision(image_bytes: bytes, mime: str) -> str:
        seen.append((len(image_bytes), mime))
        return describe_with_vision(model, image_bytes, mime)

    result = read_image(folder, ReadImageArgs(path="photo.png"), vision=vision)
    assert result.splitlines() == [
        "[photo.png: 3000x1500 px (scaled 0.667 for reading), described by the vision model]",
        "A resonance peak at 5.0 kHz.",
    ]
    url = model.requests[0][0].content[1]["image_url"]["url"]
    sent = base64.b64decode(url.removeprefix("data:image/png;base64,"))
    assert seen == [(len(sent), "image/png")]
    assert sent.startswith(b"\x89PNG")


def test_read_image_falls_back_to_ocr_when_vision_fails(folder: Folder) -> None:
    Image.new("RGB", (320, 200), "white").save(folder.root / "blank.png")

    def broken(image_bytes: bytes, mime: str) -> str:
        raise ConnectionError("endpoint down")

    result = read_image(folder, ReadImageArgs(path="blank.png"), vision=broken)
    assert result.splitlines()[:2] == [
        "[blank.png: 320x200 px, 0 text boxes, OCR rapidocr]",
        "(vision model failed: ConnectionError: endpoint down; OCR used instead)",
    ]


def _box(x: int, y: int, text: str) -> TextBox:
    return TextBox(x=x, y=y, width=50, height=20, text=text, score=0.9)


def test_reading_order_keeps_a_slightly_uneven_line_together() -> None:
    boxes = [_box(300, 4, "right"), _box(10, 60, "below"), _box(10, 0, "left")]
    assert [box.text for box in reading_order(boxes)] == ["left", "right", "below"]


def test_read_image_caps_long_results(folder: Folder, monkeypatch: pytest.MonkeyPatch) -> None:
    Image.new("RGB", (100, 100), "white").save(folder.root / "table.png")
    many = [_box(0, 30 * n, f"row {n} " + "9" * 60) for n in range(500)]
    monkeypatch.setattr("labscribe.tools.explorer.images.ocr_boxes", lambda picture: many)
    outcome = READ_IMAGE.invoke(folder, {"path": "table.png"})
    assert len(outcome.content) <= 7000
    assert outcome.content.splitlines()[-1].endswith(
        "more text boxes not shown (output capped at 7000 characters)"
    )


def test_read_image_refuses_a_folder(folder: Folder) -> None:
    (folder.root / "raw").mkdir()
    outcome = READ_IMAGE.invoke(folder, {"path": "raw"})
    assert outcome.content == "Error: 'raw' is a folder; list it with list_dir"


@pytest.mark.parametrize("fmt", ["BMP", "TIFF", "WEBP", "GIF"])
def test_read_image_decodes_every_supported_format(folder: Folder, fmt: str) -> None:
    image = Image.new("RGB", (120, 80), "white")
    image.save(folder.root / f"blank.{fmt.lower()}", format=fmt)
    outcome = READ_IMAGE.invoke(folder, {"path": f"blank.{fmt.lower()}"})
    assert outcome.ok, outcome.content
    assert outcome.content.startswith(f"[blank.{fmt.lower()}: 120x80 px, 0 text boxes")


def test_ocr_engine_is_created_lazily_and_once() -> None:
    probe = (
        "import sys, labscribe.tools.explorer.images, labscribe.tools.explorer.ocr as m; "
        "print('rapidocr_onnxruntime' in sys.modules, m._engine is None)"
    )
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert ran.stdout.split() == ["False", "True"]
    assert ocr_engine() is ocr_engine()


def _pixel_bomb(path: Path, side: int) -> None:
    """A 1-bit black PNG of side x side pixels: its rows compress to a few KB."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)  # 1-bit greyscale
    packer = zlib.compressobj(9)
    row = bytes(1 + (side + 7) // 8)  # filter byte, then the row's packed bits
    rows = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    signature = b"\x89PNG\r\n\x1a\n"
    path.write_bytes(
        signature + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


def test_read_image_refuses_a_pixel_bomb_before_decoding_it(
    folder: Folder, recwarn: pytest.WarningsRecorder
) -> None:
    # 169 million pixels: below Pillow's own bomb error, so Pillow would decode it in full.
    _pixel_bomb(folder.root / "bomb.png", 13000)
    assert (folder.root / "bomb.png").stat().st_size < 100_000
    outcome = READ_IMAGE.invoke(folder, {"path": "bomb.png"})
    reason = TOO_MANY_PIXELS.format(width=13000, height=13000, limit=f"{MAX_PIXELS:,}")
    assert outcome.content == "Error: " + DECODE_ERROR.format(name="bomb.png", reason=reason)
    assert not recwarn.list  # refused in words the model reads, not Pillow's on the terminal


def test_a_decoder_that_spins_costs_its_worker_not_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a codec is native code that trusts the file: here one that never ends stands in for it
    Image.new("RGB", (40, 30), "white").save(tmp_path / "plot.png")
    monkeypatch.setattr(pictures, "_decode", lambda *args: str(9**9**9))
    monkeypatch.setattr(pictures, "DECODING", Bounds(2**30, 1, 20, 1 << 20))
    with pytest.raises(ToolError) as refused:
        read_image(Folder(tmp_path), ReadImageArgs(path="plot.png"))
    assert str(refused.value) == DECODE_ERROR.format(
        name="plot.png", reason="decoding it took too long"
    )


def test_a_picture_comes_back_from_its_worker_as_decoded(tmp_path: Path) -> None:
    # the pixels that cross from the worker are the picture Pillow decodes in this process:
    # transparent, and larger than is read, so converted and downscaled in the worker
    photo = tmp_path / "screen.png"
    drawn = Image.new("RGBA", (3000, 1000), (0, 0, 0, 0))
    ImageDraw.Draw(drawn).text((100, 400), "U = 4.2 V", fill=(0, 0, 0, 255))
    drawn.save(photo)
    picture = load_picture(photo, photo.name)
    with photo.open("rb") as handle:
        here = pictures._decode(handle, photo, photo.name)
    assert (picture.width, picture.height, picture.scale) == (here.width, here.height, here.scale)
    assert picture.image.tobytes() == here.image.tobytes()
