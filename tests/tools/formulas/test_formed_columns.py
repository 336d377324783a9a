"""tools.formulas.formed_columns: the quantities a handout asks to plot that no column holds (T²,
1/λ, ln p, P = U·I, p = dh + 29.125), formed from the columns, their units by pint. Reading
them from the handout's words: test_axis_expressions.py.

Handout wording is taken from real handouts where one was found: the IITB virtual lab's
"a graph of V on the vertical axis vs. 1/λ on the horizontal axis"
(virtual-labs/exp-plancks-constant-from-kinetic-energy-versus-frequency-graph-iitb,
experiment/theory.md @877da5e) and AngelaBi/GenPhysLaboratory's "plot the square of the
average period, $T^2$, as a function of the length $L$" (tests/data/real/handouts)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from uncertainties import ufloat, umath

from labscribe.tools.assignment.stated_values import stated_values
from labscribe.tools.columns.column import Column
from labscribe.tools.formats.tables import Table, TableSummary
from labscribe.tools.formulas.axis_expressions import (
    defined,
)
from labscribe.tools.formulas.formed_columns import form_columns
from labscribe.tools.formulas.formed_lineage import consumed, related


def table_of(columns: dict[str, tuple[str, list[float]]]) -> Table:
    """A table whose columns are {name: (unit, values)}."""
    frame = pd.DataFrame({name: values for name, (_, values) in columns.items()})
    described = [
        Column(key=name, header=name, name=name, unit=unit, count=len(values),
               minimum=min(values), maximum=max(values))
        for name, (unit, values) in columns.items()
    ]  # fmt: skip
    summary = TableSummary(
        id="t.csv", source="t.csv", block=0, encoding="utf-8", delimiter=",", decimal=".",
        rows=len(frame), columns=described, x=described[0].key,
    )  # fmt: skip
    return Table(summary=summary, frame=frame)


def test_the_period_from_repeated_timings_of_ten_swings_and_t_squared() -> None:
    lengths = [0.3, 0.5, 0.7, 0.9]
    runs = {f"t10_{i}": ("s", [10 * 2 * np.pi * np.sqrt(x / 9.81) + 0.01 * i for x in lengths])
            for i in (1, 2, 3)}  # fmt: skip
    table = table_of({"l": ("m", lengths), **runs})
    form_columns([table], ["Tragen Sie T² gegen l auf."], "")
    names = {c.name: c for c in table.summary.columns}
    period = np.mean([runs[k][1] for k in runs], axis=0) / 10
    np.testing.assert_allclose(table.frame[names["T"].key], period)
    np.testing.assert_allclose(table.frame[names["T²"].key], period**2)
    assert names["T²"].unit == "s^2"
    assert consumed(table.summary.columns) == set(runs)  # T stays: it is formed


def test_inverse_temperature_in_kelvin_and_the_log_of_a_pressure() -> None:
    fahrenheit = [194.5, 201.1, 212.2]
    table = table_of({"pressure": ("inHg", [20.79, 23.99, 30.06]),
                      "boiling point": ("degF", fahrenheit)})  # fmt: skip
    form_columns([table], ["(b) Plot ln p against 1/T and fit a straight line."], "")
    names = {c.name: c for c in table.summary.columns}
    kelvin = (np.array(fahrenheit) - 32) * 5 / 9 + 273.15
    np.testing.assert_allclose(table.frame["1/T"], 1 / kelvin)
    np.testing.assert_allclose(table.frame["ln p"], np.log([20.79, 23.99, 30.06]))
    assert names["1/T"].unit == "K^-1" and names["ln p"].unit == ""
    assert "K" in names["1/T"].formed and "inHg" in names["ln p"].formed
    # the forms of one column say nothing about each other
    assert related(names["1/T"], names["boiling point"], table.summary.columns)
    assert not related(names["1/T"], names["ln p"], table.summary.columns)


def test_a_formed_column_carries_the_uncertainty_of_the_column_it_is_formed_from() -> None:
    """σ of √E from sigma_E beside E_Ka, checked against the uncertainties package; Z has
    no uncertainty column and is said to be taken as exact."""
    energy, sigma = [4.51, 8.05, 17.48], [0.02, 0.03, 0.05]
    table = table_of({"Z": ("", [22.0, 29.0, 42.0]), "E_Ka": ("keV", energy),
                      "sigma_E": ("keV", sigma)})  # fmt: skip
    table.summary.columns[2].uncertainty_of = "E_Ka"
    form_columns([table], ["Plot √E against Z."], "")
    names = {c.name: c for c in table.summary.columns}
    assert names["u(√E)"].uncertainty_of == "√E" and names["u(√E)"].unit == names["√E"].unit
    expected = [umath.sqrt(ufloat(e, s)).std_dev for e, s in zip(energy, sigma, strict=True)]
    np.testing.assert_allclose(table.frame["u(√E)"], expected)
    assert "sigma_E" in names["u(√E)"].formed


def test_a_product_of_columns_is_named_by_its_unit_and_an_offset_keeps_the_unit() -> None:
    table = table_of({"U": ("V", [1.0, 2.0]), "I": ("A", [0.5, 0.75]), "T": ("K", [1200, 1400]),
                      "dh": ("in Hg", [0.0, 1.4375])})  # fmt: skip
    tasks = ["a) Berechnen Sie P = U · I.", "c) Tragen Sie P gegen T⁴ auf.",
             "- Compute the pressure p for each row."]  # fmt: skip
    form_columns([table], tasks, "the pressure is p = dh + 29.125 in Hg.")
    names = {c.name: c for c in table.summary.columns}
    assert names["P"].unit == "W"
    np.testing.assert_allclose(table.frame["P"], [0.5, 1.5])
    assert names["T⁴"].unit == "K^4"
    np.testing.assert_allclose(table.frame["p"], [29.125, 30.5625])
    assert names["p"].unit == "in Hg"


def test_a_factor_before_a_formula_is_no_definition_and_prose_ends_one() -> None:
    readings = {(w.name, str(w.expression)) for w in defined([
        "the stopping voltage U obeys e U = h c/λ − W, where e is the elementary charge",
        "A formula unused by the tasks defines nothing: R = U/I here.",
    ])}  # fmt: skip
    assert not any(name == "U" for name, _ in readings)
    table = table_of({"U": ("V", [1.0, 2.0]), "I": ("A", [0.5, 0.75])})
    form_columns([table], ["Plot U against I."], "A formula unused: R = U/I here.")
    assert [c.name for c in table.summary.columns] == ["U", "I"]


def test_an_axis_no_column_can_form_is_said() -> None:
    table = table_of({"U": ("V", [1.0, 2.0, 3.0]), "R": ("Ω", [1.0, 2.0, 3.0])})
    said = form_columns([table], ["Plot ln I against U."], "")
    assert [c.name for c in table.summary.columns] == ["U", "R"]
    assert len(said.unformed) == 1 and "ln I" in said.unformed[0]
    assert "I names no column" in said.unformed[0]


def test_one_quantity_read_by_several_observers_is_their_mean() -> None:
    """`b_Anna`, `b_Ben`, `b_Chloe` (cm): the image distance b as three group members found
    it; "1/b against 1/g" plots the mean's inverse, not one observer's against another's."""
    g = [14.0, 16.0, 18.0, 20.0, 25.0]
    b = [1 / (1 / 10.0 - 1 / x) for x in g]  # a thin lens of f = 10 cm
    observers = {f"b_{who}": ("cm", [v + shift for v in b])
                 for who, shift in [("Anna", -0.2), ("Ben", 0.3), ("Chloe", 0.1)]}  # fmt: skip
    table = table_of({"g": ("cm", g), **observers})
    form_columns([table], ["ii. Plot 1/b against 1/g and fit a straight line."], "")
    names = {c.name: c for c in table.summary.columns}
    mean = np.mean([observers[k][1] for k in observers], axis=0)
    np.testing.assert_allclose(table.frame[names["1/b"].key], 1 / mean)
    assert "the mean of b_Anna, b_Ben and b_Chloe" in names["1/b"].formed
    assert names["1/b"].unit == "cm^-1"


