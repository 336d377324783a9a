"""LoopBench's corpus: labelled explorer trajectories, written as JSON under trajectories/.

    .venv/bin/python bench/loopbench/corpus.py     # rewrites trajectories/*.json

A trajectory is what a model would answer, call after call, whatever the tools say:
`replies` are played in order, then `loop` repeats for ever (a collapse keeps collapsing).
A reply is `{"calls": [[tool, args], ...]}` or `{"content": text}`; `{"content": ""}` is an
empty reply (neither text nor a tool call), which is not a final answer. A string argument
containing `{n}` gets the model call's number, so a field can vary from call to call.
`changes` (keyed by model-call number, as a string) rewrite files just before the tool calls
of that model call run (a poll whose result changes, a file rewritten between two reads;
writing the same text again is a rewrite with identical bytes: a new mtime, the same
content). `collapse_at` is the model call (1-based) where the collapse begins: its first
call that adds nothing the explorer has not already seen (a repeated call or round, a
re-spelling of a path already read, a read returning a window already seen, a poll of an
unchanged file, a redrawn figure, a failure whose error, its paths and numbers aside, was
already met, the first of a final run of empty replies); null when the
trajectory has no collapse and ends with a final answer. Every trajectory explores the same
folder, folder.json; a value starting with `base64:` is a binary file (an image).

The first 44 trajectories were written for labscribe's own guards. The rest (peers.py) are
translated from other agents' test suites and issue trackers and carry two more fields:
`source` (peer, ref: the file or issue read, test: the test or issue title) and
`peer_verdict` (what the peer's test expects, in its own terms).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TRAJECTORIES = HERE / "trajectories"
FOLDER = HERE / "folder.json"
"""The data folder every trajectory explores; `changes` edit a private copy of it."""
FINAL = {"content": "The folder holds an RLC resonance sweep; f0 is near 5 kHz."}

RUNS = [f"data/run_{n:02d}.csv" for n in range(1, 13)]
FILES: dict[str, str] = {
    "notes.md": "# Lab notes\nResonance near 5 kHz. Quality factor about 5.\n",
    "params.ini": "[circuit]\nR = 47\nL = 0.01\nC = 1e-7\n",
    "data/sweep.csv": "frequency_Hz,V_R\n"
    + "".join(f"{1000 + 20 * i},{0.01 * i:.2f}\n" for i in range(300)),
    "data/big.log": "".join(f"{n:05d} sample {n * 7 % 1000} mV\n" for n in range(3000)),
    "status.log": "state: running 0%\n",
    **{path: f"t,v\n{n},{n * n}\n" for n, path in enumerate(RUNS)},
}
BASE_FILES = tuple(FILES)
"""The folder the first 44 trajectories were written for; the peer trajectories add to it."""
WIDE_COLUMNS = 40
FILES |= {
    # 40 channels a row: about 335 characters a line, so read_file's 7000-character cap
    # binds at 21 lines, before any `limit` above 21.
    "data/wide.csv": "frequency_Hz,"
    + ",".join(f"ch{c:02d}_mV" for c in range(1, WIDE_COLUMNS + 1))
    + "\n"
    + "".join(
        f"{1000 + 50 * i},"
        + ",".join(f"{(i * c * 37) % 1000 / 7:.4f}" for c in range(1, WIDE_COLUMNS + 1))
        + "\n"
        for i in range(120)
    ),
    # Different files whose names share a prefix with data/sweep.csv.
    "data/sweep_fit.csv": "frequency_Hz,V_fit\n"
    + "".join(f"{1000 + 100 * i},{0.02 * i:.2f}\n" for i in range(60)),
    "data/sweep_raw.csv": "t_s,V_raw\n"
    + "".join(f"{i / 1000:.3f},{(i * 13) % 97 / 100:.2f}\n" for i in range(80)),
    "data/sweep_2.csv": "frequency_Hz,V_R\n"
    + "".join(f"{4000 + 10 * i},{0.5 + 0.001 * i:.3f}\n" for i in range(40)),
    # A photographed plot label: read_image reads "f0 = 5.02 kHz Q = 5.1" from it.
    "plot.png": "base64:"
    "iVBORw0KGgoAAAANSUhEUgAAASwAAAA8CAAAAAD5t9iGAAACOUlEQVR42u3aT0gUYRgG8GfMwAiZIRSEbnawyCjYqGy2"
    "vs2Sig5alw5dOhQRnTpYF0GMLpISeCgQsj9Qhw4h0SEqyqKNOnVI0iKJQBGXYEc0Cf89HWZ2dpYx8FCHHZ738H3wzrvP"
    "4Qffxy47FqFabVWIQFjCEpawhCUsEQhLWMISlrCEJQJhCUtYwhKWsEQgrP+ONdo9LZDVYh1fN9eWbouCPa/PZDoATPv9"
    "gX07ngGAg3B1SuNup5p23l8hAN5pOwFaLJbD9l72XI507t30d7+f2780spkkbYarzWg9dfPMu6/jAUz3lU6WZUWwbqwx"
    "WyY43hh52j3o71snON7IkYecrfWFprYNh1jnjVsZzB98RzJ7NB7ASSYAy4r8yep4tVMVy3U54Ms5AEPAxV+fN1zfBBT6"
    "uPvmFgAnd6SjGY4H+MvVhS4/YeNYFfC74UcsoDBZ3lW5YrdhyN+t7f2Pzr4s9seuvQIAXDjVDMxnAMwD+PQ4W3KwZ/8e"
    "kJw7yw6OGzlqjDEkvy9ysSY8hpxJvSdJVu05E7mzFnZ/LCS0ZEm+TccDYrdbud9ZtNney55Lkc7JQWYPcCboL594EAwu"
    "HeovYl3pDOdfuB7z6SfxgCRiea1uqxfpfHXN4W9sCfoD64055g/m6j+EWGv3GjMXfOBOald1dV88IBlY1r9/i+bncCah"
    "X0otvXKk34bCEpawhCUsEQhLWMISlrCEJQJhCUtYwhKWsEQgLGEJS1jCEpYIhCUsYQkrmfUHY7q1XCNJPBAAAAAASUVO"
    "RK5CYII=",
}


def call(tool: str, **args: Any) -> list[Any]:
    return [tool, args]


def calls(*each: list[Any]) -> dict[str, Any]:
    return {"calls": list(each)}


def read(path: str, **more: Any) -> dict[str, Any]:
    return calls(call("read_file", path=path, **more))


def look(path: str = ".", **more: Any) -> dict[str, Any]:
    return calls(call("list_dir", path=path, **more))


def collapse(name: str, covers: str, prefix: list, loop: list, *, at: int) -> dict[str, Any]:
    return {"name": name, "covers": covers, "collapse_at": at, "replies": prefix, "loop": loop}


def clean(name: str, covers: str, replies: list, **extra: Any) -> dict[str, Any]:
    return {"name": name, "covers": covers, "collapse_at": None, "replies": [*replies, FINAL],
            "loop": []} | extra  # fmt: skip


def corpus() -> list[dict[str, Any]]:
    """labscribe's own 44 trajectories, then the ones translated from peers (peers.py)."""
    orient = [look(), read("notes.md")]
    page = [read("data/big.log", offset=200 * n) for n in range(16)]
    own = [
        # exact repetition
        collapse("exact-read-from-start", "exact repetition", [], [read("notes.md")], at=2),
        collapse("exact-list-dir", "exact repetition", [], [look()], at=2),
        collapse("exact-read-after-orienting", "exact repetition", orient,
                 [read("data/sweep.csv")], at=4),
        collapse("exact-read-page", "exact repetition", orient,
                 [read("data/big.log", offset=200)], at=4),
        collapse("exact-after-paging", "exact repetition", page[:4], [page[3]], at=5),
        collapse("exact-missing-file", "exact repetition", [], [read("data/sweep.xlsx")], at=2),
        collapse("poll-that-never-changes", "exact repetition", [look()],
                 [read("status.log")], at=3),
        # the same call with its keys reordered or its defaults spelled out
        collapse("keys-reordered", "keys reordered", [], [
            calls(call("read_file", path="params.ini", offset=0, limit=200)),
            calls(["read_file", {"limit": 200, "path": "params.ini", "offset": 0}]),
            calls(["read_file", {"offset": 0, "limit": 200, "path": "params.ini"}]),
        ], at=2),
        collapse("defaults-spelled-out", "keys reordered", [look()], [
            read("notes.md"), read("notes.md", offset=0), read("notes.md", offset=0, limit=200),
        ], at=3),
        collapse("list-dir-default-path", "keys reordered", [], [
            calls(call("list_dir")), look("."),
        ], at=2),
        # the same call with a free-text field that varies
        collapse("reason-varies", "non-semantic field varies", [],
                 [read("notes.md", reason="check the notes again, attempt {n}")], at=2),
        collapse("description-varies", "non-semantic field varies", orient,
                 [look("data", description="see what else is in data ({n})")], at=4),
        collapse("why-varies-on-a-page", "non-semantic field varies", [],
                 [read("data/sweep.csv", offset=100, why="verify row {n}")], at=2),
        collapse("reason-and-keys-vary", "non-semantic field varies", [look()], [
            read("params.ini", reason="look {n}"),
            calls(["read_file", {"reason": "again {n}", "offset": 0, "path": "params.ini"}]),
        ], at=3),
        # cycles
        collapse("ab-two-files", "A-B cycle", [], [read("notes.md"), read("params.ini")], at=3),
        collapse("ab-list-and-read", "A-B cycle", [], [look(), read("notes.md")], at=3),
        collapse("ab-after-work", "A-B cycle", [look(), read("notes.md"), read("params.ini")],
                 [read("data/sweep.csv"), look("data")], at=6),
        collapse("ab-after-paging", "A-B cycle", page[:3],
                 [read("notes.md"), read("data/big.log", offset=600)], at=6),
        collapse("abc-three-files", "A-B-C cycle", [],
                 [read("notes.md"), read("params.ini"), look()], at=4),
        collapse("abc-data-tour", "A-B-C cycle", [look()],
                 [look("data"), read("data/sweep.csv"), read("notes.md")], at=5),
        collapse("abc-with-errors", "A-B-C cycle", [],
                 [read("notes.md"), read("data/missing.csv"), look("data")], at=4),
        # the same error, arguments varying
        collapse("missing-files-vary", "same error, varying arguments", [],
                 [read("data/run_{n}.xlsx")], at=2),
        collapse("outside-paths-vary", "same error, varying arguments", [look()],
                 [read("../secret-{n}.txt")], at=3),
        collapse("missing-dirs-vary", "same error, varying arguments", [],
                 [look("raw-{n}")], at=2),
        collapse("bad-offset-type", "same error, varying arguments", [],
                 [read("notes.md", offset="line {n}")], at=2),
        # parallel identical calls in one reply, again and again
        collapse("parallel-three-identical", "parallel identical calls", [],
                 [calls(*[call("read_file", path="notes.md")] * 3)], at=1),
        collapse("parallel-two-identical", "parallel identical calls", [look()],
                 [calls(*[call("read_file", path="params.ini")] * 2)], at=2),
        # loop-free work
        clean("paging-a-long-log", "paging", page),
        clean("paging-the-sweep", "paging",
              [read("data/sweep.csv", limit=50, offset=50 * n) for n in range(6)]),
        clean("side-by-side-paging", "paging",
              [r for n in range(4) for r in (read("data/big.log", offset=200 * n),
                                             read("data/sweep.csv", offset=50 * n, limit=50))]),
        clean("poll-until-done", "poll whose result changes",
              [look()] + [read("status.log")] * 8,
              changes={str(k): {"status.log": f"state: running {10 * k}% ({k})\n"}
                       for k in range(3, 11)}),
        clean("poll-two-logs", "poll whose result changes",
              [read("status.log"), read("data/sweep.csv", limit=5)] * 4,
              changes={str(k): {"status.log": f"state: step {k}\n",
                                "data/sweep.csv": f"frequency_Hz,V_R\n{k},{k}\n"}
                       for k in range(2, 9)}),
        clean("re-read-after-change", "re-read after the file changed",
              [read("notes.md"), look(), read("notes.md")],
              changes={"2": {"notes.md": "# Lab notes\nCorrected: resonance at 5.07 kHz.\n"}}),
        clean("re-read-after-two-changes", "re-read after the file changed",
              [read("params.ini"), read("params.ini"), read("params.ini")],
              changes={"2": {"params.ini": "[circuit]\nR = 50\n"},
                       "3": {"params.ini": "[circuit]\nR = 51\nL = 0.01\n"}}),
        clean("read-every-file-once", "wandering", [
            look(), look("data"), *[read(p) for p in sorted(BASE_FILES) if p != "status.log"],
        ]),
        clean("wander-the-runs", "wandering", [look("data")] + [read(path) for path in RUNS]),
        clean("short-and-done", "wandering", [look(), read("data/sweep.csv", limit=20)]),
        clean("recover-after-warn", "recovers after the warn",
              [read("notes.md")] * 3 + [look(), read("params.ini")]),
        clean("recover-after-warn-listing", "recovers after the warn",
              [look()] * 3 + [read("data/sweep.csv"), read("notes.md")]),
        clean("recover-from-a-repeated-error", "recovers after the warn",
              [read("data/sweep.xlsx")] * 3 + [look("data"), read("data/sweep.csv")]),
        clean("recover-twice", "recovers after the warn",
              [read("notes.md")] * 3 + [look()] * 3 + [read("params.ini")]),
        clean("look-back-once", "recovers after the warn",
              [read("notes.md"), look(), read("params.ini"), read("notes.md")]),
        clean("parallel-identical-once", "parallel identical calls",
              [look(), calls(*[call("read_file", path="notes.md")] * 3), read("params.ini")]),
        clean("parallel-distinct", "parallel identical calls",
              [calls(call("read_file", path="notes.md"), call("read_file", path="params.ini"),
                     call("list_dir", path="data"))]),
    ]  # fmt: skip
    from peers import peer_trajectories  # peers.py builds on the helpers above

    return own + peer_trajectories()


def load() -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The shared folder (path to text) and every trajectory, in file order."""
    folder = json.loads(FOLDER.read_text())
    paths = sorted(TRAJECTORIES.glob("*.json"), key=lambda path: int(path.name.split("-")[0]))
    return folder, [json.loads(path.read_text()) for path in paths]


def main() -> None:
    TRAJECTORIES.mkdir(exist_ok=True)
    for old in TRAJECTORIES.glob("*.json"):
        old.unlink()
    FOLDER.write_text(json.dumps(FILES, indent=1) + "\n")
    for number, trajectory in enumerate(corpus(), start=1):
        path = TRAJECTORIES / f"{number:02d}-{trajectory['name']}.json"
        path.write_text(json.dumps(trajectory, indent=1, ensure_ascii=False) + "\n")
    print(f"{number} trajectories in {TRAJECTORIES}")


if __name__ == "__main__":
    main()
