"""The values a handout states, as the fallback report lists them (nodes/fallback_apparatus)."""

import re

from labscribe.nodes.fallback_apparatus import MAX_PARAMETER_ROWS, _stated_rows, apparatus
from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.formats.parameters import ParameterRow


def stated(name: str, value: str, sentence: str = "") -> ParameterRow:
    return ParameterRow(source="a.md", key=name, name=name, value=value, said_of=sentence)


def test_a_value_stated_for_several_files_is_listed_once_and_others_by_their_files() -> None:
    # eval13's Hall handout: I_M = 0.500 A for two files, I_M = 150 mA for another
    rows = [
        stated("I_M", "0.500 A", "`2-VH-IS.csv`：I_M = 0.500 A 不变"),
        stated("I_M", "0.500 A", "`3-VH-x.csv`：I_M = 0.500 A，I_S = 5.000 mA"),
        stated("I_S", "5.000 mA", "`3-VH-x.csv`：I_M = 0.500 A，I_S = 5.000 mA"),
        stated("I_M", "150 mA", "`5-Vout-theta.csv`：V_S = 4.00 V，I_M = 150 mA"),
        stated("U", "4 V"),
    ]
    assert _stated_rows(rows) == [
        ["I_M (2-VH-IS.csv, 3-VH-x.csv)", "0.500 A"],
        ["I_S", "5.000 mA"],
        ["I_M (5-Vout-theta.csv)", "150 mA"],
        ["U", "4 V"],
    ]


def test_the_settings_caption_names_the_files_shown_and_counts_the_rest() -> None:
    # a class of 40 scope exports: the table shows the first settings, of the first files
    rows = [
        ParameterRow(source=f"F{n:04d}CH1.CSV", key=key, name=key, value="1")
        for n in range(40) for key in ("Record Length", "Sample Interval", "Source")
    ]  # fmt: skip
    caption = re.search(r"\\caption\{(.*?)\}", apparatus(Analysis(parameters=rows), {}))
    assert caption is not None
    shown = [f"F{n:04d}CH1.CSV" for n in range(MAX_PARAMETER_ROWS // 3)]
    assert caption[1] == (
        f"The settings of {', '.join(shown)}, as written (the first {MAX_PARAMETER_ROWS}; "
        f"{120 - MAX_PARAMETER_ROWS} more, of these files and {40 - len(shown)} others, not shown)"
    )
