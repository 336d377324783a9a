"""`labscribe run --no-model` on a Unicamp cooling lab's workbooks (tests/data/real/workbooks):
a table of changes kept beside the readings, a row lower, and a thermocouple's table of mV
by °C in a second sheet."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, plain, report_for

COOLING = """# F229 – Resfriamento

Arquivos: `calorímetro_aberto.xlsx`, `calorímetro_fechado.xlsx`. Colunas: Tempo (s), Tensão
(mV), Temperatura (°C) e Temperatura (K).

Modelo 1: T(t) = T∞ + (T0 − T∞)·e^(−γt)

Tarefas:
1. Para cada sistema, faça o gráfico temperatura × tempo com incertezas.
2. Ajuste os dois modelos aos dados (variando m no modelo 2) e obtenha os parâmetros (T0, T∞, γ, …).
"""


def test_a_table_beside_the_readings_and_a_lookup_table_mislead_no_row(tmp_path: Path) -> None:
    """The readings' first row (0 s, 3.6 mV, 70 °C, 343 K) names no column, `(C°)` is °C, and
    the thermocouple's table is listed as reference, not fitted: task 2's "modelo 2" is not
    answered by its column headed 2."""
    report = plain(report_for(
        tmp_path,
        ("assignment.md", COOLING),
        (REAL / "workbooks" / "unicamp_calorimetro_aberto.xlsx", "calorímetro_aberto.xlsx"),
        (REAL / "workbooks" / "unicamp_calorimetro_fechado.xlsx", "calorímetro_fechado.xlsx"),
    ))  # fmt: skip
    assert "343 against" not in report and "3.6 against" not in report
    assert "Temperatura [°C] against Tempo [s] (calorímetro_aberto.xlsx\\#1)" in report
    assert "°C°" not in report
    assert "calorímetro_fechado.xlsx\\#2: a table to look values up in" in report
    assert "against temperature" not in report
    tasks = checklist(report)
    assert "calorímetro_fechado.xlsx\\#2" not in tasks


PIPE = """# Velocidade do som (F 229)

Fazer a medida com o tubo aberto-aberto e obter a intensidade relativa (medida/calibração) em
função da frequência.

**Pede-se:** identificar os picos de ressonância no espectro, atribuir-lhes o modo harmônico n,
ajustar uma reta f × n e, a partir do coeficiente angular, determinar a velocidade do som no ar
com a sua incerteza; comparar com o valor esperado.

**Arquivo de dados:** `tubo_grande.xlsx`: Frequência (Hz), Intensidade absoluta (u.a),
Intensidade de calibração (u.a), Intensidade relativa (u.a.), Intensidade relativa (dB).
"""


def test_a_spectrums_peaks_are_listed_and_a_line_of_axes_no_column_holds_is_not_claimed(
    tmp_path: Path,
) -> None:
    """ "os picos de ressonância" asks for every peak of the spectrum the handout plots against
    the frequency: they are listed where
    the students found modes 3 to 11 (510 … 1830 Hz); "uma reta f × n" is a line of the
    peaks against their mode number, which no column holds, so no line of the intensity
    against the frequency is offered as the task's."""
    report = plain(report_for(
        tmp_path, ("assignment.md", PIPE),
        (REAL / "resonance" / "unicamp_tubo_grande.xlsx", "tubo_grande.xlsx"),
    ))  # fmt: skip
    row = checklist(report).split("\\midrule", 1)[1]
    assert "The local maxima of Intensidade relativa along Frequência" in row
    assert re.search(r"Frequência = [^)]*\b510, 670, 840\b[^)]*\b1500, 1670, 1830\b", row)
    assert "the task asks for a straight-line fit of f against n; this report has no such" in row
    assert "the model task 1 asks for" not in report


EM = """# Determinación de la carga específica del electrón (e/m)

**Tareas**
- Para las series a voltaje fijo, graficar 2V/R² en función de B² y obtener e/m como pendiente
  de un ajuste lineal.
- Para las series a corriente fija, graficar 2V en función de B²R² y obtener e/m como pendiente
  de un ajuste lineal.
"""


def test_series_labelled_on_their_first_row_and_axes_a_sheet_heads_are_fitted_per_series(
    tmp_path: Path,
) -> None:
    """Each sheet holds two series, `1ra serie` written on the first row of each only, a
    `#DIV/0!` in the first row and the columns the tasks plot already formed under their own
    notation (`2V/R^2`, `B^2`, `(BR)^2`). Before, the first sheet's names were lost (its first
    row read as a header), the series were pooled and the tasks' lines were not fitted; now
    each series gives its e/m as the slope, as the students found (1.84, 1.56, 1.91 and
    1.70·10¹¹ C/kg), and the constants the error sheets copy down their rows are no series
    of repeated measurements."""
    report = plain(report_for(
        tmp_path, ("assignment.md", EM),
        (REAL / "workbooks" / "unlp_em_voltajes_corrientes.xlsx", "voltajes-y-corrientes.xlsx"),
    ))  # fmt: skip
    rows = checklist(report).split("\\midrule", 1)[1]
    first, second = rows.split("\n2 & ", 1)
    assert "column 2 against column 1" not in report and "\\textbf{Voltage [V]}" in report
    assert "slope = (181 ± 24)e9" in first and "slope = (155.2 ± 5.8)e9" in first
    assert "slope = (191.9 ± 9.0)e9" in second and "slope = (161.0 ± 6.9)e9" in second
    assert "fitted to 2V against (BR)\\textasciicircum{}2" in second
    assert "e is not in this report" not in rows
    # the error sheets' constants copied down 47 and 69 rows (N = 130 turns, a = 0.15 m, μ0)
    # are no repeated measurements; before, each stood in the table of repeats
    assert not re.search(r"\nN \(voltajes-y-corrientes\.xlsx\\#[68]\) & ", report)
    assert "Repeated measurements" not in report
