"""A handout's lettered, numbered and roman lists are read whole: every item of a list of
tasks is a task, whatever verb it opens with (a question, "Combine ...", a French infinitive),
"i." "ii." open items as "(i)" does, and the French and Spanish analysis headings
("Exploitation", "Travail à effectuer", "Análisis de datos") head tasks.

Wording from outside: the Regents review sheet of St Mary's (stmary.ws, "Part C graphing",
lettered a)-d)), the Tizi-Ouzou first-year mechanics TP sheet ("7. Travail à effectuer",
fr.scribd.com/document/682052617/GC-05) and the eval folders' layouts (an exercise lettered
"a." to "d." with a question as c., a Markdown handout numbering "i." to "iv.")."""

from __future__ import annotations

from pathlib import Path

import pytest

from labscribe.tools.assignment.handout_units import Unit
from labscribe.tools.assignment.task_lists import list_runs, mark_kind, task_lists
from labscribe.tools.assignment.tasks import assignment_of, find_assignment

HANDOUTS = Path(__file__).parents[2] / "data" / "real" / "handouts"


def test_a_lettered_exercise_keeps_its_question_and_its_unfamiliar_verb() -> None:
    text = (
        "Isotope exercise: the atomic weight of silver\n"
        "--------------------------------------------\n\n"
        "The file holds both series as two blocks (24 runs each).\n\n"
        "  a. Compute the mean and the standard deviation of each series.\n"
        "  b. Pool the two means into a weighted mean and give its uncertainty.\n"
        "  c. Are the two instruments consistent with each other? Quantify the difference.\n"
        "  d. Compare your result with the standard atomic weight, 107.8682 ± 0.0002.\n"
    )
    found = assignment_of(text, "exercise.txt")
    assert [task[:20] for task in found.tasks] == [
        "Compute the mean and",
        "Pool the two means i",
        "Are the two instrume",
        "Compare your result ",
    ]
    assert found.numbers == ["a", "b", "c", "d"]


def test_roman_items_with_a_dot_in_markdown_are_items_and_keep_their_questions() -> None:
    markdown = (
        "# Practical 3: Focal length of a converging lens\n\n"
        "**Aim**: determine the focal length of a thin lens.\n\n"
        "### Analysis\n\n"
        "i. For each object distance g, average the three image distances b.\n"
        "ii. Plot 1/b against 1/g and fit a straight line. The lens equation predicts a slope"
        " of −1: is your slope compatible with −1? Determine f from the intercept.\n"
        "iii. notes.md lists f from two other methods. Combine all three values of f.\n"
        "iv. Is the weighted mean consistent with the nominal focal length?\n"
    )
    found = assignment_of(markdown, "handout.md")
    assert found.numbers == ["i", "ii", "iii", "iv"]
    assert "is your slope compatible with −1? Determine f" in found.tasks[1]
    assert found.tasks[3] == "Is the weighted mean consistent with the nominal focal length?"


def test_a_french_exploitation_section_sets_its_infinitive_tasks() -> None:
    markdown = (
        "# TP O2 — Polarisation de la lumière : loi de Malus\n\n"
        "## But de la manipulation\n"
        "Vérifier la loi de Malus pour un faisceau laser polarisé.\n\n"
        "## Exploitation\n"
        "a) Pour chaque angle θ, calculer la moyenne des deux lectures du courant.\n"
        "b) Tracer I en fonction de cos²θ et ajuster une droite I = I0·cos²θ + Ib. En déduire"
        " I0 et le fond Ib.\n"
        "c) Ajuster directement la loi de Malus I(θ) = I0·cos²(θ − θ0) + Ib.\n"
        "d) Pour quel angle l'intensité vaut-elle la moitié de I0 ?\n"
    )
    found = assignment_of(markdown, "TP_Malus.md")
    assert found.numbers == ["a", "b", "c", "d"]
    assert found.tasks[1].startswith("Tracer I en fonction de cos²θ")
    assert found.aim == "Vérifier la loi de Malus pour un faisceau laser polarisé."
    assert not found.aim_is_opening
    assert find_assignment(["mesures.csv", "TP_Malus.md"]) == "TP_Malus.md"  # "TP" names it


def test_the_tizi_ouzou_travail_a_effectuer_sets_tasks_under_its_subheadings() -> None:
    # the layout and words of the Tizi-Ouzou mechanics sheet GC-05 (section 7), shortened
    text = (
        "7. Travail à effectuer\n\n"
        "7.1. Tracé de graphes :\n\n"
        "L'étude d'un mouvement rectiligne a donné les tableaux de mesures suivants :\n\n"
        "- Tracer les graphes donnant respectivement la position et la vitesse du mobile en"
        " fonction du temps.\n\n"
        "7.2. Incertitude et précision :\n\n"
        "Pour mesurer l'épaisseur d'un cylindre creux, on mesure les diamètres intérieur D1"
        " et extérieur D2 et on trouve :\n\n"
        "- Donner le résultat de la mesure et sa précision\n"
    )
    assert [task[:22] for task in assignment_of(text, "tp5.txt").tasks] == [
        "Tracer les graphes don",
        "Donner le résultat de ",
    ]


