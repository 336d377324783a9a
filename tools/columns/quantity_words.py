"""The words labs name a measured quantity by, in several languages, keyed by the unit that
measures it (`Spannung`, `tensione` a voltage in V), and a unit without its SI prefix: a task
names a column by them (tools.fits.extreme_columns), and a column's name that names another
quantity than its unit's puts the unit in doubt (`POTENZIALE [mA]`)."""

from __future__ import annotations

import re
from functools import cache

# The quantities a column's unit measures, as tasks name them (the first English word names
# it in the report): English whole words; the
# words of other languages as the end of a word (German compounds: `Maximalkraft`), Chinese
# anywhere (`最大拉力`).
_TEMPERATURE = ("temperature", "temperatur 温度 temperatura température teplota температура")
QUANTITIES = {
    "N": ("force load", "kraft last 力 载荷 负荷 fuerza força forza siła síla сила"),
    "V": ("voltage potential", "spannung 电压 电势 tensión tensão tensione napięcie napětí "
          "напряжение potenzial potenziale potencial potentiel"),
    "A": ("current", "strom 电流 corriente corrente courant prąd proud ток"),
    "Pa": ("pressure stress strength", "festigkeit druck 应力 压强 强度 presión pressão "
           "pressione pression ciśnienie tlak давление"),
    "Hz": ("frequency", "frequenz 频率 frecuencia frequência frequenza fréquence "
           "częstotliwość frekvence частота"),
    "s": ("time period", "zeit dauer 时间 周期 tiempo tempo temps periodo período période "
          "czas čas время"),
    "m": ("length displacement extension elongation deflection distance position height",
          "verlängerung länge höhe auslenkung abstand 位移 伸长 长度 距离 高度 longitud "
          "comprimento lunghezza longueur altura altezza hauteur distancia distância distanza"),
    "K": _TEMPERATURE,
    "°C": _TEMPERATURE,
    "W": ("power", "leistung 功率 potencia potência potenza puissance moc výkon мощность"),
    "J": ("energy", "energie 能量 energía energia énergie энергия"),
    "g": ("mass weight", "masse 质量 masa massa hmotnost масса"),
    "Ω": ("resistance", "widerstand 电阻 resistencia resistência resistenza résistance opór "
          "odpor сопротивление"),
}  # fmt: skip
PREFIXES = {"k": 1e3, "M": 1e6, "G": 1e9, "m": 1e-3, "µ": 1e-6, "u": 1e-6, "μ": 1e-6,
            "n": 1e-9, "p": 1e-12, "c": 1e-2}  # fmt: skip


def part_patterns(parts: str) -> list[str]:
    """A German word as the end of a compound (`Zugkraft`, not `Kraftwerk`; `last` not in
    `elastic`), a word of another language whole or so, a Chinese one anywhere."""
    return [
        re.escape(part) if re.search(r"[\u4e00-\u9fff]", part) else rf"{re.escape(part)}\b"
        for part in parts.split()
    ]


def base_unit(unit: str) -> str | None:
    """The unit without its SI prefix (`kN` -> `N`, `mm` -> `m`), None when unknown."""
    if unit in QUANTITIES:
        return unit
    if len(unit) > 1 and unit[0] in PREFIXES and unit[1:] in QUANTITIES:
        return unit[1:]
    return None


def scale_of(stated: str, column: str) -> float | None:
    """How many of `column`'s unit one `stated` unit is (1 mA in A: 0.001); None when the
    two do not measure the same quantity."""
    if stated == column:
        return 1.0
    base = base_unit(stated)
    if base is None or base != base_unit(column):
        return None
    return _factor(stated) / _factor(column)


def _factor(unit: str) -> float:
    return 1.0 if unit in QUANTITIES else PREFIXES[unit[0]]


@cache  # asked of every column each time a symbol is matched by convention
def named_quantities(name: str) -> frozenset[str]:
    """The units (without prefix) of the quantities a column's `name` names by its words
    (`CORRENTE` a current: {"A"})."""
    # a whole word `last` is the English one in an export's name (PicoLog's `Outside Last`)
    lowered = re.sub(r"\blast\b", "", name.lower())
    words = set(re.findall(r"[^\W\d_]+", lowered))
    return frozenset(
        unit for unit, (english, parts) in QUANTITIES.items()
        if set(english.split()) & words or any(re.search(p, lowered) for p in part_patterns(parts))
    )  # fmt: skip


def name_contradicts_unit(name: str, unit: str) -> bool:
    """Whether a column's name names another quantity than its unit measures (`POTENZIALE
    [mA]`, a voltage headed in milliamperes): the unit then tells no quantity by itself."""
    named, measured = named_quantities(name), base_unit(unit)
    return bool(named) and measured is not None and not named & _ALIKE.get(measured, {measured})


def unit_doubt(name: str, unit: str) -> str:
    """A sentence for the report where a column's name names another quantity than its
    unit measures ("" where it does not): the student checks which is wrong."""
    if not name_contradicts_unit(name, unit):
        return ""
    named = sorted(QUANTITIES[u][0].split()[0] for u in named_quantities(name))
    measured = QUANTITIES[base_unit(unit) or ""][0].split()[0]
    return (
        f"{name} is headed in {unit}, a {measured}'s unit, while its name says "
        f"{' or '.join(f'a {n}' for n in named)}: no formula's symbol is matched to it by "
        "its unit; check which of the two is wrong"
    )


# A temperature is read in K or °C alike, and a load or weight in kg or N
_ALIKE = {"K": {"K", "°C"}, "°C": {"K", "°C"}, "g": {"g", "N"}, "N": {"g", "N"}}
