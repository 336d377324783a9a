"""Generate the ``examples/rlc-resonance/`` example experiment folder.

The folder mimics what an undergraduate hands in after the lab session
"Lab 4: Resonance in a series RLC circuit": a CSV file from an automated
frequency sweep, an INI file with instrument settings and component values,
the assignment handout as a PDF, lab notes in Chinese (UTF-8) and a short lab
log in Chinese encoded as GBK with Windows line endings.

Physics
-------
A function generator with open-circuit amplitude ``V_oc`` and output
resistance ``R_s = 50 ohm`` drives the series circuit C - L - R (the resistor
sits at the ground end so that both oscilloscope probes share one ground).
The inductor winding has a resistance ``R_L``, so the circuit impedance is::

    Z(f) = R_tot + j X(f),   R_tot = R + R_L,   X(f) = 2 pi f L - 1 / (2 pi f C)

Channel 1 measures the voltage across the whole series circuit, channel 2 the
voltage across R::

    V_in = V_oc |Z| / |Z + R_s|          (dips near resonance: loaded source)
    |I|  = V_in / |Z|
    V_R  = |I| R = V_oc R / |Z + R_s|
    phi  = arg(V_R / V_in) = -atan(X / R_tot)   (V_R leads below resonance)

Both V_R and the transfer ratio V_R / V_in = R / |Z| peak where X = 0::

    f0 = 1 / (2 pi sqrt(L C)),   Q = sqrt(L / C) / R_tot,   bandwidth = f0 / Q

With R = 47 ohm, R_L = 12 ohm, L = 10 mH and C = 100 nF this gives
f0 = 5033 Hz, Q = 5.36 and a half-power bandwidth of 939 Hz (for V_R / V_in;
the raw V_R curve is broadened by the generator's 50 ohm output resistance).

The sweep runs from 1 kHz to 12 kHz in 301 logarithmically spaced points,
rounded to four significant digits like a generator set-point. Measurement
noise is Gaussian: 0.5 % relative on each amplitude and 0.8 degree on the
phase. All values are written with four significant digits.

Run ``python examples/generate_rlc_resonance.py`` to regenerate the folder;
the random seed is fixed, so the output is identical on every run. Only numpy
and the Python standard library are used; the PDF is written by the small
writer below (standard Type1 fonts, WinAnsi text, uncompressed streams).
"""

from __future__ import annotations

import argparse
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SEED = 20240314
OUT_DIR = Path(__file__).resolve().parent / "rlc-resonance"


# --------------------------------------------------------------------------------------
# Physics and data
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Circuit:
    """Component values of the series RLC circuit (SI units)."""

    r: float = 47.0  # series resistor, ohm
    r_coil: float = 12.0  # DC resistance of the inductor winding, ohm
    inductance: float = 10e-3  # H
    capacitance: float = 100e-9  # F
    r_source: float = 50.0  # generator output resistance, ohm
    v_open: float = 5.0  # generator open-circuit amplitude, Vpp

    @property
    def r_total(self) -> float:
        return self.r + self.r_coil

    @property
    def f0(self) -> float:
        return 1.0 / (2.0 * math.pi * math.sqrt(self.inductance * self.capacitance))

    @property
    def q(self) -> float:
        return math.sqrt(self.inductance / self.capacitance) / self.r_total

    @property
    def bandwidth(self) -> float:
        return self.f0 / self.q

    def impedance(self, f: np.ndarray) -> np.ndarray:
        omega = 2.0 * np.pi * f
        return self.r_total + 1j * (omega * self.inductance - 1.0 / (omega * self.capacitance))


@dataclass(frozen=True)
class Sweep:
    """One frequency sweep: set-points and (noisy) readings."""

    f: np.ndarray
    v_in: np.ndarray
    v_r: np.ndarray
    phase: np.ndarray


AMPLITUDE_NOISE = 0.005  # relative, 1 sigma
PHASE_NOISE_DEG = 0.8  # absolute, 1 sigma
F_START, F_STOP, N_POINTS = 1000.0, 12000.0, 301


def round_sig(x: float, digits: int = 4) -> float:
    """Round ``x`` to ``digits`` significant digits."""
    return float(fmt_sig(x, digits))


