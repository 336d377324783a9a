"""The real-file bench: does labscribe read the files labs actually produce?

    .venv/bin/python bench/analysis/real_files.py

Every file of tests/data/real (from public repositories; SOURCES.md names each one's origin
and licence) is read as the analysis reads it, and compared with what expected.json says it
holds: its tables, each table's rows, independent variable, columns and their units, and
the instrument settings it must yield. Prints what each file yields (its tables, rows,
independent variable and columns with their units, the settings read, and the check it
missed, if any) and, per kind of file, how many were read right and the time each took;
tests/tools/formats/test_real_files.py holds every file to it.
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from labscribe.tools.formats.readers import NoTable
from labscribe.tools.formats.tables import DataFile, read_data
from labscribe.tools.tool import Folder

REAL = Path(__file__).resolve().parents[2] / "tests" / "data" / "real"
COMMAND = ".venv/bin/python bench/analysis/real_files.py"
# Spellings of one unit: the files write `deg` and `°`, `m/s^2` and `m/s²`, `ml` and `mL`.
_SAME_UNIT = {"°": "deg", "^2": "²", "mL": "ml"}
SHOWN_COLUMNS = 3  # of each file's first table, in the per-file table
NAME_CHARS = 18
MISS_CHARS = 60


def expected_files() -> list[dict]:
    return json.loads((REAL / "expected.json").read_text(encoding="utf-8"))["files"]


def same_unit(unit: str) -> str:
    if unit == "°C":
        return unit
    for spelling, usual in _SAME_UNIT.items():
        unit = unit.replace(spelling, usual)
    return unit


def read(path: str) -> DataFile:
    """The file's tables and settings; a header with no data rows still has its settings."""
    try:
        return read_data(Folder(REAL), path)
    except NoTable as exc:
        return DataFile(metadata=exc.metadata)


def problems(spec: dict, data: DataFile) -> list[str]:
    """How `data` falls short of what `spec` (an entry of expected.json) says the file holds."""
    found: list[str] = []
    if len(data.tables) != len(spec["tables"]):
        return [f"{len(data.tables)} tables, not {len(spec['tables'])}"]
    for number, (table, expected) in enumerate(zip(data.tables, spec["tables"], strict=True), 1):
        summary = table.summary
        where = f"table {number}"
        if summary.rows != expected["rows"]:
            found.append(f"{where}: {summary.rows} rows, not {expected['rows']}")
        x = expected["x"]
        if x["name_contains"] is None and x["unit"] == "" and x["first"] is None:
            if summary.x is not None:  # repeats of one quantity: nothing to plot against
                found.append(f"{where}: x is {summary.x}, where none is")
            continue
        if summary.x is None:
            found.append(f"{where}: no independent variable")
            continue
        column = summary.column(summary.x)
        if same_unit(column.unit) != same_unit(x["unit"]):
            found.append(f"{where}: x in {column.unit!r}, not {x['unit']!r}")
        if x["name_contains"] and not _named([column], x["name_contains"]):
            found.append(f"{where}: x is {column.name!r}, not {x['name_contains']!r}")
        if x["first"] is not None:
            values = table.frame[column.key]
            for got, want in ((values.iloc[0], x["first"]), (values.iloc[-1], x["last"])):
                if abs(got - want) > 1e-6 * max(abs(want), 1e-6):
                    found.append(f"{where}: x runs to {got}, not {want}")
        for wanted in expected["columns"]:
            # an empty name: the file names no column, so any column but the x will do
            others = [c for c in summary.columns if c.key != summary.x]
            named = _named(
                others if not wanted["name_contains"] else summary.columns, wanted["name_contains"]
            )
            if not named:
                found.append(f"{where}: no column {wanted['name_contains']!r}")
            elif same_unit(named[0].unit) != same_unit(wanted["unit"]):
                found.append(
                    f"{where}: {wanted['name_contains']} in {named[0].unit!r}, not "
                    f"{wanted['unit']!r}"
                )
    settings = {row.key: row for row in data.metadata}
    for key, value in spec["metadata"].items():
        row = settings.get(key)
        if row is None:
            found.append(f"setting {key!r} not read")
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if row.number is None or abs(row.number - value) > 1e-9 * max(abs(value), 1):
                found.append(f"setting {key} = {row.number}, not {value}")
        elif row.value != str(value):
            found.append(f"setting {key} = {row.value!r}, not {value!r}")
    return found


def _named(columns: list, part: str) -> list:
    return [c for c in columns if part.lower() in f"{c.header} {c.name}".lower()]


def main() -> int:
    by_kind: dict[str, list[tuple[bool, float]]] = defaultdict(list)
    rows = ["| file | kind | tables | rows | x | columns | settings | read | ms |",
            "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for spec in expected_files():
        started = time.perf_counter()
        data = read(spec["path"])
        found = problems(spec, data)
        seconds = time.perf_counter() - started
        by_kind[spec["kind"]].append((not found, seconds))
        rows.append(yield_row(spec, data, found, seconds))
    lines = [
        f"`{COMMAND}`: {sum(map(len, by_kind.values()))} real files from public repositories.",
        "",
        *rows,
        "",
        "| kind | files read right | seconds per file, mean (max) |",
        "|---|---|---|",
    ]
    for kind, results in sorted(by_kind.items()):
        seconds = [s for _, s in results]
        lines.append(
            f"| {kind} | {sum(ok for ok, _ in results)}/{len(results)} | "
            f"{sum(seconds) / len(seconds):.3f} ({max(seconds):.3f}) |"
        )
    right = sum(ok for results in by_kind.values() for ok, _ in results)
    total = sum(map(len, by_kind.values()))
    lines += ["", f"All: {right}/{total} files read with the right tables, units and settings."]
    print("\n".join(lines))
    return 0


def yield_row(spec: dict, data: DataFile, found: list[str], seconds: float) -> str:
    """One line of the per-file table: what the file yields, and the first check it missed."""
    summaries = [table.summary for table in data.tables]
    x = _with_unit(summaries[0].column(summaries[0].x)) if summaries and summaries[0].x else "—"
    shown = [c for c in summaries[0].measured() if c.key != summaries[0].x] if summaries else []
    columns = ", ".join(_with_unit(c) for c in shown[:SHOWN_COLUMNS])
    if len(shown) > SHOWN_COLUMNS:
        columns += f" +{len(shown) - SHOWN_COLUMNS}"
    wanted = spec["metadata"]
    keys = {row.key for row in data.metadata}
    settings = f"{len(data.metadata)}" + (
        f" ({sum(key in keys for key in wanted)}/{len(wanted)} asked)" if wanted else ""
    )
    verdict = (
        "right"
        if not found
        else _short(found[0]) + (f" (+{len(found) - 1})" if len(found) > 1 else "")
    )
    cells = [spec["path"], spec["kind"], str(len(summaries)),
             "+".join(str(s.rows) for s in summaries) or "0", x, columns or "—", settings,
             verdict, f"{seconds * 1000:.0f}"]  # fmt: skip
    return "| " + " | ".join(cell.replace("|", "/") for cell in cells) + " |"


def _with_unit(column) -> str:
    name = _short(column.name, NAME_CHARS)
    return f"{name} [{column.unit}]" if column.unit else name


def _short(text: str, limit: int = MISS_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


if __name__ == "__main__":
    sys.exit(main())
