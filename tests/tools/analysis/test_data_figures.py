import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from labscribe.tools.analysis.data_figures import (
    DPI,
    FIGURE_INCHES,
    draw_data_figures,
    fitted_points,
)
from labscribe.tools.analysis.folder import analyse
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.tool import Folder

PNG = b"\x89PNG\r\n\x1a\n"


def test_draw_data_figures_draws_each_fitted_column_of_the_example(
    example: Path, tmp_path: Path
) -> None:
    folder = Folder(example)
    records = draw_data_figures(folder, analyse(folder), tmp_path / "figures")
    assert [r["path"] for r in records] == [
        "figures/data-sweep-V_R.png",
        "figures/data-sweep-phase.png",
        "figures/data-sweep-V_R_V_in.png",
    ]
    assert records[0]["caption"] == (
        "V_R against frequency (data/sweep.csv) with the best of the standard models by BIC, "
        "resonance: "
        "f0 = 5032.46 ± 0.57 Hz, Q = 2.9066 ± 0.0022 (R² = 0.9999). Lower panel: residuals."
    )
    image = Image.open(tmp_path / records[0]["path"])
    assert image.size == (round(FIGURE_INCHES[0] * DPI), round(FIGURE_INCHES[1] * DPI))


def test_draw_data_figures_draws_the_data_alone_when_nothing_fits(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    # a staircase: its residuals keep a shape under every standard model (noise alone is
    # described by a model, its low R² said to be the noise's)
    steps = np.floor(np.arange(50) / 17) + 0.02 * np.random.default_rng(0).standard_normal(50)
    rows = "\n".join(f"{i},{v:.4f}" for i, v in enumerate(steps))
    (data / "noise.csv").write_text(f"t_s,signal_V\n{rows}\n")
    folder = Folder(data)
    records = draw_data_figures(folder, analyse(folder), tmp_path / "figures")
    assert records == [
        {
            "path": "figures/data-noise-data.png",
            "caption": "The data of noise.csv against t. No model fitted to them describes "
            "them well (see the notes on the fits), so no fit is drawn.",
            "table": "noise.csv",
            "x": "t",
            "y": ["signal"],
        }
    ]
    assert (tmp_path / records[0]["path"]).read_bytes().startswith(PNG)


def test_draw_data_figures_labels_chinese_columns_without_warnings(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    rows = "\r\n".join(f"{t},{5 * np.exp(-t / 3) + 0.01 * np.cos(9 * t):.4f}" for t in range(30))
    (data / "放电.csv").write_bytes(f"时间(s),电压(V)\r\n{rows}\r\n".encode("gbk"))
    folder = Folder(data)
    analysis = analyse(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        records = draw_data_figures(folder, analysis, tmp_path / "figures")
    assert [r["path"] for r in records] == ["figures/data-电压.png"] or all(
        re.fullmatch(r"figures/data-[A-Za-z0-9_-]*\.png", r["path"]) for r in records
    )
    assert records[0]["caption"].startswith(
        "电压 against 时间 (放电.csv) with the best of the standard models by BIC, exponential"
    )


def test_draw_data_figures_names_every_figure_safely(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "run 1 (old)").mkdir(parents=True)
    rows, again = (
        "\n".join(f"{i},{slope * i + 0.01 * (-1) ** i}" for i in range(10)) for slope in (2, 3)
    )  # two runs: a block that repeats another's values is a copy, analysed once
    (data / "run 1 (old)" / "a;b.csv").write_text(f"x,y/V\n{rows}\n\n{again}\n")
    folder = Folder(data)
    records = draw_data_figures(folder, analyse(folder), tmp_path / "figures")
    assert [r["path"] for r in records] == [
        "figures/data-a_b-block1-y.png",
        "figures/data-a_b-block2-y.png",
    ]


def test_draw_data_figures_starts_no_figure_once_its_budget_is_spent(
    example: Path, tmp_path: Path
) -> None:
    folder = Folder(example)
    analysis = analyse(folder)
    assert draw_data_figures(folder, analysis, tmp_path / "figures", budget_seconds=0) == []


def test_draw_data_figures_draws_labels_with_dollars_as_text(tmp_path: Path) -> None:
    """A column named in mathtext (`$\\alpha$`) or with one `$` is drawn as written: to
    matplotlib either starts math, and the unbalanced one failed the whole figure."""
    data = tmp_path / "data"
    data.mkdir()
    rows = "\n".join(f"{t},{2 * t + 1},{3 - t}" for t in range(20))
    (data / "run.csv").write_text(f"$\\alpha$ (s),cost $ (V),$\\frac{{1}}{{$ [V]\n{rows}\n")
    folder = Folder(data)
    records = draw_data_figures(folder, analyse(folder), tmp_path / "figures")
    assert len(records) == 2, records
    for record in records:
        assert (tmp_path / record["path"]).read_bytes().startswith(PNG)


def test_draw_data_figures_calls_a_background_at_one_duration_repeated_not_a_curve(
    tmp_path: Path,
) -> None:
    """Ten background runs of 60 s each (the way counting labs record a background): the
    duration does not vary, so there is no curve to fit, and the caption says why."""
    data = tmp_path / "data"
    data.mkdir()
    counts = [27, 25, 22, 30, 24, 19, 28, 26, 23, 29]
    rows = "\n".join(f"{i},60,{n}" for i, n in enumerate(counts, start=1))
    (data / "background.csv").write_text(f"run,duration_s,counts\n{rows}\n")
    folder = Folder(data)
    records = draw_data_figures(folder, analyse(folder), tmp_path / "figures")
    captions = [r["caption"] for r in records]
    assert any("duration is 60 s in every row, so the rows are repeated measurements, not a "
               "curve" in caption for caption in captions), captions  # fmt: skip
    assert not any("No standard model" in caption for caption in captions)


def test_a_caption_never_claims_models_were_tried_when_none_was() -> None:
    from labscribe.tools.analysis.data_figures import _caption
    from labscribe.tools.columns.column import Column
    from labscribe.tools.formats.tables import TableSummary

    columns = [Column(key=k, header=k, name=k, count=5, minimum=lo, maximum=hi)
               for k, lo, hi in (("n", 1.0, 5.0), ("lines", 400.0, 700.0))]  # fmt: skip
    summary = TableSummary(id="lines.csv", source="lines.csv", block=0, encoding="utf-8",
                           delimiter=",", decimal=".", rows=5, columns=columns, x="n")  # fmt: skip
    assert _caption(summary, None, tried=False).endswith(
        "No model was fitted to them, so no fit is drawn."
    )
    assert "(see the notes on the fits)" in _caption(summary, None, tried=True)


def test_a_caption_says_why_the_line_was_fitted_as_the_fit_table_does() -> None:
    """A line of other columns than the task's is never "the model the assignment asks
    for" under its figure: the caption says what the fit table's row says."""
    from labscribe.tools.analysis.data_figures import _caption
    from labscribe.tools.columns.column import Column
    from labscribe.tools.fits.fit_result import Fit, Parameter
    from labscribe.tools.formats.tables import TableSummary

    columns = [Column(key=k, header=k, name=k, count=5, minimum=0.0, maximum=1.0)
               for k in ("dT", "T")]  # fmt: skip
    summary = TableSummary(id="Jolly.csv", source="Jolly.csv", block=0, encoding="utf-8",
                           delimiter=",", decimal=".", rows=5, columns=columns, x="dT")  # fmt: skip
    slope = Parameter(name="slope", value=13.0, stderr=0.8)
    fit = Fit(table="Jolly.csv", x="dT", y="T", model="linear", requested="Plot p against ϑ.",
              parameters=[slope], r_squared=0.97)  # fmt: skip
    asked = "not the model task 3 asks for, which is a straight-line fit of p against ϑ"
    caption = _caption(summary, fit, asked=asked)
    assert f"with a linear fit ({asked}): slope = 13.00 ± 0.80" in caption
    assert "the model the assignment asks for" not in caption
    plain = _caption(summary, fit, asked="the model task 3 asks for")
    assert "with the model task 3 asks for, linear: slope" in plain


def test_a_fit_of_one_peaks_window_is_drawn_over_its_window() -> None:
    # a spectrum's peak fitted in 176..228: its curve and residuals belong there, not over
    # the whole spectrum, where the other peaks would show as its misfit
    frame = pd.DataFrame({"channel": np.arange(1024.0), "counts": np.ones(1024)})
    window = Fit(table="cs.txt", x="channel", y="counts", task_range=(176.0, 228.0))
    x, _ = fitted_points(frame, "channel", window)
    assert (x.min(), x.max(), len(x)) == (176.0, 228.0, 53)
    whole = window.model_copy(update={"task_range": None})
    assert fitted_points(frame, "channel", whole)[0].max() == 1023.0