def test_series_of_different_runs_are_each_formed_never_averaged() -> None:
    """`V_C1`, `V_C2`, `V_C1||C2`: one capacitor each, discharging with its own time constant
    (dmcneary/class-notes, phys220b lab 6, first rows): "ln V against t" is one line per run."""
    table = table_of({
        "t": ("s", [0.0, 10.0, 20.0, 30.0]),
        "V_C1": ("V", [10.12, 6.92, 4.66, 3.24]),
        "V_C2": ("V", [10.12, 7.90, 6.12, 4.83]),
        "V_C1||C2": ("V", [10.12, 8.57, 7.24, 6.21]),
    })  # fmt: skip
    form_columns([table], ["1. For each configuration plot ln V against t."], "")
    formed = {c.name: c for c in table.summary.columns if c.formed}
    assert sorted(formed) == ["ln V_C1", "ln V_C1||C2", "ln V_C2"]
    np.testing.assert_allclose(table.frame["ln V_C2"], np.log([10.12, 7.90, 6.12, 4.83]))
    assert not any("mean" in c.formed for c in formed.values())


def test_a_value_the_handout_states_forms_a_quantity_with_the_columns() -> None:
    """N = Z/Δt with "Δt = 10 s" in the prose: the count rate of each row, in 1/s, and the
    description says the value was stated; a formula of stated values alone forms nothing."""
    table = table_of({"U": ("V", [320.0, 330.0]), "Z": ("", [4361.0, 4540.0])})
    stated = stated_values("Die Impulse Z wurden während Δt = 10 s gezählt. g = 9.81 m/s^2", "h")
    form_columns([table], ["Berechnen Sie N = Z/Δt.", "Berechnen Sie G = 2 g."], "", stated)
    names = {c.name: c for c in table.summary.columns}
    np.testing.assert_allclose(table.frame["N"], [436.1, 454.0])
    assert names["N"].unit == "s^-1"
    assert "Δt = 10 s as stated" in names["N"].formed
    assert "G" not in names


