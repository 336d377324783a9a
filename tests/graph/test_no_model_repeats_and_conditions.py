"""`labscribe run --no-model` on real files of labs nobody here chose (tests/data/real/
SOURCES.md): a quantity the handout forms row by row and asks the mean of, timings read
side by side, headers that write a unit after a slash and a condition after it, columns a
handout lists one an item, each sheet's maximum, a temperature that only stays put, and a
logger's placeholder headers. The handouts are ours, in the labs' words."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, plain, report_for


def _report(tmp_path: Path, handout: str, *files: tuple[str, str]) -> str:
    """The plain no-model report of `handout` beside the real `files` (path under
    tests/data/real, name in the folder)."""
    return plain(report_for(
        tmp_path, ("assignment.md", handout), *((REAL / path, name) for path, name in files)
    ))  # fmt: skip


V101 = (
    "# V101 – Das Trägheitsmoment\n\n"
    "Messdateien: `winkelrichtgroesse.txt` (Abstand r, Kraft F, Winkel φ), `zweikoerper.txt` "
    "(je 10 Messungen der Zeit für vier Perioden von Kugel und Zylinder), `puppen.txt` (je 10 "
    "Messungen der Zeit für fünf Perioden der Puppe in zwei Stellungen).\n\n"
    "## Aufgaben\n"
    "1. Bestimmen Sie die Winkelrichtgröße D der Drillachse mit der statischen Methode: im "
    "Abstand r wird eine Federwaage eingehängt und der Stab um den Winkel φ ausgelenkt; "
    "D = rF/φ. Bilden Sie den Mittelwert mit Fehler.\n"
    "2. Bestimmen Sie aus den Schwingungsdauern die Trägheitsmomente der Kugel und des "
    "Zylinders.\n"
)


def test_a_quantity_formed_row_by_row_is_averaged_not_fitted(tmp_path: Path) -> None:
    """D = rF/φ writes r·F without a sign, the angle is in German degrees (`Grad`, which
    pint reads as a gigaradian), and the task asks D's mean: before, D was not formed and a
    line of r against F stood in the report; the students' own D (2.4 N cm) has a factor 2
    their formula does not, and rF/φ gives 1.19 N cm."""
    report = _report(
        tmp_path,
        V101,
        ("conventions/dortmund_v101_winkelrichtgroesse.txt", "winkelrichtgroesse.txt"),
    )
    assert "D [mN·cm] as D = F·r/(phi in rad)" in report
    assert re.search(r"D \(winkelrichtgroesse\.txt\) & 10 & 1192 ± 90 mN·cm", report)
    assert not re.search(r"D \[mN·cm\] against", report)  # a repeated determination, no curve
    first = checklist(report).split("\n1 & ", 1)[1].split("\n2 & ", 1)[0]
    assert "mean 1192 ± 90 mN·cm" in first and "not done" not in first


def test_timings_side_by_side_are_each_a_series_of_repeats(tmp_path: Path) -> None:
    """Ten timings of a sphere beside ten of a cylinder, and of a doll in two poses: before,
    each was fitted against the other (R² = 0.18 and 0.10)."""
    report = _report(
        tmp_path,
        V101,
        ("repeats/dortmund_v101_zweikoerper.txt", "zweikoerper.txt"),
        ("repeats/dortmund_v101_puppen.txt", "puppen.txt"),
    )
    assert re.search(r"Kugel:4T \(zweikoerper\.txt\) & 10 & 6\.851 ± 0\.039 s", report)
    assert re.search(r"Zylinder:4T \(zweikoerper\.txt\) & 10 & 6\.173 ± 0\.055 s", report)
    assert re.search(r"1\.Stellung:5T \(puppen\.txt\) & 10 & 2\.216 ± 0\.036 s", report)
    assert "against Kugel" not in report and "against 1.Stellung" not in report
    assert "all 2 columns" not in report  # two poses make no pool


LESLIE = (
    "# Wärmestrahlung mit dem Leslie-Würfel\n\n"
    "Messdateien: `ansprechzeit.txt` (Zeit t, Thermospannung U), `stefan-boltzmann.txt` "
    "(Temperatur und Thermospannung der vier Flächen), `abstandsmessung.txt` (Abstand x, "
    "Thermospannung bei 50 °C und bei 93 °C).\n\n"
    "## Aufgaben\n"
    "1. Nehmen Sie die Thermospannung als Funktion der Zeit auf und schätzen Sie die "
    "Ansprechzeit ab.\n"
    "2. Messen Sie bei ca. 50 °C und bei ca. 93 °C die Thermospannung für verschiedene "
    "Abstände und passen Sie U(x) = a/x² + b an.\n"
)


def test_a_unit_after_a_slash_a_word_in_brackets_and_a_model_on_its_own_table(
    tmp_path: Path,
) -> None:
    """`U_therm1/microVolt(50celsius)` is U_therm1 at 50 °C in µV, `Metall(rau)` no metal
    in ronto-astronomical units; U(x) = a/x² + b is no model of the voltage against the time
    (before: a = −307 ± 31 µV·s², 'the model task 2 asks for')."""
    report = _report(
        tmp_path,
        LESLIE,
        ("conventions/dortmund_v207_ansprechzeit.txt", "ansprechzeit.txt"),
        ("conventions/dortmund_v207_stefan-boltzmann.txt", "stefan-boltzmann.txt"),
        ("conventions/dortmund_v207_abstandsmessung.txt", "abstandsmessung.txt"),
    )
    assert "U_therm1 (50celsius) [µV] against Abstand x [cm]" in report
    assert "Metall(rau) against" in report and "rau/K" not in report
    assert not re.search(
        r"U_therm \[µV\] against Zeit t \[s\] \(ansprechzeit\.txt\) & U\(x\)", report
    )
    assert "task 2 asks for" not in report


BUSOLA = (
    "# Busola stycznych\n\n"
    "`wyniki.csv` to tabela pomiarów grupy, bez wiersza nagłówka. Kolejne kolumny to:\n"
    "1. Lp.;\n2. liczba zwojów N;\n3. prąd I [mA];\n4. kąt wychylenia w lewo [°];\n"
    "5. kąt wychylenia w prawo [°];\n6. średni kąt wychylenia [°];\n"
    "7. obliczone przez grupę B₀ z danego wiersza [μT];\n8. (B_i − B₀)² [(μT)²].\n\n"
    "## Zadania\n1. Przyjąć B₀ jako średnią arytmetyczną z B_i.\n"
)


def test_columns_a_handout_lists_one_an_item_are_named(tmp_path: Path) -> None:
    """A headerless file whose columns the handout lists as a numbered list under "Kolejne
    kolumny to:": before, they were `column 1` … `column 8`, the row number the variable."""
    report = _report(tmp_path, BUSOLA, ("headerless/agh_busola_wyniki.csv", "wyniki.csv"))
    assert "I [mA] against N" in report
    assert "column 3" not in report and "against column 1" not in report
    assert "only numbers the rows" in report


