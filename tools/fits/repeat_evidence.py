"""What a task that asks for the statistics of repeated measurements is given: whether its
words ask for them at all (a mean, a spread, an interval, in the languages handouts are
written in), and the line its checklist row carries, the part it asks for first so that a
line cut short keeps what was asked. Kept apart from the wording of a series
(tools.fits.repeat_text), which every reader shares: this is the one that reads the task.
"""

from __future__ import annotations

import re

from labscribe.tools.analysis.data_facts import words_of
from labscribe.tools.assignment.task_words import MEAN_ELSEWHERE
from labscribe.tools.fits.repeat_text import (
    differ_text,
    mean_text,
    means_weighted_text,
    outlier_text,
    spread_text,
    weighted_text,
)
from labscribe.tools.fits.repeats import Series

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
MAX_PARTS = 10  # series named in one checklist row; the report's table has them all
BY_SERIES = "by series (mean ± standard error): "
"""How a repeated quantity's line heads its series one by one (read by
tools.assignment.checklist)."""


def asks_for_mean(task: str) -> bool:
    return ASKS_FOR_MEAN.search(task) is not None


def _pooled_text(series: Series) -> str:
    """`pooled within-series standard deviation 0.1028 ohm.cm (20 degrees of freedom)`."""
    if series.pooled_std is None:
        return ""
    unit = f" {series.unit}" if series.unit else ""
    return (
        f"pooled within-series standard deviation {series.pooled_std:.4g}{unit} (the square "
        f"root of the within-series mean square; {series.pooled_dof} degrees of freedom)"
    )


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
            "differ": differ_text(head),
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
