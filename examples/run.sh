#!/usr/bin/env bash
# Install labscribe (with the embedded local model) into .venv, and TeX for the PDF where
# this user may install it (.ci/tex says in one line when not), then run it on the example.
# Extra arguments go to `labscribe run` (for example --base-url, --explore-model, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/tex
bash .ci/setup
exec .venv/bin/labscribe run examples/rlc-resonance --out labscribe-out/rlc-resonance "$@"
