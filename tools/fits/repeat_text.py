"""How repeated measurements (tools.fits.repeats) are stated, the same wherever the report
states them: the clauses of one series (its mean, spread, weighted mean, outliers, and
whether its series differ), the rows of the report's table and the notes the table cannot
hold, the lines of the digest, and the facts the number checks hold a report to. A task's
checklist line is put together from these clauses by tools.fits.repeat_evidence."""

from __future__ import annotations

import math
import re

from labscribe.guards.numbers import Fact
from labscribe.tools.analysis.data_facts import words_of
from labscribe.tools.columns.coded_values import Coding, places
from labscribe.tools.fits.fit_result import Parameter, format_value
from labscribe.tools.fits.repeat_statistics import (
    ALPHA,
    CONFIDENCE,
    OUTLIER_TEST,
    Summary,
    Weighted,
)
from labscribe.tools.fits.repeats import Series

MEAN_WORDS = frozenset({"mean", "average", "averaged", "mittelwert", "arithmetic"})
SPREAD_WORDS = frozenset({"deviation", "standardabweichung"})
REPEATS_EXPLAINED = (
    "Columns that repeat the measurement of one quantity (a table with no variable to plot "
    "them against, or one that only counts them, as a stopwatch numbers its laps) are "
    "summarised per series: n, the mean ± its standard error (the standard "
    "deviation over √n), the standard deviation (with n − 1 in its denominator), and a 95 % "
    "interval from Student's t with n − 1 degrees of freedom. Outliers are looked for with "
    "Grubbs' test, repeated as Rosner's generalized ESD test (two-sided, 5 %, one suspect "
    "per ten values, one at least): a value it flags is named and kept in the mean, and the mean "
    "without it is given beside."
)


def mean_text(summary: Summary, unit: str, coding: Coding | None = None) -> str:
    """`2.0029 ± 0.0030 s (standard error; n = 10)`; `5.5 (one value)`; coded values
    converted as the handout says, the coded numbers beside: `299852.4 ± 7.9 km/s (coded
    852.4 ± 7.9; standard error; n = 100)`."""
    if summary.sem is None:
        if coding is not None:
            coded = _plus_minus(summary.mean, None, unit)
            return f"{coding.shown(summary.mean)} (coded {coded})"
        return _plus_minus(summary.mean, None, unit) + (" (one value)" if summary.n == 1 else "")
    shown = _plus_minus(summary.mean, summary.sem, unit)
    if coding is not None:
        converted = coding.shown(summary.mean, summary.sem)
        return f"{converted} (coded {shown}; standard error; n = {summary.n})"
    return f"{shown} (standard error; n = {summary.n})"


def spread_text(summary: Summary, unit: str, coding: Coding | None = None) -> str:
    """`standard deviation 0.0096 s, 95 % interval 2.0029 ± 0.0068 s (Student's t, 9
    degrees of freedom)`; "" for one value."""
    if summary.std is None or summary.half_width is None:
        return ""
    interval = _plus_minus(summary.mean, summary.half_width, unit)
    suffix = f" {unit}" if unit else ""
    interval += _ends(interval, summary.mean, summary.half_width, suffix)
    if coding is not None:
        interval = f"{_decoded_ends(summary, coding)} (coded {interval})"
    return (
        f"standard deviation {std_text(summary, unit, coding)}, {CONFIDENCE * 100:.0f} % interval "
        f"{interval} (Student's t = {summary.t:.3f}, {summary.n - 1} degrees of freedom)"
    )


def _plus_minus(value: float, error: float | None, unit: str) -> str:
    """`2.0029 ± 0.0030 s`, as every value ± error of the report is written."""
    return format_value(Parameter(name="", value=value, stderr=error, unit=unit))


def std_text(summary: Summary, unit: str, coding: Coding | None = None) -> str:
    """The standard deviation at the places its mean ± standard error is written (`0.0096
    s` beside `2.0029 ± 0.0030 s`, `105` beside `909 ± 23`); of coded values in the
    quantity's unit, the coded number beside (`0.0107 µs (coded 10.7)`)."""
    if summary.std is None:
        return "–"
    shown = mean_text(summary, unit)
    decimals = _places(shown)
    value = f"{summary.std:.{decimals}f}" if decimals is not None else f"{summary.std:.3g}"
    if coding is not None and summary.sem:
        width = abs(coding.scale) * summary.sem
        converted = f"{abs(coding.scale) * summary.std:.{places(width)}f} {coding.unit}".strip()
        return f"{converted} (coded {value})"
    return f"{value} {unit}".strip()


def _places(shown: str) -> int | None:
    """The decimals of a `value ± error` as format_value writes it; None with an exponent."""
    match = re.match(r"^-?\d+(?:\.(\d+))? ±", shown)
    return None if match is None else len(match[1] or "")


