"""What reading one container file may cost, whatever its format.

A lab's files are small, but a folder may hold a 2 GB HDF5 dump or a zip that unpacks to
gigabytes, and the analysis reads every file it finds: each reader stops at these bounds
before it decodes, so no one file can take the run's memory or time.
"""

from __future__ import annotations

from labscribe.tools.formats.text_tables import MAX_LINES

# A lab's spreadsheet is kilobytes to a few megabytes; a zip (xlsx, ods) may unpack to more.
MAX_CONTAINER_BYTES = 64 * 1024 * 1024
MAX_POINTS = MAX_LINES  # values read of one column
MAX_ARRAYS = 64  # named arrays looked at in one file
MAX_METADATA = 80
# A MATLAB variable's bytes, decoded: a struct's shape says nothing of its fields' sizes,
# and scipy inflates a compressed variable whole even to list it, so each variable's own
# byte count, or the size it inflates to (counted as it streams), is checked first.
MAX_VARIABLE_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 8  # levels of structs in structs, cells in cells, looked into
