"""Which columns of a table a phrase or a formula's symbols name: "the period T" names a
column `T` or `period`, "the stopping voltage" names `Stopping Voltage` rather than `Other
Voltage` (the name a phrase covers best), the symbol `L` names `length` where the handout
writes "the length L", and of two symbols that could name one column (the handout's
"spring deflection x" and "spring constant k"), the one whose words say it best claims it.

The matching that tools.columns.roles decides the response and the predictor with.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import sympy

from labscribe.tools.analysis.data_facts import words_of
from labscribe.tools.assignment.role_phrases import Pairing, bare_symbol, is_symbol
from labscribe.tools.assignment.task_axes import TRANSFORMS
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.symbol_dimensions import conventional_column
from labscribe.tools.formulas.axis_expressions import expression_of, trailing_expression, writes
from labscribe.tools.formulas.formula_notation import CONSTANT_TERMS, FUNCTIONS, plain_arithmetic
from labscribe.tools.formulas.formula_parse import FormulaError, parse_expression

MIN_PREFIX = 4  # "temperatures" names `temperature`; "res" does not name `resistance`
MIN_COVERAGE = 0.5  # the handout's words for a symbol say at least half a column's name
_COMPOUND = re.compile(r"[-‐][^\W\d_]")
_TOKEN = re.compile(r"\$?[A-Za-z\u0370-\u03ff][A-Za-z0-9_\u0370-\u03ff{}]*\$?|[\u4e00-\u9fff]+")
_LEFT_CALL = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*\(\s*([A-Za-z][A-Za-z0-9_]*)\s*\)\s*$")
# A column headed by one letter of its own (`d`, `t`): that letter's quantity by convention.
OWN_LETTER = re.compile(r"[A-Za-z\u0370-\u03ff]")
_NOT_SYMBOLS = frozenset({"a", "an", "of", "on", "in", "at", "to", "is", "as", "by", "or"})


@dataclass(frozen=True)
class Named:
    """The columns of one table a statement names: responses, then predictors, in order."""

    responses: tuple[Column, ...] = ()
    predictors: tuple[Column, ...] = ()
    symbols: dict[str, str] = field(default_factory=dict)
    """Column key -> the symbol a formula names it by."""
    elsewhere: bool = False
    """Its predictor's phrase names no column that may be one ("against the trial number")."""
    unnamed: bool = False
    """Its response's phrase writes a quantity no column holds (`ln[(C* − C)/(C* − C0)]`,
    an axis not formed): no other column is its response."""


def named_by_pairing(
    pairing: Pairing, candidates: list[Column], words: dict[str, set[str]]
) -> Named:
    responses = columns_named(pairing.response, candidates, words)
    predictors = columns_named(pairing.predictor, candidates, words)
    if _unformed_partner(pairing, responses, predictors):
        # the response's axis (`ln(R/Ω)`) was not formed: a formed axis is no partner of the
        # raw column, and the pair is read on the columns the axes are made of
        raw = [c for c in candidates if not c.formed]
        predictors = columns_named(pairing.predictor, raw, words)
    elsewhere = bool(pairing.predictor) and not predictors
    unnamed = not responses and _quantity_written(pairing.response)
    return Named(tuple(responses[-1:]), tuple(predictors), elsewhere=elsewhere, unnamed=unnamed)


def _quantity_written(phrase: str) -> bool:
    """Whether a response's phrase writes a quantity of several symbols (`ln[(C* − C)/(C* −
    C0)]`) or one with a word for its subscript (`θ_frei`): not "them" or "the data", nor a
    transform of one symbol the file may call otherwise (`ln U_C` of a column `V`)."""
    if re.fullmatch(r"[^\W\d_]_\{?[^\W\d_]{3,}\}?", phrase.strip()):
        return True  # `θ_frei`: a quantity the handout defines, which no column is by name
    if not re.search(r"[()\[\]/*^+−-]", phrase):
        return False
    symbols = {t for t in re.findall(r"[A-Za-z\u0370-\u03ff]\w*", phrase) if t not in _FUNCTIONS}
    return len(symbols) >= 2


