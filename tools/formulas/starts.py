"""Start values for a formula an assignment writes out, found without a human's guess.

A least-squares fit of a nonlinear model converges from a start near the optimum and wanders
off from one far away. The start search makes the guess a human would: each parameter the
formula is linear in (an amplitude, an offset) is solved exactly by linear least squares for
every guess of the others, and those others are guessed on the scale their dimension gives
(tools.formulas.dimensions): a rate on 1/x's scale, a time constant or a width on x's, a
centre where the data are and peak, an exponent among small numbers. Thousands of guesses
are scored at once (the formula's sympy tree evaluated on arrays of guesses by numpy, with
no code generated), the best are refined one parameter at a time, and those are the starts
lmfit fits from.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import sympy
from lmfit import Parameters
from lmfit.models import ExpressionModel
from scipy.signal import find_peaks, lombscargle, savgol_filter

from labscribe.tools.formulas.dimensions import dimensions
from labscribe.tools.formulas.formula_eval import evaluate_tree
from labscribe.tools.formulas.formula_parse import Formula
from labscribe.tools.formulas.parameter_roles import periods, positions

MAX_GUESSES = 20_000  # combinations of nonlinear values scored; a larger grid is sampled
REFINED = 12  # the best guesses refined one parameter at a time
MAX_STARTS = 6  # the refined guesses handed to lmfit
DESCENT_SWEEPS = 3
BLOCK_CELLS = 2_000_000  # points × guesses evaluated at once: about 16 MB an array
_SPREAD = np.logspace(-2.5, 2, 19)  # around a scale: 1/300 to 100 times it
_PURE = (-10.0, -5.0, -3.0, -2.0, -1.5, -1.0, -0.5, -0.2, -0.1, 0.0, 0.1, 0.2, 0.5, 1.0,
         1.5, 2.0, 3.0, 5.0, 10.0)  # fmt: skip
POSITION_STEPS = 25  # candidate positions across the data's x range, besides its peaks
MAX_PEAKS = 4
CURVATURE_WINDOW = 7  # points the second derivative is smoothed over, at the least
PERIODOGRAM_STEPS = 2000


def formula_model(formula: Formula) -> ExpressionModel:
    """lmfit's model of `formula` (evaluated by asteval), its variable `formula.x`."""
    return ExpressionModel(formula.expression, independent_vars=[formula.x])


def formula_starts(
    formula: Formula,
    model: ExpressionModel,
    x: np.ndarray,
    y: np.ndarray,
    positive: frozenset[str] = frozenset(),
) -> list[Parameters]:
    """Up to MAX_STARTS parameter sets for fitting `formula` to y(x), best guess first;
    parameters `positive` (a time constant) guessed among positive values only and bounded
    at 0 (tools.formulas.physical_range)."""
    nonlinear = [p for p in formula.parameters if p not in formula.linear]
    linear = [p for p in formula.parameters if p in formula.linear]
    dims = dimensions(formula)
    shifts = positions(formula)
    turns = periods(formula)
    choices = []
    for name in nonlinear:
        values = set(_candidates(dims[name], x, y, position=name in shifts))
        if name in turns:  # a period or frequency: where the data's periodogram peaks
            values |= set(_from_frequencies(turns[name], x, y))
        if name in positive:
            values = {abs(v) for v in values if v != 0}
        choices.append(np.array(sorted(values)))
    search = _Search(formula.sympy, formula.x, x, y, nonlinear, linear)
    guesses = _guesses(choices)
    scores, _ = search.score(guesses)
    places = [i for i, name in enumerate(nonlinear) if name in shifts]
    best = _diverse(guesses, scores, places, float(np.ptp(x)) / POSITION_STEPS)
    refined = [search.descend(guesses[i], choices, held=places) for i in best]
    refined.sort(key=lambda item: item[0])
    starts: list[Parameters] = []
    seen: set[tuple[float, ...]] = set()
    for _, values in refined:
        key = tuple(round(values[name], 9) for name in formula.parameters)
        if key in seen:
            continue
        seen.add(key)
        params = model.make_params(**values)
        for name in positive & set(params):
            params[name].set(value=abs(params[name].value) or 1e-12, min=0)
        starts.append(params)
        if len(starts) == MAX_STARTS:
            break
    return starts


