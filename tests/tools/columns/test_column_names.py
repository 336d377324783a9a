"""Which columns a handout's words and symbols name (tools/columns/column_names.py)."""

import pytest

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.column_names import columns_named


def columns(*names: str) -> list[Column]:
    return [Column(key=name, header=name, name=name, count=8) for name in names]


@pytest.mark.parametrize(
    ("phrase", "named"),
    [
        # a header writes the symbol without its subscript mark
        ("V_H", ["VH"]),
        ("I_M", ["IM"]),
        ("P_γ", ["Pgamma"]),
        ("V_{H}", ["VH"]),
        # the subscript still tells symbols apart: I_S is no column here
        ("I_S", []),
    ],
)
def test_a_subscripted_symbol_names_the_header_written_without_its_mark(
    phrase: str, named: list[str]
) -> None:
    found = columns_named(phrase, columns("IM", "B", "VH", "Pgamma"), {})
    assert [c.key for c in found] == named


def test_one_word_names_one_column_where_two_clocks_answer_it() -> None:
    """ "vs. time" beside `Day fraction since midnight on` (a clock) and `Time`: the time,
    once; two words name two columns."""
    clock = Column(key="day", header="Day fraction", name="Day fraction", count=8,
                   origin="15:25:14")  # fmt: skip
    candidates = [clock, *columns("Time", "200 kPa")]
    assert [c.key for c in columns_named("vs. time", candidates, {})] == ["day"]
    assert [c.key for c in columns_named("T and p", columns("T", "p", "V"), {})] == ["T", "p"]
