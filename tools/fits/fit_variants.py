"""The words by which a task names a variant of its fit, in the languages handouts are
written in: a straight line, with an intercept or through the origin, both series of a
heating and cooling run together, a background subtracted, one column and not another
(tools.assignment.task_fit reads a task with them)."""

from __future__ import annotations

import re

STRAIGHT = frozenset({"linear", "proportional"})
# A straight line named in words, whatever other model words the task uses ("the decay
# constant ... from a weighted straight-line fit").
STRAIGHT_WORDS = re.compile(
    r"straight[- ]?line|line of best fit|\b\w*geraden?\b|直线|\bdroite\b|\brecta\b", re.IGNORECASE
)
INTERCEPT = re.compile(
    r"\bwith (?:an? )?(?:intercept|offset|constant term)|\bnot (?:forced )?through the origin|"
    r"\bmit (?:einem |dem )?achsenabschnitt|\bavec (?:une )?ordonnée à l'origine|"
    r"\bcon (?:término independiente|ordenada en el origen)|带截距|有截距",
    re.IGNORECASE,
)
ORIGIN = re.compile(
    r"through the origin|\bno (?:constant|intercept|offset)(?: term)?|without (?:an? )?"
    r"(?:intercept|constant|offset)|ursprungsgerade|durch den (?:koordinaten)?ursprung|"
    r"ohne achsenabschnitt|passant par l'origine|por el origen|过原点|通过原点|正比|"
    r"per l['’]origine|pela origem|przez pocz[aą]tek|počátkem",
    re.IGNORECASE,
)
_UP = (
    r"heating|warming|rising|increasing|upward|\bup\b|aufheiz|erwärm|aufwärts|montée|"
    r"chauffage|calentamiento|升温"
)
_DOWN = (
    r"cooling|falling|decreasing|downward|\bdown\b|abkühl|abwärts|descente|refroidissement|"
    r"enfriamiento|降温"
)
BOTH_SERIES = re.compile(
    rf"(?:{_UP})[^.;。]{{0,40}}?(?:and|und|et|y|和|与|、)\s*(?:{_DOWN})|"
    rf"(?:{_DOWN})[^.;。]{{0,40}}?(?:and|und|et|y|和|与|、)\s*(?:{_UP})|"
    r"\b(?:mean|average) of (?:both|the two) (?:series|runs|sets|measurements)|"
    r"\bmittelwert (?:aus|der) beiden|\bmoyenne des deux|\bmedia de (?:ambas|las dos)|"
    r"两次测量的平均|"
    # both series pooled: "serie 1 e serie 2 insieme", "beide Messreihen zusammen"
    r"\b(?:series|serie|série|reihe) ?1 (?:and|e|und|et|y) (?:series |serie |série |reihe )?2 "
    r"(?:together|pooled|insieme|zusammen|ensemble|juntas|juntos)|"
    r"\b(?:both|all) (?:the )?(?:series|runs) (?:together|pooled)|\bentrambe le serie|"
    r"\bbeide(?:n)? (?:mess)?reihen zusammen|\bles deux séries ensemble|\bambas as séries",
    re.IGNORECASE,
)
CORRECTED = re.compile(
    r"\bsubtract\w*\b[^.;]{0,30}\bbackground|\bbackground[- ](?:corrected|subtracted)|"
    r"\bcorrected (?:counts|rate|count rate)|\bnet (?:counts|count rate)|"
    r"\buntergrund\w* ab(?:ziehen|gezogen)|\bnullrate abziehen|"
    r"\bsoustra\w+ (?:le )?(?:bruit de )?fond|"
    r"\brest\w+ (?:el )?fondo|扣除本底|减去本底",
    re.IGNORECASE,
)
CORRECTED_COLUMN = re.compile(r"corr|net|bg|background|abzgl|本底|净", re.IGNORECASE)
NOT_THE = re.compile(
    r"\((?:not|nicht|pas|no) (?:the |die |den |der |le |la |el )?(?P<a>[^)]{2,40})\)|"
    r"\b(?:rather than|instead of|statt|anstelle) (?:the |der |des |dem )?(?P<b>\w+(?: \w+)?)",
    re.IGNORECASE,
)
