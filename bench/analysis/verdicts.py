"""The verdict bench: how often is a true model said not to describe its data (a false
alarm), and how often is a wrong model caught (the power)?

    .venv/bin/python bench/analysis/verdicts.py              # 50 draws a cell
    .venv/bin/python bench/analysis/verdicts.py --draws 20

Data sets are drawn from five standard models (a straight line, an exponential decay, a
power law, a Gaussian peak, a damped oscillation) at 8, 15, 30, 100 and 300 points, evenly
spaced, with noise of 1 %, 5 % and 20 % of the curve's range: white; correlated from point
to point (AR(1), each point's noise 0.3 of its neighbour's plus fresh noise, as a filter or a
slow drift leaves it; "mildly correlated"); or white with its σ given as an uncertainty
column. Each is fitted with its true model, and with a wrong one that a student could
mistake for it (a line through the origin for a line with an offset, a quadratic for the
decay, a straight line for the square root, a Lorentzian for the Gaussian, an undamped
oscillation for the damped one), each from labscribe's own start values
(tools.fits.shape_starts), and judged by the verdict the report states
(tools.fits.verdict.judge: the χ² test and the residual structure tests). A fit that fails to
converge is counted apart, not as a verdict.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from labscribe.tools.fits.fit_description import r_squared_of
from labscribe.tools.fits.fit_runs import best_start
from labscribe.tools.fits.model_choice import EXACT
from labscribe.tools.fits.shapes import BY_NAME, build, damped_oscillation
from labscribe.tools.fits.verdict import (
    CLOSE_SHARE,
    NEIGHBOUR_CORRELATION,
    Verdict,
    jacobian_of,
    judge,
)

COMMAND = ".venv/bin/python bench/analysis/verdicts.py"
SIZES = (8, 15, 30, 100, 300)
LEVELS = (0.01, 0.05, 0.2)  # noise σ as a share of the true curve's range
# AR(1) coefficient of the "correlated" noise: the one the χ² threshold allows for
CORRELATION = NEIGHBOUR_CORRELATION
NOISES = ("white", "correlated", "σ column")


@dataclass(frozen=True)
class Law:
    """A model data are drawn from, and the wrong model a student could fit instead."""

    name: str
    truth: str
    """The standard model (tools.fits.shapes) that is the truth."""
    curve: Callable[[np.ndarray], np.ndarray]
    span: tuple[float, float]
    wrong: str
    fixed: dict[str, float]
    """Parameters of the wrong model held fixed (an oscillation's decay at infinity)."""
    wrong_name: str


def _gaussian(x: np.ndarray) -> np.ndarray:
    return 3.0 * np.exp(-((x - 5.0) ** 2) / (2 * 0.8**2)) + 0.5


LAWS = (
    Law("straight line", "linear", lambda x: 1.0 + 2.0 * x, (0.0, 5.0), "proportional", {},
        "a line through the origin"),
    Law("exponential decay", "exponential", lambda x: 5.0 * np.exp(-x / 1.2) + 0.3,
        (0.0, 5.0), "quadratic", {}, "a quadratic"),
    Law("power law", "power law", lambda x: 2.0 * x**0.5, (0.2, 2.0), "linear", {},
        "a straight line"),
    Law("Gaussian peak", "gaussian", _gaussian, (1.0, 9.0), "lorentzian", {}, "a Lorentzian"),
    Law("damped oscillation", "damped oscillation",
        lambda x: damped_oscillation(x, 2.0, 4.0, 0.5, 0.3, 0.1), (0.0, 4.0),
        "damped oscillation", {"decay": 1e9}, "an undamped oscillation"),
)  # fmt: skip


def noise(rng: np.random.Generator, n: int, kind: str) -> np.ndarray:
    """Unit-variance noise: white, or AR(1) with coefficient CORRELATION."""
    fresh = rng.standard_normal(n)
    if kind != "correlated":
        return fresh
    out = np.empty(n)
    out[0] = fresh[0]
    for i in range(1, n):
        out[i] = CORRELATION * out[i - 1] + np.sqrt(1 - CORRELATION**2) * fresh[i]
    return out


def verdict_of(
    shape_name: str,
    fixed: dict[str, float],
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
) -> Verdict | None:
    """The verdict on the model fitted to y(x); None when it could not be fitted."""
    shape = BY_NAME[shape_name]

    def starts(model, x, y):  # type: ignore[no-untyped-def]
        found = shape.fit_starts(model, x, y)
        for params in found:
            for name, value in fixed.items():
                params[name].set(value=value, vary=False)
        return found

    result = best_start(build(shape), starts, x, y, sigma)
    if result is None:
        return None
    curve = np.asarray(result.best_fit, dtype=float)
    exact = r_squared_of(y, curve) > 1 - EXACT
    return judge(x, y - curve, curve, sigma, "dy" if sigma is not None else None,
                 jacobian_of(result), exact=exact)  # fmt: skip


@dataclass
class Count:
    alarms: int = 0
    caught: int = 0
    true_fits: int = 0
    wrong_fits: int = 0
    failed: int = 0
    by_chi: int = 0
    """Verdicts (either way) the χ² test gave."""
    by_structure: int = 0
    """Verdicts the structure tests gave."""
    doubted: int = 0
    """True-model fits not rejected whose words say the data cannot tell (Verdict.doubt)."""
    wrong_doubted: int = 0
    """Wrong-model fits not rejected whose words say the data cannot tell."""
    close_alarms: int = 0
    """False alarms that, on an assignment's model, the report words as a detail missed
    (Verdict.misses_detail), not as a model that does not describe the data."""
    close_caught: int = 0
    """Misfits caught that, on an assignment's model, are worded as a detail missed."""

    def judged(self, verdict: Verdict | None, truth: bool) -> None:
        if verdict is None:
            self.failed += 1
            return
        flagged = not verdict.describes
        if truth:
            self.true_fits += 1
            self.alarms += flagged
            self.close_alarms += verdict.misses_detail
            self.doubted += bool(verdict.doubt)
        else:
            self.wrong_fits += 1
            self.caught += flagged
            self.close_caught += verdict.misses_detail
            self.wrong_doubted += bool(verdict.doubt)
        self.by_chi += verdict.exceeds_noise
        self.by_structure += bool(verdict.structure)

    def add(self, other: Count) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def run(
    draws: int,
    seed: int = 0,
    sizes: tuple[int, ...] = SIZES,
    levels: tuple[float, ...] = LEVELS,
) -> dict[tuple[str, str, int, float], Count]:
    """Counts for every law, noise kind, size and level."""
    counts: dict[tuple[str, str, int, float], Count] = {}
    for law in LAWS:
        for kind in NOISES:
            for n in sizes:
                for level in levels:
                    rng = np.random.default_rng([seed, n, int(level * 1000), NOISES.index(kind)])
                    count = Count()
                    x = np.linspace(*law.span, n)
                    true = law.curve(x)
                    scale = level * float(np.ptp(law.curve(np.linspace(*law.span, 1000))))
                    sigma = np.full(n, scale) if kind == "σ column" else None
                    for _ in range(draws):
                        y = true + scale * noise(rng, n, kind)
                        count.judged(verdict_of(law.truth, {}, x, y, sigma), truth=True)
                        count.judged(verdict_of(law.wrong, law.fixed, x, y, sigma), truth=False)
                    counts[(law.name, kind, n, level)] = count
    return counts


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}" if whole else "–"


