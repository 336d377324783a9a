"""Decimal marks and thousands separators per column (tools.formats.number_marks), on the ways
locales write numbers: German `1.000,5`, US `1,000.5`, Swiss `1'000.5`, French `1 000,5`."""

import math

import pandas as pd
import pytest

from labscribe.tools.formats.number_marks import decimal_hint, numbers_of


def _read(cells: list[str], hint: str) -> list[float]:
    return numbers_of(pd.Series(cells, dtype=str), hint).tolist()


@pytest.mark.parametrize(
    ("cells", "hint", "expected"),
    [
        # a comma-decimal file's dots group thousands where every one groups three digits
        (["1.000", "2.500", "12.000"], ",", [1000, 2500, 12000]),
        # ... but not where one cannot (0.998): the column's dots are decimal
        (["1.000", "0.998"], ",", [1.0, 0.998]),
        (["0,450", "1,5"], ",", [0.45, 1.5]),
        # `12,500` is twelve thousand five hundred beside decimal points, 12.5 beside commas
        (["12,500", "3,750"], ".", [12500, 3750]),
        (["12,500", "3,750"], ",", [12.5, 3.75]),
        # a cell with both marks says which is decimal
        (["1.234,5", "12,0"], ".", [1234.5, 12.0]),
        (["1,234.5", "12.0"], ",", [1234.5, 12.0]),
        # a mark twice in a number can only group thousands
        (["1.234.567", "2.000.000"], ".", [1234567, 2000000]),
        (["1'000.5", "2\u00a0500,25"], ".", [1000.5, 2500.25]),
        (["1e-3", "-2,5E+2"], ",", [0.001, -250.0]),
    ],
)
def test_a_column_is_read_with_the_marks_its_cells_agree_on(
    cells: list[str], hint: str, expected: list[float]
) -> None:
    assert _read(cells, hint) == pytest.approx(expected)


def test_text_and_non_finite_cells_are_no_numbers() -> None:
    assert all(math.isnan(v) for v in _read(["abc", "", "inf", "-inf"], "."))


@pytest.mark.parametrize(
    ("text", "delimiter", "hint"),
    [
        ("1.000;0,450", ";", ","),  # the German row: 0,450 can only be decimal
        ("1.000;2.000", ";", "."),  # no comma at all
        ("1,5 2,25\n3,0 4,5", None, ","),
        ("12.500 3.750", None, "."),
        ("1,000.5 2,000.25", None, "."),
    ],
)
def test_a_files_decimal_mark_is_the_one_that_can_be_nothing_else(
    text: str, delimiter: str | None, hint: str
) -> None:
    assert decimal_hint(text, delimiter) == hint