def fmt_sig(x: float, digits: int = 4) -> str:
    """Format ``x`` with ``digits`` significant digits in fixed-point notation."""
    if x == 0.0 or not math.isfinite(x):
        return "0"
    decimals = digits - 1 - math.floor(math.log10(abs(x)))
    value = round(x, decimals)
    if value != 0.0 and math.floor(math.log10(abs(value))) > math.floor(math.log10(abs(x))):
        decimals -= 1  # rounding carried into the next decade, e.g. 9.9996 -> 10.00
        value = round(x, decimals)
    text = f"{value:.{max(decimals, 0)}f}"
    return "0" if float(text) == 0.0 else text


def frequencies() -> np.ndarray:
    """Logarithmic sweep set-points, rounded like a generator display (4 digits)."""
    raw = np.geomspace(F_START, F_STOP, N_POINTS)
    f = np.array([round_sig(float(x)) for x in raw])
    if len(np.unique(f)) != len(f):
        raise RuntimeError("frequency set-points are not unique after rounding")
    return f


def ideal_sweep(circuit: Circuit, f: np.ndarray) -> Sweep:
    z = circuit.impedance(f)
    z_mag = np.abs(z)
    v_in = circuit.v_open * z_mag / np.abs(z + circuit.r_source)
    v_r = v_in / z_mag * circuit.r
    phase = -np.degrees(np.arctan(z.imag / circuit.r_total))
    return Sweep(f=f, v_in=v_in, v_r=v_r, phase=phase)


def measured_sweep(circuit: Circuit, rng: np.random.Generator) -> Sweep:
    ideal = ideal_sweep(circuit, frequencies())
    n = len(ideal.f)
    v_in = ideal.v_in * (1.0 + AMPLITUDE_NOISE * rng.standard_normal(n))
    v_r = ideal.v_r * (1.0 + AMPLITUDE_NOISE * rng.standard_normal(n))
    phase = ideal.phase + PHASE_NOISE_DEG * rng.standard_normal(n)
    rounded = [np.array([round_sig(float(x)) for x in arr]) for arr in (v_in, v_r, phase)]
    return Sweep(f=ideal.f, v_in=rounded[0], v_r=rounded[1], phase=rounded[2])


def sweep_csv(sweep: Sweep) -> str:
    lines = ["frequency_Hz,V_in_Vpp,V_R_Vpp,phase_deg"]
    for f, v_in, v_r, phase in zip(sweep.f, sweep.v_in, sweep.v_r, sweep.phase, strict=True):
        lines.append(",".join(fmt_sig(float(v)) for v in (f, v_in, v_r, phase)))
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Estimates:
    """What a student reads off the measured data (used in the notes)."""

    f_peak_vr: float
    vr_max: float
    f_peak_ratio: float
    ratio_max: float
    f_phase_zero: float
    f1: float
    f2: float
    vin_low_f: float
    vin_min: float
    phase_first: float
    phase_last: float

    @property
    def bandwidth(self) -> float:
        return self.f2 - self.f1

    @property
    def q(self) -> float:
        return self.f_phase_zero / self.bandwidth


def _crossing(x: np.ndarray, y: np.ndarray, level: float, rising: bool) -> float:
    """Linear interpolation of the first crossing of ``level`` (x sorted)."""
    above = y >= level
    idx = (
        np.flatnonzero(~above[:-1] & above[1:])
        if rising
        else np.flatnonzero(above[:-1] & ~above[1:])
    )
    i = int(idx[0]) if rising else int(idx[-1])
    return float(x[i] + (level - y[i]) * (x[i + 1] - x[i]) / (y[i + 1] - y[i]))


def estimate(sweep: Sweep) -> Estimates:
    ratio = sweep.v_r / sweep.v_in
    i_ratio = int(np.argmax(ratio))
    i_vr = int(np.argmax(sweep.v_r))
    half = ratio[i_ratio] / math.sqrt(2.0)
    f1 = _crossing(sweep.f[: i_ratio + 1], ratio[: i_ratio + 1], half, rising=True)
    f2 = _crossing(sweep.f[i_ratio:], ratio[i_ratio:], half, rising=False)
    f_zero = _crossing(sweep.f, -sweep.phase, 0.0, rising=True)
    return Estimates(
        f_peak_vr=float(sweep.f[i_vr]),
        vr_max=float(sweep.v_r[i_vr]),
        f_peak_ratio=float(sweep.f[i_ratio]),
        ratio_max=float(ratio[i_ratio]),
        f_phase_zero=f_zero,
        f1=f1,
        f2=f2,
        vin_low_f=float(np.median(sweep.v_in[:20])),
        vin_min=float(np.min(sweep.v_in)),
        phase_first=float(sweep.phase[0]),
        phase_last=float(sweep.phase[-1]),
    )


