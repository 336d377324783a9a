"""Decimal marks and thousands separators, decided per column from the whole column.

Labs write numbers as their locale does: `1.000,5` in Germany, `1,000.5` in the US,
`1'000.5` in Switzerland, `1 000,5` in France. One cell alone is often ambiguous (`1.000` is
a thousand or one, `12,500` twelve and a half or twelve thousand five hundred), so a column
is read as a whole, with the mark the file's numbers mostly write as decimal (its locale
hint): a cell that writes both marks says which one groups thousands; a column whose every
dotted (or comma'd) number groups three digits after a leading 1–999 groups thousands with
that mark where the file's decimal mark is the other one, or where a number holds it twice;
a mark that groups no thousands is a decimal mark. Text files and a workbook's numbers typed
as text are read by these same rules.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

# A number as a locale writes it: digits, marks, a sign, an exponent; a Swiss apostrophe or a
# French (narrow) no-break space between groups of three.
_NUMBER_LIKE = r"^\s*[-+]?[\d.,'\u00a0\u202f]*\d(?:[eE][-+]?\d+)?\s*$"
_GROUPED = {mark: rf"^\s*[-+]?[1-9]\d{{0,2}}(?:{re.escape(mark)}\d{{3}})+\s*$" for mark in ".,"}
# A mark that groups no thousands: after a lone 0, or before one, two or four digits or more.
_CERTAIN = {
    mark: rf"(?<![\d.,])0{re.escape(mark)}\d|\d{re.escape(mark)}(?:\d{{1,2}}|\d{{4,}})(?!\d)"
    for mark in ".,"
}
_SPACED = r"^\s*[-+]?[1-9]\d{0,2}(?:['\u00a0\u202f]\d{3})+(?:[.,]\d+)?\s*$"


def decimal_hint(text: str, delimiter: str | None = None) -> str:
    """The mark `text`'s numbers write as decimal: the one that most often can be nothing
    else (after a lone 0, or before other than three digits: `0,450`, `1.5`), else the one
    that stands between digits most often; in a tie, a semicolon-delimited file's comma (the
    convention of comma-decimal locales: `1.000;0,450`)."""
    certain = {mark: len(re.findall(_CERTAIN[mark], text)) for mark in ".,"}
    if certain["."] != certain[","]:
        return max(certain, key=certain.__getitem__)
    between = {mark: len(re.findall(rf"\d{re.escape(mark)}\d", text)) for mark in ".,"}
    if between["."] != between[","]:
        return max(between, key=between.__getitem__)
    return "," if delimiter == ";" and between[","] else "."


def thousands_mark(column: pd.Series, hint: str) -> str:
    """The mark that groups thousands in `column`'s text cells ("" where none does), decided
    from the whole column; `hint` is the file's decimal mark (decimal_hint)."""
    cells = column[column.str.match(_NUMBER_LIKE, na=False)]
    both = cells[cells.str.contains(".", regex=False) & cells.str.contains(",", regex=False)]
    if not both.empty:  # `1.000,5`: the last mark is the decimal one
        decimal = both.map(lambda cell: "." if cell.rfind(".") > cell.rfind(",") else ",")
        return "," if decimal.mode().iloc[0] == "." else "."
    for mark, other in ((".", ","), (",", ".")):
        marked = cells[cells.str.contains(mark, regex=False)]
        if marked.empty or not marked.str.match(_GROUPED[mark]).all():
            continue
        if hint == other or (marked.str.count(re.escape(mark)) > 1).any():
            return mark
    return ""


def numbers_of(column: pd.Series, hint: str) -> pd.Series:
    """`column`'s text cells as finite numbers (NaN where a cell writes none), with its thousands
    mark (thousands_mark) and its groups of apostrophes or no-break spaces taken out and any
    other comma read as a decimal mark."""
    text = column.str.strip()
    spaced = text.str.match(_SPACED, na=False)
    text = text.where(~spaced, text.str.replace(r"['\u00a0\u202f]", "", regex=True))
    if mark := thousands_mark(column, hint):
        text = text.str.replace(mark, "", regex=False)
    numbers = pd.to_numeric(text.str.replace(",", ".", regex=False), errors="coerce")
    return numbers.where(np.isfinite(numbers))  # `inf` is no reading
