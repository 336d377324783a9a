"""Real lab files from public repositories (tests/data/real/SOURCES.md says where each came
from, under what licence): each must yield the tables, columns, units and settings that
tests/data/real/expected.json says it holds, written down by reading the file, not by
running labscribe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labscribe.tools.base import Folder
from labscribe.tools.readers import NoTable
from labscribe.tools.tables import DataFile, read_data

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
EXPECTED = json.loads((REAL / "expected.json").read_text(encoding="utf-8"))["files"]
# Spellings of one unit: the files write `deg` and `°`, `m/s^2` and `m/s²`, `ml` and `mL`.
_SAME_UNIT = {"°": "deg", "^2": "²", "mL": "ml"}


def same_unit(unit: str) -> str:
    if unit == "°C":
        return unit
    for spelling, usual in _SAME_UNIT.items():
        unit = unit.replace(spelling, usual)
    return unit


def read(path: str) -> DataFile:
    try:
        return read_data(Folder(REAL), path)
    except NoTable as exc:  # a header with no data rows still has its settings
        return DataFile(metadata=exc.metadata)


def named(columns: list, part: str) -> list:
    return [c for c in columns if part.lower() in f"{c.header} {c.name}".lower()]


@pytest.mark.parametrize("spec", EXPECTED, ids=[spec["path"] for spec in EXPECTED])
def test_real_file_yields_its_tables_units_and_settings(spec: dict) -> None:
    data = read(spec["path"])
    assert len(data.tables) == len(spec["tables"])
    for table, expected in zip(data.tables, spec["tables"], strict=True):
        summary = table.summary
        assert summary.rows == expected["rows"]
        x = expected["x"]
        if x["name_contains"] is None and x["unit"] == "" and x["first"] is None:
            assert summary.x is None  # repeats of one quantity: nothing to plot against
            continue
        column = summary.column(summary.x or "")
        assert same_unit(column.unit) == same_unit(x["unit"])
        if x["name_contains"]:
            assert named([column], x["name_contains"])
        if x["first"] is not None:
            values = table.frame[column.key]
            assert values.iloc[0] == pytest.approx(x["first"], rel=1e-6, abs=1e-12)
            assert values.iloc[-1] == pytest.approx(x["last"], rel=1e-6, abs=1e-12)
        for wanted in expected["columns"]:
            found = named(summary.columns, wanted["name_contains"])
            assert found, f"no column named like {wanted['name_contains']!r}"
            assert same_unit(found[0].unit) == same_unit(wanted["unit"])
    settings = {row.key: row for row in data.metadata}
    for key, value in spec["metadata"].items():
        assert key in settings, f"setting {key!r} not read"
        if isinstance(value, int | float) and not isinstance(value, bool):
            assert settings[key].number == pytest.approx(value)
        else:
            assert settings[key].value == str(value)


def test_real_corpus_spans_the_formats_labs_produce() -> None:
    kinds = {spec["kind"] for spec in EXPECTED}
    assert len(EXPECTED) >= 20
    wanted = {"labview-lvm", "gamry-dta", "eclab-mpt", "chi", "tektronix-csv", "rigol-csv",
              "keysight-csv", "pasco", "vernier", "instron", "european-encoding"}  # fmt: skip
    assert wanted <= kinds