# --------------------------------------------------------------------------------------
# Plain-text files
# --------------------------------------------------------------------------------------


def params_ini(circuit: Circuit) -> str:
    return f"""\
; Lab 4 - series RLC resonance - acquisition parameters
; written by the sweep script at the start of the run, component values added by hand

[session]
date = 2024-03-14
start_time = 13:40
operator = L.W.
partner = Z.H.
group = 7
bench = B305-07
room_temperature_C = 22.5

[components]
; nominal values and tolerances from the parts bin labels
R_nominal_ohm = {circuit.r:.0f}
R_tolerance_pct = 1
L_nominal_mH = {circuit.inductance * 1e3:.0f}
L_tolerance_pct = 10
C_nominal_nF = {circuit.capacitance * 1e9:.0f}
C_tolerance_pct = 5
C_type = polyester film, 100 V
; DMM readings (UNI-T UT61E, 2-wire, leads nulled)
R_measured_ohm = 47.1
R_coil_measured_ohm = {circuit.r_coil:.1f}
circuit_order = generator -> C -> L -> R -> ground

[function_generator]
model = Rigol DG1022Z
channel = CH1
waveform = sine
amplitude_Vpp = {circuit.v_open:.2f}
offset_V = 0
load_setting = HighZ
output_impedance_ohm = {circuit.r_source:.0f}

[oscilloscope]
model = Rigol DS1054Z
probe_attenuation = 10
coupling = DC
bandwidth_limit = 20MHz
acquisition = average
averages = 16
ch1_signal = V_in across the series RLC circuit
ch1_scale_V_per_div = 1
ch2_signal = V_R across the resistor
ch2_scale_V_per_div = 0.5
amplitude_measurement = Vpp
phase_measurement = CH2 relative to CH1
phase_sign = positive when V_R leads V_in

[sweep]
start_Hz = {F_START:.0f}
stop_Hz = {F_STOP:.0f}
points = {N_POINTS}
spacing = logarithmic
setpoint_rounding = 4 significant digits
dwell_s = 0.5
control = python script, pyvisa over USB-TMC
remeasured_segment_Hz = 4300-5800
remeasured_reason = CH2 clipped at 0.2 V/div, repeated at 0.5 V/div
output_file = data/sweep.csv

[uncertainty]
; repeatability estimated from 10 repeated readings at 5.0 kHz
amplitude_repeatability_pct = {AMPLITUDE_NOISE * 100:.1f}
phase_repeatability_deg = {PHASE_NOISE_DEG:.1f}
scope_vertical_gain_accuracy_pct = 3
"""


