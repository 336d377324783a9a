"""`labscribe run --no-model` on counting and timing records as students keep them
(tests/data/real/counting, repeats, optics, thermistor, procoda): a Geiger counter's
readings numbered beside their counts with the time of each stated only in the handout, an
activation lab's header under a banner, run times numbered out of order with their unit as a
UN/CEFACT code, a chart of colours the guide calls no measurements, a model the task only
asks to linearise, and two clocks side by side."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, plain, report_for

COUNTING = REAL / "counting"


def lab_report(tmp_path: Path, handout: str, *data: tuple[Path, str]) -> str:
    """The plain text of the no-model report on `data` under an assignment.md of `handout`."""
    return plain(report_for(tmp_path, ("assignment.md", handout), *data))


BA137M = """# Radioactive decay

## Data files
- `cesium.txt` — Ba-137m sample, 20 min of data, 20 s per sample.
- `fiesta.txt` — Fiesta-ware plate, 3 s per sample.

Counting uncertainty is √N; the background is measured separately, its mean N̄b is subtracted
from every sample point.

## Tasks
1. Fit the exponential model y = b·exp(a·t) directly with nonlinear least squares.
2. Fit a straight line to (t, ln y) (linear regression on the log-transformed data, with
   propagated uncertainties u(z) = u(y)/y).
3. Make a normalised histogram of the plate counts.
4. Overlay the Poisson probability mass function with μ equal to the mean count and a
   Gaussian with the same mean and standard deviation √μ.
"""


def test_a_counters_readings_that_decay_are_fitted_against_the_time_the_handout_gives(
    tmp_path: Path,
) -> None:
    """`Sample Number, Number of Counts` falling from 631 to the background is a decay, not 60
    repeats with five outliers: the handout's "20 s per sample" makes its time axis, and the
    exponential's rate is 0.00446 per second (t½ = 155 s before the background is taken off,
    the students' 152.7 s after). The plate's counts, which follow no reading's number, stay
    repeats (mean 40.03, as the students found), and the Gaussian of a histogram is no curve
    fitted to either."""
    report = lab_report(
        tmp_path,
        BA137M,
        (COUNTING / "uoft_cesium20min20sec2024.txt", "cesium.txt"),
        (COUNTING / "uoft_fiesta20min3sec2024.txt", "fiesta.txt"),
    )
    assert "t [s] as t = 20 s × (Sample Number" in report
    assert re.search(
        r"y = b·exp\(a·t\)[^\n]*& b = 662\.5 ± 7\.1; a = -0\.004460 ± 0\.000071 1/s", report
    )
    assert "Number of Counts (fiesta.txt) & 400 & 40.03 ± 0.34" in report
    assert "Number of Counts (cesium.txt) & 60" not in report  # no repeats of a decay
    assert "gaussian" not in report.lower().split("\\section{the assignment")[0]
    assert "the assignment says the values are coded" not in report  # "its mean is subtracted"
    rows = checklist(report)
    assert "u(z) = u(y)/y”" not in rows  # an uncertainty's propagation is no model


BACKGROUND = """# Radioactive decay

## Data files
- `cesium20min20sec2024.txt` — Ba-137m sample, 20 s per sample.
- `background20min20sec2024.txt` — background, 20 s per sample.

## Tasks
1. Subtract the mean background from the sample counts and compute the uncertainty of each
   point.
2. Fit a straight line to (t, ln y) (linear regression on the log-transformed data).
3. Fit the exponential model y = b·exp(a·t) directly with nonlinear least squares.
4. Compute the half-life and its uncertainty from each fit.
"""


def test_the_background_a_task_takes_off_gives_the_students_half_lives(tmp_path: Path) -> None:
    """The background file of the same settings (`…20min20sec2024`) counts 3.33 a reading;
    taken off each of the source's, the line of ln N gives t½ = 152.6 ± 2.2 s and the
    exponential 148.2 ± 2.2 s, as the students found (152.7 ± 2.1 s and 148.5 ± 2.0 s), and
    both half-lives answer the task that asks for one from each fit."""
    report = lab_report(
        tmp_path,
        BACKGROUND,
        (COUNTING / "uoft_cesium20min20sec2024.txt", "cesium20min20sec2024.txt"),
        (COUNTING / "uoft_background20min20sec2024.txt", "background20min20sec2024.txt"),
    )
    assert "less the background's mean, 3.333 ± 0.28 a reading" in report
    rows = checklist(report)
    half_lives = re.findall(r"t½ = ([\d.]+) ± ([\d.]+) s", rows)
    assert half_lives == [("152.6", "2.2"), ("148.2", "2.2")], rows
    assert "uncorrected" not in rows


ACTIVATION = """# Versuch 702 – Aktivierung mit Neutronen

Untergrund, mit einem Messintervall von Δt = 300 s gemessen:
N_U = {129, 143, 144, 136, 139, 126, 158} Impulse (je 300 s).

1. **Vanadium:** Messintervall Δt = 30 s. Daten: `Vanadium.dat` (Spalten: t in s, N in Impulsen
   pro Intervall).
