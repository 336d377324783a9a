"""`labscribe run --no-model` on series of repeats side by side under a repeat number (`rep`
1 to 5, a column per instrument; NIST StRD AtmWtAg's first five atomic weights of each
instrument, tests/data/real/repeats/AtmWtAg.dat) with a metrology handout's questions: the
ANOVA row gives F and p (scipy.stats.f_oneway), the pooled-SD row the pooled within-series
standard deviation, the grand-mean row the mean ± standard error, each stated, never "not
done" with a fit against the repeat number in their place."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from scipy import stats
from test_no_model_roles import folder_with, report_of

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "repeats"
SHEET = """\
# Are our instruments interchangeable?

## Questions
1. Carry out a one-way analysis of variance with instrument as the factor. Report the F statistic and its p-value.
2. Give the pooled within-instrument (repeatability) standard deviation.
3. Report the grand mean atomic weight with its standard error.
"""  # noqa: E501


def test_anova_pooled_sd_and_grand_mean_answered(tmp_path: Path) -> None:
    data = np.loadtxt(REAL / "AtmWtAg.dat", skiprows=60)
    one, two = (data[data[:, 0] == k, 1][:5] for k in (1, 2))
    rows = "".join(f"{k}\t{a:.7f}\t{b:.7f}\n" for k, (a, b) in enumerate(zip(one, two), 1))  # noqa: B905
    folder = folder_with(
        tmp_path, {"sheet.md": SHEET, "repeats.txt": "rep\tAgWt_1\tAgWt_2\n" + rows}
    )
    text = " ".join(report_of(folder, tmp_path).split())
    checklist = text[text.index("Carry out a one-way") :]
    f = stats.f_oneway(one, two).statistic
    within = (np.sum((one - one.mean()) ** 2) + np.sum((two - two.mean()) ** 2)) / 8
    anova_row = checklist.split(r"\\")[0]
    assert f"F = {f:.3g}" in anova_row and "not done" not in anova_row
    pooled_row = checklist.split(r"\\")[1]
    assert re.search(r"pooled within-series standard deviation (\S+)", pooled_row)[1] == (
        f"{np.sqrt(within):.4g}"
    )
    assert "not done" not in pooled_row
    grand_row = checklist.split(r"\\")[2]
    assert f"mean {np.concatenate([one, two]).mean():.7f}" in grand_row
