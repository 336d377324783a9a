"""Every maximum a task asks for (tools.fits.all_maxima, tools.fits.extremes): the wordings come
from handouts ("Locate every maximum of the collector current between 5 V and 30 V", a
Franck–Hertz sheet; German "Bestimmen Sie die Lage der Maxima", French "Relever tous les
maxima"), the curve from NIST StRD Gauss1 (two Gaussian peaks on an exponential baseline,
certified centres b4 = 67.48, b7 = 179.00; bench/analysis/strd/Gauss1.csv)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from labscribe.tools.fits.all_maxima import asked_range, asks_all_maxima, local_maxima

STRD = Path(__file__).resolve().parents[3] / "bench" / "analysis" / "strd"


@pytest.mark.parametrize(
    "task",
    [
        "Locate every maximum of the collector current between 5 V and 30 V",
        "Give the positions of all the maxima and their spacing.",
        "Bestimmen Sie die Lage der Maxima des Anodenstroms.",
        "Relever tous les maxima du courant.",
        # the plural names them all (a Unicamp pipe's spectrum, tests/data/real/resonance)
        "Pede-se: identificar os picos de ressonância no espectro e atribuir-lhes o modo n.",
        "Identify the resonance peaks of the spectrum.",
    ],
)
def test_tasks_that_ask_for_every_maximum(task: str) -> None:
    assert asks_all_maxima(task)


def test_a_single_maximum_is_not_all_of_them() -> None:
    assert not asks_all_maxima("Report the maximum force and the extension where it occurs.")
    assert not asks_all_maxima("Identify the peak of the resonance curve.")


def test_the_span_a_task_limits_the_maxima_to() -> None:
    task = "Locate every maximum of the collector current between 5 V and 30 V"
    assert asked_range(task, "V") == (5.0, 30.0)
    assert asked_range(task, "mV") is None


def test_the_two_peaks_of_nist_gauss1() -> None:
    data = np.loadtxt(STRD / "Gauss1.csv", delimiter=",", skiprows=1)
    found, sigma = local_maxima(data[:, 0], data[:, 1])
    [gauss1] = [d for d in json.loads((STRD / "strd.json").read_text())["datasets"]
                if d["name"] == "Gauss1"]  # fmt: skip
    certified = gauss1["certified"]
    assert len(found) == 2 and sigma > 0
    for i, (centre, width) in zip(found, (("b4", "b5"), ("b7", "b8")), strict=True):
        # the baseline's slope moves the curve's top off the Gaussian's centre a little
        assert abs(data[i, 0] - certified[centre]["value"]) < certified[width]["value"] / 4
