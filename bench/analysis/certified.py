"""The certified-data bench: does labscribe fit the model an assignment writes out, from its
own start values, to the certified optimum?

    .venv/bin/python bench/analysis/certified.py
    .venv/bin/python bench/analysis/certified.py --only Misra1a Gauss1

The NIST Statistical Reference Datasets for nonlinear (and one-variable linear) regression
(bench/analysis/strd/, public domain; strd.json says where each file came from) each become
a lab folder: the data as `data.csv` and a handout whose one task writes the certified model
out ("Fit the model y = b1*(1-exp(-b2*x)) to the data."). The analysis runs as in scan, with
no start values given, and the fit of the requested model is compared with the certified
parameters: a parameter counts as recovered within max(2σ, 1e-3 of its value), σ the
certified standard deviation (the fit's own where NIST's copy at hand gives none). Both
sets are compared in the formula's canonical form (tools.formulas.canonical_form), since terms
that trade places leave the curve as it is and NIST's labels follow no rule. A dataset
converges when every parameter is recovered. Nelson (two predictors, log response) and
Longley (six predictors) are not one-column tables, and NoInt2 has 3 points, fewer than a
curve fit takes: they are left out of this table.

Then NIST's linear sets, all eleven, as NIST's own tests measure them: the agreeing digits
(log relative error) of every coefficient and standard deviation from labscribe's multiple
regression (certified_linear.py), Longley through the analysis of a folder.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from certified_linear import Digits, measure
from certified_linear import report as linear_report

from labscribe.tools.analysis.folder import Analysis, analyse
from labscribe.tools.fits.fit_runs import MIN_POINTS
from labscribe.tools.formulas.canonical_form import canonical
from labscribe.tools.formulas.formula_parse import parse_formula
from labscribe.tools.tool import Folder

HERE = Path(__file__).resolve().parent
STRD = HERE / "strd"
COMMAND = ".venv/bin/python bench/analysis/certified.py"
SIGMAS = 2.0
RELATIVE = 1e-3
# The analysis gets the time a hard formula needs; scan's default leaves the explorer most.
BUDGET_SECONDS = 60.0


@dataclass
class Outcome:
    name: str
    difficulty: str
    kind: str
    parameters: int = 0
    recovered: int = 0
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)
    found: dict[str, float] = field(default_factory=dict)
    """The fitted values, by the certified parameters' names."""

    @property
    def converged(self) -> bool:
        return self.parameters > 0 and self.recovered == self.parameters


def datasets(only: list[str] | None = None) -> list[dict]:
    """The datasets of strd.json with one predictor and enough points for a curve fit, in
    its order (or those `only` names)."""
    usable = [
        d for d in _listed() if d.get("x_column") == "x" and d.get("csv")
        and d["observations"] >= MIN_POINTS
    ]  # fmt: skip
    return [d for d in usable if only is None or d["name"] in only]


def linear_datasets(only: list[str] | None = None) -> list[dict]:
    """NIST's linear regression sets of strd.json (or those `only` names)."""
    linear = [d for d in _listed() if d["kind"] == "linear"]
    return [d for d in linear if only is None or d["name"] in only]


def _listed() -> list[dict]:
    return json.loads((STRD / "strd.json").read_text())["datasets"]


def lab_folder(root: Path, dataset: dict) -> Path:
    """The dataset as a student's folder: its data and a one-task handout."""
    folder = root / dataset["name"]
    folder.mkdir(parents=True)
    (folder / "data.csv").write_text((STRD / dataset["csv"]).read_text())
    (folder / "handout.md").write_text(
        f"# {dataset['name']}\n\nTasks\n\n1. Fit the model {dataset['model']} to the data.\n"
    )
    return folder


def judge(dataset: dict, analysis: Analysis, seconds: float) -> Outcome:
    """The requested fit's parameters against the certified ones, both in the formula's
    canonical form: the terms of a sum that trade places without changing the curve (the
    two periods of ENSO) are ordered alike, as labscribe reports them."""
    outcome = Outcome(dataset["name"], dataset["difficulty"], dataset["kind"], seconds=seconds)
    fit = next((f for f in analysis.fits if f.requested), None)
    found = {p.name: p for p in fit.parameters} if fit is not None else {}
    formula = parse_formula(dataset["model"])
    values = {name: c["value"] for name, c in dataset["certified"].items()}
    certified_as = canonical(formula, values)
    reference = {
        target.lstrip("-"): {**dataset["certified"][name],
                             "value": -values[name] if target.startswith("-") else values[name]}
        for name, target in certified_as.items()
    }  # fmt: skip
    for name, certified in sorted(reference.items(), key=lambda item: item[0]):
        outcome.parameters += 1
        parameter = found.get(name)
        if parameter is None:
            notes = "; ".join(fit.notes) if fit is not None else "no requested fit"
            outcome.misses.append(f"{name} not fitted ({notes})"[:160])
            continue
        outcome.found[name] = parameter.value
        sigma = certified.get("stderr") or parameter.stderr or 0.0
        tolerance = max(SIGMAS * sigma, RELATIVE * abs(certified["value"]))
        if abs(parameter.value - certified["value"]) <= tolerance:
            outcome.recovered += 1
        else:
            outcome.misses.append(
                f"{name} = {parameter.value:.8g}, certified {certified['value']:.8g}"
            )
    return outcome


def run_linear(root: Path, only: list[str] | None = None) -> list[Digits]:
    """The agreeing digits of every linear set's coefficients and standard deviations."""
    return [measure(dataset, STRD, root) for dataset in linear_datasets(only)]


def run(root: Path, only: list[str] | None = None) -> list[Outcome]:
    outcomes = []
    for dataset in datasets(only):
        folder = lab_folder(root, dataset)
        started = time.perf_counter()
        analysis = analyse(Folder(folder), budget_seconds=BUDGET_SECONDS)
        outcomes.append(judge(dataset, analysis, time.perf_counter() - started))
    return outcomes


def report(outcomes: list[Outcome]) -> str:
    lines = [
        f"`{COMMAND}`: {len(outcomes)} NIST StRD datasets, each a folder whose handout writes "
        "out the certified model; no start values given.",
        "",
        "| dataset | NIST difficulty | parameters recovered | converged | seconds |",
        "|---|---|---|---|---|",
    ]
    for o in outcomes:
        lines.append(
            f"| {o.name} ({o.kind}) | {o.difficulty} | {o.recovered}/{o.parameters} | "
            f"{'yes' if o.converged else 'no'} | {o.seconds:.1f} |"
        )
    recovered = sum(o.recovered for o in outcomes)
    total = sum(o.parameters for o in outcomes)
    converged = sum(o.converged for o in outcomes)
    lines += [
        "",
        f"All: {recovered}/{total} certified parameters recovered within max(2σ, 1e-3 "
        f"relative) ({100 * recovered / total:.1f} %); {converged}/{len(outcomes)} datasets "
        "converged from the automatic start values.",
    ]
    misses = [f"- {o.name}: {m}" for o in outcomes for m in o.misses]
    return "\n".join(lines + (["", "Misses:", *misses] if misses else []))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="dataset names (default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="labscribe-certified-") as where:
        outcomes = run(Path(where) / "curves", args.only)
        digits = run_linear(Path(where) / "linear", args.only)
    print(report(outcomes))
    if digits:
        print("\n" + "\n".join(linear_report(digits, outcomes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
