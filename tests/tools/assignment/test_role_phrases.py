"""How an assignment's sentences name its axes, whatever the language: which quantity is
plotted against which, the words a handout uses for a symbol, what a sentence asks for
(tools.assignment.role_phrases, tools.analysis.data_facts)."""

from __future__ import annotations

import pytest

from labscribe.tools.analysis.data_facts import words_in, words_of
from labscribe.tools.assignment.role_phrases import asked_objects, glossary, pairings


@pytest.mark.parametrize(
    ("sentence", "response", "predictor"),
    [
        ("Plot the period T against the length L.", "period T", "length L"),
        ("Plot U vs. I, then fit a line.", "U", "I"),
        ("Make a graph of the voltage versus the time.", "voltage", "time"),
        ("Show V_R as a function of the driving frequency f.", "V_R", "driving frequency f"),
        ("Investigate the dependence of the current I on the voltage U.", "current I",
         "voltage U"),
        ("Tragen Sie die Periodendauer T gegen die Pendellänge L auf.", "Periodendauer T",
         "Pendellänge L"),
        ("Trage T über L auf und bestimme g.", "T", "L"),
        ("Stellen Sie U in Abhängigkeit von I dar.", "U", "I dar"),
        ("作 T-L 图，求重力加速度 g。", "T", "L"),
        ("以 1/(dQ/dt) 对 1/P 作线性回归，求截距和斜率。", "1/(dQ/dt)", "1/P"),
        ("Tracer la période T en fonction de la longueur L.", "période T", "longueur L"),
        ("Put the length on the horizontal axis.", "", "length"),
        ("Represente la distancia d frente al cuadrado de v² y ajuste una recta.",
         "Represente la distancia d", "cuadrado de v²"),
        ("Riportare la densità ottica in funzione della quantità di carboidrato e interpolare.",
         "Riportare la densità ottica", "quantità di carboidrato"),
        ("Faça o gráfico de V em função da corrente I.", "Faça o gráfico de V", "corrente I"),
        ("Plot sqrt(E) against Z.", "sqrt(E)", "Z"),  # a call keeps its bracket
        ("Narysuj moc P w funkcji napięcia U.", "Narysuj moc P", "napięcia U"),
        ("Sporządź wykres charakterystyki I(U) dla każdego ogniwa.", "I", "U"),
        ("Narysuj charakterystykę prądowo-napięciową I(U).", "I", "U"),
        # a second plot after "and" ends the first one's predictor
        ("Plot I against U and the power P = U·I as a function of the voltage.", "I", "U"),
    ],
)  # fmt: skip
def test_pairings_read_which_quantity_is_against_which(
    sentence: str, response: str, predictor: str
) -> None:
    found = pairings(sentence)
    assert (found[0].response, found[0].predictor) == (response, predictor)


def test_pairings_read_a_chinese_axis_each() -> None:
    found = pairings("以摆长 L 为横坐标，周期 T 为纵坐标作图。")
    assert [(p.response, p.predictor) for p in found] == [("", "摆长 L"), ("周期 T", "")]


@pytest.mark.parametrize(
    ("sentence", "pairs"),
    [
        # a characteristic named by its axes, the response first
        ("画 V_H–I_M 和 V_H–I_S 曲线，用最小二乘法计算斜率 K", [("V_H", "I_M"), ("V_H", "I_S")]),
        ("作出 Vout–B 关系曲线，并取线性范围内的数据", [("Vout", "B")]),
        ("画 B–x 图，描述 B 的分布", [("B", "x")]),
        ("作T~L图", [("T", "L")]),
        ("Measure the I–V curve of the diode.", [("I", "V")]),
        ("Zeichnen Sie die U-I-Kennlinie der Solarzelle.", [("U", "I")]),
        # eval14's Japanese and Swedish handouts
        ("2 回の測定それぞれについて I_P–V_ACC グラフを描け。", [("I_P", "V_ACC")]),
        ("極大の次数 n に対する V_n の直線回帰からも V_E を求めよ。", [("V_n", "n")]),
        ("Anpassa ett samband l(U) (linjärt och potens).", [("l", "U")]),
        # hyphenated words before a plot name no axes
        ("Make a log-log plot and draw the best-fit curve.", []),
        ("Show the data in an x-y plot.", []),
        # Brazil's axes by a times sign (Unicamp F229 handouts), never a product of numbers
        (
            "ajustar uma reta f × n e, a partir do coeficiente angular, determinar v",
            [("f", "n")],
        ),
        ("Faça o gráfico temperatura × tempo com incertezas.", [("temperatura", "tempo")]),
        ("Faça o gráfico ln(R) × 1/T.", [("ln(R)", "1/T")]),
        ("uma placa de 2 × 10 cm", []),
        # German's verb after the axis ends it (TU Dortmund V103's beam bending)
        (
            "Für jeden Messsatz D gegen den jeweiligen Linearisierungsterm auftragen und eine "
            "lineare Regression D = a·u + c durchführen.",
            [("Für jeden Messsatz D", "Linearisierungsterm")],
        ),
        ("Tragen Sie T gegen L auf und bestimmen Sie g.", [("T", "L")]),
        # the fit asked before the response, the data it is of after the predictor (a
        # crossover filter's phases, Chiarass/Crossover_filter)
        (
            "fare un fit lineare della fase misurata in funzione della frequenza per i canali "
            "AI1 e AI2 (circuito resistivo)",
            [("fase misurata", "frequenza")],
        ),
        (
            "Make a linear fit of the voltage against the current for channels A and B.",
            [("voltage", "current")],
        ),
    ],
)
def test_pairings_read_a_curve_named_by_its_axes(sentence: str, pairs: list) -> None:
    assert [(p.response, p.predictor) for p in pairings(sentence)] == pairs