def test_a_temperature_stated_on_a_scale_with_an_offset_forms_nothing() -> None:
    table = table_of({"p": ("Pa", [1.0, 2.0])})
    stated = stated_values("The bath was held at T = 25 °C.", "h")
    form_columns([table], ["Compute q = p/T."], "", stated)
    assert "q" not in {c.name for c in table.summary.columns}


def test_an_axis_a_column_already_holds_is_not_formed_again() -> None:
    """ "f² em função de I" over `f_quadrado` in Hz²: the column is f² already; squaring it
    again would fit Hz⁴."""
    table = table_of({"corrente": ("mA", [251.1, 230.0]), "f_quadrado": ("Hz²", [6.1, 5.5])})
    form_columns([table], ["Faça o gráfico de f² em função de I."], "")
    assert [c.name for c in table.summary.columns] == ["corrente", "f_quadrado"]


def test_a_quantity_a_column_holds_under_another_name_is_not_formed_again() -> None:
    """A solar cell's sheet keeps `P = UI` in mW beside U and I: "the power P = U·I as a
    function of U" is that column, not a new column U·I of the same values."""
    table = table_of({"U": ("V", [0.1, 0.5, 1.0]), "I": ("mA", [8.35, 8.2, 7.9]),
                      "P = UI": ("mW", [0.835, 4.1, 7.9])})  # fmt: skip
    form_columns([table], ["Plot I against U and the power P = U·I as a function of U."], "")
    assert [c.name for c in table.summary.columns] == ["U", "I", "P = UI"]
    other = table_of({"U": ("V", [0.1, 0.5, 1.0]), "I": ("mA", [8.35, 8.2, 7.9]),
                      "P = UI": ("mW", [0.84, 4.0, 7.7])})  # fmt: skip
    form_columns([other], ["Plot the power P = U·I as a function of U."], "")
    assert [c.name for c in other.summary.columns] == ["U", "I", "P = UI", "P"]  # not its values


def test_a_product_whose_units_cancel_is_the_number_it_is() -> None:
    """φ = 2π f Δt with f in Hz and Δt in µs (a real RC phase, `#  f/Hz  A/V  Δt/μs`): the
    phase in radians, not in µs·Hz; `tan φ = 2π f RC` beside it defines no φ."""
    table = table_of({"f": ("Hz", [10.0, 1000.0]), "Δt": ("µs", [1680.0, 120.0])})
    text = "A(f) = U_0 / √(1 + (2π f RC)²),  tan φ = 2π f RC,  φ = 2π f Δt."
    form_columns([table], ["Berechnen Sie die Phasenverschiebung φ (in Grad)."], text)
    phase = next(c for c in table.summary.columns if c.name == "φ")
    assert phase.unit == ""
    np.testing.assert_allclose(table.frame["φ"], 2 * np.pi * np.array([10.0, 1000.0])
                               * np.array([1680.0, 120.0]) * 1e-6)  # fmt: skip


