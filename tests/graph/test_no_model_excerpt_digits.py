"""`labscribe run --no-model` on NIST StRD AtmWtAg (tests/data/real/repeats/AtmWtAg.dat;
joshday/NISTStatisticalReferenceData.jl): the excerpt shows the atomic weights with the
digits in which they differ, never twenty rows of "107.868"."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from test_no_model import no_model_report

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "repeats"


def test_excerpt_shows_the_digits_that_differ(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    shutil.copy(REAL / "AtmWtAg.dat", folder)
    text = no_model_report(folder, tmp_path)
    excerpt = text[text.index("Excerpt of") :]
    shown = re.findall(r"107\.868\d*", excerpt)
    assert len(shown) >= 5 and all(len(value) == len("107.8681568") for value in shown)
    assert len(set(shown)) == len(shown)