def _ends(shown: str, mean: float, half: float, suffix: str) -> str:
    """`, from 1.9961 to 2.0097 s`, at the places `shown` (`2.0029 ± 0.0068 s`) writes."""
    places = _places(shown)
    if places is None:  # written with an exponent: the ends would only repeat it
        return ""
    return f", from {mean - half:.{places}f} to {mean + half:.{places}f}{suffix}"


def _decoded_ends(summary: Summary, coding: Coding) -> str:
    half = summary.half_width or 0.0
    return coding.ends(summary.mean - half, summary.mean + half, half)


def _interval_ends(summary: Summary, unit: str, coding: Coding | None = None) -> str:
    """`1.9961 to 2.0097 s`, or `2.0029 ± 0.0068 s` where the value has an exponent; "" for
    one value; of coded values, the converted ends."""
    if summary.half_width is None:
        return ""
    if coding is not None:
        return _decoded_ends(summary, coding)
    shown = _plus_minus(summary.mean, summary.half_width, unit)
    ends = _ends(shown, summary.mean, summary.half_width, f" {unit}" if unit else "")
    return ends.removeprefix(", from ") if ends else shown


def outlier_text(series: Series) -> str:
    """What the outlier test found, with the mean without the values it flags."""
    if not series.tested:
        return ""
    if not series.outliers:
        return f"no outlier by {OUTLIER_TEST}"
    unit = f" {series.unit}" if series.unit else ""
    named = " and ".join(f"{o.value:g}{unit} (row {o.row:g})" for o in series.outliers)
    them = "them" if len(series.outliers) > 1 else "it"
    text = (
        f"{OUTLIER_TEST} flags {named}{' (coded)' if series.coding else ''}, kept among the values"
    )
    if series.without is not None:
        without, unit, coding = series.without, series.unit, series.coding
        text += f"; without {them} the mean is {mean_text(without, unit, coding)}"
        if without.std is not None:
            text += f", the standard deviation {std_text(without, unit, coding)}"
    return text


def weighted_text(series: Series) -> str:
    """The weighted mean, its σ, and whether the values agree with their own σ."""
    weighted = series.weighted
    if weighted is None:
        return ""
    shown = _weighted_shown(weighted.mean, weighted.sigma, series)
    text = f"weighted mean (weights 1/{series.sigma_column}²) {shown} from {weighted.n} values"
    return text + _consistency(weighted, series, "the values", "their uncertainties")


def _weighted_shown(mean: float, sigma: float, series: Series) -> str:
    if series.coding is not None:
        coded = _plus_minus(mean, sigma, series.unit)
        return f"{series.coding.shown(mean, sigma)} (coded {coded})"
    return _plus_minus(mean, sigma, series.unit)


def means_weighted_text(series: Series) -> str:
    """The 1/SE²-weighted mean of several series' means, its σ, and the χ² of the means
    about it: whether the series agree within their standard errors."""
    weighted = series.means_weighted
    if weighted is None:
        return ""
    shown = _weighted_shown(weighted.mean, weighted.sigma, series)
    text = f"weighted mean of the {weighted.n} series means (weights 1/SE²) {shown}"
    return text + _consistency(weighted, series, "the series means", "their standard errors")


def _consistency(weighted: Weighted, series: Series, values: str, errors: str) -> str:
    """`; χ² = 21.3 for 7 degrees of freedom, Birge ratio 1.74 (p = 0.0034): …`."""
    if weighted.birge is None or weighted.p is None:
        return ""
    text = (
        f"; χ² = {weighted.chi_square:.3g} for {weighted.n - 1} degrees of freedom, Birge ratio "
        f"{weighted.birge:.2f} (p {_p(weighted.p)})"
    )
    if weighted.consistent:
        return text + f": {values} agree with {errors}"
    scaled = _weighted_shown(weighted.mean, weighted.sigma * weighted.birge, series)
    return (
        text + f": {values} scatter more than {errors} allow, so they are not consistent and "
        f"the σ of the weighted mean is too small; scaled by the Birge ratio it is {scaled}"
    )


def _coding_text(coding: Coding | None) -> str:
    if coding is None:
        return ""
    return f"converted as the assignment says (“{coding.written}”): {coding.rule()}"


