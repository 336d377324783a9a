"""What decoding each file in a bounded worker costs (tools.formats.decoding), and that it changes
nothing: every real file of tests/data/real read in the worker and in this process, the
tables, rows, columns and values compared, and the time of each way. Then the same for the
other decoders that run in such a worker (tools.worker): a PDF's text (the example's
assignment.pdf) and a picture (a 3000 x 2000 JPEG drawn here), each read REPEATS times.

    .venv/bin/python bench/analysis/decoder_worker.py
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from labscribe.tools.explorer import pictures
from labscribe.tools.explorer.reading import read_part
from labscribe.tools.formats.decoding import decoded
from labscribe.tools.formats.pdf_text import read_pdf
from labscribe.tools.formats.readers import NoTable
from labscribe.tools.formats.tables import DataFile, read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).resolve().parents[2] / "tests" / "data" / "real"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rlc-resonance"
REPEATS = 20


def timed(read, rel: str) -> tuple[DataFile | str, float]:
    started = time.perf_counter()
    try:
        result: DataFile | str = read(Folder(REAL), rel)
    except NoTable as exc:
        result = f"NoTable: {exc}"
    return result, time.perf_counter() - started


def same(one: DataFile | str, other: DataFile | str) -> bool:
    if isinstance(one, str) or isinstance(other, str):
        return one == other
    return (
        [t.summary for t in one.tables] == [t.summary for t in other.tables]
        and all(np.array_equal(a.frame.to_numpy(), b.frame.to_numpy(), equal_nan=True)
                and list(a.frame.columns) == list(b.frame.columns)
                for a, b in zip(one.tables, other.tables, strict=True))
        and one.metadata == other.metadata and one.unread == other.unread
    )  # fmt: skip


def main() -> int:
    files = [f["path"] for f in json.loads((REAL / "expected.json").read_text())["files"]]
    decoded(Folder(REAL), files[0])  # the worker server starts once, before the timing
    worker, here, differ = [], [], []
    for rel in files:
        in_worker, worker_seconds = timed(decoded, rel)
        in_process, process_seconds = timed(read_data, rel)
        worker.append(worker_seconds)
        here.append(process_seconds)
        if not same(in_worker, in_process):
            differ.append(rel)
    extra = [w - h for w, h in zip(worker, here, strict=True)]
    print("| files | in this process, median | in a worker, median | worker's cost, median "
          "(max) | read alike |")  # fmt: skip
    print("|---|---|---|---|---|")
    print(f"| {len(files)} | {statistics.median(here) * 1000:.1f} ms | "
          f"{statistics.median(worker) * 1000:.1f} ms | {statistics.median(extra) * 1000:.1f} ms "
          f"({max(extra) * 1000:.0f} ms) | {len(files) - len(differ)}/{len(files)} |")  # fmt: skip
    for rel in differ:
        print(f"read otherwise in the worker: {rel}")
    others = [_pdf_text(), _picture()]
    print()
    print("| decoder | in this process, median | in a worker, median | worker's cost | alike |")
    print("|---|---|---|---|---|")
    for name, here_s, worker_s, alike in others:
        print(f"| {name} | {here_s * 1000:.1f} ms | {worker_s * 1000:.1f} ms | "
              f"{(worker_s - here_s) * 1000:.1f} ms | {'yes' if alike else 'no'} |")  # fmt: skip
    return 1 if differ or not all(alike for *_, alike in others) else 0


def _medians(
    in_process: Callable[[], object], in_worker: Callable[[], object]
) -> tuple[float, float, bool]:
    """Median seconds of REPEATS reads each way, and whether both read the same."""
    here, worker = [], []
    for _ in range(REPEATS):
        started = time.perf_counter()
        one = in_process()
        here.append(time.perf_counter() - started)
        started = time.perf_counter()
        other = in_worker()
        worker.append(time.perf_counter() - started)
    return statistics.median(here), statistics.median(worker), one == other


def _pdf_text() -> tuple[str, float, float, bool]:
    pdf = EXAMPLE / "assignment.pdf"
    here, worker, alike = _medians(
        lambda: read_pdf(pdf.open("rb"), pdf.name, 0, 200, 7000).text,
        lambda: read_part(pdf).text,
    )
    return f"PDF text ({pdf.name}, pypdf)", here, worker, alike


def _picture() -> tuple[str, float, float, bool]:
    from PIL import Image, ImageDraw

    with tempfile.TemporaryDirectory() as folder:
        photo = Path(folder) / "screen.jpg"
        drawn = Image.new("RGB", (3000, 2000), "white")
        ImageDraw.Draw(drawn).text((200, 900), "U = 4.21 V   I = 12.5 mA", fill="black")
        drawn.save(photo, quality=90)

        def in_process() -> bytes:
            with photo.open("rb") as handle:
                return pictures._decode(handle, photo, photo.name).image.tobytes()

        here, worker, alike = _medians(
            in_process, lambda: pictures.load_picture(photo, photo.name).image.tobytes()
        )
    return "picture (3000 x 2000 JPEG, Pillow)", here, worker, alike


if __name__ == "__main__":
    sys.exit(main())