_FUNCTIONS = frozenset({"ln", "log", "lg", "exp", "sqrt", "sin", "cos", "tan"})


def _unformed_partner(pairing: Pairing, responses: list[Column], predictors: list[Column]) -> bool:
    """Whether the pairing's predictor is a formed axis while its response, a transform of
    a column, was not formed."""
    return (
        bool(responses) and not responses[-1].formed and bool(predictors)
        and all(c.formed for c in predictors)
        and any(kind.search(pairing.response) for kind in TRANSFORMS.values())
    )  # fmt: skip


def named_by_formula(text: str, candidates: list[Column], words: dict[str, set[str]]) -> Named:
    """The columns a formula's symbols name: those on its left side are responses, those on
    its right predictors (the argument of `U(t)` too); empty where it does not parse. The
    argument of `B(I_M)` that names no column is a variable elsewhere."""
    sides = _sides(text)
    if sides is None:
        return Named()
    left_names, right_names, called = sides
    if right_names <= CONSTANT_TERMS and not called:
        return Named()  # `T = const`, `p·V = const`: what is held constant; no axes
    symbols: dict[str, str] = {}
    responses = _symbol_columns(left_names, candidates, words, symbols)
    predictors = [
        c for c in _symbol_columns(right_names, candidates, words, symbols) if c not in responses
    ]
    return Named(tuple(responses), tuple(predictors), symbols, elsewhere=called and not predictors)


@functools.lru_cache(maxsize=256)
def _sides(text: str) -> tuple[frozenset[str], frozenset[str], bool] | None:
    """The symbols of a formula's left and right sides (the argument of `U(t)` on the right),
    and whether the left side names its argument so; None where it does not parse. Kept:
    every table of a folder reads the same formulas."""
    left, _, right = plain_arithmetic(" ".join(text.split())).rpartition("=")
    call = _LEFT_CALL.match(left)
    call = call if call and call[1] not in FUNCTIONS else None  # `log(y)` is no `U(t)`
    try:
        left_names = {call[1]} if call else _symbol_names(left)
        # `T(t) = T_env + ...` says which are its variables: the rest are parameters
        right_names = {call[2]} if call else _symbol_names(right)
    except FormulaError:
        return None
    return frozenset(left_names), frozenset(right_names), call is not None


def _symbol_names(side: str) -> set[str]:
    return {s.name for s in parse_expression(side).free_symbols} if side.strip() else set()


def _symbol_columns(
    names: frozenset[str],
    candidates: list[Column],
    words: dict[str, set[str]],
    symbols: dict[str, str],
) -> list[Column]:
    """The columns `names` stand for, each claimed by the symbol that names it best (the
    handout's "spring deflection x" over its "spring constant k"); records which symbol."""
    claims = sorted(
        ((score, name, column) for name in names
         for score, column in [_column_of_symbol(name, candidates, words)] if column),
        key=lambda claim: -claim[0],
    )  # fmt: skip
    found: list[Column] = []
    for _, name, column in claims:
        if column.key not in symbols and name not in symbols.values():
            found.append(column)
            symbols[column.key] = name
    return found


def _column_of_symbol(
    symbol: str, candidates: list[Column], words: dict[str, set[str]]
) -> tuple[float, Column | None]:
    """(how surely, the column) a formula's symbol stands for: by name (3), else by the
    words the handout uses for the symbol where they say at least half the column's name
    (2 and the share), else by name in another case (1)."""
    exact = [c for c in candidates if symbol in (c.name, c.key, bare_symbol(c.name))]
    if len(exact) == 1:
        return 3.0, exact[0]
    described = sorted(words.get(symbol, ()))
    hits = _hits(" ".join(described), candidates, {}) if described else []
    best = max((_coverage(hit) for hit in hits), default=0.0)
    named = [hit[3] for hit in hits if _coverage(hit) == best]
    if len(named) == 1 and best >= MIN_COVERAGE:
        return 2.0 + best / 2, named[0]
    # a name whose first or last word is the symbol (`L_air`, `lambda_peak`, `load m`)
    ends = [c for c in candidates if not c.formed and symbol in name_ends(c.name)]
    if len(ends) == 1:
        return 1.5, ends[0]
    # a letter's case tells quantities apart (the amplitude A, the interval a); a word's not
    folded = [
        c for c in candidates if len(symbol) > 1 and symbol.lower() == bare_symbol(c.name).lower()
    ]
    if len(folded) == 1:
        return 1.0, folded[0]
    # the one column of the quantity the symbol stands for by convention (T a temperature)
    # a column headed by a letter of its own (`d`, a diameter) is that letter's quantity, not
    # another symbol's of the same dimension (the radius r of `U = (e/m)·B²r²/2`)
    others = [
        c for c in candidates if not c.formed and not OWN_LETTER.fullmatch(bare_symbol(c.name))
    ]
    conventional = conventional_column(symbol, others)
    return (0.5, conventional[0]) if len(conventional) == 1 else (0.0, None)


