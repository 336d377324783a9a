"""The −3 dB band a task asks for is read off the quantity it names, or off a table's one
response: never off another column that happens to peak (a filter's time shift)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from labscribe.tools.columns.column import Column
from labscribe.tools.fits.half_power import half_power_bands
from labscribe.tools.formats.tables import Table, TableSummary

FREQ = np.array([100.0, 200, 400, 700, 1000, 1500, 2000, 4000, 8000])


def _table(columns: dict[str, np.ndarray]) -> Table:
    frame = pd.DataFrame(columns)
    described = [Column(key=k, header=k, name=k, unit="", count=len(v)) for k, v in columns.items()]
    summary = TableSummary(id="d.txt", source="d.txt", block=0, encoding="utf-8", delimiter=" ",
                           decimal=".", rows=len(frame), columns=described, x="freq")  # fmt: skip
    return Table(summary=summary, frame=frame)


def test_a_column_the_task_does_not_name_beside_others_gives_no_band() -> None:
    shift = 1e6 * np.arctan(FREQ / 1650) / (2 * np.pi * FREQ)  # µs, rises then falls
    shift[0] = 0.0
    u_out = 5 / np.sqrt(1 + (FREQ / 1650) ** 2)
    table = _table({"freq": FREQ, "u_in": np.full(9, 5.1), "u_out": u_out, "delta_t": shift})
    task = "Sprawdź na wykresie, przy jakiej częstotliwości transmitancja spada do 1/√2."
    assert half_power_bands([task], [table]) == []


def test_a_tables_one_response_gives_its_band() -> None:
    voltage = 1 / np.sqrt(1 + 4 * (FREQ / 1000 - 1000 / FREQ) ** 2)
    table = _table({"freq": FREQ, "U": voltage})
    (band,) = half_power_bands(["Find the half-power points of the resonance."], [table])
    assert band.kind == "band" and band.value is not None and band.value > 0
