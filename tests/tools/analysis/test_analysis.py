import json
import re
import time
from pathlib import Path

import numpy as np
import pytest
from asuser import as_normal_user

from labscribe.guards.bounds import ComputeBudget
from labscribe.guards.numbers import check_numbers
from labscribe.tools.analysis import folder as analysis_module
from labscribe.tools.analysis.analysis_digest import EXPLORER_DIGEST, digest
from labscribe.tools.analysis.folder import MAX_TABLE_FILES, Analysis, Unreadable, analyse
from labscribe.tools.tool import Folder

TRUE_F0 = 5033.0  # examples/README.md: 1/(2π√(LC)) for L = 10 mH, C = 100 nF


@pytest.fixture(scope="module")
def analysis() -> Analysis:
    example = Path(__file__).resolve().parents[3] / "examples" / "rlc-resonance"
    return analyse(Folder(example))


def test_analyse_fits_the_example_resonance_within_half_a_percent(analysis: Analysis) -> None:
    fit = next(f for f in analysis.fits if f.y == "V_R")
    assert (fit.table, fit.x, fit.model, fit.good) == (
        "data/sweep.csv",
        "frequency",
        "resonance",
        True,
    )
    f0 = fit.parameter("f0")
    assert abs(f0.value - TRUE_F0) / TRUE_F0 < 0.005
    assert f0.stderr is not None and 0 < f0.stderr < 5 and f0.unit == "Hz"
    assert fit.peak is not None and fit.peak.position == f0


def test_analyse_fits_the_example_phase_with_the_circuit_q(analysis: Analysis) -> None:
    fit = next(f for f in analysis.fits if f.y == "phase")
    assert fit.model == "resonance phase"
    assert abs(fit.parameter("f0").value - TRUE_F0) / TRUE_F0 < 0.005
    assert fit.parameter("Q").value == pytest.approx(5.36, rel=0.03)  # examples/README.md


def test_analyse_reads_the_example_parameters(analysis: Analysis) -> None:
    capacitor = next(r for r in analysis.parameters if r.key == "C_nominal_nF")
    assert (capacitor.source, capacitor.section, capacitor.number, capacitor.unit) == (
        "params.ini", "components", 100.0, "nF",
    )  # fmt: skip


def test_analyse_finds_the_example_tasks(analysis: Analysis) -> None:
    assert analysis.assignment == "assignment.pdf"
    assert analysis.tasks[1].startswith("Determine the resonance frequency f0 from the maximum")


def test_analyse_leaves_notes_and_the_log_out_of_tables(analysis: Analysis) -> None:
    assert [t.id for t in analysis.tables] == ["data/sweep.csv"]
    assert analysis.unreadable == []


def test_analysis_survives_json_state(analysis: Analysis) -> None:
    state = json.loads(json.dumps(analysis.model_dump(mode="json")))
    assert Analysis.model_validate(state) == analysis


def test_analysis_digest_of_the_example(analysis: Analysis) -> None:
    text = digest(analysis)
    lines = text.splitlines()
    assert len(text) <= EXPLORER_DIGEST.chars
    assert lines[:5] == [
        "Deterministic analysis of the data (no model involved):",
        "Assignment (assignment.pdf): Lab 4: Resonance in a series RLC circuit",
        "Aim, as the assignment states it: In this lab you measure the resonance curve of such "
        "a circuit with a function generator and a digital oscilloscope, and you compare it "
        "with the theory of the driven harmonic oscillator.",
        "Tables:",
        "- data/sweep.csv: 301 rows; x = frequency [Hz] 1000…12000; V_in [Vpp], V_R [Vpp], "
        "phase [deg], derived V_R/V_in",
    ]
    assert (
        "- V_R vs frequency: resonance (peak), f0 = 5032.46 ± 0.57 Hz, Q = 2.9066 ± 0.0022, "
        "amplitude = 2.15878 ± 0.00090 Vpp, bandwidth = 1731.4 ± 1.3 Hz; "
        "R² = 0.9999" in lines
    )
    # the generator's 50 Ω loads the circuit: the ratio to V_in gives the circuit's own Q
    assert (
        "- V_R/V_in vs frequency: resonance (peak), f0 = 5032.68 ± 0.54 Hz, Q = 5.3909 ± 0.0067, "
        "amplitude = 0.80010 ± 0.00057, bandwidth = 933.6 ± 1.2 Hz; "
        "R² = 0.9999" in lines
    )
    assert "Checklist from assignment.pdf (12 tasks):" in lines
    assert "R_nominal = 47 Ω" in text
    assert "Notes of the experimenters: logbook_gbk.txt, notes_zh.md" in lines


