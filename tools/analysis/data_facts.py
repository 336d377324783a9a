"""What the data determine, as facts for the number checks (guards.numbers): each table's
row count, each column's maximum, minimum and where it peaks, and every parameter of a fit
that describes its column, held to twice its standard error. A response fitted both as
measured and relative to its input (`V_R` and `V_R/V_in`) gives one fact per parameter with
both values, since a report may quote either."""

from __future__ import annotations

import os
import re
from collections.abc import Set as AbstractSet

from labscribe.guards.numbers import Fact
from labscribe.tools.fits.fit_result import Fit, Parameter, format_value
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.formulas.quantities import Derived

ROWS = frozenset({"rows", "points", "samples", "measurements", "readings", "entries"})
PEAK = frozenset({"peak", "peaks", "peaked", "resonance", "resonant", "maximum", "maximal"})
HIGHEST = frozenset({"maximum", "max", "maximal", "highest", "largest", "peak"})
LOWEST = frozenset({"minimum", "min", "minimal", "lowest", "smallest"})
# The words a sentence uses for each fitted parameter. Disjoint where two parameters of one
# fit could share a sentence (a FWHM is a "width", its sigma is only "sigma"), since a fact
# every on-topic sentence states wrongly is reported as a mismatch. A rate, spring or
# absorption "constant" or "coefficient" is a physical one, never a polynomial's term.
COMMON_WORDS = {
    "slope": {"slope", "gradient"}, "intercept": {"intercept"},
    "c0": {"intercept"}, "c1": {"linear"}, "c2": {"quadratic"}, "c3": {"cubic"},
    "exponent": {"exponent", "power", "index"}, "center": {"peak", "centre", "center", "position"},
    "fwhm": {"fwhm", "width", "linewidth"}, "sigma": {"sigma"}, "height": {"height"},
    "frequency": {"frequency", "oscillation"}, "phase": {"phase"},
    "Q": {"quality", "q"}, "bandwidth": {"bandwidth", "width", "fwhm"},
    "c": {"offset", "baseline", "background"}, "amplitude": {"amplitude"},
}  # fmt: skip
MODEL_WORDS = {
    ("exponential", "decay"): {"decay", "lifetime", "tau", "constant"},
    ("damped oscillation", "decay"): {"decay", "damping", "tau", "constant"},
    ("resonance", "f0"): {"resonance", "resonant", "peak"},
    ("resonance phase", "f0"): {"resonance", "resonant", "crossing"},
    ("gaussian", "amplitude"): {"area"},
    ("lorentzian", "amplitude"): {"area"},
}


def data_facts(
    tables: list[TableSummary],
    fits: list[Fit],
    derived: list[Derived] = (),  # type: ignore[assignment]
) -> list[Fact]:
    several = len({table.source for table in tables}) > 1
    facts: list[Fact] = []
    for table in tables:
        file_words = (words_of(os.path.splitext(table.source)[0]),) if several else ()
        facts.append(
            Fact(f"rows of {table.id}", float(table.rows), table.source, ROWS, file_words,
                 exact=True)
        )  # fmt: skip
        facts += _column_facts(table, file_words)
    by_id = {table.id: table for table in tables}
    good = [fit for fit in fits if fit.good and fit.table in by_id]
    for fit in good:
        table = by_id[fit.table]
        if table.column(fit.y).ratio_of is not None:
            continue  # stated with the fit of its numerator
        file_words = (words_of(os.path.splitext(table.source)[0]),) if several else ()
        facts += _fit_facts(fit, _relative_fit(fit, table, good), table.source, file_words)
    for quantity in derived:
        relative = (
            abs(quantity.stderr / quantity.value) if quantity.stderr and quantity.value else None
        )
        facts.append(
            Fact(f"{quantity.name} derived as {quantity.expression}", quantity.value,
                 "the explorer's derivation", words_of(quantity.name) | {quantity.name.lower()},
                 tolerance=None if relative is None else 2 * relative)
        )  # fmt: skip
    return facts


def topic_words(fit: Fit, parameter: Parameter) -> frozenset[str]:
    """The words a sentence uses for `parameter` of `fit`; empty for one prose never names."""
    return frozenset(
        MODEL_WORDS.get((fit.model or "", parameter.name), COMMON_WORDS.get(parameter.name, ()))
    )