def test_each_sheets_maximum_where_the_task_asks_each_cells(tmp_path: Path) -> None:
    """ "P_max każdego ogniwa" (of each cell), one sheet a cell: before, only the first
    sheet's 13.4867 mW; the students have 13.487, 32.109 and 8.713 mW."""
    handout = (
        "# Ogniwo słoneczne\n\n## Zadania\n1. Wyznaczyć moc maksymalną P_max każdego ogniwa.\n"
    )
    row = checklist(report_for(
        tmp_path, ("assignment.md", handout),
        (REAL / "workbooks" / "agh_ogniwo_INF3Z3CW134WYN.xlsx", "ogniwa.xlsx"),
    )).split("\n1 & ", 1)[1]  # fmt: skip
    for largest in ("13.4867 mW", "32.109 mW", "8.7125 mW"):
        assert f"The largest P = UI in the data is {largest}" in row


KONDUKTOMETRIE = (
    "# Konduktometrie\n\n"
    "- `titration.csv`: zugegebenes Volumen der Maßlösung (mL), Leitfähigkeit (mS/cm), "
    "Temperatur (°C).\n"
    "- `temperatur.csv`: Temperatur (°C), Leitfähigkeit (mS/cm) einer Elektrolytlösung beim "
    "Abkühlen.\n\n"
    "## Aufgaben\n"
    "1. Tragen Sie die Leitfähigkeit gegen das Titrationsvolumen auf.\n"
    "2. Tragen Sie die Leitfähigkeit gegen die Temperatur auf und passen Sie eine Gerade an.\n"
)


def test_a_temperature_that_stays_put_is_no_variable_of_the_tasks_line(tmp_path: Path) -> None:
    """The titration's temperature stays at 20.1–21.2 °C: the line of conductivity against
    temperature is the cooling file's, not the titration's (before, 'the model task 2 asks
    for; it does not describe the data' on titration.csv); `mS/cm` is millisiemens, where
    it was read as milliseconds per centimetre."""
    report = _report(
        tmp_path,
        KONDUKTOMETRIE,
        ("conventions/wechsler_titration.csv", "titration.csv"),
        ("conventions/wechsler_temperatur.csv", "temperatur.csv"),
    )
    assert re.search(
        r"Leitfähigkeit \[mS/cm\] against Temperatur \[°C\] \(temperatur\.csv\) & linear: "
        r"slope·x \+ intercept \(the model task 2 asks for\)", report
    )  # fmt: skip
    assert not re.search(r"\(titration\.csv\) & [^&]*\(the model task 2 asks for", report)
    assert "ms/cm" not in report


