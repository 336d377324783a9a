"""Real lab files from public repositories (tests/data/real/SOURCES.md says where each came
from, under what licence): each must yield the tables, columns, units and settings that
tests/data/real/expected.json says it holds, written down by reading the file, not by
running labscribe. The comparison is the real-file bench's (bench/analysis/real_files.py)."""

from __future__ import annotations

import pytest
from benchmodule import load

bench = load("analysis/real_files.py", "real_files_bench")
EXPECTED = bench.expected_files()
# Files read wrong for a cause in the general header code, left in the corpus with their
# truth so the bench shows the miss; strict, so a fix that reads one right must say so here.
KNOWN_MISSES: dict[str, str] = {}


def _case(spec: dict):
    reason = KNOWN_MISSES.get(spec["path"])
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(spec, id=spec["path"], marks=marks)


@pytest.mark.parametrize("spec", [_case(spec) for spec in EXPECTED])
def test_real_file_yields_its_tables_units_and_settings(spec: dict) -> None:
    assert bench.problems(spec, bench.read(spec["path"])) == []


def test_real_file_judge_sees_what_is_wrong() -> None:
    spec = next(s for s in EXPECTED if s["path"] == "oscilloscope/rigol_DS1054Z-A.csv")
    data = bench.read(spec["path"])
    wrong = {**spec, "tables": [{**spec["tables"][0], "rows": 7}],
             "metadata": {"Increment": 1.0}}  # fmt: skip
    assert bench.problems(wrong, data) == [
        "table 1: 1200 rows, not 7",
        "setting Increment = 5e-10, not 1.0",
    ]


def test_real_corpus_spans_the_formats_labs_produce() -> None:
    kinds = {spec["kind"] for spec in EXPECTED}
    assert len(EXPECTED) >= 20
    wanted = {"labview-lvm", "gamry-dta", "eclab-mpt", "chi", "tektronix-csv", "rigol-csv",
              "keysight-csv", "pasco", "vernier", "instron", "european-encoding"}  # fmt: skip
    assert wanted <= kinds


def test_real_corpus_spans_the_vendors_of_issue_26() -> None:
    kinds = {spec["kind"] for spec in EXPECTED}
    wanted = {"drycal", "picolog", "panalytical-xrd", "shimadzu-gc", "ezchrom-asc",
              "agilent-chromtab", "inficon-fusion", "quantum-design", "mettler-stare",
              "perkinelmer-tga", "keysight-easyexpert", "keithley-smu", "micromeritics",
              "hiden-iga", "ocean-optics", "thorlabs", "lab-sigma", "picoscope-de",
              "maccor", "arduino-logger"}  # fmt: skip
    assert wanted <= kinds
    assert all(spec["source"]["licence"] and spec["source"]["commit"] for spec in EXPECTED)


def test_real_file_bench_prints_what_each_file_yields(capsys: pytest.CaptureFixture) -> None:
    bench.main()
    printed = capsys.readouterr().out
    row = next(line for line in printed.splitlines() if "smu/keysight_b1500" in line)
    assert "| keysight-easyexpert | 1 | 20 | Vd [V] | Id [A], Id_dens [A/mm], Ron [Ω·mm] |" in row
    assert row.split(" | ")[-2] == "right"
