"""Parameter files (INI, JSON, YAML, TOML, `key = value` or `key: value` text) read into
rows of section, key, value, unit and comment.

The standard library and PyYAML parse; this module only flattens what they return and
finds units, from key suffixes (`L_nominal_mH`, `tolerance_pct`, `scale_V_per_div`) or
after the value (`20MHz`). configparser drops comments, so they are picked from the lines:
a comment line applies to the keys below it, up to a blank line or the next section.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import tomllib
from typing import Any

import yaml
from pydantic import BaseModel

from labscribe.tools.base import ToolError, cannot_read
from labscribe.tools.columns.units import split_unit, split_value
from labscribe.tools.formats.encoding import SNIFF_BYTES, text_encoding
from labscribe.tools.tool import Folder

PARAMETER_SUFFIXES = frozenset(
    {".ini", ".cfg", ".conf", ".par", ".json", ".yaml", ".yml", ".toml", ".txt"}
)
# A parameter file is a page or two of settings; 256 KiB is thousands of them.
MAX_PARAMETER_BYTES = 256 * 1024
MAX_ROWS = 400  # per file: more is a data dump, not the settings a report quotes
MAX_VALUE_CHARS = 200
MAX_DEPTH = 6  # nesting flattened into dotted sections; deeper values are shown as JSON
# Text (.txt) counts as a parameter file only when most of its lines are settings: a lab
# log also has colons ("13:05 start").
MIN_TEXT_SETTINGS = 3
TEXT_SETTING_SHARE = 0.7
# A list or range of numbers as a value (`[1.75e-05, 1.95e-05]` read as `1.75e-05, 1.95e-05`):
# the unit its key states is theirs.
_NUMBERS = re.compile(
    r"^\s*[-+−]?\d[\d.eE+\-−]*(?:\s*(?:,|;|\.\.\.|…|–|\bto\b)\s*[-+−]?\d[\d.eE+\-−]*)+\s*$"
)
_KEY = re.compile(r"^[^\W\d][\w .()/%-]{0,47}$")  # starts with a letter; a name, not a sentence
_TOP = "__top__"  # configparser's section for settings before any [section]


class NoParameters(ToolError):
    """The file was read, but holds no settings."""


class ParameterRow(BaseModel):
    source: str
    section: str = ""
    key: str
    """As the file writes it: `R_nominal_ohm`."""
    name: str
    """The key without its unit: `R_nominal`."""
    value: str
    number: float | None = None
    unit: str = ""
    comment: str = ""
    tolerance: str = ""
    """The tolerance or uncertainty the file states beside the value, with its unit: `5 %`."""
    said_of: str = ""
    """The handout's sentence that states it, where that sentence names data files
    (“`14aufgabe.csv` — … Impulse N in t = 5 s”): the value is theirs alone."""

    def shown(self) -> str:
        """The value as the file writes it, with its unit where the file wrote it apart
        (`47 Ω`, `1.75e-05, 1.95e-05 K^-1`; `20MHz` as written) and its tolerance
        (`3977 K ± 0.75 %`)."""
        text = self.value
        numbers = self.number is not None or _NUMBERS.match(text) is not None
        written = _TRAILING_ASIDE.sub("", text)  # `93.3 nF (Toleranz nicht angegeben)`
        if numbers and self.unit and not written.replace(" ", "").endswith(self.unit):
            text = f"{text} {self.unit}"
        return f"{text} ± {self.tolerance}" if self.tolerance else text


# A remark in brackets after a value and its unit, as a lab's settings file adds one.
_TRAILING_ASIDE = re.compile(r"\s+\([^()]*\)\s*$")


def yaml_data(text: str) -> Any:
    """The data of a YAML text, aliases refused: an alias (`*name`) repeats a node without
    its bytes, so nine aliases a level for ten levels make 531 bytes a billion values that
    anything walking them takes hours over (the "billion laughs"). Raises yaml.YAMLError."""
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            raise yaml.YAMLError("the YAML repeats nodes by aliases (*name), which are not read")
    return yaml.safe_load(text)


def read_parameters(folder: Folder, rel: str) -> list[ParameterRow]:
    """The settings in the file `rel` names, read through the path guard and `Folder.open`
    from its first MAX_PARAMETER_BYTES. Raises ToolError if it cannot be read and
    NoParameters if it holds no settings."""
    text = _text(folder, rel)
    suffix = os.path.splitext(rel)[1].lower()
    try:
        if suffix == ".json":
            pairs = _flatten(json.loads(text))
        elif suffix in (".yaml", ".yml"):
            pairs = _flatten(yaml_data(text))
        elif suffix == ".toml":
            pairs = _flatten(tomllib.loads(text))
        else:
            # configparser's option pattern backtracks through each run of blanks: bounded
            # runs keep a 256 KB line linear, and no value a report quotes has such a run
            pairs = _ini_pairs(_BLANK_RUN.sub(" " * MAX_BLANKS, text), strict_keys=suffix == ".txt")
    except (ValueError, yaml.YAMLError, RecursionError, configparser.Error) as exc:
        raise NoParameters(f"{rel} is not a readable {suffix[1:]} file: {exc}"[:300]) from exc
    if not pairs:
        raise NoParameters(f"{rel} holds no settings")
    comments = _comments(text)
    rows = []
    for section, key, value in pairs[:MAX_ROWS]:
        name, key_unit = split_unit(key)
        number, value_unit = split_value(value)
        if number is None:  # `0.993 bar   (Atmosphärendruck, zu Versuchsbeginn gemessen)`
            number, value_unit = split_value(_TRAILING_ASIDE.sub("", value))
        rows.append(
            ParameterRow(
                source=rel, section=section, key=key, name=name,
                value=value[:MAX_VALUE_CHARS], number=number, unit=value_unit or key_unit,
                comment=comments.get((section, key), ""),
            )
        )  # fmt: skip
    return rows


def _text(folder: Folder, rel: str) -> str:
    target = folder.resolve(rel)
    try:
        with os.fdopen(folder.open(target), "rb") as raw:
            size = os.fstat(raw.fileno()).st_size
            data = raw.read(min(size, MAX_PARAMETER_BYTES))
    except OSError as exc:
        raise cannot_read(rel, exc) from exc
    codec = text_encoding(data[:SNIFF_BYTES], at_eof=len(data) >= size, name=rel)
    text = data.decode(codec, errors="replace")
    return text[: text.rfind("\n") + 1] if len(data) < size else text


def _flatten(tree: Any, section: str = "", depth: int = 0) -> list[tuple[str, str, str]]:
    """(section, key, value) of every leaf of parsed JSON, YAML or TOML; nested tables
    become dotted sections, lists of plain values one comma-separated value."""
    if not isinstance(tree, dict):
        return []
    rows: list[tuple[str, str, str]] = []
    for key, value in tree.items():
        inner = f"{section}.{key}" if section else str(key)
        if isinstance(value, dict) and depth < MAX_DEPTH:
            rows += _flatten(value, inner, depth + 1)
        elif isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
            rows.append((section, str(key), ", ".join(_plain(v) for v in value)))
        elif isinstance(value, list) and depth < MAX_DEPTH:
            for i, item in enumerate(value):
                rows += _flatten(item, f"{inner}[{i}]", depth + 1)
        else:
            rows.append((section, str(key), _plain(value)))
        if len(rows) >= MAX_ROWS:
            break
    return rows


def _plain(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    return json.dumps(value, default=str, ensure_ascii=False)[:MAX_VALUE_CHARS]


def _ini_parser() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(
        delimiters=("=", ":"),
        comment_prefixes=("#", ";", "//"),
        inline_comment_prefixes=(";", "#"),
        strict=False,
        interpolation=None,
        default_section="\x00",  # no section is special: [DEFAULT] is read as written
    )
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    return parser


def _ini_pairs(text: str, *, strict_keys: bool) -> list[tuple[str, str, str]]:
    """(section, key, value) of INI or `key = value` text. For .txt (`strict_keys`), lines
    that are not settings count against the file: a log or a note is not a settings file."""
    parser = _ini_parser()
    try:
        parser.read_string(f"[{_TOP}]\n{text}")
        failed = 0
    except configparser.ParsingError as exc:  # raised after the whole text was read
        failed = len(exc.errors)
    pairs = [
        ("" if section == _TOP else section, key, value or "")
        for section in parser.sections()
        for key, value in parser.items(section, raw=True)
    ]
    if strict_keys:
        good = [pair for pair in pairs if _KEY.match(pair[1])]
        # a short file of settings alone (`c_accepted = 299792.458 km/s` and one more, with
        # comments) is one, however few they are
        only = bool(good) and failed == 0 and len(good) == len(pairs)
        few = len(good) < MIN_TEXT_SETTINGS and not only
        if few or len(good) < TEXT_SETTING_SHARE * (len(pairs) + failed):
            return []
        pairs = good
    return pairs


_SECTION_LINE = re.compile(r"^\s*\[(?P<name>[^\]]+)\]\s*$")
# The key takes the blanks before `=` (stripped where it is used): a lazy key beside `\s*`
# would try every split of a long run of blanks, quadratic in its length.
_SETTING_LINE = re.compile(r"^\s*(?P<key>[^=:#;\s][^=:]*)[=:]\s*(?P<rest>.*)$")
MAX_BLANKS = 16
_BLANK_RUN = re.compile(rf"[ \t]{{{MAX_BLANKS + 1},}}")
_INLINE_COMMENT = re.compile(r"\s[;#]\s*(?P<comment>.*)$")


def _comments(text: str) -> dict[tuple[str, str], str]:
    """The comment on each (section, key): written after its value, or on a comment line
    above it. Only comments are taken from the lines; the values come from the parsers."""
    found: dict[tuple[str, str], str] = {}
    section, above = "", ""
    for line in text.splitlines()[: 4 * MAX_ROWS]:
        stripped = line.strip()
        if not stripped:
            above = ""
        elif match := _SECTION_LINE.match(line):
            section, above = match["name"].strip(), ""
        elif stripped.startswith(("#", ";", "//")):
            above = stripped.lstrip("#;/ ").strip()
        elif match := _SETTING_LINE.match(line):
            inline = _INLINE_COMMENT.search(match["rest"])
            note = inline["comment"].strip() if inline else above
            if note:
                found[(section, match["key"].rstrip())] = note
    return found
