"""`labscribe run --no-model` on a parameter file whose keys carry their units over their
last parts, as lab YAML files and property records write them: the report's parameter table
shows each value in its unit, or with no unit where the key reads two ways, never in a
unit taken from the key's last part alone (`density_kg_m3` is no density in m3)."""

from __future__ import annotations

from pathlib import Path

from test_no_model_headers import report

PARAMETERS = """\
# sphere and fluid of a falling-ball viscometer; a brass rod's expansion
sphere:
  density_kg_m3: 7850
fluid:
  viscosity_reference_Pa_s: 1.41
setup:
  g_m_s2: 9.81
literature:
  alpha_per_K: 18.5e-6
grating:
  lines_per_mm: 600
"""


def test_units_written_over_a_keys_last_parts(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "parameters.yaml").write_text(PARAMETERS)
    (folder / "fall.csv").write_text("r_mm,t_s\n1.0,8.1\n1.5,3.6\n2.0,2.0\n2.5,1.3\n3.0,0.9\n")
    text = report(folder, tmp_path)
    assert "density & 7850 kg/m3" in text
    assert r"g & 9.81 m/s2" in text
    assert r"alpha & 1.85e-05 K\textasciicircum{}-1" in text
    assert r"lines & 600 mm\textasciicircum{}-1" in text
    # Pa·s or Pa/s: the key is kept whole and no unit is claimed
    assert r"viscosity\_\allowbreak{}reference\_\allowbreak{}Pa\_\allowbreak{}s & 1.41 &" in text
    for wrong in ("7850 m3", "9.81 s2", "1.41 s", "1.85e-05 K &", "600 mm &"):
        assert wrong not in text
