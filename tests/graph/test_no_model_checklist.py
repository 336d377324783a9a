"""`labscribe run --no-model`: the report's checklist is the handout's, task for task. The
aim is no task, a task's second line stays with it, lettered tasks keep their letters (in
the checklist and where a fit names the task it answers), and a brief that lists the results
it wants in noun phrases still gets its checklist. The data are real files
(tests/data/real/SOURCES.md); the handouts follow real layouts in our own words."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from test_no_model import no_model_report

REAL = Path(__file__).parents[1] / "data" / "real"


def report_of(folder: Path, tmp_path: Path) -> str:
    return no_model_report(folder, tmp_path)


def report_for(tmp_path: Path, handout: tuple[str, str], *data: tuple[Path, str]) -> str:
    """The no-model report of a folder holding `handout` (name, text) and copies of `data`
    (real file, name in the folder)."""
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / handout[0]).write_text(handout[1])
    for source, name in data:
        shutil.copy(source, folder / name)
    return report_of(folder, tmp_path)


def plain(text: str) -> str:
    """`text` without LaTeX's break hints and escapes: `gas_transfer` as the file writes it."""
    text = re.sub(r"\\allowbreak\{\}|\\hfil\\penalty0\\hfilneg\{\}", "", text)
    return text.replace("\\_", "_").replace("\\%", "%")


def checklist(report: str) -> str:
    assert "\\section{The assignment's tasks}" in report
    rows = report.split("\\section{The assignment's tasks}", 1)[1].split("\\section{", 1)[0]
    return plain(rows)


PHOTOELECTRIC = (
    "Physics 2 Lab 6: the photoelectric effect\n\n"
    "Aim: find out how the stopping voltage depends on the wavelength of the light.\n\n"
    "Task A: Plot the Stopping Voltage against the Wavelength.\n"
    "Task B: Fit a straight line to the Stopping Voltage against the Wavelength.\n"
    "        Is the line an adequate model?\n"
    "Task C: Give the slope with its standard error.\n"
    "Task D: Which wavelength lies farthest from the line?\n"
)


def test_no_model_checklist_keeps_lettered_tasks_their_letters_and_leaves_out_the_aim(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "lab6"
    folder.mkdir()
    (folder / "exercise6.txt").write_text(PHOTOELECTRIC)
    shutil.copy(REAL / "labtables" / "photoelectric_stopping_voltage.csv", folder / "photo.csv")
    rows = checklist(report_of(folder, tmp_path))
    assert "Aim:" not in rows and "find out how" not in rows  # the aim is no task
    expected = [
        "A & Plot the Stopping Voltage against the Wavelength. &",
        "B & Fit a straight line to the Stopping Voltage against the Wavelength. Is the line "
        "an adequate model? &",
        "C & Give the slope with its standard error. &",
        "D & Which wavelength lies farthest from the line? &",
    ]
    positions = [rows.find(row) for row in expected]
    assert -1 not in positions, rows
    assert positions == sorted(positions)
    assert "\n1 & " not in rows and "\n5 & " not in rows


BRIEF = (
    "Lab brief: a pendulum timed five times at each length\n\n"
    "What we want from you:\n"
    "* The mean period at each length, with the standard error of the mean.\n"
    "* The value of g from a fit of T² against l, with its uncertainty.\n"
)


def test_no_model_checklist_lists_a_briefs_results_asked_for_in_noun_phrases(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "brief"
    folder.mkdir()
    (folder / "lab_brief.txt").write_text(BRIEF)
    shutil.copy(REAL / "labtables" / "pendulum-lengths-periods.csv", folder / "periods.csv")
    rows = checklist(report_of(folder, tmp_path))
    first = rows.find("1 & The mean period at each length, with the standard error of the mean.")
    second = rows.find("2 & The value of g from a fit of T² against l, with its uncertainty.")
    assert -1 < first < second, rows


def test_no_model_a_model_asked_twice_is_shown_once_and_a_plot_names_its_figure(
    tmp_path: Path,
) -> None:
    """Tasks B and C ask for one straight line (C by its slope): one row of the fits says
    both ask for it, one figure shows it, captioned as the assignment's model, not as the
    best fit; task A's plot names that figure and leaves only checking it."""
    folder = tmp_path / "lab6"
    folder.mkdir()
    (folder / "exercise6.txt").write_text(PHOTOELECTRIC)
    shutil.copy(REAL / "labtables" / "photoelectric_stopping_voltage.csv", folder / "photo.csv")
    report = report_of(folder, tmp_path)
    rows = [line for line in report.splitlines() if line.startswith("Stopping Voltage against")]
    assert len(rows) == 1 and "(the model tasks B and C ask for" in rows[0], rows
    drawn = re.findall(r"\\caption\{Stopping Voltage against Wavelength[^}]*", report)
    assert len(drawn) == 1, drawn
    assert "with the model tasks B and C ask for, linear" in drawn[0]  # as the fit table says
    assert "best fit" not in drawn[0]
    plot = next(line for line in checklist(report).splitlines() if line.startswith("A & "))
    assert plot.count("labscribe's figure of Stopping Voltage against Wavelength") == 1, plot
    assert plot.endswith("checking the figure against what the task asks: its axes, scales "
                         "and labels \\\\"), plot  # fmt: skip


PHOTOEFFECT_SL = """\
# Vaja 68 – Fotoefekt

## Naloge
1. Za vsako valovno dolžino nariši tok v odvisnosti od zaporne napetosti.
2. Nariši e0·|U_m| v odvisnosti od frekvence ν in preveri linearno zvezo.
3. Iz naklona premice določi Planckovo konstanto h.
"""


def test_no_model_a_line_between_quantities_no_column_holds_is_fitted_to_no_column(
    tmp_path: Path,
) -> None:
    """A real I(V) curve (`Voltage(V) Current(nA)`) under a Slovene handout: the straight
    line of e0·|U_m| against ν, quantities worked out of all five files, is no fit of the
    current against the voltage; the tasks are read under "Naloge"."""
    report = report_for(tmp_path, ("assignment.md", PHOTOEFFECT_SL),
                        (REAL / "extremes" / "curvaIVinvdark.txt", "365.txt"))  # fmt: skip
    rows = checklist(report)
    assert "2 & Nariši e0·|U_m| v odvisnosti od frekvence" in rows, rows
    assert "(the model task" not in report and "asks for, fitted" not in report
    second = next(line for line in rows.splitlines() if line.startswith("2 & "))
    assert "slope" not in second and "& all of it" in second, second