def notes_zh(circuit: Circuit, est: Estimates) -> str:
    i_rms = est.vr_max / (2.0 * math.sqrt(2.0)) / circuit.r
    p_coil_mw = i_rms**2 * circuit.r_coil * 1e3
    lines = [
        "# 实验四 RLC 串联谐振 —— 实验笔记",
        "",
        "日期：2024-03-14（周四）下午，B305 实验室，第 7 组。记录：L.W.，同组：Z.H.",
        "",
        "## 做了什么",
        f"1. 用万用表测得 R = 47.1 Ω，电感线圈直流电阻 {circuit.r_coil:.1f} Ω；"
        "标称 L = 10 mH（±10%），C = 100 nF（±5%）。",
        "2. 按 信号源 → C → L → R → 地 的顺序接线，"
        "CH1 测整个串联电路两端的 V_in，CH2 测电阻两端的 V_R。",
        "3. 信号源输出正弦波，显示幅度 5.00 Vpp（负载设为 High-Z），"
        "用 Python 脚本从 1 kHz 到 12 kHz 按对数间隔扫频，共 301 个点，"
        "每点等待 0.5 s，示波器 16 次平均。",
        "4. 数据存在 data/sweep.csv（频率、V_in、V_R、相位），仪器设置记在 params.ini。",
        "",
        "## 观察",
        f"- 共振频率约 5.0 kHz：V_R 在 {est.f_peak_vr:.0f} Hz 处最大，约 {est.vr_max:.2f} Vpp；"
        f"V_R/V_in 最大约 {est.ratio_max:.3f}；相位在 {est.f_phase_zero:.0f} Hz 附近过零。"
        f"理论值 f0 = 1/(2π√(LC)) ≈ {circuit.f0:.0f} Hz，很接近。",
        f"- V_in 不是常数：低频时约 {est.vin_low_f:.2f} Vpp，"
        f"共振附近降到约 {est.vin_min:.2f} Vpp，因为信号源有 50 Ω 内阻。"
        "所以求带宽要用 V_R/V_in，不能直接用 V_R。",
        f"- 用 V_R/V_in 的半功率点（最大值的 1/√2）估计 f1 ≈ {est.f1:.0f} Hz，"
        f"f2 ≈ {est.f2:.0f} Hz，带宽约 {est.bandwidth:.0f} Hz，Q ≈ {est.q:.1f}"
        f"（理论 Q = √(L/C)/(R+R_L) ≈ {circuit.q:.2f}）。",
        f"- 相位：1 kHz 时约 {est.phase_first:+.1f}°（电容性，电流超前），"
        f"12 kHz 时约 {est.phase_last:+.1f}°（电感性），在 f1、f2 附近大约是 ±45°。",
        "- 示波器探头接地要注意：两个探头的地夹必须都接在 R 的接地端。"
        "一开始把 CH1 的地夹夹在 C 和 L 之间，相当于通过示波器的地把一部分电路短路，"
        "波形明显不对，改正后才开始正式测量。",
        "- 4.3–5.8 kHz 这一段第一次测时 CH2 用的是 200 mV/div，峰值附近削顶，这段数据作废；"
        "改成 500 mV/div 后重测，csv 里是重测后的数据。",
        "- 电感线圈在共振点附近连续工作了约 10 分钟，摸起来没有明显发热；"
        f"估算线圈功耗只有约 {p_coil_mw:.0f} mW。",
        "",
        "## 待办",
        "- 报告里用元件容差估计 f0 和 Q 理论值的不确定度（L 的 ±10% 影响最大）。",
        "- 问助教：拟合共振曲线时要不要把线圈电阻当作自由参数？",
    ]
    return "\n".join(lines) + "\n"


def logbook_zh() -> str:
    return """\
实验四  RLC 串联谐振  仪器与操作记录
日期：2024-03-14（星期四）  地点：物理实验楼 B305  第 7 组
记录人：L.W.  同组：Z.H.

13:05  领取仪器：函数信号发生器 FG-07，数字示波器 OSC-12，数字万用表 DMM-03。
13:10  示波器开机预热；两路探头设为 ×10，用 1 kHz 校准方波做探头补偿，波形平整。
13:18  信号发生器自检通过，负载设置 High-Z，正弦波 5.00 Vpp。
13:25  万用表测电阻 47.1 Ω，线圈直流电阻 12.0 Ω。
13:40  开始自动扫频，1 kHz 至 12 kHz，共 301 点。
14:05  发现 4.3～5.8 kHz 段 CH2 削顶，改为 500 mV/div 后重测该段。
14:32  扫频结束，数据已导出并拷贝到 U 盘。
14:45  归还仪器，检查无损坏。
备注：OSC-12 的 CH1 探头地夹弹簧松动，已告知实验室老师。
"""


# --------------------------------------------------------------------------------------
# Minimal PDF writer (standard 14 fonts, WinAnsi / ASCII text only)
# --------------------------------------------------------------------------------------

# Glyph widths (1/1000 em) for ASCII 32..126 from the Adobe Core14 AFM files.
_HELVETICA = (
    "278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 556 556 556 556 556 556 "
    "556 556 556 556 278 278 584 584 584 556 1015 667 667 722 722 667 611 778 722 278 500 667 "
    "556 833 722 778 667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 333 556 "
    "556 500 556 556 278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 "
    "500 500 500 334 260 334 584"
)
_HELVETICA_BOLD = (
    "278 333 474 556 556 889 722 238 333 333 389 584 278 333 278 278 556 556 556 556 556 556 "
    "556 556 556 556 333 333 584 584 584 611 975 722 722 722 722 667 611 778 722 278 556 722 "
    "611 833 722 778 667 778 722 667 611 722 667 944 667 667 611 333 278 333 584 556 333 556 "
    "611 556 611 556 333 611 611 278 278 556 278 889 611 611 611 611 389 556 333 611 556 778 "
    "556 556 500 389 280 389 584"
)
FONTS: dict[str, tuple[str, tuple[int, ...]]] = {
    "F1": ("Helvetica", tuple(int(w) for w in _HELVETICA.split())),
    "F2": ("Helvetica-Bold", tuple(int(w) for w in _HELVETICA_BOLD.split())),
}

