#!/usr/bin/env bash
# Install the Debian packages the engine needs to build and test (chromium
# renders the HTML report in a test, python3-jsonschema checks the YAML
# against schemas/, libcivetweb-dev serves foh serve's page), if any is
# missing (slurm-wlm and munge: a single-node cluster for the shards' test;
# the test starts and stops its own daemons), and Node.js's puppeteer-core (tests/browser, from its lock file;
# it drives Debian's chromium, it downloads no browser). Runs apt-get as
# root (or through sudo).
set -euo pipefail
packages=(build-essential cmake pkg-config liblua5.4-dev libyaml-dev libcmocka-dev libjansson-dev lua-check valgrind chromium libedit-dev libcivetweb-dev tmux curl
          slurm-wlm munge
          python3-jsonschema python3-yaml)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || {
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
}
browser="$(dirname "$0")/../tests/browser"
if [ ! -d "$browser/node_modules/puppeteer-core" ]; then
  echo "installing puppeteer-core for the browser tests (tests/browser/package-lock.json)"
  (cd "$browser" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund >/dev/null)
fi
