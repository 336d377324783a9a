"""The symbols and units a handout gives the columns of a file that has no header, by their
place: "kolumna 1: a_d [mm]", "Spalte 2: U in V", "the first column is the time t (s), the
second the voltage U (V)", "Первый столбец — B (Тл), второй — U_34 (мВ)", "two columns:
R_2 [Ω] and the slider's position a [mm]". Such columns are read under those symbols, with
those units, so that the task's words and formulas find them and their fits carry units.

A description in a line that lists a file by its name (tools.columns.stated_units) is that file's;
one in a paragraph or item that names no file is every headerless table's with as many
columns as it describes, and one that names files is theirs (and, past a "…", that of
files named like them). A column is given the symbol the description writes right before
its unit in brackets (or "in" a unit): the words before it say what it is.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from labscribe.tools.columns.column import Column, pair_uncertainties
from labscribe.tools.columns.counting import counting_name
from labscribe.tools.columns.stated_units import listing
from labscribe.tools.columns.units import known_unit

_COLUMN = (
    r"(?:columns?|kolumn(?:erna|er|en|[aiy])?|kolonn(?:er|en|e)?|spalten?|colonnes?|columnas?"
    r"|colonn[ae]|kolom(?:men)?"
    r"|столб(?:ец|ца|цы|цов)|sloup(?:ec|ce|ců))"
)
_ORDINALS = {
    1: r"first|erste|premi[eè]re|primera|prima|pierwsz[aey]|перв(?:ый|ая|ое)|prvn[íi]|eerste",
    2: r"second|zweite|deuxi[eè]me|seconde|segunda|seconda|drug[aie]|втор(?:ой|ая|ое)|druh[ýá]"
    r"|tweede",
    3: r"third|dritte|troisi[eè]me|tercera|terza|trzeci[ae]?|трет(?:ий|ья|ье)|t[řr]et[íi]|derde",
    4: r"fourth|vierte|quatri[eè]me|cuarta|quarta|czwart[aey]|четв[её]рт(?:ый|ая|ое)|čtvrt[ýá]"
    r"|vierde",
}
_PLACE = re.compile(
    rf"\b{_COLUMN}\s*(?P<number>[1-9])\b\s*(?:[:=–—-]+|\bis\b|\bist\b)?"
    + "".join(rf"|\b(?P<o{n}>{words})\b(?:\s+{_COLUMN}\b)?" for n, words in _ORDINALS.items()),
    re.IGNORECASE,
)
_COLUMN_WORD = re.compile(rf"\b{_COLUMN}", re.IGNORECASE)
_COUNTED = re.compile(
    rf"\b(?:two|three|four|zwei|drei|vier|deux|trois|quatre|dos|tres|cuatro|due|tre|quattro"
    rf"|dwie|trzy|cztery|две|два|три|четыре|dva|dvě|tři|čtyři|twee|drie|vier|två|fyra|to|fire"
    rf"|[2-4])\s+{_COLUMN}"
    r"\b[^:\n]{0,40}:\s*(?P<list>[^\n.]+)",
    re.IGNORECASE,
)
# "and" in the handouts' languages (Czech's and Slovak's `a` too, not the symbol a before
# its unit; an English article `a` leaves an empty item, which is skipped)
# The columns listed after the word and a colon, parted by semicolons.
# ("Kolumny:", "Kolejne kolumny to:", "The columns are:")
_LISTED = re.compile(
    rf"\b{_COLUMN}\b(?:\s+\w+){{0,2}}\s*[:：]\s*(?P<list>[^\n]*;[^\n]*)", re.IGNORECASE
)
_EXPRESSION = re.compile(r"[−+*^²³]|\w\s*-\s*\w")  # not `/`: "courant d'obscurité / offset"
_NUMBERED = re.compile(r"^\s*[1-9]\s*[=:.)]\s*")
_NEXT_SENTENCE = re.compile(r"\.\s+(?=[A-ZÀ-ÝА-ЯŁŚŻŹĆ])")  # not the stop of `Lp.;`
_WORDS_UNIT = re.compile(
    r"(?P<words>[^\W\d][^\[\]()]{0,40}?)\s*[\[(](?P<unit>[^\[\](),]{1,12})(?:,[^\[\]()]*)?[\])]"
)
_AND = re.compile(
    r"\s*(?:,|;|\band\b|\boraz\b|\bi\b|\bund\b|\bet\b|\by\b|\be\b|\bи\b|\ben\b|\boch\b|\bog\b"
    r"|\ba\b(?!\s*[\[(/]))\s*"
)
# Paragraphs and the items of a list: a description of columns holds within one.
_BREAKS = re.compile(r"\n\s*\n|\n\s*(?=[-*•]\s|\\item\b|\d{1,2}[.)]\s)")
_FILE = re.compile(r"[\w+-]+(?:\.[\w+-]+)*\.[A-Za-z]\w{1,4}\b")
_DIGITS = re.compile(r"\d+")
_RUN = re.compile(r"…|\.\.\.|\\dots|\\ldots")
# A letter: no digit, and no superscript or subscript digit (`²` is a word character)
_ALPHA = r"[^\W\d_\u00b2\u00b3\u00b9\u2070-\u209f]"
_SYMBOL = rf"(?P<symbol>{_ALPHA}(?:_\{{?\w{{1,6}}\}}?)?)"
# What marks a symbol as an uncertainty in prose: fewer marks than a header's
# (tools.columns.column), since `d_a` and `dx` in a sentence are a distance and a difference.
_MARK = r"(?:σ|sigma|u|Δ|δ)_\{?"
# "incertezza su G", "uncertainty of G", "Unsicherheit von G", "niepewność G", "σ_n"
_UNCERTAINTY_OF = re.compile(
    r"\b(?:incertezz[ae]|uncertaint(?:y|ies)|unsicherheit|fehler|incertitude|incertidumbre"
    r"|error|niepewno\w*|погрешност\w*)\s+(?:su|of|von|de|sur|del?|dla|на)?\s*"
    + rf"(?:{_MARK})?"
    + _SYMBOL
    + r"(?![\w(])"
    + rf"|(?<![\w.]){_MARK}(?P<of>[^\W\d_]\w{{0,5}})\}}?(?!\w)",
    re.IGNORECASE,
)
_ALONE = re.compile(rf"(?<![\w.(\[]){_SYMBOL}(?=\s*(?:=|[,;.()\[]|$))")
# One-letter words that are no symbols: the articles and conjunctions of the handouts.
_LETTER_WORDS = frozenset("aeiouyàèéwzoAEIOUY")
_LETTER = re.compile(rf"(?<![\w'’.(\[]){_ALPHA}(?:_\w{{1,6}})?(?![\w'’])")
_SENTENCE_END = re.compile(r"\.\s|\n\s*\n|;")
_WITH_UNIT = re.compile(
    rf"(?<![\w.]){_SYMBOL}\s*(?:[\[(](?P<unit>[^\[\]()]{{1,12}})[\])]"
    r"|\s+in\s+(?P<word>[^\s,;]+)|\s*/\s*(?P<slash>[^\s,;()]+))"
)


def column_positions(columns: list[Column], text: str, source: str) -> None:
    """Name the headerless `columns` of the file `source` as the handout `text` describes
    them by place, and give each the unit it states where the file states none."""
    if not columns or any(c.header.strip() and not _PLACEHOLDER.match(c.header) for c in columns):
        return  # a file's own names stand; `x-data`, `y-data` and `Column 1` name nothing
    text = _LIST_AFTER_COLON.sub(_one_line, text.replace("\\_", "_"))
    for chunk in paragraphs_about(text, source):
        described = next((d for d in _described(chunk) if len(d) == len(columns)), None)
        if described is None and _FILE.search(chunk):  # "`1_v.txt`, …: t [s], avvikelse [m]"
            described = next((d for d in _units_listed(chunk) if len(d) == len(columns)), None)
        if described is not None:
            for column, pair in zip(columns, described, strict=True):
                if pair is None:
                    continue
                symbol, unit = pair
                if not any(c.name == symbol for c in columns):
                    column.name = symbol
                column.unit = column.unit or unit
            pair_uncertainties(columns)  # σ_λ beside λ gives its uncertainty
            return


# Headers a program writes where it knows no name: `x-data`, `y-data`, `Column 1`.
_PLACEHOLDER = re.compile(
    r"^\s*(?:[xyz][-_ ]?(?:data|values?|axis)|col(?:umn)?[-_ ]?\d+|untitled(?:[-_ ]?\d+)?)\s*$",
    re.IGNORECASE,
)
# The columns listed one an item after the word and a colon: "Kolejne kolumny to:\n1. Lp.;\n
# 2. liczba zwojów N;\n3. prąd I [mA]; …", read as the one line "…: Lp.; liczba zwojów N; …".
_LIST_AFTER_COLON = re.compile(
    rf"(?P<head>\b{_COLUMN}\b[^\n:]{{0,40}}:)[ \t]*\n(?P<items>(?:[ \t]*(?:\d{{1,2}}[.)]|[-*•])"
    r"[ \t]+[^\n]+(?:\n|$))+)",
    re.IGNORECASE,
)
_ITEM_MARK = re.compile(r"^\s*(?:\d{1,2}[.)]|[-*•])\s+")


def _one_line(match: re.Match[str]) -> str:
    items = [_ITEM_MARK.sub("", line).strip().rstrip(";,.") for line in match["items"].splitlines()]
    return f"{match['head']} {'; '.join(i for i in items if i)}\n"


def paragraphs_about(text: str, source: str) -> list[str]:
    """The lines that list the file `source` by name, then the paragraphs and items of
    `text` that may describe it (_about)."""
    name = PurePosixPath(source).name
    chunks = (*listing(text, name), *_BREAKS.split(text))
    return [chunk for chunk in chunks if _about(chunk, name)]


def _about(chunk: str, name: str) -> bool:
    """Whether a paragraph or item may describe the file `name`: it names no file, names
    it, or names a run of files like it ("`0-3A.txt`, …, `1-0A.txt`")."""
    named = _FILE.findall(chunk)
    if not named or name in named:
        return True
    shape = _DIGITS.sub("0", name)
    return _RUN.search(chunk) is not None and any(_DIGITS.sub("0", n) == shape for n in named)


# A file's header line quoted, then what its columns are, in order: "`# x y z` = Position x
# [cm], Messuhr ohne Gewicht b₁ [mm], Messuhr mit Gewicht b₂ [mm]".
_HEADER_LINE = re.compile(r"`#?\s*(?P<names>[^`\n]+)`\s*[=:]\s*(?P<list>[^\n]+)")
_SUBSCRIPTS = str.maketrans({chr(0x2080 + d): f"_{d}" for d in range(10)})


def header_line_described(columns: list[Column], text: str) -> None:
    """Name the `columns` of a file whose header line the handout `text` quotes with what
    each column is ("`# x y z` = Position x [cm], Messuhr ohne Gewicht b₁ [mm], …") by the
    symbols and units it writes, where it describes every column."""
    headers = [c.header.strip() for c in columns]
    for match in _HEADER_LINE.finditer(text.replace("\\_", "_")):
        if re.split(r"[\s,;]+", match["names"].strip()) != headers:
            continue
        listed = _NEXT_SENTENCE.split(match["list"].translate(_SUBSCRIPTS), maxsplit=1)[0]
        items = [_symbol_and_unit(i) or _words_and_unit(i.rstrip(".")) for i in _AND.split(listed)
                 if i.strip()]  # fmt: skip
        if len(items) != len(columns) or not all(items):
            continue
        for column, (symbol, unit) in zip(columns, items, strict=True):  # type: ignore[misc]
            if not any(c.name == symbol for c in columns if c is not column):
                column.name = symbol
            column.unit = column.unit or unit
        return


def _described(text: str) -> list[list[tuple[str, str] | None]]:
    """The descriptions `text` gives of a file's columns, each the (symbol, unit) of every
    column in order, None for one it numbers without a symbol and unit: by number or
    ordinal ("kolumna 1:", "second column"), and as a list after a count ("two columns:
    ..."; "První tři řádky …, dále dva sloupce: čas t [s] a síla F [mN]" has both, the
    first of rows); none where `text` names no column by that word."""
    if _COLUMN_WORD.search(text) is None:
        return []  # "the first run (10 min), the second ...": no column named
    places = [(m, _place(m)) for m in _PLACE.finditer(text)]
    places = [(m, n) for m, n in places if n is not None]
    found: dict[int, tuple[str, str]] = {}
    for i, (match, number) in enumerate(places):
        end = places[i + 1][0].start() if i + 1 < len(places) else len(text)
        part = _SENTENCE_END.split(text[match.end() : end], maxsplit=1)[0]
        pair = _symbol_and_unit(part) or _words_and_unit(part, whole=False)
        if number not in found and pair is not None:
            found[number] = pair
    described: list[list[tuple[str, str] | None]] = []
    if found:  # "Spalte 1 = Anzahl der Impulse, Spalte 2 = Zeitpunkt t in s"
        described.append([found.get(n) for n in range(1, max(n for _, n in places) + 1)])
    for counted in _COUNTED.finditer(text):  # "två kolumner: t [s], vinkel [rad]"
        items = [_symbol_and_unit(item) or _words_and_unit(item)
                 for item in _AND.split(counted["list"]) if item]  # fmt: skip
        if len(items) >= 2 and all(items):
            described.append(items)
    for listed in _LISTED.finditer(text):  # "Kolumny: Lp.; liczba zwojów N; prąd I [mA]; …"
        parts = _NEXT_SENTENCE.split(listed["list"], maxsplit=1)[0].split(";")
        parts = [_NUMBERED.sub("", part, count=1) for part in parts]  # "1 = longueur d'onde (m)"
        items = [
            None
            if _EXPRESSION.search(i.split("[")[0])
            else (_counter(i) or _symbol_and_unit(i) or _words_and_unit(i))
            for i in parts
        ]  # `(B_i − B₀)² [(µT)²]` is worked out of others: a column left unnamed
        if len(items) >= 2 and sum(item is not None for item in items) * 2 > len(items):
            described.append(items)
    return described


_REMARK = re.compile(r"\s*\((?=[^()]*[=±])[^()]*\)")


def _units_listed(text: str) -> list[list[tuple[str, str] | None]]:
    """The runs of two or more items in a row that each write a quantity and its unit in
    brackets ("t [s], pendelns avvikelse [m], drivningsenhetens läge [m]"): in a line that
    names a file without a word for "column", its columns in order."""
    runs: list[list[tuple[str, str] | None]] = []
    for sentence in _NEXT_SENTENCE.split(_FILE.sub(" ", text)):
        runs.append([])
        # the list after the line's colon, without remarks in brackets ("… a T = 12, 25,
        # 43 °C: corrente I [mA] (ΔI = 0,1 mA), potenza P [µW]")
        sentence = _REMARK.sub("", sentence.rsplit(":", 1)[-1])
        for item in _AND.split(sentence):
            item = item.strip().rstrip(".")
            pair = _symbol_and_unit(item)
            pair = pair if pair and pair[1] else _words_and_unit(item)
            if pair is None:
                runs.append([])
            else:
                runs[-1].append(pair)
    return [run for run in runs if len(run) >= 2]


def _words_and_unit(item: str, *, whole: bool = True) -> tuple[str, str] | None:
    """A column listed by its words and unit (`kąt wychylenia w lewo [°]`), named by them;
    not `whole`, the words before a unit that more words follow ("kolumn 2 viktens
    avvikelse från jämviktsläget [m] (fri svängning)")."""
    match = (_WORDS_UNIT.fullmatch if whole else _WORDS_UNIT.match)(item.strip())
    unit = known_unit(match["unit"].strip()) if match else None
    return None if match is None or unit is None else (" ".join(match["words"].split()), unit)


def _counter(item: str) -> tuple[str, str] | None:
    """A column listed by the name of a row counter (`Lp.`, `No.`, `Nr`), as that name."""
    name = item.strip().rstrip(".")
    return (name, "") if name and counting_name(name) else None


def _place(match: re.Match[str]) -> int | None:
    if match["number"]:
        return int(match["number"])
    return next((n for n in _ORDINALS if match[f"o{n}"]), None)


def _symbol_and_unit(text: str) -> tuple[str, str] | None:
    """The first symbol written right before a unit in brackets, "in" one or after a slash
    (`I / µA`), with that unit; else an uncertainty's (σ_G of "incertezza su G",
    "uncertainty of G"), or a symbol that stands alone or before its definition ("guadagno
    G = |V_o|/|V_i|"), or the one letter among the words ("indice di rifrazione n ricavato
    ..."), without a unit. A file's name (`a.txt`) names no column."""
    text = _FILE.sub(" ", text)
    for match in _WITH_UNIT.finditer(text):
        written = match["unit"] or (match["word"] or match["slash"] or "").rstrip(".")
        unit = known_unit(written.strip())
        if unit is not None:
            return _plain(match["symbol"]), unit
    if of := _UNCERTAINTY_OF.search(text):
        return f"σ_{_plain(of['symbol'] or of['of'])}", ""
    if alone := _ALONE.search(text):
        return _plain(alone["symbol"]), ""
    letters = [t for t in _LETTER.findall(text) if t not in _LETTER_WORDS]
    return (letters[0], "") if len(letters) == 1 else None


def _plain(symbol: str) -> str:
    return symbol.replace("{", "").replace("}", "")
