import numpy as np

from labscribe.tools.residuals import runs_z, structure


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