CALORIMETRY = (
    "# Calorimetry\n\n"
    "A digital thermometer logs every 0.5 s (files: header lines starting with `##`, then "
    "two columns: time t / s and temperature θ / °C).\n"
    "Heater: U = 9.6 V, I = 1.37 A; the heating interval has to be taken from the curve.\n\n"
    "## Tasks\n"
    "1. Plot the temperature–time curve.\n"
    "2. Determine the heating time t_C and the electrical energy Q = U·I·t_C.\n"
)


def test_placeholder_headers_take_the_handouts_names_and_a_step_is_no_heating_time(
    tmp_path: Path,
) -> None:
    """`##x-data  y-data` name nothing: the handout's t and θ do. "the heating time t_C" is
    not the logger's `Time step` of 0.5 s (before: Q = 6.576 from Q = U·I·t_C)."""
    report = _report(tmp_path, CALORIMETRY, ("logger/wechsler_solving_enthalpy_1.dat", "run1.dat"))
    assert "x-data" not in report and "y-data" not in report
    assert re.search(r"t was taken as the variable", report)
    assert "Q = U·I·t_C" not in report.split("\\section{The assignment's tasks}", 1)[0]


POHL = (
    "# Pohlsches Rad\n\n"
    "Messdatei `1.3_700mA.csv` (CASSY): Schwingung mit Wirbelstrombremse bei I_B = 700 mA.\n\n"
    "## Aufgaben\n"
    "1. Passen Sie ein Modell mit linearer Dämpfung (φ(t) = φ0 e^(−λ0 t) sin(ω t + ϕ)) an φ(t) "
    "an und bestimmen Sie daraus die Eigenfrequenz ω0 und die Dämpfung λ0.\n"
)


def test_cassy_greek_letters_and_a_unit_with_a_slash_of_its_own(tmp_path: Path) -> None:
    """`&b` is CASSY's β (its Symbol font), and `w_1 / rad/s` is in rad/s: before, the
    columns read `Weg &b_A1` and `w_1 / rad` in seconds. The model of φ(t) is fitted to the
    one column of an angle (before, to every column beside the time, each labelled the
    model the task asks for)."""
    report = _report(tmp_path, POHL, ("cassy/kit_pohl_1.3_700mA.csv", "1.3_700mA.csv"))
    assert "Weg \\ensuremath{\\beta}_A1" in report and "&b" not in report
    assert "zeiliche Ableitung w_1 [rad/s]" in report
    # φ(t) is the wheel's angle: its model is fitted to the angle alone, not to the
    # logger's frequency axis, voltage, angular velocity or the angle's spectrum beside it
    asked = r"[^&\n]* & [^&\n]*\(the model task 1 asks for"
    assert re.search(r"Weg \\ensuremath\{\\beta\}_A1 \[rad\] against Zeit t \[s\]" + asked, report)
    for other in ("Frequenz f", "Spannung U_B1", "zeiliche Ableitung w_1", "FFT fft"):
        assert not re.search(rf"{other} \[[^]]*\] against Zeit t \[s\]" + asked, report)


KOHLRAUSCH = (
    "# Konduktometrie\n\n"
    "- `wasser.csv`: Probe (deionisiert / Leitungswasser / Leitfähigkeitswasser), Temperatur "
    "(°C), Leitfähigkeit (µS/cm); je drei Messungen.\n"
    "- `titration.csv`: zugegebenes Volumen der Maßlösung (mL), Leitfähigkeit (mS/cm), "
    "Temperatur (°C).\n"
    "- `konzentration.csv`: zugegebenes Volumen Na₂CO₃-Stammlösung (mL), Leitfähigkeit "
    "(µS/cm).\n\n"
    "## Aufgaben\n"
    "1. Geben Sie für die drei Wasserproben Mittelwert und 95-%-Vertrauensbereich der "
    "Leitfähigkeit und der Temperatur an.\n"
    "2. Tragen Sie die Leitfähigkeit gegen das Titrationsvolumen auf.\n"
    "3. Berechnen Sie die molare Leitfähigkeit Λ = κ/c, tragen Sie Λ gegen √c auf "
    "(Kohlrausch’sches Quadratwurzelgesetz) und bestimmen Sie durch lineare Regression die "
    "Grenzleitfähigkeit Λ₀ (Achsenabschnitt, mit 95-%-Vertrauensbereich).\n"
    "4. Tragen Sie die Leitfähigkeit gegen die Temperatur auf, passen Sie eine Gerade an und "
    "bestimmen Sie κ(25 °C) mit Vertrauensbereich.\n"
)


