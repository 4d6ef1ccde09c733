#!/usr/bin/env bash
# The browser test of `grail serve` (docs/serve.md), in one command:
#   tests/serve_browser/run.sh
# Installs Debian's Chromium when it is missing (apt-get, as root) and the
# pinned playwright-core (npm ci, from package-lock.json), builds grail, then
# plays the opening of Tamoul in two seat pages and a designer page.
# Screenshots go to target/serve-browser/.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=tests/serve_browser
if ! command -v chromium >/dev/null; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
if ! command -v node >/dev/null; then
  apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
  npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
fi
cargo build --release --quiet
CHROMIUM="$(command -v chromium)" timeout 180 node "$here/run.mjs" target/release/grail target/serve-browser
