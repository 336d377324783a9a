"""How fast the embedded model reads a prompt and writes a reply, with flash attention on and
off, on one core and on all the cores this process may use.

    .venv/bin/python bench/bench_embedded_speed.py [--prompt-tokens N] [--reply-tokens N]

The model is loaded as labscribe's local server loads it, with flash attention on and
off; each reads a prompt of about N tokens (the size of a writer's brief
on the embedded model's 8k window is about 6,000) and writes up to the reply's tokens.
Threads follow the cores the process may use, so one core is measured under `taskset -c 0`
by the bench itself. Flash attention reads faster and writes slower, and a report is
mostly writing, so the local server leaves it off (nodes/runtime/local_server.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

PROMPT = "The resonance of an RLC circuit was measured at 41 frequencies. "


def measure(flash: bool, prompt_tokens: int, reply_tokens: int) -> dict[str, float]:
    from llama_cpp import Llama

    from labscribe.nodes.runtime.settings import bundled_gguf

    cores = len(os.sched_getaffinity(0))
    llama = Llama(model_path=str(bundled_gguf()), n_ctx=8192, n_threads=cores,
                  flash_attn=flash, verbose=False)  # fmt: skip
    unit = len(llama.tokenize(PROMPT.encode()))
    prompt = PROMPT * max(1, prompt_tokens // unit)
    started = time.perf_counter()
    llama.create_completion(prompt=prompt, max_tokens=1)
    read = time.perf_counter() - started
    started = time.perf_counter()
    written = llama.create_completion(prompt=prompt, max_tokens=reply_tokens, temperature=0.2)
    write = time.perf_counter() - started
    tokens = len(llama.tokenize(prompt.encode()))
    return {"cores": cores, "flash": flash, "read_tok_s": tokens / read,
            "write_tok_s": written["usage"]["completion_tokens"] / write}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompt-tokens", type=int, default=3_000)
    parser.add_argument("--reply-tokens", type=int, default=300)
    parser.add_argument("--one", choices=["on", "off"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        row = measure(args.one == "on", args.prompt_tokens, args.reply_tokens)
        print(json.dumps(row))
        return
    print("| cores | flash attention | prompt read, tokens/s | reply written, tokens/s |")
    print("|---|---|---|---|")
    for pin in (["taskset", "-c", "0"], []):
        for flash in ("on", "off"):
            command = [*pin, sys.executable, __file__, "--one", flash,
                       "--prompt-tokens", str(args.prompt_tokens),
                       "--reply-tokens", str(args.reply_tokens)]  # fmt: skip
            row = json.loads(subprocess.run(command, capture_output=True, check=True,
                                            text=True).stdout)  # fmt: skip
            print(f"| {row['cores']} | {flash} | {row['read_tok_s']:.0f} "
                  f"| {row['write_tok_s']:.0f} |")  # fmt: skip


if __name__ == "__main__":
    main()
