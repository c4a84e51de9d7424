#!/usr/bin/env bash
# Sets labreport up on a fresh Debian machine: system packages, a virtualenv in .venv, the project.
#   bash scripts/setup.sh        what running the service and the CLI needs (tesseract)
#   bash scripts/setup.sh --dev  also what the tests need (chromium for the browser tests,
#                                PostgreSQL and Redis binaries for the scale-out tests)
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
# OCR language data: English and the European languages the parser reads (parser/language.py).
for lang in eng fra deu ita spa; do
  tesseract --list-langs 2>/dev/null | grep -qx "$lang" || need+=("tesseract-ocr-$lang")
done
if [ "${1:-}" = "--dev" ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
  # The scale-out tests start their own PostgreSQL and Redis from these (scripts/services.sh).
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || need+=(postgresql)
  command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
fi
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing Debian packages: ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
extras=""
[ "${1:-}" = "--dev" ] && extras="[dev]"
.venv/bin/pip install -q --disable-pip-version-check -e ".${extras}"
