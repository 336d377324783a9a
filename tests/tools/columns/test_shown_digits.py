"""Excerpt values with the digits that tell them apart (tools.columns.shown_digits), on NIST StRD
AtmWtAg's atomic weights of silver (7 constant leading digits; tests/data/real/repeats)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from labscribe.tools.columns.shown_digits import column_texts

REAL = Path(__file__).resolve().parents[2] / "data" / "real" / "repeats"


def test_values_that_differ_in_the_seventh_digit_differ_in_print() -> None:
    weights = np.loadtxt(REAL / "AtmWtAg.dat", skiprows=60)[:, 1]
    texts = [row[0] for row in column_texts([[float(w)] for w in weights])]
    assert len(set(texts)) == len(set(weights.tolist()))
    assert "107.8681568" in texts


def test_readings_print_as_written_and_a_gap_stays_a_dash() -> None:
    """NIST StRD SiRstv's resistivities (196.3052, 196.1240: ohm.cm to four places) keep the
    digits the file writes; short readings stay as %g prints them."""
    assert column_texts([[1.5, None], [2.25, 3.0]]) == [["1.5", "–"], ["2.25", "3"]]
    assert column_texts([[196.3052], [196.1240]]) == [["196.3052"], ["196.124"]]
