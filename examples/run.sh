#!/usr/bin/env bash
# Install labscribe into .venv (.ci/setup), and TeX for the PDF where this user may install it
# (.ci/tex says in one line when not), then run it on the example: with no endpoint
# configured, the report is written from the data alone.
#   bash examples/run.sh [--local] [labscribe run options...]
# --local also builds and installs the embedded local model (about 5 minutes, once); other
# arguments go to `labscribe run` (for example --base-url, --explore-model, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
setup=()
if [ "${1:-}" = "--local" ]; then
  setup=(--local)
  shift
fi
bash .ci/tex
bash .ci/setup "${setup[@]}"
exec .venv/bin/labscribe run examples/rlc-resonance --out labscribe-out/rlc-resonance "$@"
