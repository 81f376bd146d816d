#!/usr/bin/env bash
# One command from a fresh Debian/Ubuntu machine to a running rubble:
#   bash scripts/quickstart.sh demo   installs what is missing, builds, runs the demo scene
#   bash scripts/quickstart.sh test   installs what is missing, builds (warnings are errors), runs the tests
# Installing packages needs root (or sudo). The build goes to ./build.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-demo}
case "$mode" in
  demo|test) ;;
  *) echo "usage: bash scripts/quickstart.sh demo|test" >&2; exit 2 ;;
esac

# Build and test dependencies (Debian package names); SDL2, libepoxy and libpng for the viewer.
packages=(gcc libc6-dev pkg-config meson ninja-build libyaml-dev libcmocka-dev libsdl2-dev libepoxy-dev libpng-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    echo "need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

setup_args=(-Dbuildtype=release)
if [ "$mode" = test ]; then setup_args+=(-Dwerror=true -Dtests=enabled); else setup_args+=(-Dtests=disabled); fi
# extra meson options from the caller (CI passes -Dopencl=enabled)
read -r -a extra_args <<< "${RUBBLE_MESON_OPTIONS:-}"
setup_args+=("${extra_args[@]}")
if [ -f build/build.ninja ]; then
  meson setup --reconfigure build "${setup_args[@]}" >/dev/null
else
  meson setup build "${setup_args[@]}" >/dev/null
fi
echo "== building"
ninja -C build

if [ "$mode" = demo ]; then
  echo "== running data/scenes/demo.yaml"
  ./build/tools/rubble info
  ./build/tools/rubble run data/scenes/demo.yaml --steps 600
else
  echo "== testing"
  meson test -C build --print-errorlogs
fi
