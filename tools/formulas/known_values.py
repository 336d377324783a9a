"""A fitted parameter named as a physical constant (g, h, c, e, k_B, ...) whose value is far
from the constant's: g = 0.088 m/s² from a pendulum, where the column fitted as the period
holds the time of ten swings. The number is no measurement of g but a sign that the columns
are not the formula's quantities, so the fit gives no value and says why.

Only a parameter whose unit has the constant's dimension is judged (a spring's k in N/m is
no Boltzmann constant), and only by an order of magnitude: a lab's g, h or e may miss the
accepted value by a few per cent or tens of per cent, never by a factor of five.
"""

from __future__ import annotations

from labscribe.tools.columns.si_units import dimension_of, si_of
from labscribe.tools.fits.fit_result import Fit, format_value
from labscribe.tools.formulas.constants import BY_SPELLING

MAX_FACTOR = 5.0  # a measured constant this many times off its value measures something else


def far_from_constants(fit: Fit) -> dict[str, str]:
    """{parameter: why it is no measurement of the constant it is named as}."""
    found = {}
    for parameter in fit.parameters:
        constant = BY_SPELLING.get(parameter.name)
        si = si_of(parameter.unit) if constant and parameter.unit else None
        if constant is None or si is None or si.dimension != dimension_of(constant.unit):
            continue
        ratio = parameter.value * si.scale / constant.value
        if 1 / MAX_FACTOR <= ratio <= MAX_FACTOR:
            continue
        how = (f"{1 / ratio:.3g} times smaller than" if 0 < ratio < 1
               else f"{ratio:.3g} times" if ratio > 0 else "of the opposite sign to")  # fmt: skip
        found[parameter.name] = (
            f"{parameter.name} = {format_value(parameter)} is {how} {constant.name} "
            f"({constant.value:.4g} in SI): the columns fitted are probably not the formula's "
            "quantities (a time of several periods taken as one, a unit not stated)"
        )
    return found


def judged_by_constants(fit: Fit) -> Fit:
    """The fit, given no value where a parameter named as a physical constant is far from
    it: not good, the parameter flagged, the note saying why."""
    far = far_from_constants(fit)
    if not far:
        return fit
    note = "; ".join(far.values())
    return fit.model_copy(update={"good": False, "unphysical": list(far),
                                  "notes": [*fit.notes, note], "verdict": note})  # fmt: skip
