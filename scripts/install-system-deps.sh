#!/usr/bin/env bash
# Install the Debian packages the project needs. Does nothing when they are already there.
#   install-system-deps.sh build   Node.js and npm: the build draws the labs' views in Node with
#                                  preact-render-to-string, and npm installs it, Preact and
#                                  onnxruntime-web (shipped with the live model)
#   install-system-deps.sh         the same, and for the tests Chromium (driven by Playwright
#                                  through executable_path; Playwright never downloads a browser
#                                  of its own) and the DejaVu fonts the screenshots use
set -euo pipefail

missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ "${1:-all}" != build ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  fc-list 2>/dev/null | grep -qi dejavu || missing+=(fonts-dejavu-core)
fi
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