2. **Rhodium:** Messintervall Δt = 15 s. Daten: `Rhodium.dat` (Spalten: t in s, N in Impulsen
   pro Intervall).

## Aufgaben

1. Bestimmen Sie aus den Untergrundmessungen die mittlere Untergrundrate mit Unsicherheit.
2. Stellen Sie die Vanadium-Daten in einem halblogarithmischen Diagramm dar und bestimmen Sie
   die Halbwertszeit T durch Anpassen des Zerfallsgesetzes.
"""


def test_an_activation_labs_header_under_a_banner_names_its_columns_and_a_task_its_file(
    tmp_path: Path,
) -> None:
    """`# Zerfall von Rhodium, Messzeit t= 15s`, `#`, `# t[s]   N[Impulse]`: the line after the
    empty comment names the columns (blanks part them over comma-separated data; Vanadium's
    `t` takes its seconds from the handout's "Spalten: t in s"). The task about "die
    Vanadium-Daten" gets Vanadium.dat's decay and its half-life, 201 ± 12 s (the students'
    215 ± 7 s after subtracting the background the fit here leaves as its offset); the
    background readings the handout lists give the mean the first task asks for (the
    students' 139 ± 4)."""
    report = lab_report(
        tmp_path,
        ACTIVATION,
        (COUNTING / "v702_vanadium.dat", "Vanadium.dat"),
        (COUNTING / "v702_rhodium.dat", "Rhodium.dat"),
    )
    assert "N [Impulse] against t [s] (Rhodium.dat)" in report
    assert "N [Impulse] against t [s] (Vanadium.dat)" in report
    assert "column 1" not in report
    rows = checklist(report)
    background = rows.split("\n1 & ", 1)[1].split("\\\\", 1)[0]
    assert "N_U (assignment.md): mean 139.3 ± 4.0 (standard error; n = 7)" in background
    row = rows.split("\n2 & ", 1)[1].split("\\\\", 1)[0]
    assert "t½ = 201 ± 12 s" in row
    assert "Vanadium.dat" in row and "Rhodium.dat" not in row


ROTATION = """# Esperienza 1 – Energia cinetica di rotazione

## Dati
- `experimental-data-1.csv`: 20 misure di t1 e 20 di t2, con incertezza strumentale e unità.
- `experimental-data-2.csv`: masse delle ruote e diametri, con incertezze.

## Compiti
1. Calcolare i tempi medi ⟨t1⟩ e ⟨t2⟩ e il momento d'inerzia I con la sua incertezza.
"""


def test_run_times_numbered_out_of_order_are_repeats_in_the_unit_their_code_gives(
    tmp_path: Path,
) -> None:
    """`index` runs 14, 16, 15, 17: still the rows' numbers, so t1 and t2 are 20 repeats each
    (not a power law against the index), in seconds as `uom` = `SEC` says; "i tempi medi
    ⟨t1⟩ e ⟨t2⟩" asks for their means. The wheels' masses and diameters (`KGM`, `MTR`) are
    constants of the setup, not five repeats of one quantity."""
    report = lab_report(
        tmp_path,
        ROTATION,
        (REAL / "repeats" / "catania_rotation_times.csv", "experimental-data-1.csv"),
        (REAL / "repeats" / "catania_rotation_wheels.csv", "experimental-data-2.csv"),
    )
    assert "against index" not in report
    assert "t1 (experimental-data-1.csv) & 20 & 1.5400 ± 0.0011 s" in report
    assert "t2 (experimental-data-1.csv) & 20 & 2.0227 ± 0.0024 s" in report
    assert "value (experimental-data-2.csv)" not in report
    assert "Diametro ruote grandi" in report and "0.09886" in report
    row = checklist(report)
    assert "t1 (experimental-data-1.csv): mean 1.5400 ± 0.0011 s" in row
    assert "t2 (experimental-data-1.csv): mean 2.0227 ± 0.0024 s" in row


PHOTOELECTRIC = """# TP N.º 2 – Efecto fotoeléctrico

## Datos
- `data_2023.csv`: el potencial de frenado medido por tres grupos (columnas G1, G2, G3), en volt.
- `colores.csv`: tabla de referencia de rangos de longitud de onda por color (no son mediciones).

## Tareas
1. Ajustar una recta a todos los puntos y hallar la pendiente y su error.
"""


def test_a_chart_the_guide_calls_no_measurements_is_not_fitted(tmp_path: Path) -> None:
    """`colores.csv`, the wavelength range of each colour, was fitted as "the straight line
    task 1 asks for" (L_max against L_min): the guide says it holds no measurements."""
    report = lab_report(
        tmp_path,
        PHOTOELECTRIC,
        (REAL / "optics" / "utn_photoelectric_data_2023.csv", "data_2023.csv"),
        (REAL / "optics" / "utn_colores.csv", "colores.csv"),
    )
    assert "L_max" not in report
    assert "colores.csv: the assignment calls it no measurements" in report
    assert "too few points (3)" in report  # the three lines' voltages, said so


THERMISTOR = """# Ponte de Wheatstone

- `termistor_raw.csv`: leituras da ponte em função da temperatura.

## Tarefas
1. Parte II: linearize o modelo do termistor.
2. Faça o gráfico de ln(R_NTC) versus 1/T e obtenha os coeficientes linear e angular.
"""


def test_a_task_that_only_asks_to_linearise_a_model_fits_no_line_of_the_raw_columns(
    tmp_path: Path,
) -> None:
    """ "linearize o modelo do termistor" names no axes: the line is of ln R against 1/T, which
    the next task names; a straight line of the decade box's reading against 1/T is no
    answer to it."""
    report = lab_report(
        tmp_path,
        THERMISTOR,
        (REAL / "thermistor" / "f329_termistor_raw.csv", "termistor_raw.csv"),
    )
    assert "the model task 1 asks for" not in report
    assert "(the model tasks 1 and" not in report


GAS_TRANSFER = """# Gas transfer

1. #3 Plot the representative data set showing dissolved oxygen vs. time
2. #6: Create graph of C_ratio vs time with lin regression
"""


def test_one_word_for_the_time_names_one_of_two_clocks_not_two_predictors(
    tmp_path: Path,
) -> None:
    """ProCoDA's flow test keeps `Day fraction since midnight on` and `Time` side by side:
    "vs. time" names the time, and was read as two predictors of a multiple regression."""
    report = lab_report(
        tmp_path,
        GAS_TRANSFER,
        (REAL / "procoda" / "gas_transfer_200.txt", "200.txt"),
    )
    assert "as predictors" not in report
    assert "several predictors" not in report


def test_counts_that_fall_with_their_readings_number_are_no_repeats_without_a_stated_time(
    tmp_path: Path,
) -> None:
    """Where the handout gives no time a reading took, the decay is fitted against the
    readings' number, its axis saying so, rather than averaged as 60 repeats of one value."""
    report = lab_report(
        tmp_path,
        "# Decay\n\n1. Fit an exponential decay to the counts.\n",
        (COUNTING / "uoft_cesium20min20sec2024.txt", "cesium.txt"),
    )
    assert "Number of Counts against Sample Number (cesium.txt) & exponential" in report
    assert "Repeated measurements" not in report


ULTRASOUND = """# Versuch US1 – Ultraschall

- `a.txt` – Impuls-Echo-Verfahren: Zylinderhöhe h [mm], Laufzeit t [µs].

Aufgaben:
1. Tragen Sie die Zylinderhöhen gegen die halbierten Laufzeiten auf und führen Sie eine
   lineare Ausgleichsrechnung durch. Deuten Sie Steigung (Schallgeschwindigkeit).
"""


def test_a_line_against_halved_times_is_not_the_line_against_the_times(tmp_path: Path) -> None:
    """The echo crosses the cylinder twice: the task plots h against t/2, whose slope is the
    speed of sound (the students' 2760 m/s). The line of h against t as measured (1.380
    mm/µs, half of it) is said not to be that fit, never offered as its answer."""
    report = lab_report(
        tmp_path,
        ULTRASOUND,
        (REAL / "ultrasound" / "tu_dortmund_us1_pulse_echo.txt", "a.txt"),
    )
    assert "slope = 1.380 ± 0.019 mm/µs" in report
    assert "(not the model task 1 asks for, which is a straight-line fit)" in report
    row = checklist(report)
    assert "not “halbierten Laufzeiten”" in row and "1.380" not in row


FALLING_BALL = """# Versuch 212 – Zähigkeit von Flüssigkeiten

Messdatei `1.txt`: eine Spalte ohne Kopfzeile, 45 Fallzeiten t in Sekunden – je 5
Wiederholungen für 9 Kugeldurchmesser in der Reihenfolge d = 9; 8; 7,144; 6; 5; 4; 3; 2; 1,5 mm.

Aufgaben:
1. Bestimmen Sie für jeden Kugeldurchmesser die mittlere Sinkgeschwindigkeit mit Fehler.
"""


def test_a_column_of_repeats_in_blocks_the_handout_states_is_a_series_a_block(
    tmp_path: Path,
) -> None:
    """ "je 5 Wiederholungen für 9 Kugeldurchmesser in der Reihenfolge d = 9; 8; …": the 45
    times are nine series of five, each labelled by its diameter (9 mm: 8.020 ± 0.047 s;
    1.5 mm: 195.0 ± 1.3), not one mean of 49.9 with the slowest balls as outliers, and the
    diameters listed in order are settings, not repeats of one."""
    report = lab_report(
        tmp_path,
        FALLING_BALL,
        (REAL / "repeats" / "heidelberg_v212_fall_times.txt", "1.txt"),
    )
    assert "d = 9 mm (1.txt) & 5 & 8.020 ± 0.047" in report
    assert "d = 1.5 mm (1.txt) & 5 & 195.0 ± 1.3" in report
    assert "all series" not in report and "d (assignment.md)" not in report
    row = checklist(report)
    assert "by series (mean ± standard error): d = 9 mm 8.020 ± 0.047, d = 8 mm 10.070" in row
