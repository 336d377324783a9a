"""How handouts write their task lists and formulas in other languages: upper-case roman
marks ("I." ... "IV.") numbering tasks beside the same marks numbering sections, and the
one-letter conjunctions ("e", "y", "o") that join a formula to the prose after it."""

from __future__ import annotations

import pytest

from labscribe.tools.assignment.tasks import assignment_of
from labscribe.tools.formulas.formula_notation import formula_in

PORTUGUESE = """# Trabalho prático 4

### Tarefas

I. Ajuste aos dados o modelo y = b1 / (1 + exp(b2 − b3·t)) e apresente b1, b2 e b3.
II. Determine o instante do ponto de inflexão t_i = b2/b3.
III. Em que dia a produção atinge 90 % do valor assintótico b1?
IV. Que produção prevê o modelo para t = 100 dias? Comente a extrapolação.
"""
SECTIONS = """Lab 3: Hooke's law

I. OBJECTIVE
To measure the spring constant of a steel spring.

II. THEORY
Hooke's law F = k x relates the force to the extension.

III. ANALYSIS
1. Plot F against x.
2. Determine k from the slope.
"""


def test_upper_case_roman_marks_number_tasks() -> None:
    tasks = assignment_of(PORTUGUESE, "protocolo.md").tasks
    assert len(tasks) == 4
    assert tasks[2].startswith("Em que dia") and tasks[3].startswith("Que produção")


def test_upper_case_roman_marks_of_sections_stay_headings() -> None:
    assert assignment_of(SECTIONS, "lab3.txt").tasks == [
        "Plot F against x.",
        "Determine k from the slope.",
    ]


@pytest.mark.parametrize(
    ("sentence", "formula"),
    [("Ajuste aos dados o modelo y = b1·(1 − exp(−b2·t)) e apresente b1 e b2.",
      "y = b1·(1 − exp(−b2·t))"),
     ("Ajuste el modelo y = a + b·x y calcule la pendiente.", "y = a + b·x"),
     ("Trovare V = R·i e confrontare con il valore nominale.", "V = R·i"),
     ("Fit y = a x + b to the data.", "y = a x + b"),
     ("Ajuster le modèle R = ρ·L/A à toutes les mesures.", "R = ρ·L/A")],
)  # fmt: skip
def test_a_one_letter_conjunction_ends_the_formula(sentence: str, formula: str) -> None:
    assert formula_in(sentence) == formula
