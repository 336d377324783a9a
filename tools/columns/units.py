"""Units as lab files write them: in column headers (`V_R (V)`, `V_R [V]`, `freq_Hz`, `T/K`,
`电压(V)`), in parameter keys (`L_nominal_mH`, `ch1_scale_V_per_div`) and after values
(`20MHz`, `10 mH`); and the units of fitted parameters derived from their columns' units.

Only units are split off a name (the spellings this module knows, and the units pint reads
as written, tools.columns.unit_library), except in square brackets, which are unit notation by
convention (`Intensity [arb. units]`): a name such as `Voltage (CH1)` keeps its
parentheses, `V_in/V_out` and `I/O` their slashes.
"""

from __future__ import annotations

import re

from labscribe.tools.columns.unit_library import library_unit

# SI prefixes as they are typed: "u" for micro is what an ASCII keyboard gives.
_PREFIXES = ("da", "Y", "Z", "E", "P", "T", "G", "M", "k", "h", "d", "c", "m", "u", "µ", "μ",
             "n", "p", "f", "a")  # fmt: skip
# Units that take an SI prefix ("mH", "kHz", "µs"), with how they are written back.
_PREFIXABLE = {
    "Hz": "Hz", "V": "V", "Vpp": "Vpp", "Vrms": "Vrms", "Vpk": "Vpk", "A": "A", "App": "App",
    "Arms": "Arms", "s": "s", "m": "m", "g": "g", "K": "K", "W": "W", "J": "J", "N": "N",
    "Pa": "Pa", "F": "F", "H": "H", "Ω": "Ω", "ohm": "Ω", "Ohm": "Ω", "ohms": "Ω", "T": "T",
    "S": "S", "Wb": "Wb", "L": "L", "mol": "mol", "cd": "cd", "lx": "lx", "eV": "eV",
    "bar": "bar", "C": "C", "rad": "rad", "sec": "s", "l": "L", "M": "M",
}  # fmt: skip
# Units that never take a prefix, spelled as files spell them, with their usual form.
_PLAIN = {
    "%": "%", "pct": "%", "percent": "%", "deg": "deg", "degree": "deg", "degrees": "deg",
    "°": "deg", "°C": "°C", "degC": "°C", "℃": "°C", "ppm": "ppm", "min": "min", "h": "h",
    # the degree as keyboards without one write it: the ordinal º of Spanish and Portuguese
    # keyboards, a blank after the sign, a letter o, the sign after the letter
    "C°": "°C", "Cº": "°C", "ºC": "°C", "° C": "°C", "oC": "°C",
    "°F": "°F", "ºF": "°F", "° F": "°F", "℉": "°F",
    # the ampere-second of German and Slovene texts (`e₀ = 1,602·10⁻¹⁹ As`)
    "As": "A·s",
    "mmHg": "mmHg", "mm Hg": "mmHg", "Torr": "Torr", "torr": "Torr", "inHg": "inHg",
    "rpm": "rpm", "counts": "counts", "cps": "cps", "a.u.": "a.u.", "au": "a.u.",
    "dB": "dB", "dBm": "dBm", "dBV": "dBV", "dBc": "dBc", "div": "div", "px": "px", "lm": "lm",
    # scale readings and counts labs write as their unit: an Italian `(punti)`, a German
    # scale's `Skt` (Skalenteile), `arb. units` in parentheses
    "punti": "punti", "punto": "punti", "Punkte": "Punkte", "pts": "pts", "Skt": "Skt",
    "Skt.": "Skt", "Skalenteile": "Skt", "divisions": "div",
    "arb. units": "arb. units", "arb. u.": "arb. u.", "arbitrary units": "arbitrary units",
}  # fmt: skip
# Units written as words (an oscilloscope's `second`, `Volt`), read case-blind.
_WORDS = {
    "second": "s", "seconds": "s", "volt": "V", "volts": "V", "ampere": "A", "amperes": "A",
    "amp": "A", "amps": "A", "hertz": "Hz", "ohm": "Ω", "ohms": "Ω", "newton": "N",
    "newtons": "N", "meter": "m", "meters": "m", "metre": "m", "metres": "m", "gram": "g",
    "grams": "g", "kelvin": "K", "watt": "W", "watts": "W", "joule": "J", "joules": "J",
    "pascal": "Pa", "farad": "F", "henry": "H", "coulomb": "C", "tesla": "T",
    "siemens": "S", "celsius": "°C", "deg c": "°C", "degc": "°C", "degree c": "°C",
    "degrees c": "°C", "degree celsius": "°C", "degrees celsius": "°C", "centimeters": "cm",
    "centimetres": "cm", "millimeters": "mm", "millimetres": "mm", "kilograms": "kg",
    "percent": "%", "minute": "min", "minutes": "min", "hour": "h", "hours": "h",
    "day": "d", "days": "d", "gauss": "Gs",
    # the languages of the handouts: "t in Sekunden", "en secondes", "en segundos"
    "sekunde": "s", "sekunden": "s", "seconde": "s", "secondes": "s", "segundo": "s",
    "segundos": "s", "secondo": "s", "secondi": "s", "minuten": "min", "minuto": "min",
    "minuti": "min", "minutos": "min", "stunde": "h",
    "stunden": "h", "metro": "m", "metri": "m", "metros": "m", "mètre": "m", "mètres": "m",
    "metern": "m", "gramm": "g", "gramas": "g", "gramos": "g", "grammi": "g", "grammes": "g",
    "kilogramm": "kg", "quilogramas": "kg", "kilogramos": "kg", "centímetros": "cm",
    "centimetros": "cm", "zentimeter": "cm", "centimètres": "cm", "milímetros": "mm",
    "millimeter": "mm", "millimètres": "mm",
    "grad celsius": "°C", "degré celsius": "°C", "degrés celsius": "°C", "grados celsius": "°C",
    "graus celsius": "°C", "gradi celsius": "°C", "stopni celsjusza": "°C",
    "stupňů celsia": "°C", "stupně celsia": "°C", "градусов цельсия": "°C",
    # an angle's degree: "kot[stopinja]", "ángulo (grados)", "угол, градусы"
    "degree": "deg", "stopinja": "deg", "stopinj": "deg", "stopinje": "deg", "stopień": "deg",
    "stopnie": "deg", "stopni": "deg", "stupeň": "deg", "stupně": "deg", "stupňů": "deg",
    "grad": "deg", "grado": "deg", "grados": "deg", "graus": "deg", "gradi": "deg",
    "градус": "deg", "градусы": "deg", "градусов": "deg",
}  # fmt: skip
# The units of Russian (and Ukrainian, Bulgarian) handouts, in Cyrillic letters: "U_34 (мВ)".
_CYRILLIC = {
    "с": "s", "мс": "ms", "мкс": "µs", "мин": "min", "ч": "h", "м": "m", "мм": "mm",
    "см": "cm", "км": "km", "мкм": "µm", "нм": "nm", "В": "V", "мВ": "mV", "кВ": "kV",
    "мкВ": "µV", "А": "A", "мА": "mA", "мкА": "µA", "Ом": "Ω", "кОм": "kΩ", "МОм": "MΩ",
    "Тл": "T", "мТл": "mT", "Гц": "Hz", "кГц": "kHz", "МГц": "MHz", "К": "K", "°С": "°C",
    "г": "g", "кг": "kg", "Н": "N", "Дж": "J", "Вт": "W", "мВт": "mW", "Па": "Pa",
    "кПа": "kPa", "Ф": "F", "мкФ": "µF", "нФ": "nF", "пФ": "pF", "Гн": "H", "мГн": "mH",
    "Кл": "C", "Вб": "Wb", "мВб": "mWb",
}  # fmt: skip
# The units of Chinese handouts, written in characters: "n = 24000 匝/米", "U = 4 伏".
_CHINESE = {
    "秒": "s", "毫秒": "ms", "微秒": "µs", "分钟": "min", "小时": "h", "米": "m", "毫米": "mm",
    "厘米": "cm", "千米": "km", "公里": "km", "微米": "µm", "纳米": "nm", "伏": "V", "伏特": "V",
    "毫伏": "mV", "安": "A", "安培": "A", "毫安": "mA", "微安": "µA", "欧": "Ω", "欧姆": "Ω",
    "千欧": "kΩ", "赫": "Hz", "赫兹": "Hz", "千赫": "kHz", "克": "g", "千克": "kg", "公斤": "kg",
    "毫克": "mg", "牛": "N", "牛顿": "N", "焦": "J", "焦耳": "J", "瓦": "W", "瓦特": "W",
    "帕": "Pa", "千帕": "kPa", "开": "K", "开尔文": "K", "摄氏度": "°C", "特斯拉": "T",
    "毫特": "mT", "法拉": "F", "微法": "µF", "亨利": "H", "库仑": "C",
}  # fmt: skip
# A count per unit: the turns of a coil per metre ("24000 匝/米", "Windungen/m") are 1/m.
_COUNTS = frozenset({"匝", "圈", "turns", "windungen", "tours", "spire", "vueltas", "zwojów",
                     "závitů", "витков", "витка"})  # fmt: skip
