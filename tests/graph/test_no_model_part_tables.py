"""`labscribe run --no-model` on a folder with a components list, a datasheet excerpt and a
YAML range: the report's parameter table gives each part by its name with its nominal value,
unit and tolerance (`X & 4.7 kΩ ± 5 %`), a datasheet's `B25/85 = 3977 K ± 0.75 %` as written,
and a range in the unit its key states, never the columns' numbers without their names
("30 (1) & 20", "3977 & -40")."""

from __future__ import annotations

from pathlib import Path

from test_no_model_headers import report

from tests.tools.formats.test_part_tables import COMPONENTS, DATASHEET

READINGS = "V_V,I_mA\n" + "".join(f"{0.5 * k:.2f},{0.5 * k / 4.61:.4f}\n" for k in range(1, 11))
YAML = "literatur:\n  alpha_per_K: 18.5e-6\n  alpha_bereich_per_K: [17.5e-6, 19.5e-6]\n"


def test_parts_datasheet_and_range_keep_names_units_and_tolerances(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "components.csv").write_text(COMPONENTS)
    (folder / "datasheet_excerpt.txt").write_text(DATASHEET)
    (folder / "readings.csv").write_text(READINGS)
    (folder / "parameter.yaml").write_text(YAML)
    text = report(folder, tmp_path)
    assert r"X & 4.7 k\ensuremath{\Omega} ± 5 \% & unknown resistor" in text
    assert r"Rs & 1.0 k\ensuremath{\Omega} ± 5 \%" in text
    assert r"DMM2 & 20 mA range ± 0.8 \%" in text
    assert r"B25/85 & 3977 K ± 0.75 \%" in text
    assert r"Operating temperature & -40 ... +125 °C" in text
    assert r"1.75e-05, 1.95e-05 K\textasciicircum{}-1" in text
    for wrong in ("30 (1)", "nominal (1)", "3977 & -40", "± & +125"):
        assert wrong not in text
