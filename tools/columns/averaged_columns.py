"""A quantity the handout defines row by row and asks the mean of ("D = rF/φ. Bilden Sie
den Mittelwert mit Fehler"): each row is one determination of one quantity, so its rows are
a series of repeated measurements (tools.fits.repeats), not a response to the table's variable."""

from __future__ import annotations

import re

from labscribe.tools.assignment.role_phrases import sentences
from labscribe.tools.assignment.task_needs import MEAN
from labscribe.tools.formats.tables import Table
from labscribe.tools.formulas.formula_notation import formulas_in


def mark_averaged(tables: list[Table], tasks: list[str]) -> None:
    """Mark each formed column (tools.formulas.formed_columns) whose formula a task writes and whose
    mean the same task asks for as averaged (Column.averaged)."""
    defined = {
        left
        for task in tasks
        if MEAN.search(task)
        for sentence in sentences(task)
        for formula in formulas_in(sentence)
        if (left := _left_side(formula))
    }
    for table in tables:
        for column in table.summary.columns:
            if column.formed_from and column.formed and column.name in defined:
                column.averaged = True


def _left_side(formula: str) -> str:
    left = formula.partition("=")[0].strip()
    return left if re.fullmatch(r"[^\W\d]\w*", left) else ""