def test_a_definition_a_condition_and_means_per_sample(tmp_path: Path) -> None:
    """Λ = κ/c defines what task 3 then plots against √c: it is no model of κ, which had
    been taken as the concentration file's variable; the titration's temperature, which
    only stays put, is no variable of task 4's line (before, the conductivity was taken as
    its response to it); three readings per water sample, each within 0.5 % in kelvin of
    one temperature (the file's 19.1–21.2 °C had been taken for each sample's), are
    averaged as task 1 asks: the students' 4.567 ± 1.186, 305.633 ± 2.736 and 1.269 ±
    0.176 µS/cm; and no sample's mean answers the confidence interval of a fit's value,
    which `Leitfähigkeit` had matched in `Grenzleitfähigkeit` (a word cut at its umlaut)."""
    report = _report(
        tmp_path,
        KOHLRAUSCH,
        ("conventions/wechsler_wasser.csv", "wasser.csv"),
        ("conventions/wechsler_titration.csv", "titration.csv"),
        ("conventions/wechsler_konzentration.csv", "konzentration.csv"),
    )
    assert "konzentration.csv: Volumen was taken as the variable" in report
    assert "titration.csv: Volumen was taken as the variable" in report
    assert "response to Temperatur" not in report
    first = checklist(report).split("\n1 & ", 1)[1].split("\n2 & ", 1)[0]
    for interval in ("4.6 ± 1.2 µS/cm", "305.6 ± 2.7 µS/cm"):
        assert f"95 % interval {interval}" in first
    assert re.search(r"Leitfähigkeit \(wasser\.csv\\#3\) & 3 & 1\.269 ± 0\.041 µS/cm", report)
    for task in ("3", "4"):
        row = checklist(report).split(f"\n{task} & ", 1)[1].split("\n", 1)[0]
        assert "wasser.csv" not in row


FARADAY = (
    "# V46 – Faraday-Effekt an Halbleitern\n\n"
    "- `Magnetfeld.txt` – Hallsondenmessung: Abstand zur Probenmitte (mm), B (mT).\n"
    "- `1_2e18.txt` – Wellenlänge (µm), Winkel bei Polung „rrbb“ (Grad, Bogenminuten), "
    "Winkel bei Polung „rbrb“ (Grad, Bogenminuten).\n\n"
    "## Aufgaben\n"
    "1. Den Verlauf B(z) um die Probenposition darstellen.\n"
    "2. Den Drehwinkel θ = ½(θ₁ − θ₂) berechnen; die Rohdaten gegen λ² auftragen.\n"
    "3. Eine lineare Ausgleichsrechnung θ_frei(λ²) durchführen und aus den Steigungen die "
    "effektive Masse m* bestimmen.\n"
)


def test_degrees_and_arc_minutes_are_one_angle_and_a_distance_no_wavelength(
    tmp_path: Path,
) -> None:
    """`rrbb[°]`, `rrbb[min]` is one goniometer reading (before: two columns, the minutes
    fitted as a time against λ²); λ² is formed from the wavelength, never from the Hall
    probe's `Abstand`; and no raw angle is called the line of θ_frei that task 3 asks for."""
    report = _report(
        tmp_path,
        FARADAY,
        ("conventions/dortmund_v46_1_2e18.txt", "1_2e18.txt"),
        ("conventions/dortmund_v46_magnetfeld.txt", "Magnetfeld.txt"),
    )
    assert "rrbb [min]" not in report and "rbrb [min]" not in report
    assert re.search(r"rrbb \[deg\] against \\ensuremath\{\\lambda\}² \[µm", report)
    assert "B-Feld [mT] against Abstand [mm]" in report
    assert "[mm\\textasciicircum{}2]" not in report  # no λ² of the probe's distance
    assert "task 3 asks for" not in report


LASER = (
    "# Laser a diodo\n\n"
    "- `PvsI.txt` – caratteristica P–I a T = 12 °C: corrente I [mA] (ΔI = 0,1 mA), potenza P "
    "[µW].\n\n"
    "## Compiti\n1. Rappresentare la caratteristica P–I.\n"
)


def test_unnamed_columns_are_no_repeats_and_a_files_line_names_them(tmp_path: Path) -> None:
    """A headerless file's `column 1` and `column 2` share labscribe's name, not a quantity:
    before, a laser diode's current and power were pooled as repeats of one value (332 ±
    100); the handout's line about the file, past its colon and without its remark, names
    them I [mA] and P [µW]."""
    report = _report(tmp_path, LASER, ("headerless/pavia_laser_diode_PvsI_12C.txt", "PvsI.txt"))
    assert "PvsI.txt: I was taken as the variable" in report and "P [µW]" in report
    assert "all 2 columns" not in report and "Repeated measurements" not in report