def test_a_stretch_from_the_reading_where_the_load_is_zero() -> None:
    """ "x = h(m=0) − h(m)" over unsorted rows (the unloaded spring in the second row) and two
    camelCase heights: h is the one the task names, h(m=0) its reading where m is 0 (not
    the first row's, not where the count of balls is 0, which is so twice)."""
    table = table_of({
        "bolitas": ("", [6.0, 0.0, 0.0, 4.0, 2.0]), "m": ("g", [37.7, 0.0, 7.3, 27.3, 17.9]),
        "hGancho": ("cm", [31.9, 36.8, 35.8, 33.3, 34.4]),
        "hResorte": ("cm", [34.0, 39.2, 38.3, 35.6, 36.9]),
    })  # fmt: skip
    text = "Estiramiento: x = h(m=0) − h(m). En equilibrio x = (g/k)·m."
    form_columns([table], ["Con hResorte(cm) calcular el estiramiento x y ajustar x = (g/k)·m."],
                 text)  # fmt: skip
    x = next(c for c in table.summary.columns if c.name == "x")
    np.testing.assert_allclose(table.frame["x"], 39.2 - np.array([34.0, 39.2, 38.3, 35.6, 36.9]))
    assert x.unit == "cm"
    assert "hResorte where m = 0" in x.formed


def test_a_rise_from_the_first_reading_unless_the_handout_states_the_start() -> None:
    """ "ΔT = T − T_0": T_0 is the first reading of T where no row has a zero elsewhere and
    the prose states none; a stated T_0 is taken as stated."""
    table = table_of({"Q": ("J", [5.0, 10.0, 15.0]), "T": ("K", [293.4, 295.1, 296.9])})
    form_columns([table], ["Plot ΔT = T − T_0 against Q."], "")
    rise = next(c for c in table.summary.columns if c.name == "ΔT")
    np.testing.assert_allclose(table.frame["ΔT"], [0.0, 1.7, 3.5], atol=1e-9)
    assert "T at its first reading" in rise.formed
    stated = stated_values("The start temperature was T_0 = 290 K.", "h")
    other = table_of({"Q": ("J", [5.0, 10.0, 15.0]), "T": ("K", [293.4, 295.1, 296.9])})
    form_columns([other], ["Plot ΔT = T − T_0 against Q."], "", stated)
    np.testing.assert_allclose(other.frame["ΔT"], [3.4, 5.1, 6.9], atol=1e-9)


def test_no_reading_where_the_named_variable_is_zero_in_no_row_or_in_two() -> None:
    for loads in ([5.0, 10.0, 15.0], [0.0, 0.0, 15.0]):
        table = table_of({"m": ("g", loads), "h": ("cm", [30.0, 29.0, 28.0])})
        form_columns([table], ["Compute x = h(m=0) − h(m) and fit x against m."], "")
        assert "x" not in {c.name for c in table.summary.columns}


def test_one_column_never_stands_for_two_symbols_of_a_formula() -> None:
    """ "V_L = π r² L" over a table of one length (`Laenge` in cm): r and L would both be
    taken as it by their dimension; the cylinder's radius is no column, so V_L is not formed."""
    table = table_of({"Laenge": ("cm", [6.0, 7.0, 8.0]), "Druck": ("bar", [2.36, 2.05, 1.81])})
    form_columns([table], ["Berechnen Sie V_L = π r² L und tragen Sie 1/p gegen V_L auf."], "")
    assert "V_L" not in {c.name for c in table.summary.columns}


def _named(table: Table, name: str) -> Table:
    table.summary.id = table.summary.source = name
    return table