# A spelled-out unit with a spelled-out prefix: "Mikrosekunden", "millivolts", "kilohertz".
_SPELLED_PREFIXES = {"milli": "m", "mikro": "µ", "micro": "µ", "nano": "n", "kilo": "k"}
# Charge and energy as battery cyclers write them: mA.h, A.h, W.h.
_HOURS = re.compile(r"^(?P<base>[mkµu]?[AW])\.?h$")
# Lower-case spellings that are unambiguous ("hz" is Hz, "vpp" is Vpp); "mhz" is left out on
# purpose, since it could be milli or mega.
_LOWER = {"hz": "Hz", "khz": "kHz", "vpp": "Vpp", "vrms": "Vrms", "ohm": "Ω", "kohm": "kΩ",
          "db": "dB", "deg": "deg", "rad": "rad", "pct": "%", "ms": "ms", "us": "µs"}  # fmt: skip
_SIEMENS = re.compile(r"[munpkuµμ]S")
# A one-letter unit after an underscore ("temperature_C", "time_s") is split off a name this
# long; after a shorter name only these letters are units ("t_s", "x_m", "U_V", "T_K"): in
# "V_C", "I_A" or "V_H" the letter names a component, a channel or an effect.
_SHORT_UNIT_NAME = 3
_SHORT_NAME_UNITS = frozenset({"s", "m", "V", "K"})
_POWERED = re.compile(r"[a-zA-Z]\d$")  # `m3`, `s2`: a unit to a power, as keys write it
_BRACKETED = re.compile(
    r"^(?P<name>.*?)\s*(?P<open>[\[(（【{])\s*(?P<unit>[^\[\]()（）【】{}]{1,24}?)\s*[\])）】}]\s*$"
)
# One level of parentheses inside the unit's: `k (W/(m·K))`.
_NESTED = re.compile(r"^(?P<name>.*?)\s*\((?P<unit>[^()]{0,12}\([^()]{1,12}\)[^()]{0,6})\)\s*$")
_SLASHED = re.compile(r"^(?P<name>.*\S)\s*/\s*(?P<unit>[^/\s]{1,12})$")
# A unit that holds a slash itself after a spaced one: CASSY's `zeitliche Ableitung / rad/s`.
_SPACED_SLASH = re.compile(r"^(?P<name>[^/]*\S)\s+/\s+(?P<unit>[^\s/][^\s]{0,11}/[^\s]{1,8})$")
# A unit in parentheses followed by a mark of its own: `Oxygen (%) (P)`.
_NOTED = re.compile(r"^(?P<name>.*?)\s*\((?P<unit>[^()]{1,24})\)\s*(?P<note>\([^()]{1,24}\))$")
# The graph a LabVIEW export names after each column: `Frequency(Hz) - Plot 0`.
_PLOT_SUFFIX = re.compile(r"\s+-\s+Plot\s+\d+$")
# A condition in parentheses after a name and its unit: `U_therm1/microVolt(50celsius)`.
_TRAILING_NOTE = re.compile(r"^(?P<head>.*\S)\s*\((?P<note>[^()]{1,24})\)$")
# Superscript exponents as headers type them (`m·s⁻²`, `cm⁻¹`), read as the caret notation
# the rest of labscribe and pint read (`m·s^-2`); `²` and `³` alone are read as they stand.
_SUPERSCRIPTS = re.compile(r"[⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_SUPERSCRIPT_DIGITS = str.maketrans("⁺⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "+-0123456789")
# A `t` in a mass's or a load's header is the tonne (`weight (t)`, `Last in t`); elsewhere
# a `t` is a time's symbol (`x/t`), no unit.
_MASS_NAME = re.compile(r"weight|\bwt\b|mass|load|tonnage|gewicht|\blast\b|peso|poids|重|质量|载",
                        re.IGNORECASE)  # fmt: skip
