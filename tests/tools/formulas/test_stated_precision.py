"""tools.columns.stated_precision: the precision a handout states in its prose for a column becomes
that column's uncertainty, in the column's unit. The sentences follow real handouts: TU
Dortmund's V353 ("Ablesegenauigkeit"), a Spanish spring lab ("incertidumbre")."""

from __future__ import annotations

import numpy as np
import pytest
from test_formed_columns import table_of

from labscribe.tools.columns.stated_precision import stated_precision
from labscribe.tools.formats.tables import Table


def _sigma(table: Table, key: str) -> np.ndarray | None:
    paired = [c for c in table.summary.columns if c.uncertainty_of == key]
    return table.frame[paired[0].key].to_numpy() if paired else None


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Spalte `T` = Zeit t in ms, Spalte `U` = Kondensatorspannung U_C in Volt "
         "(Ablesegenauigkeit ca. 0,01 V).", 0.01),
        ("The column `U` is read off the scope to ± 20 mV.", 0.02),
        ("`U` (V): incertidumbre de 5 mV", 0.005),
        ("Spalte `U`: Kondensatorspannung, die Zeit hat eine Ablesegenauigkeit von 0,1 ms.",
         None),  # the precision is the time's, in ms: no voltage
        ("`U` in V, accuracy 2 %.", None),  # a share is no value in the column's unit
    ],
)  # fmt: skip
def test_a_precision_stated_for_a_column_is_its_uncertainty(
    sentence: str, expected: float | None
) -> None:
    table = table_of({"T": ("ms", [0.0, 0.1, 0.2]), "U": ("V", [0.54, 0.48, 0.42])})
    stated_precision(table, sentence)
    sigma = _sigma(table, "U")
    if expected is None:
        assert sigma is None
    else:
        assert sigma is not None
        np.testing.assert_allclose(sigma, expected)
    assert _sigma(table, "T") is None


def test_a_column_with_its_own_uncertainty_column_keeps_it() -> None:
    table = table_of({"h": ("cm", [39.2, 38.3]), "dh": ("cm", [0.1, 0.1])})
    table.summary.columns[1].uncertainty_of = "h"
    stated_precision(table, "The height `h` is read to ± 0.5 cm.")
    assert [c.key for c in table.summary.columns] == ["h", "dh"]
