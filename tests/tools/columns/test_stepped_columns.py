"""The set variable a handout states by a start and a step (tools/columns/stepped_columns.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.stepped_columns import stepped_columns
from labscribe.tools.formats.tables import Table, TableSummary


def counts(source: str = "a.txt") -> Table:
    frame = pd.DataFrame({"column 1": [4361.0, 4540.0, 4609.0, 4656.0]})
    column = Column(key="column 1", header="", name="Z", count=4, minimum=4361.0, maximum=4656.0)
    summary = TableSummary(
        id=source, source=source, block=0, encoding="utf-8", delimiter=" ", decimal=".",
        rows=4, columns=[column], x="column 1",
    )  # fmt: skip
    return Table(summary=summary, frame=frame)


@pytest.mark.parametrize(
    ("text", "values", "unit"),
    [
        ("Beginnend bei U = 320 V wurde die Spannung in Schritten von 10 V erhöht.",
         [320, 330, 340, 350], "V"),
        ("The voltage was raised from U = 320 V in steps of 0.01 kV, a row a step.",
         [320, 330, 340, 350], "V"),
        ("Starting at U = 320 V, the voltage was lowered in 10 V steps.",
         [320, 310, 300, 290], "V"),
        ("Napięcie U = 320 V zwiększano co 10 V.", [320, 330, 340, 350], "V"),
        ("Напряжение U = 320 В увеличивали с шагом 10 В.", [320, 330, 340, 350], "V"),
    ],
)  # fmt: skip
def test_a_variable_set_by_a_start_and_a_step_becomes_a_column(
    text: str, values: list[float], unit: str
) -> None:
    table = counts()
    stepped_columns([table], ["Plot N against U."], text)
    column = table.summary.columns[0]
    assert (column.name, column.unit) == ("U", unit)
    np.testing.assert_allclose(table.frame["U"], values)
    assert column.formed.startswith("U = 320 V + ")


@pytest.mark.parametrize(
    ("tasks", "text"),
    [
        # the tasks never use U: no column for it
        (["Compute the mean count."], "Starting at U = 320 V, in steps of 10 V."),
        # a step in another dimension than the start's is no rule for it
        (["Plot N against U."], "At U = 320 V the counts were taken in steps of 10 s."),
        # the paragraph describes another file
        (["Plot N against U."], "In `b.txt`, starting at U = 320 V, in steps of 10 V."),
    ],
)
def test_no_rule_no_column(tasks: list[str], text: str) -> None:
    table = counts()
    stepped_columns([table], tasks, text)
    assert [c.name for c in table.summary.columns] == ["Z"]
