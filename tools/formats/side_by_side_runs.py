"""Runs recorded side by side in one block of columns (PASCO Capstone's `Time (s) Run #1; ...;
Time (s) Run #2`, Vernier's `Run 1: Time`, an isotherm's `p/p°, Quantity, p/p°, Quantity`,
sensors that each bring their own time): each is a table of its own, so that no run is fitted
against another's axis. Told apart by the headers alone; the settings written around the data
are tools.formats.instruments'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from labscribe.tools.columns.units import split_unit

# A time column's name: `t` (lower case: `T` is a temperature), `time`, `Zeit`, alone or
# with the name of what it times (`t_block_1`, `time water`).
_TIME_COLUMN = re.compile(r"^(?:t|[Tt]ime|TIME|[Zz]eit)(?:[_ ]\S+)?$")
# Each run of blanks has one way to match (`\s*(?:#\s*)?`, no `\s*` before a search's word
# boundary): a header cell of 200,000 blanks is read in linear time.
_RUN = re.compile(
    r"(?:^(?:run|lauf|trial|messung|serie)\s*(?:#\s*)?(?P<pre>\d+)\s*(?::\s*|(?<=\s)(?=\S))"
    r"|^(?P<latest>latest)\s*:\s*"
    r"|\b(?:run|lauf|trial|messung|serie)\s*(?:#\s*)?(?P<post>\d+)\s*$)",
    re.IGNORECASE,
)


def _repeated(bare: list[tuple[str, str, str]]) -> list[int]:
    """Where each series starts when the same names come again side by side (an isotherm's
    adsorption and desorption branches: `p/p°, Quantity, p/p°, Quantity`); [] otherwise.
    A series has two names or more, not all the same (`T, T, T, T` are repeats)."""
    names = [name for _, name, _ in bare]
    suffixed = [_SERIES_SUFFIX.match(name) for name in names]
    for period in range(2, len(names) // 2 + 1):
        if len(names) % period or len(set(names[:period])) < 2:
            continue
        if all(name == names[i % period] for i, name in enumerate(names)):
            return list(range(0, len(names), period))
        # `X_47, Y_47, X_100, Y_100`: the same stems, each series under a suffix of its own
        if all(suffixed) and _suffixed_series([(m[1], m[2]) for m in suffixed], period):
            return list(range(0, len(names), period))
    return []


# A name, then the label of its series after `_`, `-` or a blank (`X_47`, `U-run2`).
_SERIES_SUFFIX = re.compile(r"^(.+?)[_\s-]+([^_\s-]+)$")


def _suffix_of(series: list[tuple[str, str, str]]) -> str:
    """The suffix every name of `series` ends in (`47` of `X_47, Y_47`), else ""."""
    found = {m[2] if (m := _SERIES_SUFFIX.match(name)) else "" for _, name, _ in series}
    return found.pop() if len(found) == 1 else ""


def _suffixed_series(parts: list[tuple[str, str]], period: int) -> bool:
    """Whether (stem, suffix) `parts` come in series of `period` columns with the same
    stems, each series under one suffix and no two series under the same."""
    series = [parts[i : i + period] for i in range(0, len(parts), period)]
    suffixes = [{suffix for _, suffix in one} for one in series]
    return (
        all(len(labels) == 1 for labels in suffixes)
        and len({next(iter(labels)) for labels in suffixes}) == len(series)
        and all([stem for stem, _ in one] == [stem for stem, _ in series[0]] for one in series)
        and len({stem for stem, _ in series[0]}) == period
    )


def _timed(bare: list[tuple[str, str, str]]) -> list[int]:
    """Where each series starts when every few columns bring their own time column
    (`t_block_1, T_block_1, t_water_in, T_water_in`: sensors read one after another); []
    unless the first column and at least one more are times and no series is a time alone."""
    starts = [i for i, (_, name, _) in enumerate(bare) if _TIME_COLUMN.match(name)]
    bounds = [*starts, len(bare)]
    if len(starts) < 2 or starts[0] != 0 or any(b - a < 2 for a, b in pairwise(bounds)):
        return []
    return starts


@dataclass(frozen=True)
class RunGroup:
    title: str
    members: list[int]
    """Positions of the columns in the run, in order."""
    spelled: list[tuple[str, str, str]]
    """Each member's (header, name, unit), the run's label taken off its name."""


def run_groups(spelled: list[tuple[str, str, str]], title: str) -> list[RunGroup]:
    """The runs recorded side by side in one block of columns, by the labels their headers
    carry (`Time (s) Run #1`, `Run 2: Position (m)`, `Latest: Time (s)`); the whole block as
    one run when fewer than two runs are labelled."""
    labels: list[str | None] = []
    bare: list[tuple[str, str, str]] = []
    for header, name, unit in spelled:
        match = _RUN.search(header)
        if match is None:
            labels.append(None)
            bare.append((header, name, unit))
            continue
        label = match["pre"] or match["post"] or ""
        labels.append(label or "latest")
        rest = (header[: match.start()] + header[match.end() :]).strip()
        bare.append((header, *split_unit(rest)))
    named = [label for label in labels if label is not None]
    if len(set(named)) == len(named) > 1 and None in labels:
        # one column a run beside shared ones ("m [g], Run 1 [s], Run 2 [s]"): repeats of one
        # quantity side by side, each run's name its own
        return [RunGroup(title, list(range(len(spelled))), spelled)]
    if len(set(named)) < 2:
        starts = _repeated(bare) or _timed(bare)
        if not starts:
            return [RunGroup(title, list(range(len(spelled))), bare)]
        bounds = [*starts, len(spelled)]
        return [
            RunGroup(f"series {_suffix_of(bare[a:b]) or k}", list(range(a, b)), bare[a:b])
            for k, (a, b) in enumerate(pairwise(bounds), start=1)
        ]
    groups = []
    for label in dict.fromkeys(named):
        members = [i for i, other in enumerate(labels) if other == label]
        run = "latest run" if label == "latest" else f"run {label}"
        groups.append(RunGroup(run, members, [bare[i] for i in members]))
    return groups