def test_analysis_facts_carry_the_precision_of_each_fitted_value(analysis: Analysis) -> None:
    f0 = next(f for f in analysis.facts() if f.label.startswith("f0 of the resonance fit"))
    assert f0.label == (
        "f0 of the resonance fit of V_R against frequency in data/sweep.csv (5032.46 ± 0.57 Hz; "
        "of V_R/V_in: 5032.68 ± 0.54 Hz)"
    )
    assert (f0.value, f0.also) == (
        pytest.approx(5032.46, abs=0.01),
        (pytest.approx(5032.68, abs=0.01),),
    )
    assert f0.tolerance == pytest.approx(2 * 0.57 / 5032.46, rel=0.01)


def test_analysis_facts_flag_a_misquoted_fitted_value(analysis: Analysis) -> None:
    facts = analysis.facts()
    _, wrong = check_numbers("The fit of V_R puts the resonance at 5.2 kHz.", facts)
    _, right = check_numbers("The fit of V_R puts the resonance at 5.03 kHz.", facts)
    assert [m.fact for m in wrong] == [
        "f0 of the resonance fit of V_R against frequency in data/sweep.csv (5032.46 ± 0.57 Hz; "
        "of V_R/V_in: 5032.68 ± 0.54 Hz)"
    ]
    assert right == []


def test_analysis_facts_accept_a_response_quoted_as_measured_or_relative_to_its_input(
    analysis: Analysis,
) -> None:
    """V_R's fit gives Q = 2.907 (the generator's 50 Ω included), V_R/V_in's Q = 5.391."""
    facts = analysis.facts()
    for said in ("2.91", "5.40"):
        assert check_numbers(f"The quality factor from V_R is Q = {said}.", facts)[1] == []
    wrong = check_numbers("The quality factor from V_R is Q = 4.1.", facts)[1]
    assert [m.expected for m in wrong] == [pytest.approx(2.907, abs=0.001)]
    assert "gives 2.90659 or 5.39089" in wrong[0].describe()


def test_analysis_facts_count_rows_exactly(analysis: Analysis) -> None:
    _, wrong = check_numbers("The sweep has 300 points.", analysis.facts())
    assert [m.fact for m in wrong] == ["rows of data/sweep.csv"]


def write_decay(folder: Path) -> None:
    t = np.linspace(0, 10, 120)
    v = 5 * np.exp(-t / 2) + 0.02 * np.cos(40 * t)
    rows = "\n".join(f"{a:.4f};{b:.5f}".replace(".", ",") for a, b in zip(t, v, strict=True))
    (folder / "decay.csv").write_text(f"t [s];U [V]\n{rows}\n")


def test_analyse_lists_what_it_could_not_read(tmp_path: Path) -> None:
    write_decay(tmp_path)
    (tmp_path / "broken.csv").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    (tmp_path / "words.csv").write_text("just,some\nwords,here\n")
    (tmp_path / "diary.txt").write_text("Nothing tabular here.\n")
    analysis = analyse(Folder(tmp_path))
    assert [t.id for t in analysis.tables] == ["decay.csv"]
    assert analysis.unreadable == [
        Unreadable(path="broken.csv", reason="looks like a binary file (PNG image), not text; "
                   "use read_image for images"),
        Unreadable(path="words.csv", reason="has no run of 3 or more numeric rows"),
    ]  # fmt: skip


def test_analyse_starts_no_fit_after_its_budget(tmp_path: Path) -> None:
    write_decay(tmp_path)
    analysis = analyse(Folder(tmp_path), budget_seconds=0)
    assert analysis.fits == []
    assert analysis.left_out == ["time budget ran out before reading decay.csv and later tables"]


