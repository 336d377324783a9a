"""How repeated measurements (tools.fits.repeats) are stated: the sentence a checklist row gives a
task that asks for a mean, a standard deviation, a standard error or a confidence interval;
the rows of the report's table; the lines of the digest; and the facts the number checks
hold a report to."""

from __future__ import annotations

import math
import re

from labscribe.guards.numbers import Fact
from labscribe.tools.analysis.data_facts import words_of
from labscribe.tools.assignment.task_words import MEAN_ELSEWHERE
from labscribe.tools.columns.coded_values import Coding, places
from labscribe.tools.fits.fit_result import Parameter, format_value
from labscribe.tools.fits.repeats import ALPHA, CONFIDENCE, OUTLIER_TEST, Series, Summary, Weighted

# What a task says when it asks for the statistics of repeated values.
ASKS_FOR_MEAN = re.compile(
    r"\bmean\b|\baverag|standard (?:deviation|error)|\bstd\b|confidence (?:interval|level)|"
    r"\bspread\b|\bscatter\b|\brepeatab|uncertainty of the (?:mean|average)|error of the mean|"
    r"weighted (?:mean|average)|\bvarian|mittelwert|durchschnitt|standardabweichung|standardfehler|"
    r"mittlere[nrs]? fehler|vertrauensbereich|vertrauensintervall|konfidenzintervall|streuung|"
    # French, Spanish, Italian: moyenne, écart-type, intervalle de confiance; media,
    # promedio, desviación típica/estándar, error estándar; media, deviazione standard
    r"\bmoyenne|[ée]cart[- ]type|incertitude[- ]type|intervalle de confiance|\bmedia\b|"
    r"\bpromedio|desviaci[óo]n (?:t[íi]pica|est[áa]ndar)|error est[áa]ndar|"
    r"intervalo de confianza|deviazione standard|intervallo di confidenza|"
    r"平均|标准差|标准偏差|标准误差|置信区间|置信度|不确定度|standardavvik|standardavvig"
    r"|standardavvikelse|keskihajonta|信頼区間|표준\s*편차|"
    # "i tempi medi", "valor médio", "die mittlere Rate", "średni czas", "průměr",
    # "gemiddelde", "medelvärde", "среднее"; a mean written ⟨t1⟩
    r"\bm[eé]di[oaie]s?\b|\bmittler\w*|\bśredni\w*|\bprůměr\w*|\bgemiddeld\w*|\bmedelvärde\w*|\bсредн\w*"
    r"|⟨[^⟩\s]{1,12}⟩|" + MEAN_ELSEWHERE,
    re.IGNORECASE,
)
VARIANCE = re.compile(r"varian|方差", re.IGNORECASE)
MEAN_WORDS = frozenset({"mean", "average", "averaged", "mittelwert", "arithmetic"})
SPREAD_WORDS = frozenset({"deviation", "standardabweichung"})
MAX_PARTS = 10  # series named in one checklist row; the report's table has them all
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

BY_SERIES = "by series (mean ± standard error): "
"""How a repeated quantity's line heads its series one by one (read by
tools.assignment.checklist)."""


def asks_for_mean(task: str) -> bool:
    return ASKS_FOR_MEAN.search(task) is not None


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


def series_text(series: Series) -> str:
    """Everything said of one series, in one sentence-like line."""
    # the file in the first clause: the number checks split sentences at ";" and want it
    coding = series.coding
    mean = mean_text(series.summary, series.unit, coding)
    parts = [f"{series.title} ({series.table}): mean {mean}", _coding_text(coding)]
    parts += [spread_text(series.summary, series.unit, coding)]
    parts += [weighted_text(series), means_weighted_text(series)]
    parts += [outlier_text(series) if series.outliers else "", _differ_text(series)]
    parts += series.notes
    return "; ".join(part for part in parts if part)


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


def _differ_text(series: Series) -> str:
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


def _pooled_text(series: Series) -> str:
    """`pooled within-series standard deviation 0.1028 ohm.cm (20 degrees of freedom)`."""
    if series.pooled_std is None:
        return ""
    unit = f" {series.unit}" if series.unit else ""
    return (
        f"pooled within-series standard deviation {series.pooled_std:.4g}{unit} (the square "
        f"root of the within-series mean square; {series.pooled_dof} degrees of freedom)"
    )


def _p(p: float) -> str:
    """`< 0.001`, `= 0.0031`."""
    return "< 0.001" if p < 0.001 else f"= {p:.2g}"


