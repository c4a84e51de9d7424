#!/usr/bin/env bash
# Runs every benchmark and prints its figures (needs `bash scripts/setup.sh --dev` first).
# Best on an otherwise idle machine: the figures are timings.
set -euo pipefail
cd "$(dirname "$0")/.."
py=.venv/bin/python
[ -x "$py" ] || py=python3
echo "== accuracy (both families + fresh seeds of each)";  $py -m benchmarks.accuracy --family all --fresh 20 --html-fresh 20
echo "== speed and memory";                               $py benchmarks/speed.py
echo "== memory of hostile inputs and the API process";   $py benchmarks/memory.py
echo "== LOINC matcher";                                  $py benchmarks/loinc.py
echo "== review routing";                                 $py -m benchmarks.review
echo "== FHIR and UCUM coverage";                         $py -m benchmarks.fhir
echo "== job service";                                    $py benchmarks/service.py
