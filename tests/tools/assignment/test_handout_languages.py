"""Task lists as Danish, Norwegian, Swedish, Japanese and Korean lab handouts write them (the
headings of eval14's courses: "Opgaver", "Oppgaver" with 1.1-numbered sub-tasks, "Uppgifter"
beside the "Frågeställningar" they answer, "課題", "데이터 처리 (과제)"), and their bold words."""

import pytest

from labscribe.tools.assignment.handout_markup import markdown_handout
from labscribe.tools.assignment.requested import requested_model
from labscribe.tools.assignment.stated_values import stated_values
from labscribe.tools.assignment.task_words import asks
from labscribe.tools.assignment.tasks import assignment_of

DANISH = """# Røntgenfluorescens
## Formål
Vi bestemmer Ni-indholdet i to meteoritter.
## Opgaver
1. Plot de tre kalibreringsspektre.
2. Lav en lineær energikalibrering E(K) (mindste kvadraters metode) og angiv a og b.
"""
NORWEGIAN = """# Gammastråling
## Oppgaver
1. Tellestatistikk
   1.1 Lag et histogram av k for de 100 målingene.
   1.2 Beregn middelverdien og standardavviket.
2. Gammaspektroskopi
   2.1 Finn kanalnummeret for fotontoppen til Cs-137.
"""
SWEDISH = """# Torsionspendel
## Syfte
Att undersöka en dämpad och driven torsionspendel.
## Frågeställningar
1. Vad är torsionspendelns egenfrekvens?
2. Hur väl beskriver modellerna mätningarna?
## Uppgifter
1. Bestäm egenfrekvensen ω₀ ur svängningen.
2. Anpassa ett samband l(U) till dämpningen.
"""
JAPANESE = """# フランク・ヘルツの実験
## 目的
Ne の励起エネルギーを求める。
## 課題
1. 2 回の測定それぞれについて I_P–V_ACC グラフを描け。
2. 隣り合う極大の間隔から V_E を求めよ。
"""
KOREAN = """# RC 필터
## 실험 목적
주파수에 따른 **진폭비**와 **위상차**를 구한다.
## 데이터 처리 (과제)
1. 각 주파수에서 진폭비를 구하라.
2. Bode 선도를 그리고 차단 주파수를 결정하라.
"""


@pytest.mark.parametrize(
    ("handout", "first_words"),
    [
        (DANISH, ["Plot de tre", "Lav en lineær"]),
        (NORWEGIAN, ["Lag et histogram", "Beregn middelverdien", "Finn kanalnummeret"]),
        (SWEDISH, ["Bestäm egenfrekvensen", "Anpassa ett samband"]),
        (JAPANESE, ["2 回の測定それぞれに", "隣り合う極大の間隔か"]),
        (KOREAN, ["각 주파수에서 진폭비를", "Bode 선도를 그리고 "]),
    ],
)
def test_the_task_list_under_each_languages_heading(handout: str, first_words: list[str]) -> None:
    tasks = assignment_of(handout, "assignment.md").tasks
    assert [task[: len(words)] for task, words in zip(tasks, first_words, strict=False)] == (
        first_words
    ), tasks
    assert len(tasks) == len(first_words), tasks


def test_words_in_bold_run_into_korean_lose_their_stars_and_a_formula_keeps_them() -> None:
    lines = markdown_handout("주파수에 따른 **진폭비**와 y = b1*exp(-b2*x) **bold**.\n").lines
    assert lines[0].text == "주파수에 따른 진폭비와 y = b1*exp(-b2*x) bold."


@pytest.mark.parametrize(
    "task",
    [
        "Lav en lineær energikalibrering E(K) (mindste kvadraters metode).",
        "Anpassa ett linjärt samband l(U).",
        "極大の次数 n に対する V_n の直線回帰からも V_E を求めよ。",
    ],
)
def test_a_straight_line_asked_in_danish_swedish_and_japanese(task: str) -> None:
    request = requested_model(task)
    assert request is not None and request.shape == "linear"


def test_a_number_that_multiplies_a_root_states_no_value() -> None:
    # the Swedish handout's λ = 2√(Ik): λ is the unknown, 2 no value of it
    assert stated_values("där λ = 2√(Ik) och ω = 2π f, med g = 9,81 m/s².", "a.md")[0].name == "g"
    assert len(stated_values("där λ = 2√(Ik) och ω = 2π f.", "a.md")) == 0


@pytest.mark.parametrize(
    ("sentence", "command"),
    [
        ("Wyznaczyć współczynnik sprężystości wybranej sprężyny.", True),  # Polish infinitive
        ("Oblicz moduł sztywności materiału sprężyny.", True),
        ("M7.3 Obliczyć moduł sztywności materiału sprężyny.", True),  # after the item's code
        ("Určete tíhové zrychlení g z doby kmitu.", True),  # Czech
        ("Bestäm torsionspendelns egenfrekvens.", True),  # Swedish
        ("Beregn middelverdien og standardavviket.", True),  # Norwegian
        ("Bepaal de veerconstante uit de helling.", True),  # Dutch
        ("Найдите период колебаний маятника.", True),  # Russian
        ("Mål med laborationen är att mäta g.", False),  # a goal, not "measure"
        ("Ange- nommen die Schicht dx befinde sich an der Stelle x.", False),  # hyphenated
    ],
)
def test_commands_in_the_languages_of_northern_and_eastern_europe(
    sentence: str, command: bool
) -> None:
    assert asks(sentence) is command


def test_a_latex_handout_saved_as_markdown_is_read_as_latex() -> None:
    source = (
        "\\section{Wstęp}\nZajęcia polegały na pomiarze okresu drgań.\n\n"
        "\\textbf{M7.1} Wyznaczyć współczynnik sprężystości metodą statyczną.\\\\\n\n"
        "\\textbf{M7.2} Wyznaczyć współczynnik sprężystości metodą dynamiczną.\\\\\n\n"
        "\\textbf{M7.3} Obliczyć moduł sztywności materiału sprężyny.\\\\\n"
    )
    assert assignment_of(source, "zadania.md").tasks == [
        "M7.1 Wyznaczyć współczynnik sprężystości metodą statyczną.",
        "M7.2 Wyznaczyć współczynnik sprężystości metodą dynamiczną.",
        "M7.3 Obliczyć moduł sztywności materiału sprężyny.",
    ]
