"""Every maximum of a curve, where a task asks for all of them ("locate every maximum",
"all maxima", "die Maxima", "tous les maxima"): the local maxima of the named column along
the table's variable (scipy.signal.find_peaks), kept where they stand out of the noise by a
prominence of PROMINENCE_SIGMAS times its σ, with their positions in the variable's unit and
the spacings between neighbours (a Franck–Hertz curve's peaks, 4.9 V apart).

The noise σ is read from the data: the median absolute second difference of the values,
scaled to a σ for independent noise (MAD × 1.4826 / √6), so a smooth curve's slope and
curvature do not count as noise.
"""

from __future__ import annotations

import math
import re

import numpy as np
from scipy.signal import find_peaks

# "every maximum", "each maximum", "all (the) maxima", "all peaks", German "die Maxima",
# "alle Maxima", French "tous les maxima", Spanish "todos los máximos", Chinese "所有极大值",
# Portuguese "os picos".
ALL_MAXIMA = re.compile(
    r"\b(?:every|each|all(?: of)?(?: the)?|alle|sämtliche|die|tous les|todos los|cada)\s+"
    r"(?:(?:\w+ )?(?:local )?)?(?:maxim(?:um|a|ums|en)|máximos?|peaks?|spitzen)\b|"
    r"\bthe maxima\b|\bmaxima (?:of|in|der|des|du|de)\b|所有(?:的)?(?:极大值|峰)|"
    # the plural names them all: "identificar os picos de ressonância", "the resonance peaks"
    r"\b(?:the|os|los|les|i|gli)\s+(?:\w+\s+)?(?:peaks|picos|pics|picchi|máximos|massimi)\b",
    re.IGNORECASE,
)
PROMINENCE_SIGMAS = 5.0  # a bump this many σ above its surroundings is no noise (p ≪ 1e-6)
MAX_LISTED = 30


def asks_all_maxima(task: str) -> bool:
    return ALL_MAXIMA.search(task) is not None


# "between 5 V and 30 V", "from 5 to 30 V", "zwischen 5 V und 30 V", "entre 5 et 30 V".
_RANGE = re.compile(
    r"(?:between|from|zwischen|von|entre|de)\s+(?P<low>[-+]?\d+(?:[.,]\d+)?)\s*(?P<u1>[^\W\d]{1,4})?"
    r"\s+(?:and|to|und|bis|et|à|y|a)\s+(?P<high>[-+]?\d+(?:[.,]\d+)?)\s*(?P<u2>[^\W\d]{1,4})?",
    re.IGNORECASE,
)


def asked_range(task: str, unit: str) -> tuple[float, float] | None:
    """The span of the variable a task limits the maxima to ("between 5 V and 30 V
    accelerating voltage"), where the unit it writes is the variable's."""
    for match in _RANGE.finditer(task):
        units = {u for u in (match["u1"], match["u2"]) if u}
        if unit and units == {unit}:
            low, high = (float(match[k].replace(",", ".")) for k in ("low", "high"))
            return min(low, high), max(low, high)
    return None


def local_maxima(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """Indices (into `x`, `y`) of the local maxima of y along x that stand out of the noise,
    in order of x, and the noise σ they were judged against."""
    finite = np.isfinite(x) & np.isfinite(y)
    order = np.flatnonzero(finite)[np.argsort(x[finite], kind="stable")]
    values = y[order]
    if len(values) < 5:
        return np.array([], dtype=int), math.nan
    sigma = noise_sigma(values)
    peaks, _ = find_peaks(values, prominence=PROMINENCE_SIGMAS * sigma)
    return order[peaks], sigma


def noise_sigma(values: np.ndarray) -> float:
    """The σ of the noise on a curve's values (in the order of its variable): the median
    absolute second difference, scaled to a σ for independent noise; never 0."""
    second = np.diff(values, 2)
    sigma = float(np.median(np.abs(second - np.median(second))) * 1.4826 / math.sqrt(6))
    if not sigma > 0:
        sigma = float(np.std(second)) / math.sqrt(6) or 1e-300
    return sigma