PAGE_W, PAGE_H = 595.28, 841.89  # A4 in points
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 72.0, 64.0, 72.0


def text_width(text: str, font: str, size: float) -> float:
    widths = FONTS[font][1]
    return sum(widths[ord(ch) - 32] for ch in text) * size / 1000.0


def pdf_string(text: str) -> str:
    bad = [ch for ch in text if not 32 <= ord(ch) <= 126]
    if bad:
        raise ValueError(f"non-ASCII characters in PDF text: {bad!r}")
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy line breaking; ``~`` is a non-breaking space (as in LaTeX)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate.replace("~", " "), font, size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return [line.replace("~", " ") for line in lines]


# A block is (kind, text); kinds: title, subtitle, h, p, item, ref, rule.
Block = tuple[str, str]

STYLES: dict[str, tuple[str, float, float, float]] = {
    # kind: (font, size, leading, space before)
    "header": ("F1", 9.0, 12.0, 0.0),
    "title": ("F2", 17.0, 22.0, 10.0),
    "subtitle": ("F1", 10.0, 13.0, 2.0),
    "h": ("F2", 12.5, 16.0, 12.0),
    "p": ("F1", 10.5, 14.0, 4.0),
    "item": ("F1", 10.5, 14.0, 2.0),
    "ref": ("F1", 10.0, 13.0, 3.0),
}


class PdfDocument:
    """Lays out blocks of text on A4 pages and serialises a PDF 1.4 file."""

    def __init__(self, title: str, author: str) -> None:
        self.title = title
        self.author = author
        self.pages: list[list[str]] = [[]]
        self.y = PAGE_H - MARGIN_TOP

    def _new_page(self) -> None:
        self.pages.append([])
        self.y = PAGE_H - MARGIN_TOP

    def _line(self, text: str, font: str, size: float, x: float) -> None:
        self.pages[-1].append(
            f"BT /{font} {size:g} Tf 1 0 0 1 {x:.2f} {self.y:.2f} Tm {pdf_string(text)} Tj ET"
        )

    def add(self, kind: str, text: str = "") -> None:
        if kind == "rule":
            self.y -= 6.0
            self.pages[-1].append(
                f"0.6 w {MARGIN_X:.2f} {self.y:.2f} m {PAGE_W - MARGIN_X:.2f} {self.y:.2f} l S"
            )
            self.y -= 4.0
            return
        font, size, leading, before = STYLES[kind]
        width = PAGE_W - 2 * MARGIN_X
        prefix, indent = "", 0.0
        if kind in ("item", "ref"):
            # hanging indent: continuation lines align with the text after the marker
            prefix, text = text.split(" ", 1)
            indent = text_width(prefix + " ", font, size)
        lines = wrap(text, font, size, width - indent)
        # keep headings with at least two following lines, never split short paragraphs
        needed = before + leading * (len(lines) if len(lines) <= 3 else 2)
        if kind == "h":
            needed += 3 * leading
        if self.y - needed < MARGIN_BOTTOM:
            self._new_page()
        elif self.pages[-1]:
            self.y -= before
        for i, line in enumerate(lines):
            if self.y - leading < MARGIN_BOTTOM:
                self._new_page()
            self.y -= leading
            if i == 0 and prefix:
                # marker and first line share one string so text extraction keeps the space
                self._line(f"{prefix} {line}", font, size, MARGIN_X)
            else:
                self._line(line, font, size, MARGIN_X + indent)

    def to_bytes(self) -> bytes:
        n_pages = len(self.pages)
        footer = "BT /F1 9 Tf 1 0 0 1 {x:.2f} 40.00 Tm {s} Tj ET"
        objects: list[bytes] = []
        page_ids = [6 + 2 * i for i in range(n_pages)]
        kids = " ".join(f"{p} 0 R" for p in page_ids)
        objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
        objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
        for name in ("F1", "F2"):
            objects.append(
                f"<< /Type /Font /Subtype /Type1 /BaseFont /{FONTS[name][0]} "
                "/Encoding /WinAnsiEncoding >>".encode()
            )
        objects.append(
            (
                f"<< /Title {pdf_string(self.title)} /Author {pdf_string(self.author)} "
                "/Creator (examples/generate_rlc_resonance.py) "
                "/CreationDate (D:20240219090000+01'00') >>"
            ).encode()
        )
        for i, ops in enumerate(self.pages):
            label = f"Page {i + 1} of {n_pages}"
            x = (PAGE_W - text_width(label, "F1", 9.0)) / 2
            stream = "\n".join([*ops, footer.format(x=x, s=pdf_string(label))]).encode("ascii")
            objects.append(
                (
                    f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_W} {PAGE_H}] "
                    f"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> "
                    f"/Contents {page_ids[i] + 1} 0 R >>"
                ).encode()
            )
            objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")

        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets: list[int] = []
        for number, body in enumerate(objects, start=1):
            offsets.append(len(out))
            out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
        xref_at = len(out)
        out += b"xref\n0 %d\n" % (len(objects) + 1)
        out += b"0000000000 65535 f \n"
        for offset in offsets:
            out += b"%010d 00000 n \n" % offset
        file_id = hashlib.md5(bytes(out), usedforsecurity=False).hexdigest()
        out += (
            f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 5 0 R "
            f"/ID [<{file_id}> <{file_id}>] >>\nstartxref\n{xref_at}\n%%EOF\n"
        ).encode()
        return bytes(out)