def test_analyse_counts_its_budget_in_cpu_time_not_time_waited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a machine busy with other work: the analysing thread waits 1.5 s it does not compute
    write_decay(tmp_path)
    read = analysis_module.decoded

    def read_on_a_busy_machine(folder: Folder, rel: str, budget: ComputeBudget) -> object:
        time.sleep(1.5)
        return read(folder, rel, budget)

    monkeypatch.setattr(analysis_module, "decoded", read_on_a_busy_machine)
    analysis = analyse(Folder(tmp_path), budget_seconds=1)
    assert analysis.left_out == []
    assert [fit.model for fit in analysis.fits] == ["exponential"]


def test_analyse_does_not_follow_a_link_out(tmp_path: Path) -> None:
    root = tmp_path / "data"
    root.mkdir()
    write_decay(tmp_path)
    (root / "decay.csv").symlink_to(tmp_path / "decay.csv")
    assert analyse(Folder(root)).tables == []


def test_analyse_as_a_normal_user_reports_an_unreadable_table(user_dir: Path) -> None:
    write_decay(user_dir)
    (user_dir / "locked.csv").write_text("a,b\n1,2\n3,4\n5,6\n")
    (user_dir / "locked.csv").chmod(0)
    code = (
        "from pathlib import Path\n"
        "from labscribe.tools.analysis.folder import analyse\n"
        "from labscribe.tools.tool import Folder\n"
        f"analysis = analyse(Folder(Path({str(user_dir)!r})))\n"
        "print([t.id for t in analysis.tables],\n"
        "      [(u.path, u.reason) for u in analysis.unreadable])\n"
    )
    done = as_normal_user(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['decay.csv'] [('locked.csv', 'permission denied')]"


def test_the_document_that_sets_the_tasks_when_the_one_named_first_sets_none(
    tmp_path: Path,
) -> None:
    """An `anleitung.txt` of theory beside the `assignment.md` that lists the tasks under a
    Slovene heading ("Naloge"): the tasks are that document's."""
    (tmp_path / "anleitung.txt").write_text("Fotoefekt\n\nTeorija: e0·U = h·ν − A_i.\n")
    (tmp_path / "assignment.md").write_text(
        "# Vaja 68 – Fotoefekt\n\n## Naloge\n1. Za vsako valovno dolžino nariši tok.\n"
        "2. Iz naklona premice določi Planckovo konstanto h.\n"
    )
    (tmp_path / "365.csv").write_text("U,I\n" + "\n".join(f"{u},{2 * u}" for u in range(9)))
    analysis = analyse(Folder(tmp_path))
    assert analysis.assignment == "assignment.md"
    assert [task.split()[0] for task in analysis.tasks] == ["Za", "Iz"]


def test_files_past_the_limit_of_tables_are_named_as_unread(tmp_path: Path) -> None:
    # a class of scope exports, more than the analysis reads: it names the files it left
    for n in range(MAX_TABLE_FILES + 2):
        (tmp_path / f"F{n:04d}.csv").write_text("t,U\n0,1\n1,2\n2,4\n3,8\n")
    analysis = analyse(Folder(tmp_path))
    note = next(line for line in analysis.left_out if "files that may hold tables" in line)
    first = f"the first {MAX_TABLE_FILES} read"
    assert note.startswith(f"{MAX_TABLE_FILES + 2} files that may hold tables; {first}")
    assert f"F{MAX_TABLE_FILES:04d}.csv" in note


def test_settings_past_the_bound_are_counted_where_the_report_lists_what_was_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Path(__file__).resolve().parents[2] / "data" / "real" / "oscilloscope"
    (tmp_path / "F0002CH1.CSV").write_bytes((real / "tektronix_opamp_F0002CH1.CSV").read_bytes())
    monkeypatch.setattr(analysis_module, "MAX_PARAMETER_ROWS", 5)
    analysis = analyse(Folder(tmp_path))
    assert len(analysis.parameters) == 5
    note = next(line for line in analysis.left_out if "instrument settings read" in line)
    assert re.fullmatch(r"\d+ instrument settings read; the first 5 kept", note), note
