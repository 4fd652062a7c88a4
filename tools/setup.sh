#!/bin/sh
# Installs what sgdsim needs to build and test, from Debian's packages only (run as root on Debian bookworm).
# Installs nothing when everything is already there.
set -eu
packages="cmake g++ make pkg-config libsimgrid-dev libboost-program-options-dev libpugixml-dev
nlohmann-json3-dev libgtest-dev libjemalloc-dev python3 clang-format"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "sgdsim setup: installing$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
