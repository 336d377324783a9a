"""The loop detector on curves whose shape is known: a loop (two branches that differ), and
curves swept out and back along one path, a monotonic sweep, and noise about one line,
which are no loop."""

from __future__ import annotations

import numpy as np
import pytest

from labscribe.tools.columns.loops import loop_note

RNG = np.random.default_rng(7)
PHASE = np.linspace(0, 4 * np.pi, 400)  # two turns
SHUFFLED = RNG.uniform(0, 10, 200)


def test_a_hysteresis_loop_is_a_loop() -> None:
    current = np.cos(PHASE)
    field = np.tanh(3 * current) + 0.4 * np.sin(PHASE) + RNG.normal(0, 0.01, PHASE.size)
    note = loop_note(current, field, "I", "B")
    assert note is not None and note.startswith("the rows form a loop: I is swept up")


@pytest.mark.parametrize(
    ("x", "y"),
    [
        # a sweep up and back along the same curve (a thermistor warmed and cooled slowly)
        (np.cos(PHASE), np.exp(np.cos(PHASE)) + RNG.normal(0, 0.01, PHASE.size)),
        # a monotonic time base
        (np.linspace(0, 10, 300), np.sin(np.linspace(0, 10, 300))),
        # a variable set in random order about one line, however noisy
        (SHUFFLED, 3 + 2 * SHUFFLED + RNG.normal(0, 2, SHUFFLED.size)),
    ],
)
def test_one_path_is_no_loop(x: np.ndarray, y: np.ndarray) -> None:
    assert loop_note(x, y, "x", "y") is None
