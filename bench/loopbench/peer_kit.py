"""What LoopBench's translated trajectories are built from: where each peer's test lives,
the figure code a model would write, and the helpers that re-express a peer's scenario.

Apart from the scenarios (peer_disguised_repeats.py, peer_detector_classics.py), which
both use them, so that each of those reads as a list of scenarios and nothing else.
"""

from __future__ import annotations

from typing import Any

from corpus import FILES, call, calls

GEMINI_TEST = "google-gemini/gemini-cli: packages/core/src/services/loopDetectionService.test.ts"
GEMINI_PROMPT = (
    "google-gemini/gemini-cli: packages/core/src/services/loopDetectionService.ts "
    "(LOOP_DETECTION_SYSTEM_PROMPT, the LLM check's rules)"
)
QWEN_TEST = "QwenLM/qwen-code: packages/core/src/services/loopDetectionService.test.ts"
OPENHANDS_TEST = "All-Hands-AI/OpenHands: tests/unit/test_is_stuck.py"
SDK_TEST = "OpenHands/software-agent-sdk: tests/cross/test_stuck_detector.py"
ROO_TEST = "RooCodeInc/Roo-Code: src/core/tools/__tests__/ToolRepetitionDetector.spec.ts"
CLINE_TEST = "cline/cline: src/core/task/__tests__/loop-detection.test.ts"
LANGCHAIN_TEST = (
    "langchain-ai/langchain: libs/langchain_v1/tests/unit_tests/agents/middleware/"
    "implementations/test_tool_call_limit.py"
)
GOOSE_TEST = "block/goose: crates/goose/tests/repetition_inspector_tests.rs"
CREWAI_TEST = "crewAIInc/crewAI: lib/crewai/tests/agents/test_loop_detector.py"

SWEEP = "data/sweep.csv"
WIDE = "data/wide.csv"
# One figure of the sweep, as a model would write it (the data folder is data/ in the
# sandbox, so data/sweep.csv is data/data/sweep.csv there).
FIGURE = (
    "import pandas as pd\n"
    "import matplotlib.pyplot as plt\n"
    "d = pd.read_csv('data/data/sweep.csv')\n"
    "plt.plot(d['frequency_Hz'], d['V_R'])\n"
    "plt.xlabel('frequency (Hz)')\n"
    "plt.ylabel('V_R (V)')\n"
)
LOAD = FIGURE[: FIGURE.index("plt.plot")]
# Six different mistakes, each failing with a different error, then the figure that works.
DEBUGGING = [
    "import matplotlib.pyplot as plt\nplt.plot(frequency, volts)\n",  # NameError
    LOAD + "plt.plot(d['freq'], d['V_R'])\n",  # KeyError: a column that does not exist
    LOAD + "plt.plot(d['frequency_Hz'], d['V_R'])\nplt.title(len(d['V_R'].max()))\n",  # TypeError
    LOAD.replace("data/data/", "data/") + "plt.plot(d['frequency_Hz'], d['V_R'])\n",  # not found
    LOAD + "plt.plot(d['frequency_Hz'], d['V_R'][:10])\n",  # ValueError: shapes differ
    "import scipy.signal\nimport matplotlib.pyplot as plt\nplt.plot([1, 2])\n",  # refused import
    FIGURE,
]
FAILING = "import matplotlib.pyplot as plt\nplt.plot(x, y)\n"  # NameError: x is not defined
STATUS = "state: running 0%\n"


def window_starts(path: str, limit: int, cap: int = 7000) -> list[int]:
    """The offsets a model paging through `path` by the windows read_file shows would use:
    each window holds at most `limit` lines and `cap` characters (newlines counted)."""
    lines = FILES[path].splitlines(keepends=True)
    starts, start = [], 0
    while start < len(lines):
        starts.append(start)
        end, size = start, 0
        while end < len(lines) and end - start < limit:
            if end > start and size + len(lines[end]) > cap:
                break
            size += len(lines[end])
            end += 1
        start = end
    return starts


def figure(code: str, name: str, **more: Any) -> dict[str, Any]:
    return calls(call("make_figure", code=code, name=name, **more))


def image(path: str) -> dict[str, Any]:
    return calls(call("read_image", path=path))


EMPTY: dict[str, Any] = {"content": ""}
"""A reply with neither text nor a tool call."""


def peer(item: dict[str, Any], name: str, ref: str, test: str, verdict: str) -> dict[str, Any]:
    return item | {"source": {"peer": name, "ref": ref, "test": test}, "peer_verdict": verdict}
