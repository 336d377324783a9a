"""The data files a task names ("Bestimmen Sie aus `c.csv` die Resonanzfrequenz", "Vanadium
(Vanadium.dat): ..."): such a task is about those files' tables alone. Its model is fitted
to them (tools.columns.roles), its extremes are read from them (tools.fits.extremes), and its
checklist row lists their results only (tools.assignment.checklist).

A file is named by its whole name with its suffix, as a word of the task; its stem alone
("Vanadium") is a word of prose as often as a file's name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath

from labscribe.tools.fits.fit_result import Fit

MIN_STEM = 6  # a shorter stem ("data", "run") begins too many words
# A data file's name as a handout writes it in a sentence about that file.
DATA_FILE = re.compile(
    r"[\w.-]+\.(?:csv|tsv|txt|dat|xlsx?|ods|lab|lvm|tdms|h5|hdf5|mat|npz|json)\b", re.IGNORECASE
)


def named_files(task: str, sources: Iterable[str]) -> frozenset[str]:
    """The `sources` (paths in the folder) that `task` names by their file names."""
    return frozenset(
        source for source in sources
        if re.search(rf"(?<![\w.-]){re.escape(PurePosixPath(source).name)}(?![\w-])", task,
                     re.IGNORECASE)
    )  # fmt: skip


def named_tables(task: str, tables: Iterable[tuple[str, str]]) -> frozenset[str] | None:
    """The ids of the tables (id, source) of the files `task` names; None where it names no
    file of them, so every table may bear on it."""
    pairs = list(tables)
    named = named_files(task, {source for _, source in pairs})
    return frozenset(table for table, source in pairs if source in named) if named else None


def named_by_stem(task: str, sources: Iterable[str]) -> frozenset[str]:
    """The `sources` whose file name's stem, of MIN_STEM letters or more, begins a word of
    `task` ("egenfrekvens.txt" for "Bestäm egenfrekvensen", "Resonanz.csv" for "die
    Resonanzkurve"). A stem is a word of prose as often as a name, so this ties a task to a
    file only to choose between fits that answer it alike."""
    words = re.findall(r"[^\W\d_]+", task.lower())
    return frozenset(
        source for source in sources
        if len(stem := PurePosixPath(source).stem.lower()) >= MIN_STEM and stem.isalpha()
        and any(word.startswith(stem) for word in words)
    )  # fmt: skip


def of_stem_named(task: str, fits: list[Fit], sources: Mapping[str, str]) -> list[Fit]:
    """Those of `fits` (that answer `task` alike) whose files' stems it names (named_by_stem:
    "die Vanadium-Daten" of Vanadium.dat and Rhodium.dat's); all where it names none of
    them. `sources`: each table's file, by the table's id."""
    named = named_by_stem(task, {sources.get(fit.table, "") for fit in fits})
    return [fit for fit in fits if sources.get(fit.table, "") in named] if named else fits
