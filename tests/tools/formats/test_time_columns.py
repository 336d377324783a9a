"""Logger time stamps as x: Unix times and dates are fitted against the time elapsed since
the first row, through the analysis scan runs (tools.analysis.folder.analyse)."""

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xlsxwriter

from labscribe.tools.analysis.analysis_digest import digest
from labscribe.tools.analysis.folder import analyse
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.tool import Folder

TAU = 900.0  # s: Newton's cooling, T = 22 °C + 60 K·exp(−t/τ)
START = pd.Timestamp("2024-03-01 10:15:00")
SECONDS = np.arange(0.0, 3600.0, 30.0)


def cooling(stamp: Callable[[float], str], header: str, sep: str = ",") -> str:
    rng = np.random.default_rng(20)
    kelvin = 22 + 60 * np.exp(-SECONDS / TAU) + 0.1 * rng.standard_normal(len(SECONDS))
    rows = [f"{stamp(s)}{sep}{t:.3f}" for s, t in zip(SECONDS, kelvin, strict=True)]
    return "\n".join([f"{header}{sep}T (C)", *rows]) + "\n"


def unix(s: float) -> str:
    return f"{START.timestamp() + s:.0f}"


def at(fmt: str) -> Callable[[float], str]:
    return lambda s: (START + pd.Timedelta(seconds=s)).strftime(fmt)


STAMPS = {
    "unix seconds": (unix, "time", "2024-03-01 10:15:00 UTC"),
    "unix milliseconds": (lambda s: f"{(START.timestamp() + s) * 1000:.0f}", "timestamp_ms",
                          "2024-03-01 10:15:00 UTC"),
    "ISO 8601": (at("%Y-%m-%dT%H:%M:%S"), "time", "2024-03-01 10:15:00"),
    "ISO with a blank": (at("%Y-%m-%d %H:%M:%S"), "Date Time", "2024-03-01 10:15:00"),
    "day first": (at("%d/%m/%Y %H:%M:%S"), "Timestamp", "2024-03-01 10:15:00"),
    "time of day": (at("%H:%M:%S.%f"), "Time", "10:15:00"),
}  # fmt: skip


def cooling_fit(folder: Path) -> Fit:
    analysis = analyse(Folder(folder))
    assert not any("resonance" in (fit.model or "") for fit in analysis.fits)
    return next(fit for fit in analysis.fits if fit.model == "exponential")


@pytest.mark.parametrize("kind", list(STAMPS))
def test_analyse_fits_a_cooling_curve_against_the_time_since_its_first_stamp(
    tmp_path: Path, kind: str
) -> None:
    stamp, header, origin = STAMPS[kind]
    (tmp_path / "cooling.csv").write_text(cooling(stamp, header))
    fit = cooling_fit(tmp_path)
    decay = fit.parameter("decay")
    assert abs(decay.value - TAU) <= 2 * decay.stderr and decay.unit == "s"
    assert fit.good and fit.x_unit == "s"
    assert f"{header.removesuffix('_ms')} as seconds since {origin}" in fit.notes


def test_analyse_reads_a_time_of_day_past_midnight_as_later(tmp_path: Path) -> None:
    late = pd.Timestamp("2024-03-01 23:30:00")
    text = cooling(lambda s: (late + pd.Timedelta(seconds=s)).strftime("%H:%M:%S"), "time", ";")
    (tmp_path / "night.csv").write_text(text)
    fit = cooling_fit(tmp_path)
    assert abs(fit.parameter("decay").value - TAU) <= 2 * fit.parameter("decay").stderr
    assert "time as seconds since 23:30:00" in fit.notes


def test_a_workbooks_time_cells_past_midnight_are_later(tmp_path: Path) -> None:
    # time cells (no date) from 23:30 on: after midnight they count on, not back to 0
    late = pd.Timestamp("2024-03-01 23:30:00")
    book = xlsxwriter.Workbook(tmp_path / "night.xlsx")
    sheet = book.add_worksheet()
    clock = book.add_format({"num_format": "hh:mm:ss"})
    sheet.write_row(0, 0, ["time", "T (C)"])
    for row, s in enumerate(SECONDS, start=1):
        sheet.write_datetime(row, 0, (late + pd.Timedelta(seconds=s)).to_pydatetime().time(),
                             clock)  # fmt: skip
        sheet.write_number(row, 1, 22 + 60 * np.exp(-s / TAU))
    book.close()
    fit = cooling_fit(tmp_path)
    assert abs(fit.parameter("decay").value - TAU) < 1e-3
    assert "time as seconds since 23:30:00" in fit.notes


