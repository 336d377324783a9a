"""Columns that count rather than measure: a column that only numbers the rows (R's
`rownames`, pandas' unnamed index, `No.`, `trial`, `Messung`, `序号`), and a column that
labels which series a row belongs to (`Expt` in Michelson's 1879 data as R's `morley` holds
it, `series` in `boot::gravity`).

A row-numbering column is never a variable: it is set aside before the independent variable
is chosen (tools.columns.variable_column), is never fitted, and is not a column of the
results. The rule is kept conservative: the name must be one that numbers rows (an integer
column named `m`, `N` or `n` is a diffraction order, a fringe count, a number of turns, and
stays a variable), the values must count in steps of one (a count that starts again at each
series, as `Run` in `morley`, counts too), and a column without a name counts only where it
stands first beside named ones, as R's and pandas' indexes do. A series label is a column of
such a name whose values repeat, each at least twice.

This module knows names and values only; it imports nothing of the table's model.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

# Words of a header that numbers rows, and of one that labels series (a run or trial may do
# either: the values decide). Only words no physical quantity is written as: `n`, `N`, `m`,
# `k` are not among them, nor `count` (a counter's counts) or `set` (a set point).
ROW_WORDS = frozenset(
    {"rownames", "row", "names", "unnamed", "index", "idx", "no", "nr", "nº", "number", "num",
     "#", "id", "obs", "observation", "trial", "run", "measurement", "messung", "versuch",
     "durchgang", "lauf", "lfd", "reading", "sample", "point", "pt", "rec", "record", "line",
     "zeile", "punkt", "messpunkt", "datapoint",
     # a repeat's number (rep 1..5), in the words French, Spanish and German sheets use
     "rep", "reps", "repeat", "repetition", "replicate", "wiederholung", "essai", "mesure",
     "medida", "medición", "ensayo", "repetición", "numéro", "número", "nummer",
     # a reading's or a weighing's number in Portuguese, Spanish, Italian, French, Dutch and
     # German sheets (`medição`, `pesagem`, `Lectura`, `lettura`), written without accents too
     "medicao", "medicion", "repeticion", "numero", "leitura", "lectura", "lettura", "lecture",
     "pesagem", "pesada", "pesee", "pesata", "wagung", "ensaio", "repeticao", "misura",
     "prova", "ripetizione", "replica", "meting", "herhaling", "durchlauf", "ablesung",
     # the numbered object one row describes (tree 1..31, subject 1..12)
     "tree", "plant", "subject", "participant",
     # Polish `Lp.` (liczba porządkowa), Czech `č.` (číslo), Russian `№ п/п`
     "lp", "č", "c", "пп", "п/п",
     # the step of a protocol or the event a sensor logged, numbered as they come
     "step", "schritt", "paso", "passo", "etape", "krok", "event", "evento", "ereignis"}
)  # fmt: skip
LABEL_WORDS = frozenset(
    {"expt", "exp", "experiment", "series", "serie", "group", "batch", "block", "messreihe",
     "reihe", "gruppe", "specimen", "trial", "run", "versuch", "sample", "no", "nr", "number",
     "#", "rep", "replicate"}
)  # fmt: skip
# Chinese headers, matched whole.
# `复孔` and `平行` number a replicate well or tube (1..3 at each concentration).
ROW_CHINESE = frozenset(
    {"序号", "次数", "编号", "次序", "测量次数", "复孔", "复孔号", "孔号", "重复", "重复次数",
     "平行", "平行样", "平行号", "测定次数"}
)  # fmt: skip
LABEL_CHINESE = frozenset({"组", "组别", "组号", "实验", "系列", "实验组"})
# Names a reader writes for an index it wrote itself: any rising whole numbers count.
INDEX_HEADERS = frozenset({"rownames", "row.names", "unnamed: 0", "unnamed:0", "index"})
MIN_COUNTED = 3  # fewer rows say nothing about counting
SKIPPED_SHARE = 0.01  # of a count's steps, those that skip numbers a dropped row had
_TOKENS = re.compile(r"[^\W\d_]+|#")
_JOINING = frozenset({"of", "the", "de", "del", "da", "do", "di", "der", "des", "du", "la"})
_NUMERO = re.compile(r"\b[nN]\s*\.?\s*[º°]")


def unaccented(text: str) -> str:
    """`medição` as `medicao`: sheets write the same word with and without its accents."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def counting_name(header: str, *, labels: bool = False) -> bool:
    """Whether a header, as written, names a column that numbers rows (`labels`: that
    labels series): every word of it is such a word (`Trial No.`, `Run #`, `Messung Nr.`,
    `rownames`, `Unnamed: 0`; `Expt`, `series`), or it is one of the Chinese names (`序号`;
    `组别`). A unit in the header (`Set (V)`) makes it a quantity."""
    # `n°` (French) is `nº` written with the degree sign, `n.º` (Portuguese) with a stop: one
    # word, not the letter n
    text = _NUMERO.sub("no", header.strip().strip('"').strip())
    if text in (LABEL_CHINESE if labels else ROW_CHINESE):
        return True
    words = _TOKENS.findall(unaccented(text.lower()))
    known = LABEL_WORDS if labels else ROW_WORDS
    # `número de medida`, `number of the reading`: the small words join, they name nothing
    words = [word for word in words if word not in _JOINING]
    return bool(words) and all(word in known for word in words)


