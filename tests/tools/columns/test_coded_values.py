"""tools.columns.coded_values: how a handout's words map recorded numbers to the quantity. The
wordings are real: the R documentation of the data sets these values come from (datasets
`morley`, MASS `michelson` and `newcomb`, BayesDA `light`), and the words lab handouts use."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from labscribe.tools.columns.coded_values import read_coding
from labscribe.tools.fits.repeats import Series, decode, repeated_measurements
from labscribe.tools.formats.tables import read_data
from labscribe.tools.tool import Folder

REPEATS = Path(__file__).parents[2] / "data" / "real" / "repeats"


def series_of(name: str) -> list[Series]:
    return repeated_measurements(read_data(Folder(REPEATS), name).tables)


@pytest.mark.parametrize(
    ("text", "offset", "scale", "unit"),
    [
        # R datasets::morley
        ("The response is the speed of light measurement, suitably coded (km/sec, with 299000 "
         "subtracted).", 299000, 1, "km/s"),
        # MASS::michelson
        ("The response is the speed of light in km/s, less 299000. The currently accepted "
         "value, on this scale of measurement, is 734.5.", 299000, 1, "km/s"),
        # MASS::newcomb (7.3-54)
        ("The given values divided by 1000 plus 24.8 give the time in millionths of a second "
         "for light to traverse a known distance.", 24.8, 0.001, "µs"),
        # BayesDA::light
        ("The data are recordes as deviations from 24800 nanoseconds.", 24800, 1, "ns"),
        ("The values are in km/s with **299 000 km/s subtracted**.", 299000, 1, "km/s"),
        ("Each entry is g − 980.000 cm/s² in units of 0.001 cm/s² (so 76 means g = 980.076 "
         "cm/s²).", 980, 0.001, "cm/s²"),
        ("The 66 values are coded as (t/µs − 24.8) × 1000, i.e. 28 means t = 24.828 µs.",
         24.8, 0.001, "µs"),
        ("Times are deviations from 24.8 µs in ns.", 24.8, 0.001, "µs"),
        ("To get g in cm/s^2, add 980 000 and divide by 1000.", 980, 0.001, "cm/s^2"),
    ],
)  # fmt: skip
def test_a_coding_is_read_from_the_words_handouts_use(
    text: str, offset: float, scale: float, unit: str
) -> None:
    coding = read_coding(text).coding
    assert coding is not None
    assert math.isclose(coding.offset, offset) and math.isclose(coding.scale, scale)
    assert coding.unit == unit


def test_a_coding_its_own_example_contradicts_is_not_used() -> None:
    decoding = read_coding("The data are coded as (t/µs − 24.8) × 1000, so 28 means t = 24.829 µs.")
    assert decoding.coding is None
    assert decoding.unread.startswith("The data are coded as")


def test_coded_values_without_a_readable_mapping_are_named_as_coded() -> None:
    decoding = read_coding("The readings are coded; ask your tutor for the key.")
    assert decoding.coding is None and "coded" in decoding.unread
    assert read_coding("Measure the period ten times and give the mean.").unread == ""
    # a correction is subtracted, not a number that codes the values
    background = "The background is measured apart; its mean N̄b is subtracted from every point."
    assert read_coding(background).unread == ""


def test_a_converted_value_keeps_the_digits_the_offset_adds() -> None:
    coding = read_coding("The response is the speed of light in km/s, less 299000.").coding
    assert coding is not None
    assert coding.shown(852.4, 7.9) == "299852.4 ± 7.9 km/s"  # not (299.8524 ± 0.0079)e3
    newcomb = read_coding("The values are deviations from 24.8 µs in ns.").coding
    assert newcomb is not None and newcomb.shown(27.75, 0.635) == "24.82775 ± 0.00064 µs"


def test_the_series_of_the_nbs_gravity_data_get_their_weighted_mean_and_chi_square() -> None:
    """boot::gravity (Cressie 1982): the weighted mean of the 8 series means is 78.6 ± 0.59
    (coded) and their χ² about it 21.3 for 7 degrees of freedom (p = 0.0034)."""
    pooled = series_of("gravity.csv")[0]
    weighted = pooled.means_weighted
    assert weighted is not None and weighted.n == 8
    assert weighted.mean == pytest.approx(78.63, abs=0.01)
    assert weighted.sigma == pytest.approx(0.59, abs=0.005)
    assert weighted.chi_square == pytest.approx(21.28, abs=0.01)
    assert weighted.p == pytest.approx(0.0034, abs=0.0001)
    decode([pooled], "Each entry is g − 980.000 cm/s² in units of 0.001 cm/s².")
    assert pooled.coding is not None
    assert pooled.coding.decode(weighted.mean) == pytest.approx(980.0786, abs=1e-4)


def test_michelsons_experiments_get_the_f_of_their_analysis_of_variance() -> None:
    """R: summary(aov(Speed ~ factor(Expt), morley)) gives F = 4.288, p = 0.00311."""
    pooled = series_of("morley.csv")[0]
    assert pooled.series_f == pytest.approx(4.2878, abs=1e-3)
    assert pooled.series_p == pytest.approx(0.003114, abs=1e-5)
