"""Helpers the tests of reading tables share."""

from pathlib import Path

from labscribe.tools.formats.tables import Table, read_data
from labscribe.tools.tool import Folder


def one_table(folder: Path, name: str) -> Table:
    tables = read_data(Folder(folder), name).tables
    assert len(tables) == 1
    return tables[0]


def units(table: Table) -> list[tuple[str, str]]:
    return [(column.key, column.unit) for column in table.summary.columns]