def _relative_fit(fit: Fit, table: TableSummary, fits: list[Fit]) -> Fit | None:
    """The fit, by the same model, of `fit`'s column divided by its input, if there is one."""
    return next(
        (
            other for other in fits
            if other.table == fit.table and other.model == fit.model
            and (table.column(other.y).ratio_of or ("",))[0] == fit.y
        ),
        None,
    )  # fmt: skip


# The letters of a word, lower-cased: Latin with its accents, Greek, Cyrillic. A word is not
# cut at its umlaut: `Leitfähigkeit` is one word, which `Grenzleitfähigkeit` does not hold.
_LETTERS = "0-9a-zß-öø-ɏͰ-ϿЀ-ӿ"
_WORD = re.compile(rf"[{_LETTERS}]+(?:_[{_LETTERS}]+)*")


def words_in(text: str) -> set[str]:
    """The words of prose, lower-cased, names like `v_r` whole."""
    return set(_WORD.findall(text.lower()))


def name_parts(name: str) -> list[str]:
    """The parts of a name, lower-cased: `V_R` is v and r."""
    return [p for p in re.split(rf"[^{_LETTERS}]+", name.lower()) if p]


def mentions_words_of(words: AbstractSet[str], name: str) -> bool:
    """Whether `words` (a text's, `words_in`) hold a word of `name` of two letters or more."""
    return bool({w for w in words_of(name) if len(w) >= 2} & words)


def words_of(name: str) -> frozenset[str]:
    """How prose names a column or a file: "V_R" is "v_r" or "vr", "frequency" itself."""
    parts = name_parts(name)
    if not parts:
        return frozenset()
    return frozenset({"_".join(parts), "".join(parts)} | {p for p in parts if len(p) >= 3})


def _column_facts(table: TableSummary, file_words: tuple[frozenset[str], ...]) -> list[Fact]:
    facts: list[Fact] = []
    x = table.column(table.x) if table.x else None
    for column in table.columns:
        words = words_of(column.name)
        if column.key == table.x or not words or column.maximum is None:
            continue
        subjects = (*file_words, words)
        facts += [
            Fact(f"maximum of {column.key} in {table.id}", column.maximum, table.source,
                 HIGHEST, subjects),
            Fact(f"minimum of {column.key} in {table.id}", column.minimum or 0.0, table.source,
                 LOWEST, subjects),
        ]  # fmt: skip
        if x is not None and column.x_at_maximum is not None:
            facts.append(
                Fact(f"{x.key} where {column.key} peaks in {table.id}", column.x_at_maximum,
                     table.source, PEAK, (*subjects, words_of(x.name) | {x.unit.lower()}))
            )  # fmt: skip
    return facts


def _fit_facts(
    fit: Fit, relative_fit: Fit | None, source: str, file_words: tuple[frozenset[str], ...]
) -> list[Fact]:
    facts: list[Fact] = []
    subjects = (*file_words, words_of(fit.y))
    for parameter in fit.parameters:
        topic = topic_words(fit, parameter)
        if not topic or not _determined(parameter):
            continue  # a parameter the data do not determine is no fact
        same = [
            p for p in (relative_fit.parameters if relative_fit else [])
            if p.name == parameter.name and _determined(p)
        ]  # fmt: skip
        values = format_value(parameter) + "".join(
            f"; of {relative_fit.y_label}: {format_value(p)}" for p in same if relative_fit
        )
        label = f"{parameter.name} of the {fit.model} fit of {fit.y_label} against "
        label += f"{fit.x_label} in {fit.table} ({values})"
        tolerances = [_tolerance(p) for p in [parameter, *same]]
        facts.append(
            Fact(label, parameter.value, source, topic, subjects,
                 tolerance=None if None in tolerances else max(tolerances),  # type: ignore[type-var]
                 also=tuple(p.value for p in same))
        )  # fmt: skip
    return facts


def _determined(parameter: Parameter) -> bool:
    return parameter.relative is None or parameter.relative <= 1


def _tolerance(parameter: Parameter) -> float | None:
    relative = parameter.relative
    return None if relative is None else 2 * relative
