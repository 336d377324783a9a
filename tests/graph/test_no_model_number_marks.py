"""`labscribe run --no-model` on numbers written as their lab's locale writes them: a German
semicolon CSV whose frequencies group thousands with dots (`1.000;0,450`, read as 1.0 before)
and a workbook whose readings were typed as text with decimal commas and thousands dots. The
fitted slope is the one the file means, not a thousand times it."""

from __future__ import annotations

import re
from pathlib import Path

import xlsxwriter
from test_no_model import no_model_report

FREQUENCIES = [1000, 2000, 3500, 5000, 7500, 10000, 12500, 15000]
SLOPE = 4.5e-4  # V/Hz
HANDOUT = (
    "# Übertragungsverhalten\n\n## Aufgaben\n"
    "1. Tragen Sie die Spannung U gegen die Frequenz f auf.\n"
    "2. Bestimmen Sie die Steigung einer Ausgleichsgeraden durch die Messpunkte.\n"
)


def _german(number: float, decimals: int) -> str:
    """`12.500,250`: thousands dots, a decimal comma."""
    return f"{number:,.{decimals}f}".replace(",", "_").replace(".", ",").replace("_", ".")


def _volts(frequency: int) -> float:
    return SLOPE * frequency + 0.003 * ((frequency // 1000) % 3 - 1)


def _slope(report: str, unit: str = "V/Hz") -> float:
    """The fitted slope, written `0.45 ± 0.01 V/Hz` or `(449.72 ± 0.17)e-6 V/Hz`."""
    found = re.search(rf"slope = \(?([\d.]+) ± [\d.]+\)?(?:e([-+]?\d+))? {unit}", report)
    assert found is not None, report
    return float(found[1]) * 10 ** int(found[2] or 0)


def test_a_german_csv_groups_thousands_with_dots(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "Anleitung.md").write_text(HANDOUT)
    rows = [f"{_german(f, 0)};{_german(_volts(f), 3)}" for f in FREQUENCIES]
    assert rows[0] == "1.000;0,450"  # the row the issue names
    (folder / "messung.csv").write_text("f [Hz];U [V]\n" + "\n".join(rows) + "\n")
    report = no_model_report(folder, tmp_path)
    assert abs(_slope(report) / SLOPE - 1) < 0.02
    assert "15000 & 6.747" in report  # the excerpt's last row


def test_a_workbooks_numbers_typed_as_text_are_read_as_the_column_writes_them(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "Anleitung.md").write_text(HANDOUT)
    book = xlsxwriter.Workbook(folder / "messung.xlsx")
    sheet = book.add_worksheet("Messung")
    sheet.write_row(0, 0, ["f [Hz]", "U [mV]"])
    for row, frequency in enumerate(FREQUENCIES, start=1):
        # typed as text, as a sheet pasted from a German export keeps them
        sheet.write_string(row, 0, _german(frequency, 1))
        sheet.write_string(row, 1, _german(1000 * _volts(frequency), 2))
    book.close()
    report = no_model_report(folder, tmp_path)
    assert abs(_slope(report, "mV/Hz") / (1000 * SLOPE) - 1) < 0.02
