"""`labscribe run --no-model` on a Chinese Hall-effect lab (real files, tests/data/real/hall)
whose handout names each plot by its axes ("画 V_H–I_M 和 V_H–I_S 曲线", "作出 Vout–B 关系曲线")
in symbols the headers write without their subscript mark (`VH(mV)`, `IM(A)`): each table's
response and variable are the pair it holds, the slopes offered for the task are V_H's
against I_M and against I_S, never the column B the lab computed from I_M, and a fit of the
linear range alone ("取线性范围内的数据") is not answered with one of all the points."""

from __future__ import annotations

import re
from pathlib import Path

from test_no_model_checklist import REAL, checklist, report_for

HALL = REAL / "hall"
DATA = [(HALL / f"hitsz_{name}.csv", f"{name}.csv") for name in ("1-VH-IM", "2-VH-IS", "4-Vout-IM")]

HANDOUT = """\
# 实验10 霍尔效应及其应用

## 数据文件
1. `1-VH-IM.csv`：I_S = 5.000 mA 不变，改变螺线管电流 I_M；
   列：IM(A), B(mT)（记录时计算填入）, V1…V4, VH(mV)。
2. `2-VH-IS.csv`：I_M = 0.500 A 不变，改变工作电流 I_S；列：IS(mA), V1…V4, VH(mV)。
3. `4-Vout-IM.csv`：AMR 置于亥姆赫兹线圈中心；列：IM(mA), B(Gs), Vout(mV)。

## 数据处理及作图
1. 画 V_H–I_M 和 V_H–I_S 曲线，用最小二乘法计算斜率 K，计算霍尔元件灵敏度 K_H，两者取平均。
2. 作出 Vout–B 关系曲线，并取线性范围（±6 Gs）内的数据，计算传感器的灵敏度 S_A。
"""


def _row(report: str, number: int) -> str:
    row = re.search(rf"^{number} & .*$", checklist(report), re.MULTILINE)
    assert row is not None
    return row.group(0)


def test_each_plot_named_by_its_axes_takes_the_pair_its_table_holds(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("shiyan10.md", HANDOUT), *DATA).replace("\\_", "_")
    slopes = _row(report, 1)
    # the course's V_H slopes: 13.21 mV/A against I_M, 1.3288 mV/mA against I_S
    assert "slope = 13.2102 ± 0.0055 mV/A" in slopes and "fitted to VH against IM" in slopes
    assert "slope = 1.32882 ± 0.00078 mV/mA" in slopes and "fitted to VH against IS" in slopes
    assert "mT/A" not in slopes  # B was computed from I_M: its slope is no K
    assert "Vout is taken as the response to B" in report
    assert "VH is taken as the response to IM" in report
    # the settings the handout states, each with its unit ("I_M = 0.500 A 不变": an ampere)
    assert re.search(r"I_\\allowbreak\{\}M & 0\.500 A \\\\", report), report


def test_a_fit_of_the_linear_range_is_not_answered_by_all_the_points(tmp_path: Path) -> None:
    report = report_for(tmp_path, ("shiyan10.md", HANDOUT), *DATA)
    row = _row(report, 2)
    assert "the task works on part of the data only" in row, row
    assert "does not describe" not in row