def test_the_regents_review_sheet_keeps_its_four_lettered_steps() -> None:
    text = (
        "Base your answers to questions a through d on the information, diagram, and data"
        " table below.\n\n"
        'a) Mark an appropriate scale on the axis labeled "Time for 10 Vibrations."\n'
        "b) Plot the data points for time for 10 vibrations versus length.\n"
        "c) Draw the bestfit curve.\n"
        "d) Determine the period of the 1.0 meter pendulum.\n"
    )
    found = assignment_of(text, "review.txt")
    assert found.numbers == ["a", "b", "c", "d"]
    assert found.tasks[2] == "Draw the bestfit curve."


def test_a_list_of_which_half_sets_work_is_a_list_of_tasks() -> None:
    def item(mark: str) -> Unit:
        return Unit("item", f"item {mark}", "", mark=mark)

    units = [item("a"), item("b"), item("c"), Unit("para", "Prose.", ""), item("1"), item("2")]
    assert list_runs(units) == [[0, 1, 2], [4, 5]]
    assert task_lists(units, [True, False, False, False, True, False]) == [5]
    assert task_lists(units, [True, False, True, False, False, False]) == [1]
    assert mark_kind("iv") == "roman" and mark_kind("v") == "" and mark_kind("-") == ""


@pytest.mark.parametrize(
    "name",
    ["labbinstruktion.md", "Uppgift_3.pdf", "oppgave2.txt", "labbhandledning.docx.md",
     "ohje_työ4.md", "실험과제.txt", "実験課題.md"],
)  # fmt: skip
def test_an_assignment_is_named_in_scandinavian_finnish_korean_and_japanese(name: str) -> None:
    assert find_assignment(["egenfrekvens.txt", "notes.md", name]) == name


def test_numbers_out_of_a_lists_order_are_an_equations_or_a_sections() -> None:
    text = (
        "1. Einleitung und Zielsetzung\n"
        "Gegenstand dieses Versuches ist die Absorption.\n"
        "2. Definition des Wirkungsquerschnittes, Ableitung des Absorptionsgesetzes\n"
        "Wenn ein Teilchenstrahl auf eine Schicht trifft, treten Wechselwirkungen auf.\n"
        "231\n"
        "3. Aufgabe\n"
        "a) Man bestimme den Absorptionskoeffizienten aus der Kurve.\n"
        "b) Man vergleiche ihn mit den aus (4a) und\n"
        "(5) gerechneten Werten.\n"
        "4. Hinweise zur Apparatur\n"
        "Die Apparatur ist in Abb. 8 dargestellt.\n"
    )
    found = assignment_of(text, "V704.txt")
    assert found.numbers == ["a", "b"]
    assert found.tasks == [
        "Man bestimme den Absorptionskoeffizienten aus der Kurve.",
        "Man vergleiche ihn mit den aus (4a) und (5) gerechneten Werten.",
    ]
    # a list numbered in order stays a list, whatever stands between its items
    listed = assignment_of(
        "Tasks\n1. Measure the period.\nUse the stopwatch.\n2. Fit a line to T² against L.\n",
        "lab.txt",
    )
    assert listed.tasks == ["Measure the period. Use the stopwatch.", "Fit a line to T² against L."]


def test_a_courses_coded_items_are_tasks_whatever_their_words() -> None:
    """Politechnika Gdańska's M7 (tests/data/real/handouts): M7.1 to M7.3 open with a verb,
    M7.4 and M7.5 stand under their bold code alone, in noun form ("Wyznaczanie …")."""
    tasks = assignment_of(
        (HANDOUTS / "pg_m7_sprezyny_excerpt.tex").read_text(), "assignment.tex"
    ).tasks
    assert [task.split()[0] for task in tasks] == ["M7.1", "M7.2", "M7.3", "M7.4", "M7.5"]
    assert tasks[3] == "M7.4 Wyznaczanie współczynnika sprężystości sprężyn połączonych równolegle"
    # a paragraph opening with the code is one too; section numbers are no course's code
    coded = "**M7.1** Wyznaczyć k.\n\nM7.2 Porównanie wyników z teorią.\n"
    assert assignment_of(coded, "lab.md").tasks == [
        "M7.1 Wyznaczyć k.",
        "M7.2 Porównanie wyników z teorią.",
    ]
    numbered = "1.1 Measure the period.\n\n1.2 The apparatus is a spring on a stand.\n"
    assert assignment_of(numbered, "lab.txt").tasks == ["Measure the period."]


def test_a_posters_questions_between_its_commands_are_tasks() -> None:
    """An Italian optics lab's task poster (tests/data/real/handouts), its bullets lost to
    pdftotext: the questions between its commands are tasks, and its infinitives are
    commands ("Derivare", "Scegliere"); a question between two paragraphs of theory is not."""
    poster = (HANDOUTS / "diffrazione_poster_consegna.txt").read_text()
    tasks = assignment_of(poster, "consegna.txt").tasks
    assert [task.split()[0] for task in tasks] == [
        "Determinare", "Confrontare", "Derivare", "Quali", "E’", "Scegliere", "N.B.", "Facoltativo:"
    ]  # fmt: skip
    theory = (
        "Measure the period of the pendulum for five lengths.\n\n"
        "The period grows with the length of the string.\n\n"
        "Why should it not depend on the mass?\n\n"
        "It depends on g alone, as Galileo found.\n\n"
        "Plot T² against L and find g from the slope.\n"
    )
    assert "Why should it not depend on the mass?" not in assignment_of(theory, "lab.txt").tasks