def repeat_evidence(
    task: str, words: set[str], repeats: list[Series], named_elsewhere: bool
) -> list[str]:
    """What the repeated measurements give a task that asks for their statistics: the series
    it names by their column's name, else (when it names no other column) every series; one
    line per quantity, the part the task asks for first (the weighted mean and χ², the
    outliers and the mean without them, the analysis of variance, the series one by one),
    then the mean of all values and the rest, so that a cut line keeps what was asked."""
    if not repeats or not (asks_for_mean(task) or _ASKED_PART["differ"].search(task)):
        return []
    # a series is named by its column's name or by its label column's (`series`, `Expt`)
    named = [s for s in repeats if (words_of(s.name) | words_of(s.label)) & words]
    chosen = named or ([] if named_elsewhere else repeats)
    lines: list[str] = []
    for group in _groups(chosen):
        head, rest = group[0], group[1:]
        if rest and not head.label.startswith("all "):
            # blocks at several settings (a ball's diameter each): no mean of them all
            lines.append(f"{head.name} ({head.table}): {_by_series(group)}")
            continue
        mean = f"mean {mean_text(head.summary, head.unit, head.coding)}"
        mean = "; ".join(p for p in (mean, spread_text(head.summary, head.unit, head.coding)) if p)
        if VARIANCE.search(task) and head.summary.std is not None and head.coding is None:
            square = f" {head.unit}²" if head.unit else ""
            mean += f"; variance {head.summary.std**2:.3g}{square}"
        parts = {
            "weighted": "; ".join(p for p in (weighted_text(head), means_weighted_text(head)) if p),
            "outliers": outlier_text(head) if head.outliers else "",
            "differ": _differ_text(head),
            "pooled": _pooled_text(head),
            "series": _by_series(rest),
        }
        asked = [name for name, pattern in _ASKED_PART.items() if pattern.search(task)]
        order = [*asked, "mean", *(name for name in parts if name not in asked)]
        said = [mean if name == "mean" else parts[name] for name in order]
        if head.coding is not None:
            said.append(f"converted as the assignment says: {head.coding.rule()}")
        said += head.notes
        lines.append(f"{head.title} ({head.table}): " + "; ".join(p for p in said if p))
    return lines


def _groups(chosen: list[Series]) -> list[list[Series]]:
    """The series of one quantity together, the mean of all of them first: a column's
    series by its label column, or a table's columns of one quantity side by side."""
    groups: list[list[Series]] = []
    placed: set[int] = set()
    for head in chosen:
        if id(head) in placed:
            continue
        pooled = head.label.startswith("all ")
        group = [head] + [
            s for s in chosen
            if s is not head and id(s) not in placed and s.table == head.table
            and (pooled or s.column == head.column) and not s.label.startswith("all ")
        ]  # fmt: skip
        placed |= {id(s) for s in group}
        groups.append(group)
    return groups


# The part of a series' statistics a task asks for first, by its words.
_ASKED_PART = {
    "weighted": re.compile(
        r"(?<!un)weight|χ²|\bchi\b|chi[- ]?squared?|consisten|birge|gewichtet|加权", re.I
    ),
    "outliers": re.compile(
        r"outlier|without (?:them|it|the)|\bfinal\b|ausrei(?:ß|ss)er|异常", re.I
    ),
    "differ": re.compile(
        # an F test, not any F: a force, a frequency, "f.eks." (Norwegian "e.g.")
        r"analysis of variance|\banova\b|\bF[- ](?:tests?|statistics?|values?|ratios?)\b|"
        r"varianzanalyse|analisi della varianza|"
        r"an[áa]lisis de (?:la )?varianza|analyse de (?:la )?variance|方差分析",
        re.I,
    ),
    "pooled": re.compile(
        r"pooled|repeatab|within[- ]\w*|gepoolt|wiederholstandardabweichung|combin[ée]e|"
        r"agrupad|combinad|合并",
        re.I,
    ),
    "series": re.compile(
        r"\beach (?:of the )?(?:\w+ )?(?:series|experiment|run|set|group)|per (?:series|run)|"
        r"\beach of the (?:\w+ )?\w+s\b|"  # "for each of the five probes"
        r"\bjede[nrs]? (?:messreihe|reihe|serie)|\bchaque (?:s[ée]rie|exp[ée]rience)|"
        r"\bcada (?:serie|experimento|grupo)|每组|"
        # "für jeden Kugeldurchmesser", "per ogni massa", "pour chaque bille", "para cada"
        r"\bfür jede[nmrs]?\b|\bper ogni\b|\bpour chaque\b|\bpara cada\b",
        re.I,
    ),
}


def _by_series(rest: list[Series]) -> str:
    """`by series (mean ± standard error): Expt 1 909 ± 23, …`."""
    if not rest:
        return ""
    briefly = ", ".join(
        f"{s.label or s.name} {mean_text(s.summary, s.unit, s.coding).split(' (')[0]}"
        for s in rest[:MAX_PARTS]
    )
    more = f" and {len(rest) - MAX_PARTS} more" if len(rest) > MAX_PARTS else ""
    return f"{BY_SERIES}{briefly}{more}"


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
        parts += [_differ_text(series), *series.notes]
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
