"""Experiment folders with known truth, for the analysis bench.

Six kinds of physics, each a law with parameters drawn per seed and Gaussian noise of
constant σ (what an unweighted least-squares fit assumes), written in one of six formats
that rotate with the seed: European CSV with decimal commas, GBK with Chinese headers, an
instrument export with a preamble and a units row, UTF-16 TSV, a whitespace file with two
`[Block n]` tables, and a CRLF CSV with units in parentheses. The truth of each folder is
written beside it (`<name>.truth.json`), never inside, so the analysis cannot read it.
Each folder holds a one-task handout naming the law's model in words, as a lab's would
(`handout.md`); `assignment=False` leaves it out, so the standard models alone choose.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FORMATS = ("european", "gbk", "instrument", "utf16", "blocks", "parentheses")


@dataclass(frozen=True)
class Law:
    """One kind of physics: its columns (English and Chinese names, units), the lmfit
    model that is its truth, and how to draw parameters, x values and noise."""

    physics: str
    model: str
    x: tuple[str, str, str]
    y: tuple[str, str, str]
    draw: Callable[[np.random.Generator], dict[str, float]]
    grid: Callable[[dict[str, float], np.random.Generator], np.ndarray]
    curve: Callable[[np.ndarray, dict[str, float]], np.ndarray]
    noise: Callable[[dict[str, float]], float]
    task: str
    """The handout's task, naming the model in words."""


def _decay(rng: np.random.Generator) -> dict[str, float]:
    return {"amplitude": rng.uniform(3, 6), "decay": rng.uniform(1.5, 4.0),
            "c": rng.uniform(0.05, 0.5)}  # fmt: skip


def _power(rng: np.random.Generator) -> dict[str, float]:
    g = rng.uniform(9.78, 9.83)
    return {"amplitude": 2 * math.pi / math.sqrt(g), "exponent": 0.5}


def _ohm(rng: np.random.Generator) -> dict[str, float]:
    return {"slope": rng.uniform(47, 220), "intercept": rng.uniform(0.02, 0.2)}


def _line(rng: np.random.Generator) -> dict[str, float]:
    sigma = rng.uniform(0.5, 1.2)
    area = rng.uniform(800, 1500) * sigma * math.sqrt(2 * math.pi)
    return {"amplitude": area, "center": rng.uniform(588.0, 590.0), "sigma": sigma,
            "c": rng.uniform(20, 80)}  # fmt: skip


def _ringdown(rng: np.random.Generator) -> dict[str, float]:
    return {"amplitude": rng.uniform(1.5, 3.0), "decay": rng.uniform(2.0, 5.0),
            "frequency": rng.uniform(0.8, 2.0), "phase": rng.uniform(-3.0, 3.0),
            "c": rng.uniform(-0.2, 0.2)}  # fmt: skip


def _rlc(rng: np.random.Generator) -> dict[str, float]:
    return {"amplitude": rng.uniform(1.5, 2.5), "f0": rng.uniform(3000, 8000),
            "Q": rng.uniform(3, 9), "c": 0.0}  # fmt: skip


def _oscillation(x: np.ndarray, p: dict[str, float]) -> np.ndarray:
    envelope = p["amplitude"] * np.exp(-x / p["decay"])
    return envelope * np.cos(2 * np.pi * p["frequency"] * x + p["phase"]) + p["c"]


def _resonance(f: np.ndarray, p: dict[str, float]) -> np.ndarray:
    return p["amplitude"] / np.sqrt(1 + (p["Q"] * (f / p["f0"] - p["f0"] / f)) ** 2) + p["c"]


LAWS = (
    Law("exponential decay (RC discharge)", "exponential", ("t", "时间", "ms"),
        ("U_C", "电压", "V"), _decay,
        lambda p, rng: np.linspace(0, 5 * p["decay"], int(rng.integers(120, 300))),
        lambda x, p: p["amplitude"] * np.exp(-x / p["decay"]) + p["c"],
        lambda p: 0.01 * p["amplitude"],
        "Fit an exponential decay to the discharge curve and determine its time constant."),
    Law("power law (pendulum period)", "power law", ("L", "摆长", "m"), ("T", "周期", "s"),
        _power, lambda p, rng: np.linspace(0.1, 2.0, int(rng.integers(20, 40))),
        lambda x, p: p["amplitude"] * x ** p["exponent"], lambda p: 0.005,
        "Fit a power law to the period against the length of the pendulum."),
    Law("linear law (Ohm's law)", "linear", ("I", "电流", "mA"), ("U", "电压", "mV"), _ohm,
        lambda p, rng: np.linspace(0, 50, int(rng.integers(15, 40))),
        lambda x, p: p["slope"] * x + p["intercept"], lambda p: 0.002 * p["slope"] * 50,
        "Determine the resistance from a straight-line fit of the voltage against the current."),
    Law("Gaussian peak (sodium line)", "gaussian", ("wavelength", "波长", "nm"),
        ("counts", "计数", ""), _line,
        lambda p, rng: np.linspace(p["center"] - 6, p["center"] + 6, int(rng.integers(150, 400))),
        lambda x, p: p["amplitude"] / (p["sigma"] * math.sqrt(2 * math.pi))
        * np.exp(-((x - p["center"]) ** 2) / (2 * p["sigma"] ** 2)) + p["c"],
        lambda p: 15.0, "Fit a Gaussian to the spectral line and give its centre and width."),
    Law("damped oscillation (pendulum ringdown)", "damped oscillation", ("t", "时间", "s"),
        ("x", "位移", "cm"), _ringdown,
        lambda p, rng: np.linspace(0, 3 * p["decay"], int(rng.integers(300, 800))),
        _oscillation, lambda p: 0.02 * p["amplitude"],
        "Describe the ringdown as a damped oscillation: give its frequency and decay time."),
    Law("driven resonance (series RLC)", "resonance", ("f", "频率", "Hz"), ("V_R", "电压", "V"),
        _rlc, lambda p, rng: np.geomspace(p["f0"] / 5, p["f0"] * 2.4, int(rng.integers(100, 300))),
        _resonance, lambda p: 0.005 * p["amplitude"],
        "Fit the resonance curve and determine the resonance frequency f0 and Q."),
)  # fmt: skip


