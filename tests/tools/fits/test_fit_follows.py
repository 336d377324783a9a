"""Which standard fits that do not describe their data to within the noise are still shown,
with that caveat (tools.fits.fit_result.Fit.follows): an oscillation's model that follows the
data, never a peak on a slope bent along a curve that has no peak, nor a polynomial."""

import pytest

from labscribe.tools.fits.fit_result import Fit, Parameter


def _fit(model: str, r_squared: float, *, stderr: float = 0.01, good: bool = False) -> Fit:
    parameters = [Parameter(name=name, value=1.0, stderr=stderr) for name in ("a", "b")]
    return Fit(table="t.csv", x="x", y="y", model=model, r_squared=r_squared, good=good,
               parameters=parameters)  # fmt: skip


@pytest.mark.parametrize("model", ["sine", "damped oscillation"])
def test_an_oscillation_that_follows_its_data_is_shown(model: str) -> None:
    assert _fit(model, 0.9953).follows
    assert _fit(model, 0.9953).drawable


@pytest.mark.parametrize(
    ("fit", "why"),
    [
        (_fit("gaussian on a slope", 0.9955), "a peak on a slope through ln p against 1/T"),
        (_fit("cubic", 0.999), "a polynomial traces any shape"),
        (_fit("sine", 0.95), "too loose to follow the data"),
        (_fit("sine", 0.999, stderr=5.0), "its values are not determined"),
        (_fit("sine", 0.9999, good=True), "it describes the data: no caveat"),
    ],
)
def test_other_fits_do_not_follow(fit: Fit, why: str) -> None:
    assert not fit.follows, why