# Names of temperatures and heating, whose `C` is degrees Celsius; and a `C` standing alone.
_TIME_NAME = re.compile(r"^t$|^t[_ ]|time|zeit|temps|tiempo|tempo|dauer|时间|incubat", re.I)
_TEMPERATURE_NAME = re.compile(r"temp|heat|therm|cool|theta|°|温|[θϑ]", re.I)
_BARE_C = re.compile(r"(?<![\w°])C(?!\w)")
# DIN 1313's `T in K`, a German `Spannung in V`; a table's `Temperature, °C`.
_IN = re.compile(r"^(?P<name>\S.*?)\s+in\s+(?P<unit>\S.{0,23})$")
_COMMA = re.compile(r"^(?P<name>[^,]*[^,\s])\s*,\s*(?P<unit>[^,\s][^,]{0,23})$")
_PER = re.compile(r"^(?P<name>.+)_(?P<top>[^_]+)_per_(?P<bottom>[^_]+)$")
# A unit written as an inverse: `1/K`, `nm^-1`, `cm-1`.
_INVERSE_UNIT = re.compile(r"^(?:1/(?P<per>[^/·^\s-]+)|(?P<power>[^/·^\s\d-]+)\^?-1)$")
_VALUE = re.compile(
    r"^(?P<number>[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?)\s*(?P<unit>\S.{0,15})?$"
)


