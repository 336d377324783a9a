"""The units of a power law's amplitude take its exponent as a law's fraction where the fit
cannot tell them apart (½ for 0.4988 ± 0.003), and as fitted otherwise: a pendulum set's
0.4563 ± 0.0072 is no 4/9."""

from __future__ import annotations

import pytest

from labscribe.tools.fits.fit_description import plain_value


@pytest.mark.parametrize(
    ("value", "stderr", "plain"),
    [(0.4988, 0.003, 0.5), (3.98, 0.04, 4.0), (0.3340, 0.002, 1 / 3), (0.4563, 0.0072, 0.4563)],
)
def test_an_exponent_is_a_laws_fraction_only_within_its_errors(
    value: float, stderr: float, plain: float
) -> None:
    assert plain_value(value, stderr) == pytest.approx(plain)
