"""`labscribe run --no-model`: a table whose variable is the same in every row (a background
counted in ten runs of 60 s, as counting labs record one) is repeated measurements, not a
curve: no figure caption says that no standard model describes it."""

from __future__ import annotations

from pathlib import Path

from test_no_model import no_model_report


def test_no_model_calls_a_background_at_one_duration_repeated_measurements(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    counts = [27, 25, 22, 30, 24, 19, 28, 26, 23, 29]
    rows = "\n".join(f"{i},60,{n}" for i, n in enumerate(counts, start=1))
    (folder / "background.csv").write_text(f"run,duration_s,counts\n{rows}\n")
    (folder / "assignment.md").write_text(
        "# Background\n\nTasks:\n\n1. Record the counts in ten 60 s runs with the source "
        "removed and find the mean background rate.\n"
    )
    report = " ".join(no_model_report(folder, tmp_path).split())
    assert "No standard model describes" not in report
    assert "duration is 60 s in every row, so the rows are repeated measurements" in report