def columns_named(
    phrase: str, candidates: list[Column], words: dict[str, set[str]]
) -> list[Column]:
    """The columns `phrase` names, in the order it names them: by a symbol (`T`, `V_R`), by
    words of the column's name ("the temperature"), by the words the handout uses for a
    symbol ("the length" where it writes "the length L"), by a symbol in another case. Of
    columns that share a word ("voltage"), those whose names the phrase covers best."""
    formed = _formed_named(phrase, candidates)
    if formed is not None:
        return [formed]
    hits = _hits(phrase, candidates, words)
    if not hits:
        return []
    top = max(hit[0] for hit in hits)
    # a weak match (a symbol in another case) counts only where nothing names a column better
    kept = [hit for hit in hits if hit[0] >= min(top, 2)]
    best = max(_coverage(hit) for hit in kept)
    named = [hit for hit in sorted(kept, key=lambda h: h[1]) if _coverage(hit) == best]
    return [hit[3] for hit in _one_per_word(named)]


def _one_per_word(hits: list[Hit]) -> list[Hit]:
    """One column for each word that alone names several: "vs time" names the time, one
    column, where a file keeps two clocks (`Day fraction since midnight`, `Time`); several
    columns are named by several words ("against T and p")."""
    strongest: dict[int, Hit] = {}
    for hit in hits:
        if len(hit[4]) == 1:
            (word,) = hit[4]
            if word not in strongest or hit[0] > strongest[word][0]:
                strongest[word] = hit
    return [hit for hit in hits if len(hit[4]) != 1 or strongest[min(hit[4])] is hit]


def _formed_named(phrase: str, candidates: list[Column]) -> Column | None:
    """The column formed as the expression `phrase` ends in ("a fit of T²" names `T²`,
    "1/λ" names `1/λ`): an axis the assignment asked for, formed by tools.formulas.formed_columns;
    else a column whose header writes it (a sheet's `2V/R^2` for "2V/R²")."""
    ended = trailing_expression(phrase)
    if ended is None or ended[1].is_Symbol:
        return None
    key = sympy.srepr(ended[1])
    same = [c for c in candidates if c.formed
            and (e := expression_of(c.name)) is not None and sympy.srepr(e) == key]  # fmt: skip
    written = [c for c in candidates if not c.formed and writes(c.name, ended[1])]
    return next(iter(same + written), None)


_GREEK_WORDS = {"lambda": "lam", "theta": "theta", "nu": "nu", "tau": "tau", "omega": "omega",
                "phi": "phi", "alpha": "alpha", "rho": "rho", "sigma": "sigma"}  # fmt: skip


def name_ends(name: str) -> set[str]:
    """The first and last words of a name of two words or more, as symbols: `L_air` gives
    L and air, `lambda_peak` lam (λ as formulas spell it) and peak; `lambda` gives lam."""
    words = [w for w in re.split(r"[_\s]+", name.strip()) if w]
    if len(words) < 2:  # a Greek letter spelled out (`lambda`) is the letter's symbol
        return {_GREEK_WORDS[w.lower()] for w in words if w.lower() in _GREEK_WORDS}
    ends = {words[0], words[-1]}
    return ends | {_GREEK_WORDS[w.lower()] for w in ends if w.lower() in _GREEK_WORDS}


