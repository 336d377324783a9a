"""`labscribe run --no-model`: a value a handout gives a variable ("bei t = 20 Tage", "para
t = 20 dias") is where the model is to be evaluated, never a scaling of the time column.

The data are NIST's certified BoxBOD set (tests/data/real/nist/boxbod.csv, see SOURCES.md):
BOD after 1 to 10 days, y = b1·(1 − exp(−b2·t)), certified b2 = 0.547 1/d. Before, the
column was formed as `t = 20·Zeit_Tage` "as the assignment asks" and b2 came out 20× small.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from test_no_model import no_model_report

BOXBOD = Path(__file__).parents[1] / "data" / "real" / "nist" / "boxbod.csv"
CERTIFIED_B2 = 5.4723748542e-01

GERMAN = """# Versuch W3: Biochemischer Sauerstoffbedarf

Der BSB einer Abwasserprobe wurde nach 1 bis 10 Tagen Inkubation gemessen (`bsb.csv`).

## Auswertung

1. Passen Sie das Modell y = b1·(1 − exp(−b2·t)) an die Messwerte an und geben Sie b1 und b2
   mit ihren Standardfehlern an.
2. Welchen BSB sagt das Modell bei t = 20 Tage voraus?
"""
PORTUGUESE = """# Trabalho prático 2: Carência bioquímica de oxigénio

A CBO de uma amostra foi medida após 1 a 10 dias de incubação (`bsb.csv`).

### Tarefas

I. Ajuste aos dados o modelo y = b1·(1 − exp(−b2·t)) e apresente b1 e b2 com as incertezas.
II. Que CBO prevê o modelo para t = 20 dias?
"""


@pytest.mark.parametrize(
    ("handout", "header"),
    [(GERMAN, "Zeit_Tage,BSB_mg_L"), (PORTUGUESE, "tempo_dias,CBO_mg_L")],
    ids=["german", "portuguese"],
)
def test_a_value_given_for_time_leaves_the_time_column_as_it_is(
    handout: str, header: str, tmp_path: Path
) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    data = pd.read_csv(BOXBOD)
    data.columns = header.split(",")
    data.to_csv(folder / "bsb.csv", index=False)
    (folder / "handout.md").write_text(handout)
    report = no_model_report(folder, tmp_path)
    assert "t as t = 20" not in report
    b2 = re.search(r"b2 = (\d+\.\d+) ±", report)
    assert b2 is not None, report
    assert float(b2[1]) == pytest.approx(CERTIFIED_B2, abs=0.005)