def test_an_axis_is_formed_beside_what_it_is_plotted_against() -> None:
    """`1/√R gegen d` is the distance law's: formed in the file that holds d, not in the
    counter's characteristic, which holds R against the voltage (de: Radioaktivität)."""
    voltage = _named(table_of({"U": ("V", [400.0, 450.0, 500.0]),
                               "R": ("1/s", [50.0, 51.0, 52.0])}), "kennlinie.csv")  # fmt: skip
    distance = _named(table_of({"d": ("cm", [2.0, 4.0, 6.0]),
                                "R": ("1/s", [40.0, 12.0, 6.0])}), "abstand.csv")  # fmt: skip
    task = "Abstandsgesetz prüfen (geeignete Linearisierung, z. B. 1/√R gegen d) und d₀ angeben."
    form_columns([voltage, distance], [task], task)
    assert "1/√R" in [c.name for c in distance.summary.columns]
    assert "1/√R" not in [c.name for c in voltage.summary.columns]


def test_a_value_stated_of_one_file_is_that_files_alone() -> None:
    """ "`short.csv` — Impulse N in t = 5 s" is the counting time of that file; another
    file's counts, taken over another time, form no rate with it."""
    text = "- `short.csv` — Impulse N in t = 5 s.\n- `long.csv` — N in 200 s.\n"
    task = "Zählrate R = N/t gegen d auftragen."
    short = _named(table_of({"d": ("cm", [1.0, 2.0, 3.0]), "N": ("", [90.0, 40.0, 20.0])}),
                   "short.csv")  # fmt: skip
    long = _named(table_of({"d": ("cm", [1.0, 2.0, 3.0]), "N": ("", [900.0, 400.0, 200.0])}),
                  "long.csv")  # fmt: skip
    form_columns([short, long], [task], text, stated_values(text, "a.md"))
    assert short.frame["R"].tolist() == [18.0, 8.0, 4.0]
    assert "R" not in long.frame


def test_a_name_again_is_nothing_to_form_and_a_subscript_word_keeps_no_case() -> None:
    """`x = m` (a formula's x is the mass) forms no copy of the mass; `α = U_out/U_in` is
    formed from the columns `u_out` and `u_in`."""
    table = table_of({"f": ("Hz", [10.0, 100.0, 1000.0]), "u_in": ("V", [5.0, 5.0, 5.0]),
                      "u_out": ("V", [5.0, 4.0, 1.0])})  # fmt: skip
    tasks = ["Oblicz transmitancję α = U_out/U_in.", "y = A + Bx con x = m, y = T²: x."]
    form_columns([table], tasks, "\n".join(tasks))
    names = [c.name for c in table.summary.columns]
    assert "x" not in names
    assert table.frame["α"].tolist() == [1.0, 0.8, 0.2]


def test_a_rate_less_its_first_reading_that_leaves_no_logarithm_is_not_formed() -> None:
    """`ln(R − R₀)` with R₀ the background: the first rate of an absorption curve is no
    background, and R − R_first is negative below it."""
    table = table_of({"x": ("mm", [0.0, 5.0, 10.0, 15.0]), "R": ("1/s", [90.0, 50.0, 30.0, 20.0])})
    task = "μ aus ln(R − R₀) gegen x bestimmen."
    form_columns([table], [task], task)
    assert "ln(R − R₀)" not in [c.name for c in table.summary.columns]


def test_a_thermocouple_reading_to_a_temperature_through_a_bracket() -> None:
    """`T = T₀ + (V − V₀)/k, T₀ = 21 °C = 294 K, V₀ = 90 мкВ, k = 41 мкВ/К` (a Russian
    Curie–Weiss lab): the bracket is the formula's, and µV over µV/K is kelvin."""
    text = "T = T₀ + (V − V₀)/k,  T₀ = 21 °C = 294 K,  V₀ = 90 мкВ,  k = 41 мкВ/К."
    table = table_of({"V": ("µV", [-580.0, 90.0, 500.0]), "f": ("kHz", [904.4, 940.0, 950.0])})
    tasks = ["Переведите показания термопары в температуру T (K)."]
    form_columns([table], tasks, text, stated_values(text, "a.md"))
    column = next(c for c in table.summary.columns if c.name == "T")
    assert column.unit == "K"
    assert table.frame["T"].tolist() == pytest.approx([294 - 670 / 41, 294.0, 294 + 410 / 41])