ASSIGNMENT: Sequence[Block] = (
    ("header", "PHYS 2140 Electricity and Magnetism Laboratory - Spring semester 2024"),
    ("title", "Lab 4: Resonance in a series RLC circuit"),
    ("subtitle", "Handout version 2024-02. Two lab sessions of three hours, work in pairs."),
    ("rule", ""),
    ("h", "1 Overview"),
    (
        "p",
        "A resistor R, an inductor L and a capacitor C connected in series and driven by a "
        "sinusoidal voltage form a driven, damped oscillator. The amplitude of the current is "
        "largest at the resonance frequency f0~=~1/(2~pi~sqrt(LC)), where the reactances of the "
        "inductor and the capacitor cancel. In this lab you measure the resonance curve of such "
        "a circuit with a function generator and a digital oscilloscope, and you compare it "
        "with the theory of the driven harmonic oscillator.",
    ),
    ("h", "2 Goals"),
    (
        "item",
        "- Measure the resonance curve: the amplitude of the voltage V_R across the "
        "resistor as a function of the driving frequency f.",
    ),
    (
        "item",
        "- Determine the resonance frequency f0 from the maximum of the curve and from "
        "the zero crossing of the phase.",
    ),
    (
        "item",
        "- Determine the bandwidth f2~-~f1 between the half-power points and the "
        "quality factor Q~=~f0/(f2~-~f1).",
    ),
    (
        "item",
        "- Compare f0, the bandwidth and Q with the values predicted from the component "
        "values, including the resistance of the inductor winding.",
    ),
    (
        "item",
        "- Measure and explain the phase between current and driving voltage below, at "
        "and above resonance.",
    ),
    ("h", "3 Equipment"),
    (
        "p",
        "Function generator (50 ohm output), two-channel digital oscilloscope with 10x probes, "
        "digital multimeter, resistor 47 ohm (1 %), air-core inductor 10 mH (10 %), film "
        "capacitor 100 nF (5 %), breadboard and BNC cables. Suggested values give f0 near "
        "5 kHz and Q between 5 and 10.",
    ),
    ("h", "4 Procedure"),
    (
        "item",
        "- Measure R and the DC resistance of the inductor with the multimeter and note "
        "the tolerances printed on the components.",
    ),
    (
        "item",
        "- Build the circuit in the order generator - C - L - R - ground. Both probe "
        "grounds must be clipped to the ground end of R: the oscilloscope ground is connected "
        "to earth, and a probe ground on any other node short-circuits part of the circuit.",
    ),
    (
        "item",
        "- Channel 1 shows V_in across the whole series circuit, channel 2 shows V_R. "
        "Set the generator to a sine wave of 5 Vpp (High-Z display setting).",
    ),
    (
        "item",
        "- Sweep from 1 kHz to 12 kHz with at least 100 points, logarithmically spaced "
        "or denser near resonance. Record f, V_in and V_R (peak-to-peak) and the phase of "
        "channel 2 relative to channel 1. A sweep script for the lab computers is provided.",
    ),
    (
        "item",
        "- The generator output resistance loads the circuit, so V_in is not constant. "
        "Use the ratio V_R/V_in to determine f0, the bandwidth and Q.",
    ),
    (
        "item",
        "- Save the data as a CSV file with a header line and keep a log of all "
        "settings, problems and repeated measurements.",
    ),
    ("h", "5 Requirements for the report"),
    (
        "p",
        "Write the report in LaTeX (at most 8 pages plus appendix) with the following sections:",
    ),
    ("item", "- Introduction: motivation and aim of the experiment."),
    (
        "item",
        "- Theory: impedance of the series RLC circuit, derivation of f0, the bandwidth "
        "and Q, and the expected phase as a function of frequency.",
    ),
    ("item", "- Method: circuit diagram, instruments and their settings, measurement procedure."),
    (
        "item",
        "- Results: a figure of V_R versus f with the theoretical curve, a figure of the "
        "phase versus f, and a table of f0, bandwidth and Q from the data and from theory.",
    ),
    (
        "item",
        "- Discussion of uncertainties: instrument accuracy, component tolerances, coil "
        "resistance and generator output resistance; propagate the uncertainties to f0 and Q "
        "following the GUM [2].",
    ),
    (
        "item",
        "- Conclusion: summarise the results and state whether measurement and theory "
        "agree within the uncertainties.",
    ),
    (
        "p",
        "Every figure needs labelled axes with SI units and a numbered caption. Quote results "
        "with their uncertainty and a sensible number of digits, and cite your sources.",
    ),
    ("h", "6 Submission and assessment"),
    (
        "p",
        "Upload the report as PDF together with your raw data within one week after the second "
        "session. Weighting: theory 20 %, method 15 %, results 30 %, uncertainties 20 %, "
        "presentation 15 %.",
    ),
    ("h", "References"),
    (
        "ref",
        "[1] E. M. Purcell and D. J. Morin, Electricity and Magnetism, 3rd ed., Cambridge "
        "University Press, 2013, chapter 8 (alternating-current circuits). "
        "doi:10.1017/CBO9781139012973",
    ),
    (
        "ref",
        "[2] JCGM 100:2008, Evaluation of measurement data - Guide to the expression of "
        "uncertainty in measurement (GUM), BIPM, 2008. doi:10.59161/JCGM100-2008E",
    ),
)


