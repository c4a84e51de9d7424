#!/usr/bin/env bash
# Runs every benchmark and prints its figures (needs `bash scripts/setup.sh --dev` first).
# Best on an otherwise idle machine: the figures are timings.
set -euo pipefail
cd "$(dirname "$0")/.."
py=.venv/bin/python
[ -x "$py" ] || py=python3
echo "== accuracy (fixtures + 20 fresh randomized layouts)"; $py -m benchmarks.accuracy --fresh 20
echo "== speed and memory";                               $py benchmarks/speed.py
echo "== LOINC matcher";                                  $py benchmarks/loinc.py
echo "== review routing";                                 $py -m benchmarks.review
echo "== job service";                                    $py benchmarks/service.py