def test_pairings_ignore_ueber_where_it_is_no_axis() -> None:
    assert pairings("Messen Sie die Spannung über dem Widerstand.") == []


def test_glossary_reads_the_words_a_handout_uses_for_a_symbol() -> None:
    text = (
        "You measure the period T of a pendulum for the length L of its string. The law "
        "e U = h c/λ holds; a figure of the phase versus f. 摆长 L 与周期T。"
    )
    found = glossary(text)
    assert found["T"] >= {"period"} and found["L"] >= {"length", "摆长"}
    assert "e" not in found  # a symbol that goes on into a formula is used, not named
    assert "f" not in found  # "the phase versus f" names nothing


def test_asked_objects_stop_at_what_the_sentence_gives() -> None:
    assert asked_objects("From a, determine the gravitational acceleration g.") == [
        " the gravitational acceleration g."
    ]
    assert asked_objects("Use the known value of g to determine L using the formula.") == [" L "]


def test_a_remark_in_brackets_after_an_axis_is_no_part_of_it() -> None:
    from labscribe.tools.assignment.role_phrases import pairings

    (pairing,) = pairings("Plot ln p versus 1/T (T in kelvin!) and fit a straight line.")
    assert (pairing.response, pairing.predictor) == ("ln p", "1/T")
    (call,) = pairings("Plot sqrt(E) against Z.")
    assert call.response == "sqrt(E)"


@pytest.mark.parametrize(
    ("sentence", "response", "predictor"),
    [
        ("Для каждого тока I построить зависимость U_34(B) и найти наклон.", "U_34", "B"),
        ("Построить график K(I) и по его наклону найти R_H.", "K", "I"),
        # a function of its variable after the verb that plots it, in French and Spanish
        ("Tracer ω_x(t) et repérer l'instant du lâcher.", "ω_x", "t"),
        ("Graficar V(t) para la carga y la descarga.", "V", "t"),
        ("Построить зависимость напряжения U от тока I.", "напряжения U", "тока I"),
        ("Wykonać wykres zależności U od I.", "U", "I"),
        # Masaryk University's Czech handouts, with and without the noun "závislost"
        (
            "Sestrojte graf závislosti prodloužení drátu Δl na celkové hmotnosti závaží.",
            "prodloužení drátu Δl",
            "celkové hmotnosti závaží",
        ),
        (
            "Pro každý nosník sestrojte graf průhybu y na celkové hmotnosti závaží.",
            "průhybu y",
            "celkové hmotnosti závaží",
        ),
    ],
)
def test_russian_and_polish_dependences_pair_the_axes(
    sentence: str, response: str, predictor: str
) -> None:
    assert [(p.response, p.predictor) for p in pairings(sentence)] == [(response, predictor)]


def test_an_example_in_brackets_ends_no_sentence() -> None:
    """ "one tube (e.g. 37.5 cm) against frequency" (Kansas's tube resonance handout): the
    axes are the response against frequency, not "5 cm"."""
    from labscribe.tools.assignment.role_phrases import pairings, sentences

    text = "Plot the microphone response of one tube (e.g. 37.5 cm) against frequency."
    assert sentences(text) == [text]
    (pairing,) = pairings(text)
    assert (pairing.response, pairing.predictor) == ("microphone response of one tube", "frequency")


def test_a_word_is_not_cut_at_its_umlaut() -> None:
    """`Leitfähigkeit` was `leitf` and `higkeit`, which `Grenzleitfähigkeit` holds too."""
    assert "leitfähigkeit" in words_of("Leitfähigkeit")
    assert not words_of("Leitfähigkeit") & words_in("die Grenzleitfähigkeit Λ₀ bestimmen")
    assert words_of("Größe f_2") >= {"größe"}
