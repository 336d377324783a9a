"""How handouts and headers write what the analysis reads: a primed symbol (E′), a unit
abbreviated with a full stop (`deg.`), an angle column among dimensionless ones, two
definitions in one sentence, a number with a decimal comma and a power of ten; and the
effective variance of a response whose predictor is uncertain. Also a column the handout gives
a symbol, what a task asks for apart from what it works from, where a definition ends, and
the one note for the fits the time budget left untried."""

from __future__ import annotations

import numpy as np
import pytest

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.column_symbols import column_symbols
from labscribe.tools.columns.symbol_dimensions import conventional_column
from labscribe.tools.columns.units import canonical
from labscribe.tools.columns.written_numbers import number_of
from labscribe.tools.fits.effective_variance import effective_sigma
from labscribe.tools.fits.fit_result import OUT_OF_TIME, Fit, out_of_time
from labscribe.tools.formulas.axis_expressions import defined
from labscribe.tools.formulas.constants import asked_symbols
from labscribe.tools.formulas.formula_parse import parse_expression


def test_a_primed_symbol_is_a_name_of_its_own() -> None:
    assert str(parse_expression("1/E′")) == "1/E_prime"
    assert str(parse_expression("lam' - lam")) == "-lam + lam_prime"


@pytest.mark.parametrize(("written", "unit"), [("deg.", "deg"), ("sec.", "s"), ("mm.", "mm")])
def test_a_unit_abbreviated_with_a_full_stop(written: str, unit: str) -> None:
    assert canonical(written) == unit
    assert canonical("Nr.") is None


def test_theta_is_the_angle_column_not_a_percentage() -> None:
    columns = [Column(key=k, header=k, name=k, unit=u, count=7)
               for k, u in (("angle", "deg"), ("error", "%"), ("n", ""))]  # fmt: skip
    assert [c.key for c in conventional_column("theta", columns)] == ["angle"]
    assert [
        c.key
        for c in conventional_column(
            "E_prime", [Column(key="E", header="E", name="scattered energy", unit="keV", count=7)]
        )
    ] == ["E"]


def test_two_definitions_in_one_sentence() -> None:
    found = defined(["Tabulate the variables x = 1 − cos θ and y = 1/E′ (in keV⁻¹)."])
    assert [(w.name, str(w.expression)) for w in found] == [
        ("x", "1 - cos(theta)"), ("y", "1/E_prime")]  # fmt: skip


@pytest.mark.parametrize(
    ("written", "value"),
    [("1,380649×10⁻²³", 1.380649e-23), ("6.626 · 10^-34", 6.626e-34), ("12.5x10^{3}", 12500.0),
     ("−3,5", -3.5), ("1.6e-19", 1.6e-19)],
)  # fmt: skip
def test_numbers_as_handouts_write_them(written: str, value: float) -> None:
    assert number_of(written) == pytest.approx(value, rel=1e-12)


def test_an_uncertain_predictor_spreads_the_response_through_the_slope() -> None:
    x = np.linspace(1.0, 2.0, 8)
    y = 3.0 * x**2
    sigma = effective_sigma(x, y, np.full(8, 0.3), np.full(8, 0.05))
    assert sigma is not None
    assert sigma == pytest.approx(np.sqrt(0.3**2 + (6.0 * x * 0.05) ** 2))
    assert effective_sigma(x[:3], y[:3], None, np.full(3, 0.05)) is None  # too few for a slope


def _column(header: str) -> Column:
    return Column(key=header, header=header, name=header, count=5)


