"""The fallback report's apparatus and parameters: the settings of the folder's parameter
files and instrument headers as written, and the values the assignment states in its prose
(`L = 600 mm`), which the analysis forms quantities and predictions with."""

from __future__ import annotations

from collections import Counter
from typing import Any

from labscribe.nodes.latex_text import Group, paragraphs, table
from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.assignment.task_files import DATA_FILE
from labscribe.tools.formats.parameters import ParameterRow

MAX_PARAMETER_ROWS = 60


def apparatus(analysis: Analysis, findings: dict[str, Any]) -> str:
    blocks = []
    if findings.get("method"):
        blocks.append(paragraphs(f"Method, as the model that read the material recorded it: "
                                 f"{findings['method']}"))  # fmt: skip
    if analysis.parameters:
        blocks.append(_settings(analysis))
    # `P = 0` of a column P is a condition on the data ("the first row, P = 0, is vacuum")
    columns = {column.name for summary in analysis.tables for column in summary.columns}
    if stated := [row for row in analysis.stated if row.name not in columns]:
        where = analysis.assignment or "the assignment"
        blocks.append(table(["Quantity", "Value"], _stated_rows(stated),
                            (0.3, 0.5), f"The values {where} states in its text"))  # fmt: skip
    if not blocks:
        blocks.append(paragraphs("No parameter file was found in the material, and no single "
                                 "value of a symbol was read from the assignment (values it "
                                 "gives in a table, in words, or one for each sample are not "
                                 "listed here)."))  # fmt: skip
    return "\n\n".join(blocks)


def _stated_rows(stated: list[ParameterRow]) -> list[list[str]]:
    """Each stated value once; a symbol stated with other values for other files (`I_M =
    0.500 A` of two, `I_M = 150 mA` of another) named with the files its sentences name."""
    files: dict[tuple[str, str], list[str]] = {}
    for row in stated:
        files.setdefault((row.name, row.value), []).extend(DATA_FILE.findall(row.said_of))
    values = Counter(name for name, _ in files)
    return [
        [f"{name} ({', '.join(dict.fromkeys(named))})" if values[name] > 1 and named else name,
         value]
        for (name, value), named in files.items()
    ]  # fmt: skip


def _settings(analysis: Analysis) -> str:
    rows = analysis.parameters[:MAX_PARAMETER_ROWS]
    shown: list[list[str] | Group] = []
    place, comment = None, ""
    for row in rows:
        if (row.source, row.section) != place:
            place, comment = (row.source, row.section), ""
            shown.append(Group(f"{row.source}, [{row.section}]" if row.section else row.source))
        shown.append([row.name, row.shown(), row.comment if row.comment != comment else ""])
        comment = row.comment
    more = len(analysis.parameters) - len(rows)
    files = list(dict.fromkeys(row.source for row in rows))
    others = len(dict.fromkeys(row.source for row in analysis.parameters)) - len(files)
    where = "the file" if len(files) == 1 else "these files"
    rest = f"{more} more, of {where} and {others} others" if others else f"{more} more in {where}"
    caption = f"The settings of {', '.join(files)}, as written" + (
        f" (the first {len(rows)}; {rest}, not shown)" if more else ""
    )
    return table(["Parameter", "Value", "Comment"], shown, (0.32, 0.3, 0.3), caption)
