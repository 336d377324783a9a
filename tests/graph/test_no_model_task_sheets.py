"""`labscribe run --no-model` on task sheets as courses write them (tests/data/real): a
course's coded items are its checklist's tasks, those in noun form under their code alone
as well (Politechnika Gdańska's spring exercise M7); a poster's questions between its
commands are tasks, and a logger's clock beside a swept sensor is no response (an Italian
optics lab's single-slit diffraction, PASCO Capstone)."""

from __future__ import annotations

from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for


def test_every_coded_item_of_the_course_is_a_row_of_the_checklist(tmp_path: Path) -> None:
    handout = (REAL / "handouts" / "pg_m7_sprezyny_excerpt.tex").read_text()
    report = report_for(
        tmp_path,
        ("assignment.tex", handout),
        (REAL / "springs" / "pg_m7_pierwsza_statyczna.csv", "statyczna.csv"),
        (REAL / "springs" / "pg_m7_pierwsza_dynamiczna.csv", "dynamiczna.csv"),
    )
    rows = checklist(report)
    for number, code in enumerate(("M7.1", "M7.2", "M7.3", "M7.4", "M7.5"), start=1):
        assert f"{number} & {code} " in rows, rows
    assert "M7.5 Wyznaczanie współczynnika sprężystości sprężyn połączonych szeregowo" in rows


def test_a_posters_questions_are_tasks_and_the_loggers_clock_is_no_response(
    tmp_path: Path,
) -> None:
    poster = (REAL / "handouts" / "diffrazione_poster_consegna.txt").read_text()
    data = "\n# Dati\n\nL'intensità I in funzione della posizione y del sensore.\n"
    report = report_for(
        tmp_path,
        ("consegna.txt", poster + data),
        (REAL / "optics" / "capstone_diffraction_arianna_0.02_1.5.tsv", "Arianna 0.02 1.5.tsv"),
    )
    rows = checklist(report)
    assert "4 & Quali sono le fonti maggiori di errore?" in rows, rows
    assert "8 & Facoltativo: Ripetere" in rows
    assert "I against y: " in report
    assert "t against y" not in report and "keeps the record's time" in report
