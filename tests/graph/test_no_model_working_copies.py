"""`labscribe run --no-model` on a student's workbook that keeps working copies of its
sheets beside them: a copy with a row counter added, another with one column's sign
flipped, and on the primary sheets a sign-flipped column two cells to the right of five
names. The report analyses each measurement once, under the names that stand over its
columns, answers "P_max for each cell" from each sheet, and says what it set aside; a file it
cannot read is named with the reason. The workbook is real (AGH lab 134, solar cells:
tests/data/real/workbooks/solar_cells_agh_134.xlsx, SOURCES.md); the handouts are ours."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_no_model_checklist import REAL, checklist, report_for

WORKBOOK = (REAL / "workbooks" / "solar_cells_agh_134.xlsx", "ogniwa.xlsx")
BROKEN = "Skrypt.xlsx"

POLISH = """# Ćwiczenie 134: ogniwa fotowoltaiczne

Arkusze `Polikrystaliczne`, `Monokrystaliczne` i `Amorficzne` pliku ogniwa.xlsx: napięcie U [V]
i prąd I [mA] przy zmienianym oporze obciążenia.

## Zadania
1. Narysuj charakterystykę prądowo-napięciową I(U) oraz moc P = U·I w funkcji napięcia.
2. Podaj moc maksymalną P_max dla każdego ogniwa.
3. Oblicz sprawność każdego ogniwa i porównaj wyniki.
"""

ENGLISH = """Lab 134: three solar cells

The sheets of ogniwa.xlsx hold the voltage U [V] and current I [mA] of each cell as the load
was changed.

Tasks:
1. Plot I against U and the power P = U·I as a function of the voltage.
2. Give the maximum power P_max for each cell.
3. Work out each cell's efficiency and compare them.
"""

# The largest P = UI of each primary sheet, and the voltage where it is (numpy on the sheets)
MAXIMA = ("13.4867 mW at U = 2.001 V", "32.109 mW at U = 0.33 V", "8.7125 mW at U = 6.97 V")


@pytest.mark.parametrize(("name", "handout"), [("instrukcja.md", POLISH), ("lab.txt", ENGLISH)])
def test_each_measurement_once_under_its_own_names(tmp_path: Path, name: str, handout: str) -> None:
    broken = tmp_path / BROKEN
    broken.write_bytes(b"PK\x03\x04 not a workbook")
    report = report_for(tmp_path, (name, handout), WORKBOOK, (broken, BROKEN))
    results = report.split("\\section{Results}", 1)[1].split("\\section{", 1)[0]
    results = results.split("\\caption{Excerpt", 1)[0]  # an excerpt lists the file as read
    # the copies and the flipped column are never fitted, nor is the copy's row counter
    assert "Nr pomiaru" not in results and "column 6" not in results
    assert "\\#2" not in results and "\\#3" not in results and "\\#5" not in results
    # the mono sheet's names stand over its columns: I against U is the current, in mA
    assert "I [mA] against U [V] (ogniwa.xlsx\\#4)" in results
    assert "I is taken as the response to U, as the assignment says" in results
    # P = U·I is the sheet's own P column: neither formed again nor regressed on U and I
    assert "U·I [" not in results and "multiple linear regression" not in results
    material = report.split("\\section{Material in the folder}", 1)[1]
    assert "ogniwa.xlsx\\#2 (sheet politoCSV) repeats the values of ogniwa.xlsx\\#1" in material
    assert "which repeats the negatives of j = I/S row for row" in material
    assert f"not analysed: {BROKEN}:" in material
    rows = checklist(report).split("\\\\")
    maxima = next(row for row in rows if row.strip().startswith("2 &"))
    assert all(value in maxima for value in MAXIMA), maxima
    efficiency = next(row for row in rows if row.strip().startswith("3 &"))
    assert " i is not" not in efficiency