def counts_rows(header: str, values: np.ndarray, *, first: bool, named_others: bool) -> bool:
    """Whether a column only numbers the rows: a counting name
    (tools.columns.counting.counting_name) and whole numbers rising by one (starting again at each
    series), or any rising whole numbers under a reader's own index name (`rownames`, `Unnamed:
    0`); a column without a name when it stands first, other columns are named, and it counts by
    one (from 0 or 1, or from any row a filtered pandas frame kept: 12, 13, 14, ...)."""
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    if len(finite) < MIN_COUNTED or not np.all(finite == np.round(finite)):
        return False
    text = header.strip().strip('"').strip()
    if not text:
        return first and named_others and _steps_of_one(finite)
    if not counting_name(text):
        return False
    if reader_index(text):
        return bool(np.all(np.diff(finite) > 0)) or _shuffled_count(finite)
    return _counts(finite) or _shuffled_count(finite)


def _shuffled_count(values: np.ndarray) -> bool:
    """1..n written with a few rows out of order (`…, 14, 16, 15, 17, …`, rows copied back in
    another order): the row numbers all the same."""
    ordered = np.sort(values)
    return ordered[0] in (0.0, 1.0) and _steps_of_one(ordered)


def reader_index(header: str) -> bool:
    """Whether a header is one a reader writes for its own index (`rownames`, `Unnamed: 0`,
    an empty one): that column numbers rows whatever the others hold."""
    text = header.strip().strip('"').strip()
    return not text or text.lower() in INDEX_HEADERS


def series_label(header: str, values: np.ndarray) -> bool:
    """Whether a column labels series: a label's name, and a few values each repeated (at
    least two series of at least two rows, at most half as many labels as rows) that do
    not count rows; or, whatever its name, two whole numbers in two blocks (`_two_blocks`)."""
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    if header.strip() and _two_blocks(finite):
        return True  # whatever its name: nothing is fitted against two values
    if not header.strip() or not counting_name(header, labels=True):
        return False
    if len(finite) < 2 * MIN_COUNTED - 2:
        return False
    if _counts(finite):
        return False  # a run number within each series counts; it labels nothing
    labels, counts = np.unique(finite, return_counts=True)
    return 2 <= len(labels) <= len(finite) / 2 and bool(counts.min() >= 2)


def _two_blocks(values: np.ndarray) -> bool:
    """Two whole numbers, each held by one block of MIN_COUNTED rows or more (Cavendish's
    `fil`: 1 for the first six determinations, 2 for the rest): two groups of rows, not a
    variable a curve could be fitted against."""
    if not np.all(values == np.round(values)):
        return False
    labels, counts = np.unique(values, return_counts=True)
    changes = int(np.count_nonzero(np.diff(values)))
    return len(labels) == 2 and changes == 1 and int(counts.min()) >= MIN_COUNTED


def numbers_rows(values: np.ndarray) -> bool:
    """Whether the values are the rows' own numbers, 0, 1, 2, ... or 1, 2, 3, ... (a
    spreadsheet's `Lp.` column, whatever its header)."""
    return len(values) > 0 and values[0] in (0.0, 1.0) and _steps_of_one(values)


def _steps_of_one(values: np.ndarray) -> bool:
    return bool(np.all(np.diff(values) == 1))


def _counts(values: np.ndarray) -> bool:
    """1..n, or 1..k then 1..k again (a run number within each experiment): every step is
    +1 or a return to the first value, but for a few numbers skipped (a sensor's events 1..107
    of which 7 were dropped: at most SKIPPED_SHARE of the steps)."""
    steps = np.diff(values)
    restarts = steps < 1
    skipped = int(np.count_nonzero(steps > 1))
    return (
        bool(np.all(values[1:][restarts] == values[0]))
        and skipped <= SKIPPED_SHARE * len(steps)
        and bool(np.any(steps == 1))
    )
