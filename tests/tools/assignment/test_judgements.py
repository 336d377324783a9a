"""What a task asks that no analysis of numbers does (tools.assignment.judgements), named once each
in JUDGEMENT's order, on the wording of Nordic and Russian lab sheets."""

import pytest

from labscribe.tools.assignment.judgements import judgements


@pytest.mark.parametrize(
    ("task", "asked"),
    [
        # Norwegian gamma-counting handout: the comparison is the student's, after the values
        (
            "Beregn middelverdien k̄ og standardavviket σ, og sammenlign σ med √k̄.",
            ["the comparison"],
        ),
        (
            "Bestäm drivfrekvensen och jämför med ω_r från teorin. Diskutera avvikelser.",
            ["the discussion", "the comparison"],
        ),
        ("vurder om dataene er forenlige med en Poisson-fordeling", ["the check"]),
        (
            "Сравните период с теорией и объясните расхождение.",
            ["the comparison", "the explanation"],
        ),
        ("Beregn middelverdien k̄.", []),
    ],
)
def test_a_judgement_is_named_in_the_languages_of_lab_sheets(task: str, asked: list[str]) -> None:
    assert judgements(task) == asked
