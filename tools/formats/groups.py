"""A column of words that splits a table into groups (`células`: tratadas / no tratadas, R's
Puromycin `state`: treated / untreated; `sample`: A / B; `material`: Cu / Al): each group is a
table of its own, titled by the column and its word, so every fit and summary is made per
group and named, never pooled silently and never dropped without a word.

A column is such a label when every row of the run writes a word in it (no number), or its
first row and the first of each later block do and the rows below them are blank (`1ra
serie` over its eleven readings, then `2da serie`), it holds between MIN_GROUPS and
MAX_GROUPS distinct words, and each word labels MIN_GROUP_ROWS rows or more. A column of
free text (a comment on each row) has as many words as rows and is no label.
"""

from __future__ import annotations

import pandas as pd

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.counting import counts_rows

MIN_GROUPS = 2
MAX_GROUPS = 6
MIN_GROUP_ROWS = 3


def group_column(cells: pd.DataFrame, values: pd.DataFrame, header: list[str] | None) -> int | None:
    """The position (a column of `cells`) of the column of words that labels groups in this
    run of rows, or None: `cells` the run's text, `values` its numbers (NaN where none)."""
    for position in cells.columns:
        if values[position].notna().any():
            continue
        words = cells[position].astype(str).str.strip()
        blanks = (words == "").any()  # a label only where it heads its block, or none
        if blanks and not _heads_blocks(words):
            continue
        counts = group_words(cells, position).value_counts()
        named = header is None or position >= len(header) or bool(header[position].strip())
        if (
            (named or blanks)
            and MIN_GROUPS <= len(counts) <= MAX_GROUPS
            and (counts.min() >= MIN_GROUP_ROWS)
        ):
            return position
    return None


def _heads_blocks(words: pd.Series) -> bool:
    """Whether `words` write each label once, on the first row of its block, the rows
    below it blank (not a column of labels on every row that a shorter series leaves
    blank at its end)."""
    written = words[words != ""]
    return words.iloc[0] != "" and written.nunique() == len(written) < len(words) / 2


def group_words(cells: pd.DataFrame, position: int) -> pd.Series:
    """The word that labels each row: its own, or the last one above it where the label
    heads its block and the rows below are blank."""
    words = cells[position].astype(str).str.strip()
    return words.mask(words == "").ffill().fillna("")


def group_title(title: str, header: str, word: str) -> str:
    """`células: tratadas`, after the block's own title where it has one."""
    named = f"{header.strip()}: {word}" if header.strip() else word
    return f"{title}, {named}" if title else named


def without_index(columns: list[Column], frame: pd.DataFrame) -> tuple[list[Column], pd.DataFrame]:
    """The columns and values without an unnamed first column that numbers the rows of the
    whole table (R's row names): split into groups, the second group's numbers no longer
    start at 1, so the group could not tell it from a variable."""
    first = columns[0] if columns else None
    named = sum(bool(c.header.strip()) for c in columns) > 1
    if first is None or first.header.strip():
        return columns, frame
    if not counts_rows("", frame[first.key].to_numpy(), first=True, named_others=named):
        return columns, frame
    return columns[1:], frame.drop(columns=[first.key])
