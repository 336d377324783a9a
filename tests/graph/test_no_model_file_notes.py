"""`labscribe run --no-model` on handouts that describe their files before their tasks, as
labs write them: a list of the data files and their columns under "Dane" or "Messdaten" (no
task among them), values stated of one file ("Impulse N in t = 5 s") that are that file's
alone, a plateau slope that is not the slope of all the points, and a −3 dB point asked of a
quantity the files do not hold. The layouts are those of a Polish electronics lab's RC
filter and a German radioactivity lab; the numbers are made here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from test_no_model_headers import report
from test_no_model_unit_headers import checklist_row

FILTER = """# Badanie układu RC: filtr dolnoprzepustowy

## Wstęp teoretyczny
α = |U_out/U_in| = 1 / √(ω²R²C² + 1). Dla częstości granicznej transmitancja spada do 1/√2.

## Dane
`dane.txt` — kolumny oddzielone spacjami:
- `freq` — częstotliwość f [Hz],
- `u_in` — amplituda napięcia wejściowego [V],
- `u_out` — amplituda napięcia wyjściowego [V],
- `delta_t` — przesunięcie czasowe przebiegów [µs].

## Zadania
1. Oblicz transmitancję α = U_out/U_in wraz z niepewnością i przedstaw ją w funkcji
   częstotliwości (oś f logarytmiczna).
2. Wyznacz częstotliwość graniczną; sprawdź na wykresie, przy jakiej częstotliwości
   transmitancja spada do 1/√2.
"""
COUNTER = """# Radioaktivität

- Zählrate R = N/t.

## Messdaten
- `kennlinie.csv` — Zählrohrcharakteristik: Spannung U (V), Ereignisse N in t = 30 s.
- `abstand.csv` — Abstandsgesetz: Abstand d (cm), Impulse N in t = 5 s.

## Aufgaben
1. Zählrohrcharakteristik: Zählrate gegen Spannung auftragen, Plateausteigung bestimmen.
2. Abstandsgesetz prüfen (geeignete Linearisierung, z. B. 1/√R gegen d) und d₀ angeben.
"""


def test_a_files_columns_are_no_tasks_and_no_column_stands_for_the_transmittance(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "assignment.md").write_text(FILTER)
    f = np.array([10.0, 100, 300, 600, 1000, 1500, 2000, 3000, 5000, 10000])
    u_out = 5.0 / np.sqrt(1 + (f / 1650) ** 2)
    shift = 1e6 * np.arctan(f / 1650) / (2 * np.pi * f) * (f > 50)  # µs; 0 where unseen
    u_in = np.where(f < 1000, 5.1, 5.0)  # the generator sags a little under load
    rows = "\n".join(f"{a:g} {i:g} {b:.3f} {c:.1f}"
                      for a, i, b, c in zip(f, u_in, u_out, shift, strict=True))  # fmt: skip
    (folder / "dane.txt").write_text(f"freq u_in u_out delta_t\n{rows}\n")
    text = report(folder, tmp_path)
    assert checklist_row(text, 1).startswith("Oblicz transmitancję")
    assert "−3 dB points, where delta" not in text
    assert "formed from the data as the assignment asks: \\ensuremath{\\alpha}" in text


def test_a_files_counting_time_and_a_plateau_slope(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "assignment.md").write_text(COUNTER)
    volts = np.arange(300.0, 560.0, 20.0)
    counts = np.where(volts < 380, 0, 1500 + 2.0 * (volts - 380)).round()
    (folder / "kennlinie.csv").write_text(
        "U,N\n" + "\n".join(f"{u:g},{n:g}" for u, n in zip(volts, counts, strict=True)) + "\n"
    )
    d = np.arange(2.0, 14.0, 1.0)
    (folder / "abstand.csv").write_text(
        "d,N\n" + "\n".join(f"{x:g},{round(2000 / (x + 2) ** 2)}" for x in d) + "\n"
    )
    text = report(folder, tmp_path)
    plain = text.replace("\\ensuremath{\\surd}", "√").replace("\\_\\allowbreak{}", "_")
    # t = 5 s is the distance file's; the characteristic's 30 s is its own
    assert "R = N/t, with t = 5 s as stated" in plain
    assert "R = N/t, with t = 30 s as stated" in plain
    # the distance law's axis beside d only
    assert "1/√R [s^-1^(-1/2)] against U" not in plain.replace("\\textasciicircum{}", "^")
    # a line through the onset and the plateau is not the plateau's slope
    assert "(the model task 1 asks for)" not in plain
    assert "not done: the task works on part of the data only" in checklist_row(plain, 1)
