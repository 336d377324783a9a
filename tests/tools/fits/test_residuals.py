import numpy as np

from labscribe.tools.fits.residuals import runs_z, structure


def test_structure_finds_none_in_white_noise() -> None:
    rng = np.random.default_rng(1)
    for size in (20, 200, 2000):
        assert structure(rng.standard_normal(size)) is None


def test_structure_finds_a_shape_the_model_missed() -> None:
    x = np.linspace(0, 1, 300)
    rng = np.random.default_rng(2)
    missed = 0.2 * np.sin(2 * np.pi * 2 * x) + 0.05 * rng.standard_normal(300)
    found = structure(missed)
    assert found is not None and found.startswith("the residuals show structure (runs test z = ")


def test_structure_spares_noise_correlated_from_point_to_point() -> None:
    rng = np.random.default_rng(3)
    filtered = np.convolve(rng.standard_normal(2000), np.ones(8) / 8, mode="same")
    assert runs_z(filtered) < -3.3  # the runs test alone would call it structure
    assert structure(filtered) is None


def test_structure_reads_short_series_by_their_runs_alone() -> None:
    assert structure(np.array([1.0] * 8 + [-1.0] * 8)) is not None
    assert structure(np.array([1.0, -1.0] * 8)) is None
    assert structure(np.array([1.0, -1.0, 1.0])) is None  # too few to tell


def test_structure_finds_a_shape_smaller_than_the_noise_of_one_point() -> None:
    x = np.linspace(0, 1, 2000)
    rng = np.random.default_rng(4)
    missed = 0.3 * np.sin(2 * np.pi * 3 * x) + rng.standard_normal(2000)
    found = structure(missed)
    assert found is not None and "in means of 40 blocks, z = " in found


def test_structure_finds_a_misfit_of_a_narrow_peak_on_a_wide_scan() -> None:
    x = np.linspace(-50, 50, 1000)
    curve = 1 / (1 + x**2)
    rng = np.random.default_rng(0)
    top = np.abs(x) < 10
    missed = 0.06 * np.sign(np.sin(np.pi * x / 4)) * top + 0.05 * rng.standard_normal(1000)
    assert structure(missed) is None  # over the whole scan, the wings' noise hides it
    found = structure(missed, curve)
    assert found is not None and found.endswith(
        "where the model has its shape (194 of 1000 points)"
    )
