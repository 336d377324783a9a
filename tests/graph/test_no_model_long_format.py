"""`labscribe run --no-model` on an inclined-plane lab's files as the students kept them
(Università di Catania, dennisangemi/lab1-dfa, CC BY 4.0; tests/data/real/repeats): forty
times for each of five bodies one under another, each row labelled by its body (`m1` …
`m5`), and the bodies' masses in a table of `dimension,value,uncertainty,uom`."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, plain, report_for

INCLINE = """# Piano inclinato

**Obiettivo:** determinare il coefficiente di attrito di alcuni corpi che scivolano su un piano
inclinato.

**Da determinare:**
1. Per ogni corpo, il tempo medio di percorrenza, l'accelerazione e il coefficiente di attrito μ
   con la sua incertezza.
2. La densità dei corpi m1, m2, m3 dal loro volume.

**File di dati** (CSV, unità secondo i codici UNECE Rec. 20: MTR = metro, GRM = grammo, SEC =
secondo):
- `experimental-data-1.csv`: grandezze geometriche e masse m1–m5, con incertezze.
- `experimental-data-2.csv`: le 40 misure di tempo per ciascun corpo.
- `experimental-data-3.csv`: volumi letti nel cilindro graduato prima (v1) e dopo (v2)
  l'immersione.
"""


def test_times_labelled_by_their_body_are_five_series_and_the_tasks_under_da_determinare(
    tmp_path: Path,
) -> None:
    """Before, `m1` … `m5` were read as the numbers 1 … 5, the row index was fitted against
    the times and "mass" against t; the tasks under "Da determinare:" were not found, and the
    masses table gave the quantities' names as their units. Now each body's forty times are
    a series (m1: 1.737 ± 0.058 s, the students' a = 2Δs/⟨t⟩² = 0.85 m/s² from it), the two
    tasks stand in the checklist, the list of files is no task, and m1 is 15.19 g. The
    volumes' rows are labelled `m1, m2, m3, m5`: bodies, where before 'v2 against body' was
    fitted as if the bodies were numbered 1, 2, 3, 5."""
    report = plain(report_for(
        tmp_path, ("assignment.md", INCLINE),
        (REAL / "repeats" / "catania_incline_times.csv", "experimental-data-2.csv"),
        (REAL / "repeats" / "catania_incline_parts.csv", "experimental-data-1.csv"),
        (REAL / "repeats" / "catania_incline_volumes.csv", "experimental-data-3.csv"),
    ))  # fmt: skip
    assert "index against" not in report and "mass against" not in report
    assert "against body" not in report  # `m1, m2, m3, m5` name the bodies, never count
    assert re.search(r"t \(experimental-data-2\.csv\\#1\) & 40 & 1\.737 ± 0\.058 s", report)
    assert re.search(r"t \(experimental-data-2\.csv\\#4\) & 40 & 0\.7275 ± 0\.0015 s", report)
    rows = checklist(report).split("\\midrule", 1)[1]
    assert rows.count(" & ") >= 6 and "\n3 & " not in rows  # two tasks, no file's line
    assert "Per ogni corpo, il tempo medio di percorrenza" in rows
    assert "m1 = 15.19 g (experimental-data-1.csv)" in rows
