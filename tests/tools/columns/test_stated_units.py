"""tools.columns.stated_units: the unit a handout's prose states for a column whose file states
none ("column `pressure` is the vapour pressure in mm Hg"); the file name `pressure.csv`
names no column."""

from __future__ import annotations

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.stated_units import stated_units

HANDOUT = (
    "## Data\n`pressure.csv`: column `temperature` is the temperature in degrees Celsius, "
    "column `pressure` is the vapour pressure in mm Hg (Torr). The column `rownames` is only "
    "a running number.\n"
)


def column(name: str, unit: str = "") -> Column:
    return Column(key=name, header=name, name=name, unit=unit, count=3)


def test_the_prose_gives_each_bare_column_its_unit() -> None:
    columns = [column("temperature"), column("pressure"), column("rownames")]
    stated_units(columns, HANDOUT)
    assert [(c.name, c.unit) for c in columns] == [
        ("temperature", "°C"), ("pressure", "mmHg"), ("rownames", ""),
    ]  # fmt: skip


def test_a_unit_the_file_states_is_kept_and_brackets_count() -> None:
    columns = [column("time", "ms"), column("angle")]
    stated_units(columns, "The time is logged in seconds; the angle (deg) is read by eye.")
    assert [(c.name, c.unit) for c in columns] == [("time", "ms"), ("angle", "deg")]


def test_a_neighbouring_columns_unit_is_not_taken() -> None:
    # R's morley as an Italian sheet describes it; stackloss's predictors in a prediction
    morley = [column("Expt"), column("Run"), column("Speed")]
    stated_units(morley, "`Expt` = numero dell'esperimento (1–5), `Run` = numero della misura "
                         "(1–20), `Speed` = velocità misurata meno 299000, in km/s.")  # fmt: skip
    assert [c.unit for c in morley] == ["", "", "km/s"]
    plant = [column("Air.Flow"), column("Water.Temp")]
    stated_units(plant, "Predict the stack loss for Air.Flow = 60, Water.Temp = 20 degC. "
                        "Air.Flow is the flow of cooling air (plant units).")  # fmt: skip
    assert [c.unit for c in plant] == ["", ""]


def test_a_word_of_the_prose_that_pint_reads_as_a_unit_is_none() -> None:
    """From the Gran titration handout of a real CMFR lab (eval): the feed "adjusted to pH 3)
    is pumped in at 267 mL/min" gives the pH column no technical atmosphere."""
    columns = [column("pH"), column("Titrant Volume", "mL")]
    stated_units(columns, "Acid snow melt (feed adjusted to pH 3) is pumped in at 267 mL/min.")
    assert [c.unit for c in columns] == ["", "mL"]


def test_a_unit_belongs_to_the_name_quoted_before_it_and_in_says_where_it_is() -> None:
    """A Spanish handout's column list (the names as the file writes them, `m(g)`): the
    count `bolitas` takes no gram; "(in Hz)" is hertz, not inch·hertz."""
    balls = [column("bolitas"), column("m", "g")]
    stated_units(balls, "Columnas: `bolitas` (número de bolitas), `m(g)`, `d.m(g)`.")
    assert [c.unit for c in balls] == ["", "g"]
    spin = [column("f_end"), column("T")]
    stated_units(spin, "am Ende (`f_end`) gemessen (in Hz) sowie die Dauer `T` (in s).")
    assert [c.unit for c in spin] == ["Hz", "s"]


def test_a_list_of_columns_closes_each_with_its_unit() -> None:
    """A Russian handout closes each column's line with its unit ("`V` — показание
    термопары, мкВ;"), a Polish one writes it in square brackets ("`freq` — częstotliwość
    f [Hz],")."""
    columns = [column("V"), column("f_0"), column("freq")]
    stated_units(columns, (
        "- `V` — показание термопары, мкВ;\n- `f_0` — частота генератора без образца, кГц;\n"
        "- `freq` — częstotliwość f [Hz],\n"
    ))  # fmt: skip
    assert [(c.name, c.unit) for c in columns] == [("V", "µV"), ("f_0", "kHz"), ("freq", "Hz")]


def test_the_columns_a_line_lists_after_naming_the_file_take_their_units() -> None:
    """ "Daten: `Vanadium.dat` (Spalten: t in s, N in Impulsen pro Intervall)": a letter
    names its column in such a list, as in a listing of the files."""
    columns = [column("t"), column("N", "Impulse")]
    text = "2. **Vanadium:** Daten: `Vanadium.dat` (Spalten: t in s, N in Impulsen pro Intervall)."
    stated_units(columns, text, "Vanadium.dat")
    assert [(c.name, c.unit) for c in columns] == [("t", "s"), ("N", "Impulse")]
    other = [column("t")]
    stated_units(other, text, "Rhodium.dat")
    assert other[0].unit == ""