def brief_text(series: Series) -> str:
    """`T: mean 2.0029 ± 0.0030 s, n = 10, standard deviation 0.0096 s, 95 % interval 1.9961
    to 2.0097 s`, with outliers and a weighted mean where there are any."""
    summary, coding = series.summary, series.coding
    shown = mean_text(summary, series.unit, coding).split(" (")[0]
    text = f"{series.title}: mean {shown}, n = {summary.n}"
    if summary.std is not None:
        text += f", standard deviation {std_text(summary, series.unit, coding)}"
        text += f", 95 % interval {_interval_ends(summary, series.unit, coding)}"
    if series.outliers:
        text += "; outliers (Grubbs/ESD, 5 %): " + ", ".join(
            f"{o.value:g} (row {o.row:g})" for o in series.outliers
        )
    for weighted in (series.weighted, series.means_weighted):
        if weighted is not None:
            shown = _weighted_shown(weighted.mean, weighted.sigma, series).split(" (")[0]
            birge = weighted.birge
            text += f"; weighted mean {shown}" + (f", Birge ratio {birge:.2f}" if birge else "")
    return text


def differ_text(series: Series) -> str:
    if series.series_p is None:
        return ""
    f = f"F = {series.series_f:.3g}, " if series.series_f is not None else ""
    if series.series_p < ALPHA:
        return (
            "the series differ from each other more than their scatter allows (one-way "
            f"analysis of variance, {f}p {_p(series.series_p)}): pooling them hides that"
        )
    return (
        "the series agree with each other within their scatter (one-way analysis of "
        f"variance, {f}p {_p(series.series_p)})"
    )


def _p(p: float) -> str:
    """`< 0.001`, `= 0.0031`."""
    return "< 0.001" if p < 0.001 else f"= {p:.2g}"


def result_rows(repeats: list[Series]) -> list[list[str]]:
    """The rows of the report's table: quantity, n, mean ± standard error, standard
    deviation, interval, outliers."""
    rows = []
    for series in repeats:
        summary, unit, coding = series.summary, series.unit, series.coding
        suffix = f" {unit}" if unit else ""
        interval = _interval_ends(summary, unit, coding) or "–"
        outliers = "; ".join(f"{o.value:g}{suffix} (row {o.row:g})" for o in series.outliers) or (
            "none" if series.tested else "not tested"
        )
        rows.append([
            f"{series.title} ({series.table})", str(summary.n),
            mean_text(summary, unit, coding).split(" (")[0],
            std_text(summary, unit, coding), interval, outliers,
        ])  # fmt: skip
    return rows


def repeat_notes(repeats: list[Series]) -> list[str]:
    """What the table of repeated measurements cannot hold, one line per series that has
    any: its weighted mean, its outliers and the mean without them, whether its series
    agree, its notes."""
    notes = []
    for series in repeats:
        parts = [_coding_text(series.coding), weighted_text(series)]
        parts += [means_weighted_text(series), outlier_text(series) if series.outliers else ""]
        parts += [differ_text(series), *series.notes]
        said = "; ".join(part for part in parts if part)
        if said:
            notes.append(f"{series.title} ({series.table}): {said}")
    return notes


def repeats_digest(repeats: list[Series], limit: int) -> list[str]:
    """The digest's lines: one per series, at most `limit`."""
    if not repeats:
        return []
    lines = [f"- {brief_text(series)} ({series.table})" for series in repeats[:limit]]
    more = [f"… {len(repeats) - limit} more series"] if len(repeats) > limit else []
    return ["Repeated measurements (mean ± standard error; Student's t interval):", *lines, *more]


def repeat_facts(repeats: list[Series], several_files: bool) -> list[Fact]:
    """The mean of each series (held to twice its standard error; the mean without outliers
    and the weighted mean count too) and its standard deviation. The standard error has no
    fact: "error" names too many other numbers in a report."""
    facts: list[Fact] = []
    for series in repeats:
        summary = series.summary
        if summary.n < 2 or not math.isfinite(summary.mean):
            continue
        subjects: tuple[frozenset[str], ...] = (words_of(series.name) | {series.name.lower()},)
        if series.label and not series.label.startswith("all "):
            subjects = (*subjects, words_of(series.label))  # `Expt 1` apart from all series
        if several_files:
            subjects = (*subjects, words_of(series.table.split("#")[0].rsplit(".", 1)[0]))
        tolerance = 2 * summary.sem / abs(summary.mean) if summary.sem and summary.mean else None
        also = tuple(v for v in (
            series.without.mean if series.without else None,
            series.weighted.mean if series.weighted else None,
            series.means_weighted.mean if series.means_weighted else None,
        ) if v is not None)  # fmt: skip
        if series.coding is not None:  # the converted values are the same facts
            also += tuple(series.coding.decode(v) for v in (summary.mean, *also))
        label = f"mean of {series.title} in {series.table} ({mean_text(summary, series.unit)})"
        facts.append(Fact(label, summary.mean, series.table, MEAN_WORDS, subjects,
                          tolerance=tolerance, also=also))  # fmt: skip
        if summary.std is not None:
            facts.append(Fact(f"standard deviation of {series.title} in {series.table}",
                              summary.std, series.table, SPREAD_WORDS, subjects))  # fmt: skip
    return facts
