"""A column the file gives as the mean of the repeats before it stands for them
(tools.formats.stated_means): the real workbook of a Peruvian capacitor lab (tests/data/real), and
columns that only come close to a mean."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from labscribe.tools.columns.column import describe
from labscribe.tools.formats.stated_means import mark_stated_means
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).parents[2] / "data" / "real"


def test_the_workbooks_means_stand_for_their_three_charges() -> None:
    [table] = read_data(Folder(REAL / "capacitor"), "uni_datalab2.xlsx").tables
    lineage = {c.key: c.formed_from for c in table.summary.columns if c.formed_from}
    assert lineage == {"QA": ["Q1_A", "Q2_A", "Q3_A"], "QB": ["Q1_B", "Q2_B", "Q3_B"]}


def test_a_column_near_the_mean_or_a_mean_of_other_columns_is_no_stated_mean() -> None:
    first = np.array([0.587, 1.18, 2.7, 3.52])
    second = np.array([0.623, 1.17, 2.34, 3.6])
    mean = (first + second) / 2
    frame = pd.DataFrame({
        "V": [50, 100, 200, 300], "Q1": first, "Q2": second,
        "rounded": np.round(mean, 2) + 0.01,  # one hundredth off the mean written to 2 places
        "Q": np.round(mean, 4),
    })  # fmt: skip
    columns = describe(frame, [(name, name, "") for name in frame.columns])
    mark_stated_means(columns, frame)
    assert {c.key: c.formed_from for c in columns} == {
        "V": [], "Q1": [], "Q2": [], "rounded": [], "Q": [],
    }  # fmt: skip  # Q is no mean of the column just before it, nor of V, Q1, Q2 and it
    columns = describe(frame[["V", "Q1", "Q2", "Q"]], [(n, n, "") for n in ("V", "Q1", "Q2", "Q")])
    mark_stated_means(columns, frame[["V", "Q1", "Q2", "Q"]])
    assert columns[3].formed_from == ["Q1", "Q2"]


def test_tiny_values_are_compared_to_their_own_digits() -> None:
    """A monochromator's wavelength written twice (4.0e-07 m) beside a current of 1e-23 A:
    the copy is no mean of the wavelength and the current, though both round to 0."""
    wavelength = np.arange(4e-7, 8e-7, 1e-8)
    frame = pd.DataFrame(
        {"lam": wavelength, "I": 1e-9 * (wavelength - 6e-7) ** 2, "lam2": wavelength}
    )
    columns = describe(frame, [(name, name, "") for name in frame.columns])
    mark_stated_means(columns, frame)
    assert [c.formed_from for c in columns] == [[], [], []]
