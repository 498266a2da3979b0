#!/usr/bin/env bash
# Install the Debian packages the tests need: Chromium (driven by Playwright through
# executable_path; Playwright never downloads a browser of its own) and Node.js (runs the
# JavaScript twins of the code samples). Does nothing when they are already there.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
fc-list 2>/dev/null | grep -qi dejavu || missing+=(fonts-dejavu-core)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "error: need root (or sudo) to install ${missing[*]}; install them yourself and run make again" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