def assignment_pdf() -> bytes:
    doc = PdfDocument(
        title="Lab 4: Resonance in a series RLC circuit",
        author="PHYS 2140 teaching team",
    )
    for kind, text in ASSIGNMENT:
        doc.add(kind, text)
    return doc.to_bytes()


# --------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------


def generate(out_dir: Path) -> tuple[Circuit, Sweep, Estimates]:
    circuit = Circuit()
    sweep = measured_sweep(circuit, np.random.default_rng(SEED))
    est = estimate(sweep)
    (out_dir / "data").mkdir(parents=True, exist_ok=True)
    (out_dir / "data" / "sweep.csv").write_text(sweep_csv(sweep), encoding="utf-8", newline="\n")
    (out_dir / "params.ini").write_text(params_ini(circuit), encoding="utf-8", newline="\n")
    (out_dir / "notes_zh.md").write_text(notes_zh(circuit, est), encoding="utf-8", newline="\n")
    # a Windows lab PC: GBK code page and CRLF line endings
    (out_dir / "logbook_gbk.txt").write_bytes(logbook_zh().replace("\n", "\r\n").encode("gbk"))
    (out_dir / "assignment.pdf").write_bytes(assignment_pdf())
    return circuit, sweep, est


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate examples/rlc-resonance/.")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder")
    parser.add_argument(
        "--check", action="store_true", help="print theory values and data estimates"
    )
    args = parser.parse_args(argv)
    circuit, sweep, est = generate(args.out)
    if args.check:
        ideal = ideal_sweep(circuit, sweep.f)
        print(
            f"theory: f0 = {circuit.f0:.1f} Hz, Q = {circuit.q:.3f}, "
            f"bandwidth = {circuit.bandwidth:.1f} Hz"
        )
        print(f"noise-free V_R peak on grid: {sweep.f[int(np.argmax(ideal.v_r))]:.0f} Hz")
        print(
            f"data: V_R peak {est.f_peak_vr:.0f} Hz, V_R/V_in peak {est.f_peak_ratio:.0f} Hz, "
            f"phase zero {est.f_phase_zero:.1f} Hz, f1 {est.f1:.1f} Hz, f2 {est.f2:.1f} Hz, "
            f"bandwidth {est.bandwidth:.1f} Hz, Q {est.q:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