def test_a_day_fraction_past_midnight_is_later(tmp_path: Path) -> None:
    # a logger's `Day fraction since midnight on` starts again at 0 after midnight
    fraction = ((23.5 * 3600 + SECONDS) % 86_400) / 86_400
    kelvin = 22 + 60 * np.exp(-SECONDS / TAU)
    rows = [f"{f:.8f},{t:.4f}" for f, t in zip(fraction, kelvin, strict=True)]
    (tmp_path / "log.csv").write_text(
        "Day fraction since midnight on,T (C)\n" + "\n".join(rows) + "\n"
    )
    fit = cooling_fit(tmp_path)
    assert abs(fit.parameter("decay").value - TAU) < 0.5


def test_analyse_leaves_a_large_measured_time_in_its_unit(tmp_path: Path) -> None:
    """A time in ns that reaches 1e9 is a measurement, not a clock: its unit says so."""
    rows = "\n".join(f"{1.2e9 + 1e6 * i:.0f},{0.5 * i}" for i in range(20))
    (tmp_path / "delay.csv").write_text(f"time (ns),x (mm)\n{rows}\n")
    table = analyse(Folder(tmp_path)).tables[0]
    assert (table.column("time").unit, table.column("time").minimum) == ("ns", 1.2e9)
    assert table.column("time").origin == ""


def test_digest_says_when_x_counts_from_a_time_stamp(tmp_path: Path) -> None:
    (tmp_path / "cooling.csv").write_text(cooling(at("%Y-%m-%dT%H:%M:%S"), "time"))
    assert "x = time [s since 2024-03-01 10:15:00] 0…3570" in digest(analyse(Folder(tmp_path)))


def test_analyse_fits_a_workbook_against_the_time_since_its_first_date_cell(
    tmp_path: Path,
) -> None:
    book = xlsxwriter.Workbook(tmp_path / "cooling.xlsx")
    sheet = book.add_worksheet()
    stamp = book.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})
    sheet.write_row(0, 0, ["time", "T (C)"])
    for row, s in enumerate(SECONDS, start=1):
        sheet.write_datetime(row, 0, (START + pd.Timedelta(seconds=s)).to_pydatetime(), stamp)
        sheet.write_number(row, 1, 22 + 60 * np.exp(-s / TAU))
    book.close()
    fit = cooling_fit(tmp_path)
    assert abs(fit.parameter("decay").value - TAU) < 1e-3
    assert "time as seconds since 2024-03-01 10:15:00" in fit.notes


REAL = Path(__file__).parents[2] / "data" / "real" / "procoda"


def test_a_day_fraction_is_the_clock_and_the_time_a_task_names(tmp_path: Path) -> None:
    """ProCoDA's `Day fraction since midnight on` (a real aeration log) is the time, in days:
    seconds since its first row, the time of day it counts from said; "DO versus time" is
    against it, not against `Fill time (s)`, a control value of the aeration program."""
    (tmp_path / "aeration_100.xls").write_bytes((REAL / "aeration_100.xls").read_bytes())
    regression = (
        "Plot ln[(C* - C)/(C* - C0)] versus elapsed time and determine k_vl by linear regression."
    )
    (tmp_path / "handout.txt").write_text(
        f"Tasks\n1. Plot DO concentration versus time.\n2. {regression}\n"
    )
    analysis = analyse(Folder(tmp_path))
    # the task's axis is formed of C* and C0, which no column holds: no column is fitted in
    # its place as "the model the task asks for"
    assert not [fit for fit in analysis.fits if fit.requested == regression]
    [table] = analysis.tables
    clock = table.column(table.x or "")
    assert clock.name == "Day fraction since midnight on" and clock.unit == "s"
    assert clock.origin == "15:14:05.394105"
    assert clock.minimum == 0.0
    frame = np.loadtxt(REAL / "aeration_100.xls", skiprows=1, usecols=0, delimiter="\t")
    assert clock.maximum == pytest.approx((frame[-1] - frame[0]) * 86400, rel=1e-9)
