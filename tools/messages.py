"""Every text a tool shows the model, as named templates: the errors it can fix, read as
tool results, and the fixed wording of answers. The loop guards' text is in
`guards/messages.py`, the stages' prompts in `nodes/prompts.py`.
"""

# --- any call -----------------------------------------------------------------------------

ARGS_INVALID_ERROR = "Error: invalid arguments for {tool}: {errors}. Fix them and call again."
TIMEOUT_ERROR = (
    "Error: {tool} did not finish within {seconds:g} s and was abandoned. "
    "Ask for less (a smaller limit, another file)."
)
TOOL_FAILED = (
    "Error: {tool} failed on these arguments ({error}). Try other arguments, another file, "
    "or call finish_exploration with what you have."
)
WORK_TOO_BIG = "the work was stopped: it needs more than {megabytes} MB of memory"

# --- the folder and its files -------------------------------------------------------------

PATH_OUTSIDE_ERROR = (
    "path does not exist or is outside the data folder: {path!r}. "
    "Use paths relative to the data folder, as list_dir shows them."
)
FOLDER_CHANGED_ERROR = (
    "the data folder {root} is no longer the folder this run started with (it was moved, "
    "replaced or swapped for a link), so nothing more is read from it; finish exploration "
    "with what you have"
)
CANNOT_READ = "cannot read {name}: {reason}"
# The reasons of CANNOT_READ, as the OS gives them.
PERMISSION_DENIED = "permission denied"
NO_SUCH_FILE = "no such file"
IS_A_DIRECTORY = "it is a directory; use list_dir to see what it contains"
NOT_A_DIRECTORY = "it is a file, not a folder; read it with read_file"
NOT_A_FILE = "not a regular file (a device, pipe or socket)"

# --- list_dir and read_file ---------------------------------------------------------------

FILE_NOT_FOLDER = "{path!r} is a file, not a folder; read it with read_file"
FOLDER_NOT_FILE = "{path!r} is a folder; list it with list_dir"
CANNOT_LIST = "cannot list {path!r}: {reason}"
OFFSET_NEGATIVE = "offset must be 0 or more (0 is the first line), got {offset}"
LIMIT_TOO_SMALL = "limit must be at least 1 line, got {limit}"
PAST_THE_END = (
    "offset {offset} is past the end of {name}: it has {total} {lines} (offsets 0-{last}); "
    "read its last lines with {call}"
)
BEYOND_BUDGET_ERROR = (
    "line {line} of {name} lies beyond the {budget} one read_file call reads (it reached line "
    "{reached}); read from offset {offset}: the next call goes on from there"
)
HOLE_ERROR = (
    "line {line} of {name} lies past byte {start:,}, where a hole of {hole} begins (space the "
    "file system never wrote, read as zero bytes: no text), so nothing past it is read"
)
HOLE_NOTE = "; a hole of {hole} (no text) from byte {start:,} on is not read"
BINARY_NOT_TEXT = "{name} looks like a binary file ({kind}), not text{hint}"
USE_READ_IMAGE = "; use read_image for images"
NUL_BYTES = "contains NUL bytes"
PDF_TIMEOUT_ERROR = (
    "{name}: extracting its text took more than {seconds} s, so it was stopped; the PDF may be "
    "damaged or made to be slow"
)
PDF_PASSWORD = "{name} is a password-protected PDF; its text cannot be read"
PDF_ENCRYPTED = "{name} is an encrypted PDF that cannot be decrypted here ({reason})"
PDF_DAMAGED = "cannot parse {name} as a PDF (it may be damaged): {reason}"

# --- read_image ---------------------------------------------------------------------------

NOT_IMAGE_ERROR = "{name} is not an image ({kind}); use read_file"
DECODE_ERROR = "cannot decode image {name}: {reason}"
TOO_MANY_PIXELS = "{width}x{height} pixels would be decoded, more than the {limit} read at most"
PILLOW_MISSING = "reading images needs Pillow, which is not installed"
OCR_UNAVAILABLE = (
    "OCR is not available on this machine ({error}); install rapidocr-onnxruntime and Pillow"
)
OCR_FAILED = "OCR failed on this image ({error})"
NO_TEXT_NOTE = "(no text recognised: OCR reads printed text only, not curves, markers or pictures)"
VISION_PROMPT = (
    "This image comes from a lab experiment's data folder: a plot, a table, an instrument "
    "screen or handwritten notes. Transcribe every number and label exactly as shown, with "
    "units. For a plot, give the axis labels, units, ranges and tick values, and the notable "
    "features of each curve (peaks, minima, crossings) with approximate coordinates. Mark "
    "anything illegible as illegible; never guess a value."
)

# --- fit and derive -----------------------------------------------------------------------

SAME_COLUMN = "x and y name the same column"
NOT_FITTED = "{y} against {x} was not fitted: {why}"
NO_SUCH_TABLE = "{source} holds no table {path}; its tables are {tables}"
SEVERAL_TABLES = "{source} holds {count} tables: name one of {tables}"
NO_SUCH_COLUMN = "{table} has no column {name!r}; its columns are {columns}"
NOT_A_FORMULA = "{formula!r} is not a formula labscribe can fit: {reason}"

# --- make_figure and finish_exploration ---------------------------------------------------

FIGURES_NOT_KEPT = "figures cannot be kept in this run: it has no output folder"
FINISHED_MESSAGE = "Exploration finished. Your findings were recorded; drafting begins."
