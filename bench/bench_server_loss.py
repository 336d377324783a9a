"""How long `labscribe batch --server` takes to say it lost a server that went away.

A real `langgraph dev` (started here) runs one folder whose explorer's second request hangs
on a scripted endpoint; the server is stopped while the run waits, and the time from the stop
to the batch's exit is measured, once with the batch's client (graph/server_batch.py,
CONNECT_RETRIES) and once with as many connection retries as the SDK's own client (5).

    .venv/bin/python bench/bench_server_loss.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "graph")]

from langgraph_dev import LanggraphDev  # noqa: E402
from scripted_server import Hang, ScriptedEndpoint, text_reply  # noqa: E402
from server_batch_cases import FINISH, OPTIONS, SLOW, course_of, explorer, flags  # noqa: E402

from labscribe.graph.server_batch import CONNECT_RETRIES  # noqa: E402

SDK_RETRIES = 5  # langgraph_sdk.get_sync_client's httpx.HTTPTransport(retries=5)
BATCH = (
    "import sys; from labscribe.graph import server_batch; "
    "server_batch.CONNECT_RETRIES = int(sys.argv[1]); "
    "from labscribe.graph.cli import main; sys.exit(main(sys.argv[2:]))"
)


def seconds_to_give_up(retries: int, root: Path) -> float:
    (root / "server").mkdir()
    served = LanggraphDev(root / "server")
    served.start()
    hang = Hang(FINISH)
    scripts = {"explorer": [explorer(hang)], "writer": [text_reply("unused")]}
    course = course_of(ROOT / "examples" / "rlc-resonance", root, ["hung"], {"hung": SLOW})
    try:
        with ScriptedEndpoint(scripts) as endpoint:
            command = [sys.executable, "-c", BATCH, str(retries), "batch", str(course),
                       "--out", str(root / "reports"), "--server", served.url,
                       *OPTIONS, *flags(endpoint)]  # fmt: skip
            batch = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if not hang.reached.wait(120):
                raise RuntimeError("the run never asked the model its second question")
            served.stop()
            stopped = time.monotonic()
            hang.release.set()
            batch.communicate(timeout=600)
            return time.monotonic() - stopped
    finally:
        served.stop()


def main() -> None:
    for name, retries in (("labscribe", CONNECT_RETRIES), ("the SDK's", SDK_RETRIES)):
        with tempfile.TemporaryDirectory() as tmp:
            seconds = seconds_to_give_up(retries, Path(tmp))
        print(f"{name} client (connection retries: {retries}): lost the server {seconds:.1f} s "
              "after it stopped")  # fmt: skip


if __name__ == "__main__":
    main()
