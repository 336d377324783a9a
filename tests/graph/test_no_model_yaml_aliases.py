"""`labscribe run --no-model` on YAML that repeats nodes by aliases (the "billion laughs"):
531 bytes of settings whose aliases make a billion values, and a handout's front matter whose
title is such a tree. Before, reading the settings walked the tree for hours; now aliases are
refused as they are parsed, the file is named as unreadable, and the handout's title and
tasks are read."""

from __future__ import annotations

import shutil
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_of


def laughs(name: str) -> str:
    lines = [f"{name}0: &{name}0 [" + ", ".join(['"lol"'] * 9) + "]"]
    for level in range(1, 10):
        lines.append(
            f"{name}{level}: &{name}{level} [" + ", ".join([f"*{name}{level - 1}"] * 9) + "]"
        )
    return "\n".join(lines) + "\n"


def test_yaml_aliases_are_refused_where_settings_and_front_matter_are_read(tmp_path: Path) -> None:
    folder = tmp_path / "lab"
    folder.mkdir()
    (folder / "params.yaml").write_text(
        laughs("a") + "s1:\n s2:\n  s3:\n   s4:\n    s5:\n     s6:\n      s7: *a9\n"
    )
    (folder / "tasks.md").write_text(
        f"---\n{laughs('b')}title: *b9\n---\n# Hall effect\n\n## Tasks\n1. Plot VH against IS.\n"
    )
    shutil.copy(REAL / "hall" / "hitsz_2-VH-IS.csv", folder / "hall.csv")
    report = report_of(folder, tmp_path)
    assert "Plot VH against IS." in checklist(report)
    assert "params.yaml: is not a readable yaml file: the YAML repeats nodes by aliases" in report
