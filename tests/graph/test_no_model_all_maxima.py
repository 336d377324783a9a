"""`labscribe run --no-model` on a curve with two peaks (NIST StRD Gauss1,
bench/analysis/strd/Gauss1.csv) and a task worded as a Franck–Hertz sheet words it ("Locate
every maximum ... and list the position of each maximum"): the row lists both maxima with
their positions and the spacing, not the largest value alone."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_roles import folder_with, report_of

STRD = Path(__file__).resolve().parents[2] / "bench" / "analysis" / "strd"


def test_every_maximum_is_listed_with_positions_and_spacing(tmp_path: Path) -> None:
    rows = (STRD / "Gauss1.csv").read_text().splitlines()[1:]
    folder = folder_with(tmp_path, {
        "scan.csv": "channel,counts\n" + "\n".join(rows) + "\n",
        "sheet.md": "# Two peaks\n\nAim: find the peaks of a scan.\n\n## Tasks\n"
                    "1. Locate every maximum of the counts and list the channel of each maximum.\n"
                    "2. Give the spacing of neighbouring maxima.\n",
    })  # fmt: skip
    text = " ".join(report_of(folder, tmp_path).split())
    row = text[
        text.index("1. Locate every")
        if "1. Locate every" in text
        else text.index("Locate every maximum") :
    ].split(r"\\")[0]
    found = re.search(r"The local maxima of counts along channel \(2, .*? are at channel = "
                      r"(\S+), (\S+) \(", row)  # fmt: skip
    assert found, row
    assert (float(found[1]), float(found[2])) == (64.0, 178.0)
    assert "spacings 114" in row
    assert "The largest counts in the data" not in row
