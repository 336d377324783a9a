"""`labscribe run --no-model`: one quantity read by several observers (`b_Anna`, `b_Ben`,
`b_Chloe`) is their mean: "1/b against 1/g" is fitted on the mean's inverse, and no
observer's column is fitted as its own response."""

from __future__ import annotations

from pathlib import Path

from test_no_model import no_model_report


def test_no_model_fits_the_mean_of_several_observers(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    g = [14.0, 16.0, 18.0, 20.0, 25.0, 30.0, 40.0]
    shifts = {"Anna": -0.2, "Ben": 0.3, "Chloe": 0.1}
    rows = "\n".join(
        "\t".join([f"{x:.1f}", *(f"{1 / (0.1 - 1 / x) + s:.1f}" for s in shifts.values())])
        for x in g
    )
    head = "\t".join(["g (cm)", *(f"b_{who} (cm)" for who in shifts)])
    (folder / "image_distances.tsv").write_text(f"{head}\n{rows}\n")
    (folder / "handout.md").write_text(
        "# Focal length of a thin lens\n\n### Analysis\n\n"
        "i. For each object distance g, average the image distances b of the group members.\n"
        "ii. Plot 1/b against 1/g and fit a straight line. The lens equation 1/f = 1/g + 1/b\n"
        "predicts a slope of −1; find f from the intercept.\n"
    )
    report = " ".join(no_model_report(folder, tmp_path).split())
    assert "1/b is taken as the response to 1/g" in report
    assert "the mean of b\\_Anna, b\\_Ben and b\\_Chloe" in report
    # the measured b is no parameter of the lens equation fitted to 1/b: no verdict on it
    assert "1/b against g: not fitted: b is measured (1/b formed from it)" in report
    assert "does not describe" not in report
    # a column is never fitted against the one it is formed from (1/g against g)
    assert "1/g [cm\\textasciicircum{}-1] against g [cm]" not in report
    for who in shifts:
        assert f"b\\_\\allowbreak{{}}{who} [cm] against" not in report
        assert f"b\\_{who} [cm] against" not in report