_POWER_PREFIXES = {-15: "f", -12: "p", -9: "n", -6: "µ", -3: "m", 3: "k", 6: "M", 9: "G"}


def canonical(token: str) -> str | None:
    """The usual spelling of the unit `token` names ("kohm" -> "kΩ", "us" -> "µs"), or None
    if it is not a unit this module knows. Products and quotients of known units count
    ("V/div", "m/s^2", "mA/V")."""
    token = token.strip()
    if not token or len(token) > 24:
        return None
    if "/" in token:
        counted, _, under = token.partition("/")
        if counted.strip().lower() in _COUNTS and (per := canonical(under)) is not None:
            return f"1/{per}"
        parts = [canonical(part) for part in token.split("/")]
        return "/".join(parts) if all(parts) else None  # type: ignore[arg-type]
    # a unit scaled by a power of ten as a column's header writes it: `Ae-12` is pA
    scaled = re.fullmatch(r"(?P<base>[A-Za-zΩ]+)[eE](?P<exp>[-+]?\d{1,2})", token)
    if scaled and (prefix := _POWER_PREFIXES.get(int(scaled["exp"]))) is not None:
        base = canonical(scaled["base"])
        if base is not None and base in _PREFIXABLE.values():
            return f"{prefix}{base}"
    power = re.fullmatch(r"(?P<base>.+?)(?P<exp>\^?-?[0-9]|²|³)", token)
    if power and (base := canonical(power["base"])):
        return base + power["exp"]
    if token in _PLAIN:
        return _PLAIN[token]
    if token in _CYRILLIC:
        return _CYRILLIC[token]
    if token in _CHINESE:
        return _CHINESE[token]
    if token in _PREFIXABLE:
        return _PREFIXABLE[token]
    if _SIEMENS.fullmatch(token):  # `mS`, `µS`: siemens, not the `ms` of _LOWER
        return ("µ" if token[0] in "uμ" else token[0]) + "S"
    if token.lower() in _LOWER:
        return _LOWER[token.lower()]
    if token.lower() in _WORDS:
        return _WORDS[token.lower()]
    for spelled, prefix in _SPELLED_PREFIXES.items():
        base = _WORDS.get(token.lower().removeprefix(spelled))
        if token.lower().startswith(spelled) and base in _PREFIXABLE.values():
            return prefix + base
    if hours := _HOURS.match(token):
        return f"{canonical(hours['base'])}·h"
    for prefix in _PREFIXES:
        rest = token[len(prefix) :]
        if token.startswith(prefix) and rest in _PREFIXABLE:
            return ("µ" if prefix in ("u", "μ") else prefix) + _PREFIXABLE[rest]
    if token.endswith(".") and len(token) > 2:  # an abbreviation's full stop: `deg.`, `sec.`
        return canonical(token[:-1])
    return None


