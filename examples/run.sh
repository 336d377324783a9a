#!/usr/bin/env bash
# Install labscribe into .venv and run it on the shipped example folder.
# Extra arguments go to `labscribe run` (for example --base-url, --explore-model, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/labscribe ] || {
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet -e .
}
exec .venv/bin/labscribe run examples/rlc-resonance --out labscribe-out/rlc-resonance "$@"
