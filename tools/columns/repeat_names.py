"""How labs name repeated timings: columns numbered as runs (`1st run (second)`, `Run 2`,
`Messung 3`, `prova 4`), and the number of swings each timing spans as the handout states
it ("the time for 10 complete oscillations", "die Zeit für 10 Schwingungen").
"""

from __future__ import annotations

import re

_RUN_WORDS = (r"runs?|trials?|attempts?|measurements?|messung(?:en)?|versuch|durchgang|"
              r"prova|misura|ensayo|medida|medición|essai|mesure|tentativo")  # fmt: skip
RUN_NAME = re.compile(
    rf"(?:^|\s)(?:\d+\s*(?:st|nd|rd|th|\.)?\s*(?:{_RUN_WORDS})|(?:{_RUN_WORDS})\s*(?:no\.?\s*)?"
    rf"#?\d+)(?:\s|$|\()",
    re.IGNORECASE,
)
_SWINGS = re.compile(
    r"(?:time|zeit|tempo|tiempo|temps|durée|dauer)\s+(?:for|of|für|von|di|de|per|des|du)\s+"
    r"(?:the\s+|den\s+|le\s+)?(?P<n>[1-9]\d?)\s+(?:complete\s+|full\s+|vollständige[n]?\s+|"
    r"volle[n]?\s+|complete\s+)?(?:oscillations|swings|periods|schwingungen|perioden|"
    r"oscillazioni|oscilaciones|périodes|periodi|periodos)",
    re.IGNORECASE,
)


def stated_swings(text: str) -> int | None:
    """How many swings the handout says each timing spans ("the time for 10 complete
    oscillations" gives 10); None where it says none or several."""
    plain = re.sub(r"[*_`]", "", text)  # Markdown's emphasis: "**10 complete oscillations**"
    numbers = {int(m["n"]) for m in _SWINGS.finditer(plain)}
    return numbers.pop() if len(numbers) == 1 and min(numbers) >= 2 else None