# UN/CEFACT Recommendation 20's codes, as a unit column of a data system writes them (`KGM`,
# `MTR`, `SEC`); read only in such a column, since `AMP` or `MIN` heads other columns.
_UNECE = {
    "SEC": "s", "C26": "ms", "MTR": "m", "CMT": "cm", "MMT": "mm", "KMT": "km", "4H": "µm",
    "MTK": "m²", "MTQ": "m³", "CMK": "cm²", "CMQ": "cm³", "MMK": "mm²", "MMQ": "mm³",
    "DMQ": "dm³", "LTR": "L", "MLT": "mL", "MIN": "min", "HUR": "h", "KVT": "kV", "KWT": "kW",
    "MHZ": "MHz", "KGM": "kg", "GRM": "g", "MGM": "mg",
    "NEW": "N", "PAL": "Pa", "KPA": "kPa", "BAR": "bar", "JOU": "J", "WTT": "W", "VLT": "V",
    "AMP": "A", "4K": "mA", "OHM": "Ω", "HTZ": "Hz", "KHZ": "kHz", "CEL": "°C", "KEL": "K",
    "FAR": "F", "HEN": "H", "D33": "T", "MTS": "m/s", "MSK": "m/s²", "DD": "°", "C81": "rad",
}  # fmt: skip


def unit_code(token: str) -> str | None:
    """The unit a unit column's cell names: a unit (`canonical`), or a UN/CEFACT code."""
    return canonical(token) or _UNECE.get(token.strip().upper())


def unit_word(token: str) -> str | None:
    """The unit `token` spells out as a word (`Second`, `Volt`, `hertz`), else None."""
    return _WORDS.get(token.strip().lower())


_FIRST_POWER = re.compile(r"[^\W\d_]{1,3}1")


def known_unit(token: str) -> str | None:
    """The unit `token` names: its usual spelling when this module knows it (`canonical`),
    else as written when pint reads it as a unit (`kg m^-3`, `psi`); None if it names none."""
    if _FIRST_POWER.fullmatch(token.strip()):
        return None  # `F1`, `R1`: a name numbered 1, never a unit to the first power
    if (spelled := re.fullmatch(r"\s*in\s+(\S.*)", token)) is not None:
        return known_unit(spelled[1])  # "(in Hz)" says where the unit is, not inch·hertz
    if re.search(r"[⁻⁺⁰¹⁴-⁹]", token):
        token = _SUPERSCRIPTS.sub(lambda m: "^" + m[0].translate(_SUPERSCRIPT_DIGITS), token)
    found = canonical(token) or library_unit(token, _is_known, _PREFIXABLE_SYMBOLS)
    if found is None and re.fullmatch(r"[A-Z][a-z]{2,}", token.strip()):
        return canonical(token.strip().lower())  # a German noun's capital: `Bar`, `Volt`
    return found


def _unit_of(name: str, written: str) -> str | None:
    """The unit `written` beside the column `name`: a known unit, or the tonne's `t` (or
    `T`, as inventory exports write it) beside a mass's name."""
    if written.strip() in ("t", "T") and _MASS_NAME.search(name):  # no tesla of a weight
        return "t"
    if written.strip() == "d" and _TIME_NAME.search(name):  # `Time (d)`: days, as BOD tests
        return "d"
    if written.strip().lower() == "grad" and _TEMPERATURE_NAME.search(name):
        return "°C"  # `Temperatur in Grad`: German degrees of temperature, not of angle
    return known_unit(written)


def _is_known(word: str) -> bool:
    return canonical(word) is not None


_PREFIXABLE_SYMBOLS = frozenset(_PREFIXABLE.values())


_EMPTY_UNIT = re.compile(r"\s*(?:\(\s*\)|\[\s*\])$")