# Words for the time in the handouts' languages: the clock's column is what they name.
TIME_WORDS = frozenset(
    {"time", "zeit", "temps", "tiempo", "tempo", "czas", "время", "čas", "tijd", "时间", "elapsed"}
)
Hit = tuple[int, int, set[str], Column, frozenset[int]]
"""(strength, position, the words of the column's name said, the column, where the words
that name it at that strength stand)"""


def _hits(phrase: str, candidates: list[Column], words: dict[str, set[str]]) -> list[Hit]:
    """Each column the tokens of `phrase` name, with how surely and where first."""
    hits: dict[str, Hit] = {}
    for match in _TOKEN.finditer(phrase):
        token = bare_symbol(match[0])
        if token in _NOT_SYMBOLS:
            continue
        # the first word of a compound ("air-flow") says what the next one is of: the word
        # names no column by itself, though a symbol may ("x-axis")
        compound = _COMPOUND.match(phrase, match.end()) is not None
        for column in candidates:
            strength = _strength(token, column, words)
            if not strength or (compound and strength < 3):
                continue
            strength_, position, matched, _, where = hits.get(
                column.key, (0, match.start(), set(), column, frozenset())
            )
            covered = {w for w in words_of(column.name) if _words_match({token.lower()}, _named(w))}
            where = (
                where if strength < strength_
                else where | {match.start()} if strength == strength_
                else frozenset({match.start()})
            )  # fmt: skip
            hits[column.key] = (
                max(strength, strength_),
                position,
                matched | covered,
                column,
                where,
            )
    return list(hits.values())


def _named(word: str) -> Column:
    return Column(key=word, header=word, name=word, count=0)


def _coverage(hit: Hit) -> float:
    """How much of the column's name the phrase says: 1 for a symbol, else the share of its
    words (`stopping voltage` says all of `Stopping Voltage`, half of `Other Voltage`)."""
    strength, _, matched, column, _ = hit
    own = {w for w in words_of(column.name) if len(w) >= 3 and "_" not in w}
    if strength == 3 or not own:
        return 1.0
    return len(matched & own) / len(own)


def _strength(token: str, column: Column, words: dict[str, set[str]]) -> int:
    """How surely `token` names `column`: 3 by its symbol, 2 by a word, 1 by a symbol in
    another case, 0 not at all."""
    name = bare_symbol(column.name)
    if token in (name, column.key) and (is_symbol(token) or len(token) > 1):
        return 3
    if "_" in token and token.replace("_", "") in (name, column.key):
        return 3  # a header writes the symbol without its subscript mark: V_H as VH, P_γ Pgamma
    if column.origin and token.lower() in TIME_WORDS:
        return 3  # a clock's column is "the time", whatever its header (`Day fraction ...`)
    if re.search(r"[\u4e00-\u9fff]", token):
        return 2 if name and (name in token or token in name) else 0
    lowered = token.lower()
    if len(lowered) >= 3 and not is_symbol(token) and _words_match({lowered}, column):
        return 2
    if is_symbol(token) and _words_match(words.get(token, set()), column):
        return 2
    # a word the handout uses for this column's symbol alone ("reading" describes both the
    # customer's reading y and the reference reading x: it names neither)
    describing = [symbol for symbol, described in words.items() if lowered in described]
    if describing == [name]:
        return 2
    if is_symbol(token) and lowered == name.lower():
        return 1
    return 0


def _words_match(words: set[str], column: Column) -> bool:
    """Whether one of `words` names the column: a word of its name, the same word in
    another form (`temperatures`), or, for Chinese, a name the word holds."""
    own = words_of(column.name)
    for word in words:
        if re.search(r"[\u4e00-\u9fff]", word):
            if column.name and (column.name in word or word in column.name):
                return True
            continue
        for part in own:
            shorter, longer = sorted((word, part), key=len)
            if shorter == longer or (len(shorter) >= MIN_PREFIX and longer.startswith(shorter)):
                return True
    return False
