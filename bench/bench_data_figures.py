"""Time of labscribe's own data figures, on the example and at the bounds of a table.

    .venv/bin/python bench/bench_data_figures.py

Prints, for each folder, the analysis time and the time of each figure `draw_data_figures`
draws (data, best fit, residuals): the example (301 rows), and the worst case the readers
allow, a table cut at MAX_LINES rows with MAX_COLUMNS columns, whose figures are drawn
from MAX_PLOT_POINTS points a series. The first figure of a process pays for matplotlib's
import and font setup; the rest are the steady cost.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from labscribe.tools.analysis.data_figures import draw_data_figures
from labscribe.tools.analysis.folder import analyse
from labscribe.tools.formats.tables import MAX_COLUMNS, MAX_LINES
from labscribe.tools.tool import Folder

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "rlc-resonance"


def widest_table(folder: Path) -> None:
    """A table as large as the readers read: MAX_LINES rows of MAX_COLUMNS columns."""
    rows = MAX_LINES - 1
    t = np.linspace(0, 10, rows)
    rng = np.random.default_rng(0)
    columns = [t] + [
        (k + 1) * np.exp(-t / (1 + k % 5)) + 0.01 * rng.standard_normal(rows)
        for k in range(MAX_COLUMNS - 1)
    ]
    header = ",".join(["t [s]"] + [f"U{k} [V]" for k in range(1, MAX_COLUMNS)])
    np.savetxt(folder / "wide.csv", np.column_stack(columns), delimiter=",", fmt="%.5g",
               header=header, comments="")  # fmt: skip


def measure(name: str, folder: Path, out: Path) -> None:
    started = time.monotonic()
    analysis = analyse(Folder(folder))
    analysed = time.monotonic() - started
    stamps: list[float] = []
    started = time.monotonic()
    records = draw_data_figures(
        Folder(folder),
        analysis,
        out,
        announce=lambda number, total: stamps.append(time.monotonic()),
    )
    ended = time.monotonic()
    each = [b - a for a, b in zip(stamps, [*stamps[1:], ended], strict=True)]
    shown = ", ".join(f"{seconds * 1000:.0f}" for seconds in each)
    print(
        f"{name}: analysis {analysed:.2f} s; {len(records)} figures in {ended - started:.2f} s "
        f"(ms each, re-reading the table included: {shown})"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        example = root / "example"
        shutil.copytree(EXAMPLE, example)
        measure("example", example, root / "out-example")
        wide = root / "wide"
        wide.mkdir()
        widest_table(wide)
        size = (wide / "wide.csv").stat().st_size
        measure(f"{MAX_LINES} rows x {MAX_COLUMNS} columns ({size / 1e6:.1f} MB)", wide,
                root / "out-wide")  # fmt: skip
    print(f"command: {' '.join([sys.executable, *sys.argv])}")


if __name__ == "__main__":
    main()