@pytest.mark.parametrize(
    ("text", "symbols"),
    [
        ("`Untitled` = tension imposée v (V), `Untitled 1` = courant mesuré i (A).", ["v", "i"]),
        ("Column `CH2` is the coil current I, in A.", ["Untitled", "I"]),
        ("`Untitled` = 5 cm; `CH2` : see the wiring.", ["Untitled", "CH2"]),
        ("`Untitled` = voltage U, `CH2` = voltage U.", ["U", "CH2"]),
        # the symbol alone after the sign (KIT's Franck-Hertz sheet)
        (
            'Columns: time (s), "Untitled" = U_A (V, proportional to I_A), "CH2" = U2 (V).',
            ["U_A", "U2"],
        ),
    ],
)
def test_a_column_the_handout_gives_a_symbol(text: str, symbols: list[str]) -> None:
    """The symbol a handout gives a quoted column after `=`, `:` or "is" and the words for
    it; none for a value or a reference, and none a second time in one table."""
    columns = [_column("Untitled"), _column("Untitled 1" if "Untitled 1" in text else "CH2")]
    column_symbols(columns, text)
    assert [c.name for c in columns] == symbols
    assert columns[0].header == "Untitled"  # the file's header stays


def test_what_a_task_asks_for_is_not_what_it_works_from() -> None:
    """ "Bestimmen Sie RC durch einen Fit von A/U_0 = ..." asks for RC, not for the symbols
    of the formula it is fitted by; "berechnen Sie A/U_0" asks for the ratio, not for U_0;
    "compute ρ = f0/Δf" names its inputs after the equals sign; a means in a formula's
    aside ("Probendicke d aus probe.ini") ends nothing."""
    rc = ("Berechnen Sie A/U_0 und tragen Sie es gegen f auf. Bestimmen Sie RC durch einen Fit "
          "von A/U_0 = 1/√(1 + (2πf·RC)²).")  # fmt: skip
    assert "RC" in asked_symbols((rc,), "", {}) and "U_0" not in asked_symbols((rc,), "", {})
    assert {"f0", "ρ"} <= asked_symbols(("Compute the ratio ρ = f0/Δf of the curve.",), "", {})
    hall = ("Berechnen Sie den Hall-Koeffizienten R_H = c·d (Probendicke d aus probe.ini) und "
            "die Ladungsträgerdichte n = 1/(e·|R_H|).")  # fmt: skip
    assert {"R_H", "n"} <= asked_symbols((hall,), "", {})
    assert "U" not in asked_symbols(("Determine R from U and I.",), "", {})


def test_a_definition_ends_where_its_formula_does_not_go_on() -> None:
    """φ = 2π·a/b before "für alle Frequenzen ... φ(f) = ..." is a definition; t_q =
    t(última amostra) − t(primeira amostra) is none of t."""
    phase = "Berechnen Sie φ = 2π·a/b für alle Frequenzen und einen Fit von φ(f) = arctan(2πf·RC)."
    assert [(w.name, str(w.expression)) for w in defined([phase])] == [("φ", "2*pi*a/b")]
    assert defined(["o tempo de queda é t_q = t(última amostra) − t(primeira amostra)."]) == []


def test_fits_the_time_budget_left_untried_are_named_once() -> None:
    late = [Fit(table=f"run{k}.csv", x="t", y=y, notes=[OUT_OF_TIME]) for k in (1, 2)
            for y in ("a_x", "a_x", "a_y")]  # fmt: skip
    done = Fit(table="run0.csv", x="t", y="a_x", model="linear", good=True)
    note = out_of_time([done, *late])
    assert note.startswith(OUT_OF_TIME)
    assert note.count("a_x against t (run1.csv)") == 1 and "run0.csv" not in note
    assert out_of_time([done]) == ""


def test_a_period_is_no_recordings_time_axis() -> None:
    """Pohl's handout defines omega_d = 2·pi/T with T the period of the fit; the scope's
    `TIME` column is t, not T, so omega_d is formed from no column."""
    time = Column(key="TIME", header="TIME", name="TIME", unit="s", count=9)
    period = Column(key="period", header="period", name="period", unit="s", count=9)
    assert conventional_column("T", [time]) == []
    assert conventional_column("t", [time]) == [time]
    assert conventional_column("T", [time, period]) == [period]
