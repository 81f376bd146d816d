#!/usr/bin/env bash
# One command from a fresh Debian/Ubuntu machine to a running rubble:
#   bash scripts/quickstart.sh demo   installs what is missing, builds, runs the demo scene
#   bash scripts/quickstart.sh test   installs what is missing, builds (warnings are errors), runs the tests
#                                     and says how many ran, passed and skipped, and why each skipped
# Installing packages needs root (or sudo). The build goes to ./build (RUBBLE_BUILD_DIR=DIR for another
# folder); RUBBLE_MESON_OPTIONS adds meson options (CI passes -Dopencl=enabled).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-demo}
case "$mode" in
  demo|test) ;;
  *) echo "usage: bash scripts/quickstart.sh demo|test" >&2; exit 2 ;;
esac
build=${RUBBLE_BUILD_DIR:-build}

# Debian package names.
# To build the library and the command line:
packages=(gcc libc6-dev pkg-config meson ninja-build libyaml-dev)
# To build the viewer, rubble-view (docs/viewer.md): SDL2, OpenGL through libepoxy, libpng for screenshots,
# Dear ImGui (C++) for its panel and DejaVu for its text. The demo builds it too, so that
# build/viewer/rubble-view works after either command.
viewer_packages=(libsdl2-dev libepoxy-dev libpng-dev g++ libimgui-dev fonts-dejavu-core)
# For the test suite only, so that it runs everything a machine without a GPU can run:
test_packages=(
  libcmocka-dev                                          # the unit tests
  pocl-opencl-icd ocl-icd-opencl-dev opencl-headers      # the OpenCL backend and its tests, on the CPU (PoCL)
  clang                                                  # core/kernels/ checked as OpenCL C
  xvfb xauth xdotool libgl1-mesa-dri                     # the viewer's tests: a virtual display, software OpenGL
  doxygen                                                # the API reference builds without warnings
  cmake                                                  # an application finds the installed rubble with CMake
)
packages+=("${viewer_packages[@]}")
if [ "$mode" = test ]; then packages+=("${test_packages[@]}"); fi

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
  # a package this release of the distribution does not have (Dear ImGui on an older one) is left
  # out: the part that needs it is not built, and its tests say so when they skip
  available=()
  for p in "${missing[@]}"; do
    if apt-cache show "$p" >/dev/null 2>&1; then available+=("$p"); else
      echo "== not available from apt here, left out: $p" >&2
    fi
  done
  if [ ${#available[@]} -gt 0 ]; then
    $sudo apt-get install -y -qq --no-install-recommends "${available[@]}" >/dev/null
  fi
fi

setup_args=(-Dbuildtype=release)
if [ "$mode" = test ]; then setup_args+=(-Dwerror=true -Dtests=enabled); else setup_args+=(-Dtests=disabled); fi
# extra meson options from the caller (CI passes -Dopencl=enabled)
read -r -a extra_args <<< "${RUBBLE_MESON_OPTIONS:-}"
setup_args+=("${extra_args[@]}")
if [ -f "$build/build.ninja" ]; then
  meson setup --reconfigure "$build" "${setup_args[@]}" >/dev/null
else
  meson setup "$build" "${setup_args[@]}" >/dev/null
fi
echo "== building"
ninja -C "$build"

if [ "$mode" = demo ]; then
  echo "== running data/scenes/demo.yaml"
  "./$build/tools/rubble" info
  "./$build/tools/rubble" run data/scenes/demo.yaml --steps 600
  exit 0
fi

echo "== testing"
status=0
meson test -C "$build" --print-errorlogs || status=$?

# What ran, and why each skipped test skipped: a skipped test prints its reason (meson keeps it in
# testlog.json); the tests that need hardware or software this script cannot install say so here.
python3 - "$build/meson-logs/testlog.json" <<'EOF' || true
import collections, json, sys

try:
    tests = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
except OSError:
    sys.exit("== no test log (" + sys.argv[1] + "): meson test did not run the tests, see above")
count = collections.Counter(t["result"] for t in tests)
failed = len(tests) - count["OK"] - count["SKIP"] - count["EXPECTEDFAIL"]
expected = f" ({count['EXPECTEDFAIL']} of them by failing as expected)" if count["EXPECTEDFAIL"] else ""
print(f"== tests: {len(tests)} ran, {count['OK'] + count['EXPECTEDFAIL']} passed{expected}, "
      f"{count['SKIP']} skipped, {failed} failed")

def reason(t):
    for stream in ("stdout", "stderr"):
        lines = [l.strip() for l in (t.get(stream) or "").splitlines() if l.strip()]
        said = [l for l in lines if "skip" in l.lower()] or lines[-1:]
        if said:
            r = " ".join(" ".join(said[:2]).split())
            return r if len(r) <= 200 else r[:197] + "..."
    return "(the test printed no reason)"

def hint(r):
    r = r.lower()
    if "cuda" in r and "libcuda.so.1" in r:
        return "needs an NVIDIA GPU and its driver (the CUDA backend is built) (docs/backend-cuda.md)"
    if "cuda" in r or "nvcc" in r:
        return ("needs the CUDA toolkit (nvcc) to build the CUDA backend and an NVIDIA GPU with its driver "
                "to run it; this script installs neither (docs/backend-cuda.md)")
    if "opencl" in r:
        return "needs an OpenCL device: pocl-opencl-icd gives one on the CPU (docs/backend-opencl.md)"
    if "xvfb" in r or "xdotool" in r:
        return "needs xvfb xauth xdotool libgl1-mesa-dri (docs/viewer.md)"
    return None

skipped = collections.defaultdict(list)
for t in tests:
    if t["result"] == "SKIP":
        skipped[reason(t)].append(t["name"].split(":", 1)[-1])  # "suite / test"
for r, names in sorted(skipped.items(), key=lambda kv: -len(kv[1])):
    print(f"   {len(names)} skipped, saying: {r}")
    suites = collections.defaultdict(list)
    for n in names:
        suite, _, test = n.rpartition(" / ")
        suites[suite].append(test)
    for suite, ts in suites.items():
        print(f"      {suite + ': ' if suite else ''}{', '.join(ts)}")
    if hint(r):
        print("      -> " + hint(r))
EOF
exit $status