def split_unit(header: str) -> tuple[str, str]:
    """(name, unit) of a column header or a parameter key; unit "" when none is written.

    `V_R (V)`, `V_R [V]`, `d {cm}`, `V_R_V`... -> ("V_R", "V"); `freq_Hz` -> ("freq", "Hz");
    `T/K`, `T / K`, `T in K` -> ("T", "K"); `Temperature, °C` -> ("Temperature", "°C");
    `电压（V）` -> ("电压", "V"); `ch1_scale_V_per_div` -> ("ch1_scale", "V/div");
    `V_R`, `V_in/V_out`, `I/O` -> (header, ""); `air valve control ()` -> ("air valve
    control", "").
    """
    text = _PLOT_SUFFIX.sub("", " ".join(header.split())) or " ".join(header.split())
    if (bare := _EMPTY_UNIT.sub("", text)) != text and bare:
        return bare, ""  # `air valve control ()`: a logger's place for a unit it has none for
    if match := _BRACKETED.match(text):
        unit = _unit_of(match["name"], match["unit"])
        name = re.sub(r"(?:\s+in|\s*/)$", "", match["name"])  # `T in [K]`, `DSC/(uV/mg)`
        if name and (unit or match["open"] == "["):
            return name, _celsius(name, unit or match["unit"])
    if (match := _NOTED.match(text)) and (unit := known_unit(match["unit"])):
        return f"{match['name']} {match['note']}", unit  # `Oxygen (%) (P)`: a sensor's mark
    for pattern in (_NESTED, _SPACED_SLASH, _SLASHED, _IN, _COMMA):
        if (match := pattern.match(text)) and (unit := _unit_of(match["name"], match["unit"])):
            return match["name"], _celsius(match["name"], unit)
    if (match := _PER.match(text)) and (unit := canonical(f"{match['top']}/{match['bottom']}")):
        return match["name"], unit
    name, _, last = text.rpartition("_")
    unit = canonical(last) if name else None
    if unit and (compound := _compound_suffix(name, last, unit)) is not None:
        return compound
    if unit and (len(last) > 1 or len(name) >= _SHORT_UNIT_NAME or last in _SHORT_NAME_UNITS):
        return name, _celsius(name, unit)  # `room_temperature_C` is in degrees Celsius
    if (match := _TRAILING_NOTE.match(text)) and not known_unit(match["note"]):
        name, unit = split_unit(match["head"])  # `U_therm1/microVolt(50celsius)`
        if unit:
            return f"{name} ({match['note']})", unit
    return text, ""


def _compound_suffix(name: str, last: str, unit: str) -> tuple[str, str] | None:
    """(name, unit) of a key whose unit is written over its last two `_` parts, or None when
    only the last part is its unit. `alpha_per_K` is in K^-1 and `lines_per_mm` in mm^-1;
    a powered unit after a unit divides it, as such keys are written (`density_kg_m3` in
    kg/m3, `g_m_s2` in m/s2); two units otherwise (`viscosity_Pa_s`, `speed_km_h`) read as
    a product or a quotient alike, so the key keeps them and no unit is claimed."""
    head, _, before = name.rpartition("_")
    if not head:
        return None
    if before.lower() == "per":
        return head, f"{unit}^-1"
    first = canonical(before)
    if first is None:
        return None
    if _POWERED.search(last):
        return head, f"{first}/{unit}"
    return (f"{name}_{last}", "") if len(before) > 1 else None


def _celsius(name: str, unit: str) -> str:
    """`unit` with a bare `C` read as degrees Celsius where the name is a temperature's or a
    heating's (`Temperature (C)`, `Heating Rate (C/s)`), not coulombs."""
    if "C" not in unit or not _TEMPERATURE_NAME.search(name):
        return unit
    return _BARE_C.sub("°C", unit)


def split_value(text: str) -> tuple[float | None, str]:
    """(number, unit) of a written value: "20MHz" -> (20.0, "MHz"); "10 mH" -> (10.0, "mH");
    "47" -> (47.0, ""); text that is not a number, or a number followed by
    words that are not a unit ("100 V film"), gives (None, "")."""
    match = _VALUE.match(text.strip())
    if match is None:
        return None, ""
    unit = ""
    if match["unit"]:
        unit = canonical(match["unit"]) or ""
        if not unit:
            return None, ""
    try:
        return float(match["number"].replace(",", ".")), unit
    except ValueError:
        return None, ""


def product(y: str, x: str, power: int = 1) -> str:
    """The unit of y/x**power (`power` < 0: y·x**-power); "" parts drop out, so a slope of
    volts against a unitless index is in V and a rate against seconds in 1/s."""
    if not x or power == 0:
        return y
    if x == y and power == 1:
        return ""  # a slope of 1/b against 1/g in cm^-1 is a pure number
    if inverted := _INVERSE_UNIT.match(x):
        # against an inverse (nm^-1, a wavenumber's cm-1, 1/K): y·nm, not y/nm^-1
        return product(y, inverted["per"] or inverted["power"], -power)
    x_part = x if abs(power) == 1 else f"{x}^{abs(power)}"
    if power < 0:
        return f"{y}·{x_part}" if y else x_part
    return f"{y}/{x_part}" if y else f"1/{x_part}"


# A frequency fitted against time is in hertz: what a report quotes, not "1/ms".
_INVERSE_TIME = {"s": "Hz", "ms": "kHz", "µs": "MHz", "ns": "GHz"}


def inverse(x: str) -> str:
    """The unit of 1/x, with 1/s written Hz (and 1/ms kHz, 1/µs MHz)."""
    return _INVERSE_TIME.get(x) or product("", x)
