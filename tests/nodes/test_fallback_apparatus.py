"""The values a handout states, as the fallback report lists them (nodes/fallback_apparatus)."""

from labscribe.nodes.fallback_apparatus import _stated_rows
from labscribe.tools.parameters import ParameterRow


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
