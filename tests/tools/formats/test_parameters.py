from pathlib import Path

import pytest

from labscribe.tools.base import ToolError
from labscribe.tools.formats.parameters import NoParameters, ParameterRow, read_parameters
from labscribe.tools.tool import Folder


def rows_of(folder: Path, name: str) -> list[ParameterRow]:
    return read_parameters(Folder(folder), name)


def row(rows: list[ParameterRow], key: str) -> ParameterRow:
    return next(r for r in rows if r.key == key)


def test_read_parameters_reads_the_example_ini(example: Path) -> None:
    rows = rows_of(example, "params.ini")
    assert len(rows) == 50
    inductance = row(rows, "L_nominal_mH")
    assert (inductance.section, inductance.name, inductance.number, inductance.unit) == (
        "components", "L_nominal", 10.0, "mH",
    )  # fmt: skip
    assert inductance.comment == "nominal values and tolerances from the parts bin labels"
    assert row(rows, "R_coil_measured_ohm").comment.startswith("DMM readings (UNI-T UT61E")
    assert (row(rows, "ch2_scale_V_per_div").unit, row(rows, "bandwidth_limit").unit) == (
        "V/div", "MHz",
    )  # fmt: skip
    assert row(rows, "circuit_order").value == "generator -> C -> L -> R -> ground"


def test_read_parameters_keeps_an_inline_comment(tmp_path: Path) -> None:
    (tmp_path / "setup.ini").write_text("[laser]\npower_mW = 5 ; measured at the fibre\n")
    laser = rows_of(tmp_path, "setup.ini")[0]
    assert (laser.value, laser.unit, laser.comment) == ("5", "mW", "measured at the fibre")


def test_a_remark_in_brackets_after_a_value_s_unit_keeps_its_number(tmp_path: Path) -> None:
    """`p0 = 0.993 bar (Atmosphärendruck, ...)` as TU Dortmund's V203 notes write it: 0.993
    bar, the remark kept as written and the unit not written twice."""
    (tmp_path / "parameter.txt").write_text(
        "p0 = 0.993 bar   (Atmosphärendruck, zu Versuchsbeginn gemessen)\n"
        "C = 93.3 nF      (Toleranz nicht angegeben)\n"
    )
    rows = rows_of(tmp_path, "parameter.txt")
    assert [(r.name, r.number, r.unit) for r in rows] == [("p0", 0.993, "bar"), ("C", 93.3, "nF")]
    assert row(rows, "C").shown() == "93.3 nF      (Toleranz nicht angegeben)"


def test_read_parameters_reads_settings_without_a_section(tmp_path: Path) -> None:
    (tmp_path / "settings.txt").write_text(
        "# bench 3\nsample rate: 10 kHz\nduration_s = 2\ngain = 20 dB\nprobe = x10\n"
    )
    rows = rows_of(tmp_path, "settings.txt")
    assert [(r.section, r.name, r.number, r.unit) for r in rows] == [
        ("", "sample rate", 10.0, "kHz"),
        ("", "duration", 2.0, "s"),
        ("", "gain", 20.0, "dB"),
        ("", "probe", None, ""),
    ]
    assert rows[0].comment == "bench 3"


def test_read_parameters_reads_nested_json_into_sections(tmp_path: Path) -> None:
    (tmp_path / "run.json").write_text(
        '{"sample": {"mass_g": 12.5, "name": "Al"}, "repeats": [1, 2, 3], "ok": true}'
    )
    rows = rows_of(tmp_path, "run.json")
    assert [(r.section, r.key, r.value, r.unit) for r in rows] == [
        ("sample", "mass_g", "12.5", "g"),
        ("sample", "name", "Al", ""),
        ("", "repeats", "1, 2, 3", ""),
        ("", "ok", "true", ""),
    ]


def test_read_parameters_reads_yaml(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("spring:\n  k_N_per_m: 25.3  # from the datasheet\n")
    spring = rows_of(tmp_path, "config.yaml")[0]
    assert (spring.section, spring.name, spring.number, spring.unit) == (
        "spring", "k", 25.3, "N/m",
    )  # fmt: skip


def test_read_parameters_reads_toml(tmp_path: Path) -> None:
    (tmp_path / "lab.toml").write_text('[coil]\nturns = 200\nwire = "0.5 mm copper"\n')
    assert [(r.section, r.key, r.number) for r in rows_of(tmp_path, "lab.toml")] == [
        ("coil", "turns", 200.0),
        ("coil", "wire", None),
    ]


def test_read_parameters_refuses_a_log_as_settings(tmp_path: Path) -> None:
    (tmp_path / "logbook.txt").write_text(
        "13:05 took the instruments\n13:10 scope warmed up\n13:40 sweep started\n"
        "14:05 CH2 clipped, repeated\n"
    )
    with pytest.raises(NoParameters, match=r"^logbook\.txt holds no settings$"):
        rows_of(tmp_path, "logbook.txt")


def test_read_parameters_says_why_json_is_broken(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text('{"a": 1,')
    with pytest.raises(NoParameters, match=r"^broken\.json is not a readable json file: "):
        rows_of(tmp_path, "broken.json")


def test_read_parameters_survives_deeply_nested_json(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(NoParameters):
        rows_of(tmp_path, "deep.json")


def test_read_parameters_bounds_the_rows_of_a_huge_file(tmp_path: Path) -> None:
    (tmp_path / "many.ini").write_text("[a]\n" + "".join(f"k{i} = {i}\n" for i in range(50_000)))
    assert len(rows_of(tmp_path, "many.ini")) == 400


def test_read_parameters_refuses_a_link_out_of_the_folder(tmp_path: Path) -> None:
    root = tmp_path / "data"
    root.mkdir()
    (tmp_path / "secret.ini").write_text("[a]\nkey = 1\n")
    (root / "params.ini").symlink_to(tmp_path / "secret.ini")
    with pytest.raises(ToolError, match="outside the data folder"):
        rows_of(root, "params.ini")


def test_read_parameters_reads_a_short_file_of_settings_alone(tmp_path: Path) -> None:
    # a sheet's params.txt: two settings among comments, one with a comment of its own
    (tmp_path / "params.txt").write_text(
        "# valore accettato (definizione SI)\nc_accepted = 299792.458 km/s\n"
        "offset_in_file = 299000 km/s      # Speed = c_measured - 299000 km/s\n"
        "# criterio di compatibilita: |c - c_accepted| <= 2 * errore standard\n"
    )
    rows = rows_of(tmp_path, "params.txt")
    assert [(r.key, r.number, r.unit) for r in rows] == [
        ("c_accepted", 299792.458, "km/s"), ("offset_in_file", 299000.0, "km/s"),
    ]  # fmt: skip
    (tmp_path / "note.txt").write_text("Operator: Anna\nThe laser drifted after lunch.\n")
    with pytest.raises(NoParameters):
        rows_of(tmp_path, "note.txt")
