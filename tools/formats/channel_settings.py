"""Settings a scope writes for each of its channels, in the column of that channel's data:
a Tektronix DPO's `Vertical Units,V,,V,` and `Probe Attenuation,1,,10,` above
`TIME,CH1,CH1 Peak Detect,CH2,CH2 Peak Detect`. Each value is the setting of the channel
named at its position, read under that channel's name, so CH2's probe attenuation is not
CH1's and each channel takes its own vertical unit (tools.formats.instruments.apply_metadata)."""

from __future__ import annotations

from labscribe.tools.formats.cell_grid import Grid
from labscribe.tools.formats.headings import is_units_row
from labscribe.tools.formats.instruments import metadata_of_line
from labscribe.tools.formats.parameters import ParameterRow

MAX_SETTING_LINES = 40  # a preamble's lines read above the header
MIN_SETTING_LINES = 3


def channel_settings(grid: Grid, data_start: int) -> tuple[list[ParameterRow], list[int]]:
    """The per-channel settings above the header of the data that start at row
    `data_start`, grouped by channel (each row's section is its channel), and the rows
    they were read from. A block of them is several lines, each a label and one value in
    the column of each of the same channels, and some setting is the same for every
    channel (`Vertical Units,V,,V,`); lines of results (`Fmax;4,812;kN`) or of `key:`
    pairs are none."""
    header_row = data_start - 1
    if header_row < 1 or grid.values.iloc[header_row].notna().any():
        return [], []
    names = [cell.strip() for cell in grid.cells.iloc[header_row]]
    if is_units_row(names):  # names over units: the channels are named a row higher
        return [], []
    lines: dict[int, tuple[str, dict[int, str]]] = {}
    for i in range(max(0, header_row - MAX_SETTING_LINES), header_row):
        cells = [cell.strip() for cell in grid.cells.iloc[i]]
        values = {p: cell for p, cell in enumerate(cells) if p and cell}
        channels = [names[p] for p in values]
        if cells[0] and len(values) >= 2 and all(channels) and len(set(channels)) == len(values):
            lines[i] = (cells[0], values)
    layouts = {tuple(values) for _, values in lines.values()}
    alike = any(len(set(values.values())) == 1 for _, values in lines.values())
    paired = any(cell.endswith(":") for label, values in lines.values()
                 for cell in (label, *values.values()))  # fmt: skip
    if len(lines) < MIN_SETTING_LINES or len(layouts) != 1 or not alike or paired:
        return [], []
    by_channel: dict[str, list[ParameterRow]] = {}
    for label, values in lines.values():
        for p, value in values.items():
            rows = metadata_of_line(f"{label}\t{value}")
            by_channel.setdefault(names[p], []).extend(
                row.model_copy(update={"section": names[p]}) for row in rows
            )
    return [row for rows in by_channel.values() for row in rows], list(lines)