def _diverse(guesses: np.ndarray, scores: np.ndarray, places: list[int], step: float) -> list[int]:
    """The REFINED best guesses, no two with their positions in the same places: the best
    guesses of a two-peak model otherwise all put one broad peak where the two overlap."""
    chosen: list[int] = []
    seen: set[tuple[float, ...]] = set()
    for i in np.argsort(scores):
        if not np.isfinite(scores[i]) or len(chosen) == REFINED:
            break
        where = tuple(sorted(round(float(guesses[i, p]) / step) for p in places))
        if places and where in seen:
            continue
        seen.add(where)
        chosen.append(int(i))
    return chosen


def _least_squares(design: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The least-squares solution of each guess's system (design: guesses × points × k,
    target: guesses × points), NaN where it is not finite. Columns of very different size
    (1, x and x² of an x near 1e6) are scaled to one first."""
    scale = np.sqrt(np.sum(design**2, axis=1, keepdims=True))
    scale[~(scale > 0)] = 1.0
    scaled = design / scale
    normal = scaled.transpose(0, 2, 1) @ scaled
    right = scaled.transpose(0, 2, 1) @ target[:, :, None]
    solution = np.full(design.shape[::2], np.nan)
    finite = np.isfinite(normal).all(axis=(1, 2)) & np.isfinite(right).all(axis=(1, 2))
    if finite.any():
        ridge = 1e-12 * np.eye(design.shape[2])[None]  # keeps a degenerate guess solvable
        solution[finite] = np.linalg.solve(normal[finite] + ridge, right[finite])[..., 0]
    return solution / scale[:, 0, :]


def _guesses(choices: list[np.ndarray]) -> np.ndarray:
    """Combinations of candidate values, one row a guess: the whole grid, or a sample."""
    if not choices:
        return np.zeros((1, 0))
    total = math.prod(len(c) for c in choices)
    if total <= MAX_GUESSES:
        return np.array(list(itertools.product(*choices)), dtype=float)
    rng = np.random.default_rng(0)  # the same starts on every run: a fit is reproducible
    return np.column_stack([rng.choice(c, MAX_GUESSES) for c in choices])


class _Search:
    """Scores guesses of the nonlinear parameters, the linear ones solved for each."""

    def __init__(
        self,
        expression: sympy.Expr,
        x_name: str,
        x: np.ndarray,
        y: np.ndarray,
        nonlinear: list[str],
        linear: list[str],
    ) -> None:
        self.expression, self.x_name = expression, x_name
        self.x, self.y = x, y
        self.nonlinear, self.linear = nonlinear, linear

    def score(self, guesses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(sum of squared residuals, linear parameters) of each guess (a row of values of
        the nonlinear parameters); inf where the model is not finite."""
        block = max(1, BLOCK_CELLS // max(1, len(self.x)))
        scores, solved = [], []
        for start in range(0, len(guesses), block):
            part_scores, part_solved = self._score_block(guesses[start : start + block])
            scores.append(part_scores)
            solved.append(part_solved)
        return np.concatenate(scores), np.concatenate(solved)

    def _score_block(self, guesses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        count = len(guesses)
        values = {name: guesses[:, i][None, :] for i, name in enumerate(self.nonlinear)}
        zeros = {name: np.zeros((1, count)) for name in self.linear}
        with np.errstate(all="ignore"):
            base = self._evaluate(values | zeros, count)
            columns = [
                self._evaluate(values | zeros | {name: np.ones((1, count))}, count) - base
                for name in self.linear
            ]
            target = self.y[:, None] - base  # (points, guesses)
            if columns:
                design = np.stack(columns, axis=-1).transpose(1, 0, 2)  # (guesses, points, k)
                solution = _least_squares(design, target.T)
                fitted = np.einsum("gpk,gk->pg", design, solution)
            else:
                solution = np.zeros((count, 0))
                fitted = np.zeros_like(target)
            scores = np.sum((target - fitted) ** 2, axis=0)
        scores[~np.isfinite(scores)] = np.inf
        return scores, solution

    def _evaluate(self, values: dict[str, np.ndarray], count: int) -> np.ndarray:
        result = evaluate_tree(self.expression, values | {self.x_name: self.x[:, None]})
        return np.broadcast_to(np.asarray(result, dtype=float), (len(self.x), count))

    def descend(
        self, guess: np.ndarray, choices: list[np.ndarray], held: list[int]
    ) -> tuple[float, dict[str, float]]:
        """`guess` improved one nonlinear parameter at a time over its candidates (a sampled
        guess rarely has every centre and width of a two-peak model right at once), the
        positions `held` where the guess put them, with the linear parameters solved; (sum of
        squared residuals, every parameter's value)."""
        current = guess.copy()
        sweeps = DESCENT_SWEEPS if len(self.nonlinear) > 1 else 1
        for _ in range(sweeps):
            for i, candidates in enumerate(choices):
                if i in held:
                    continue
                trial = np.repeat(current[None, :], len(candidates), axis=0)
                trial[:, i] = candidates
                scores, _ = self.score(trial)
                if np.isfinite(scores).any():
                    current = trial[int(np.argmin(scores))]
        scores, solved = self.score(current[None, :])
        values = dict(zip(self.nonlinear, current.tolist(), strict=True))
        values |= dict(zip(self.linear, solved[0].tolist(), strict=True))
        return float(scores[0]), values


def _candidates(
    dimension: tuple[Fraction, Fraction] | None,
    x: np.ndarray,
    y: np.ndarray,
    *,
    position: bool = False,
) -> list[float]:
    """Values to try for a nonlinear parameter of `dimension` (powers of y's and x's units);
    a `position` (a centre, a shift of x) is looked for where the data are."""
    if position:  # within the data, at their peaks, or beyond them (a pole, an onset)
        low, high = float(x.min()), float(x.max())
        span = high - low
        inside = np.linspace(low, high, POSITION_STEPS).tolist()
        beyond = [edge + sign * span * f for f in (0.1, 0.3, 1.0, 3.0)
                  for edge, sign in ((low, -1), (high, 1))]  # fmt: skip
        return sorted({*inside, *beyond, *_peaks(x, y)})
    x_scales = _scales(x)
    y_scale = float(np.max(np.abs(y))) or 1.0
    if dimension is None:  # undecided: every kind of value, a little of each
        spread = (0.01, 0.1, 1.0, 10.0)
        return sorted({*_PURE, *(s * f for s in x_scales for f in spread),
                       *(f / s for s in x_scales for f in spread)})  # fmt: skip
    y_power, x_power = float(dimension[0]), float(dimension[1])
    if y_power == 0 and x_power == 0:
        return list(_PURE)
    values: set[float] = set()
    for scale in x_scales:
        magnitude = y_scale**y_power * scale**x_power
        values |= {sign * magnitude * f for f in _SPREAD for sign in (1.0, -1.0)}
    if (y_power, x_power) == (1.0, 0.0):
        values |= set(np.quantile(y, (0.0, 0.5, 1.0)).tolist())
    return sorted(values)


def _from_frequencies(solutions: list[sympy.Expr], x: np.ndarray, y: np.ndarray) -> list[float]:
    """A periodic parameter's values at the strongest angular frequencies of the data's
    Lomb-Scargle periodogram (which takes unevenly spaced x as it comes)."""
    span = float(np.ptp(x))
    steps = np.diff(np.unique(x))
    if span <= 0 or len(steps) == 0:
        return []
    slowest, fastest = np.pi / span, np.pi / float(np.median(steps))
    omegas = np.geomspace(slowest, fastest, PERIODOGRAM_STEPS)
    power = lombscargle(x, y - y.mean(), omegas)
    peaks, _ = find_peaks(power)
    strongest = omegas[peaks[np.argsort(power[peaks])[::-1][:MAX_PEAKS]]]
    values: list[float] = []
    for solution in solutions:
        with np.errstate(all="ignore"):
            found = np.asarray(evaluate_tree(solution, {"omega_": strongest}), dtype=float)
        values += [float(v) for v in np.atleast_1d(found) if np.isfinite(v)]
    return values


def _scales(x: np.ndarray) -> list[float]:
    """x's typical size and its span, where they differ (x from 1000 to 1010)."""
    size = float(np.max(np.abs(x))) or 1.0
    span = float(np.ptp(x)) or size
    return [size] if span > 0.3 * size else [size, span]


def _peaks(x: np.ndarray, y: np.ndarray) -> list[float]:
    """Where y peaks (or dips) above its trend, most prominent first, and where it bends
    most (the smoothed second derivative's extremes): a peak that sits on another's
    shoulder has no maximum of its own, but bends the curve."""
    found: list[float] = []
    trend = np.polyval(np.polyfit(x, y, 1), x) if len(x) > 2 else np.zeros_like(y)
    signals = [y - trend, trend - y]
    if len(x) >= 2 * CURVATURE_WINDOW:
        window = max(CURVATURE_WINDOW, len(x) // 25) | 1
        bend = savgol_filter(y, window, 3, deriv=2)
        signals += [-bend, bend]
    for signal in signals:
        spread = float(np.ptp(signal)) or 1.0
        indices, properties = find_peaks(signal, prominence=0.05 * spread)
        order = np.argsort(properties["prominences"])[::-1][:MAX_PEAKS]
        found += [float(x[i]) for i in indices[order]]
    return found
