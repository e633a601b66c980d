#!/usr/bin/env bash
# Refreshes the web board's screenshots in docs/images (README.md and docs/WEB.md show them) by
# running the browser test against them: scripts/web-screenshots.sh [build/apps/fairyzero]
set -euo pipefail
cd "$(dirname "$0")/.."
python=/usr/bin/python3
[[ -x $python ]] || python=python3
"$python" tests/apps/web_browser.py "${1:-build/apps/fairyzero}" docs/images
