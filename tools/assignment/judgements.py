"""What a task asks that no analysis of numbers does: a comparison, a discussion, a
derivation, a check, a plot in a form the report's figures do not take (error bars, one
graph for several series, logarithmic axes, a histogram), the values in SI units. Each is
named in the checklist as the student's, after the values the analysis gives."""

from __future__ import annotations

import re

# What a task asks that no analysis of numbers does, by the stem of its verb or noun
# ("compare", "comparison"; "derive", "derivation").
LOG_AXES = "the plot on logarithmic axes"
SI_UNITS = "the values in SI units"
JUDGEMENT = {
    "compar": "the comparison", "explain": "the explanation", "explan": "the explanation",
    "discuss": "the discussion", "deriv": "the derivation", "predict": "the prediction",
    "interpret": "the interpretation", "justif": "the justification",
    "propagat": "the propagation of uncertainties", "conclu": "the conclusion",
    "summar": "the summary", "比较": "the comparison", "解释": "the explanation",
    "讨论": "the discussion", "推导": "the derivation", "总结": "the summary",
    "compatib": "the judgement of compatibility", "verträglich": "the judgement of compatibility",
    "consisten": "the judgement of consistency", "agree": "the comparison",
    "相容": "the judgement of compatibility", "一致": "the comparison",
    # the same asks in the other languages of lab sheets (compar-, interpret-, conclu- above)
    "vergleich": "the comparison", "confront": "the comparison", "diskut": "the discussion",
    "discut": "the discussion", "erklär": "the explanation", "spieg": "the explanation",
    "expliqu": "the explanation", "explic": "the explanation", "herleit": "the derivation",
    "interprét": "the interpretation", "begründ": "the justification",
    "sammenlign": "the comparison", "jämför": "the comparison", "vergelijk": "the comparison",
    "porówn": "the comparison", "сравн": "the comparison", "forklar": "the explanation",
    "förklara": "the explanation", "verklaar": "the explanation", "bespreek": "the discussion",
    "обсуд": "the discussion", "объясн": "the explanation",
    # a check of a property the data may or may not have ("whether the last points stay on
    # the line"), which no value listed settles
    "check whether": "the check", "check if": "the check", "verify whether": "the check",
    "verify that": "the check", "prüfen sie, ob": "the check", "prüfen, ob": "the check",
    "vérifier si": "the check", "vérifier que": "the check", "valutare se": "the check",
    "verificare se": "the check", "controllare se": "the check", "comprobar si": "the check",
    "vurder om": "the check", "vurdér om": "the check", "bedöm om": "the check",
    "undersøk om": "the check", "undersök om": "the check",
    # what a plot must show that the report's figures (one table's points and fits) do not
    "error bar": "the plot with error bars", "fehlerbalken": "the plot with error bars",
    "barres d'erreur": "the plot with error bars", "barras de error": "the plot with error bars",
    "barre d'errore": "the plot with error bars", "误差棒": "the plot with error bars",
    "on one graph": "the plot of them on one graph", "same graph": "the plot of them on one graph",
    "same plot": "the plot of them on one graph", "même graphique": "the plot of them on one graph",
    "einem diagramm": "the plot of them on one graph",
    "mismo gráfico": "the plot of them on one graph",
    "stesso grafico": "the plot of them on one graph",
    "halblogarithm": LOG_AXES, "doppeltlogarithm": LOG_AXES, "logarithmische": LOG_AXES,
    "semi-log": LOG_AXES, "semilog": LOG_AXES, "log-log": LOG_AXES, "logarithmic ax": LOG_AXES,
    "logarithmic scale": LOG_AXES, "log scale": LOG_AXES, "échelle log": LOG_AXES,
    "papier log": LOG_AXES, "escala log": LOG_AXES, "scala log": LOG_AXES,
    "skali logarytm": LOG_AXES, "półlogarytm": LOG_AXES,
    "histogra": "the histogram", "istogramm": "the histogram",
    # the files' values in one system of units, which the report gives as the files do
    "si unit": SI_UNITS, "si-unit": SI_UNITS, "si-einheit": SI_UNITS, "unités si": SI_UNITS,
    "unidades si": SI_UNITS, "unidades do si": SI_UNITS, "unità si": SI_UNITS,
    "jednostkach si": SI_UNITS, "si-eenhe": SI_UNITS,
}  # fmt: skip
# Words that hold a stem of JUDGEMENT and ask for nothing: a regression's predictors.
NOT_JUDGEMENT = re.compile(r"predictors?\b|prädiktor\w*|prédicteurs?|predittor\w*")


def judgements(task: str) -> list[str]:
    """What `task` asks that no analysis of numbers does, each named once, in JUDGEMENT's
    order."""
    lowered = NOT_JUDGEMENT.sub("", task.lower())
    return list(dict.fromkeys(phrase for stem, phrase in JUDGEMENT.items() if stem in lowered))