def report(counts: dict[tuple[str, str, int, float], Count], draws: int, seconds: float) -> str:
    total = Count()
    by_size: dict[int, Count] = defaultdict(Count)
    by_row: dict[tuple[str, str, int], Count] = defaultdict(Count)
    by_level: dict[tuple[str, int, float], Count] = defaultdict(Count)
    for (law, kind, n, level), count in counts.items():
        total.add(count)
        by_size[n].add(count)
        by_row[(law, kind, n)].add(count)
        by_level[(law, n, level)].add(count)
    lines = [
        f"`{COMMAND} --draws {draws}`: {total.true_fits + total.wrong_fits} fits in "
        f"{seconds:.0f} s; noise {', '.join(f'{v:.0%}' for v in LEVELS)} of the curve's range.",
        "",
        f"False alarms overall: {total.alarms}/{total.true_fits} "
        f"({100 * total.alarms / total.true_fits:.1f} %); misfits caught overall: "
        f"{total.caught}/{total.wrong_fits} ({100 * total.caught / total.wrong_fits:.1f} %); "
        f"fits that did not converge: {total.failed}. Of the verdicts that a model does not "
        f"describe its data, the χ² test gave {total.by_chi}, the structure tests "
        f"{total.by_structure} (both, for some). Not rejected but not called like noise "
        f'either (a reduced χ² above 2: "the data cannot tell"): {total.doubted} true-model '
        f"fits ({_share(total.doubted, total.true_fits)} %), {total.wrong_doubted} wrong-model "
        f"fits ({_share(total.wrong_doubted, total.wrong_fits)} %). On an assignment's "
        f"model, residuals within {CLOSE_SHARE:.1%} of the data's range (RMS) with σ "
        f"estimated, or with a shape but a reduced χ² of at most 1 against an uncertainty "
        f'column, are worded "misses a detail", not "does not describe": '
        f"{total.close_alarms} of the false alarms and {total.close_caught} of the misfits "
        f"caught; there the false alarms are {total.alarms - total.close_alarms} "
        f"({_share(total.alarms - total.close_alarms, total.true_fits)} %) and the misfits "
        f"caught {total.caught - total.close_caught} "
        f"({_share(total.caught - total.close_caught, total.wrong_fits)} %).",
        "",
        "False alarms (true model called wrong), % of fits, over the three noise levels:",
        "",
        "| data | noise | " + " | ".join(f"n = {n}" for n in SIZES) + " |",
        "|---|---|" + "---|" * len(SIZES),
    ]
    for law in LAWS:
        for kind in NOISES:
            cells = [by_row[(law.name, kind, n)] for n in SIZES]
            shares = " | ".join(_share(c.alarms, c.true_fits) for c in cells)
            lines.append(f"| {law.name} | {kind} | {shares} |")
    shares = " | ".join(_share(by_size[n].alarms, by_size[n].true_fits) for n in SIZES)
    lines.append(f"| all | all | {shares} |")
    lines += [
        "",
        "Misfits caught (the wrong model called wrong), % of fits, by noise level, all three "
        "kinds of noise:",
        "",
        "| data (wrong model) | noise level | " + " | ".join(f"n = {n}" for n in SIZES) + " |",
        "|---|---|" + "---|" * len(SIZES),
    ]
    for law in LAWS:
        for level in LEVELS:
            cells = [by_level[(law.name, n, level)] for n in SIZES]
            shares = " | ".join(_share(c.caught, c.wrong_fits) for c in cells)
            lines.append(f"| {law.name} ({law.wrong_name}) | {level:.0%} | {shares} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=50, help="data sets a cell (default 50)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    counts = run(args.draws, args.seed)
    print(report(counts, args.draws, time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