def generate(root: Path, seeds: int, *, assignment: bool = True) -> list[Path]:
    """Write `seeds` folders of every law under `root`; the truth files they go with."""
    root.mkdir(parents=True, exist_ok=True)
    truths = []
    for seed in range(seeds):
        for index, law in enumerate(LAWS):
            fmt = FORMATS[(index + seed) % len(FORMATS)]
            rng = np.random.default_rng(1000 * index + seed)
            name = f"{law.model.replace(' ', '_')}-{fmt}-s{seed}"
            truths.append(_folder(root, name, law, fmt, rng, assignment))
    return truths


def _sample(law: Law, rng: np.random.Generator) -> tuple[dict[str, float], np.ndarray, np.ndarray]:
    params = law.draw(rng)
    x = law.grid(params, rng)
    y = law.curve(x, params) + law.noise(params) * rng.standard_normal(len(x))
    return params, x, y


def _folder(
    root: Path, name: str, law: Law, fmt: str, rng: np.random.Generator, assignment: bool
) -> Path:
    folder = root / name
    (folder / "data").mkdir(parents=True, exist_ok=True)
    if assignment:
        (folder / "handout.md").write_text(f"# {law.physics}\n\nTasks\n\n1. {law.task}\n")
    blocks = [_sample(law, rng) for _ in range(2 if fmt == "blocks" else 1)]
    data = folder / "data" / ("measurement.dat" if fmt == "blocks" else "measurement.csv")
    if fmt == "utf16":
        data = data.with_suffix(".tsv")
    data.write_bytes(_render(law, fmt, [(x, y) for _, x, y in blocks]))
    truth = {
        "physics": law.physics, "model": law.model, "format": fmt, "folder": name,
        "source": data.relative_to(folder).as_posix(),
        "blocks": [{"block": i + 1, "points": len(x), "params": p}
                   for i, (p, x, _) in enumerate(blocks)],
    }  # fmt: skip
    path = root / f"{name}.truth.json"
    path.write_text(json.dumps(truth, indent=1))
    return path


def _render(law: Law, fmt: str, blocks: list[tuple[np.ndarray, np.ndarray]]) -> bytes:
    (xn, xz, xu), (yn, yz, yu) = law.x, law.y

    def rows(x: np.ndarray, y: np.ndarray, sep: str, comma: bool = False) -> list[str]:
        cells = [(f"{a:.6g}", f"{b:.6g}") for a, b in zip(x, y, strict=True)]
        if comma:
            cells = [(a.replace(".", ","), b.replace(".", ",")) for a, b in cells]
        return [sep.join(pair) for pair in cells]

    x, y = blocks[0]
    with_unit = lambda n, u: f"{n} [{u}]" if u else n  # noqa: E731
    if fmt == "european":
        head = f"{with_unit(xn, xu)};{with_unit(yn, yu)}"
        lines = ["# Messung, exportiert vom Praktikumsrechner", head, *rows(x, y, ";", True)]
        return ("\n".join(lines) + "\n").encode("utf-8")
    if fmt == "gbk":
        head = [f"{xz}({xu})" if xu else xz, f"{yz}({yu})" if yu else yz]
        lines = [",".join(head), *rows(x, y, ",")]
        return ("\r\n".join(lines) + "\r\n").encode("gbk")
    if fmt == "instrument":
        lines = ["Instrument: DAQ-2000 data logger", "Operator: group 7", "Date: 2024-03-14",
                 "", f"{xn},{yn}", f"{xu or '-'},{yu or '-'}", *rows(x, y, ",")]  # fmt: skip
        return ("\n".join(lines) + "\n").encode("utf-8")
    if fmt == "utf16":
        head = "\t".join(f"{n}_{u}" if u else n for n, u in ((xn, xu), (yn, yu)))
        return ("\n".join([head, *rows(x, y, "\t")]) + "\n").encode("utf-16")
    if fmt == "blocks":
        lines = ["% two runs of the same measurement"]
        for i, (bx, by) in enumerate(blocks, start=1):
            head = f"{xn} [{xu}] {yn}" + (f" [{yu}]" if yu else "")
            lines += [f"[Block {i}]", head, *rows(bx, by, " "), ""]
        return "\n".join(lines).encode("utf-8")
    head = [f"{n} ({u})" if u else n for n, u in ((xn, xu), (yn, yu))]
    return ("\r\n".join([",".join(head), *rows(x, y, ",")]) + "\r\n").encode("utf-8")
