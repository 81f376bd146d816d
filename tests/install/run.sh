#!/usr/bin/env bash
# An application builds against an installed rubble the three ways docs/embedding.md gives:
#   bash tests/install/run.sh [SOURCE_DIR]      (default: the checkout holding this script)
# rubble is built from SOURCE_DIR and installed into a temporary prefix, then examples/hello.c is
# built and run (a) with pkg-config, (b) as a CMake project with find_package(rubble), (c) as the
# one-file build (the installed rubble.c and rubble.h with one cc line). Each program must exit 0 and
# print "ok" last; the three must print the same lines, since they run the same steps.
# Needs meson, ninja, pkg-config, cc, cmake and libyaml's headers. RUBBLE_JOBS=N limits ninja's jobs.
set -euo pipefail
src=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)

fail() { echo "FAIL: $*" >&2; exit 1; }

# Runs a built example and checks how it ended; its output goes to $tmp/out-NAME.
check_run() {
  local name=$1 status=0; shift
  "$@" > "$tmp/out-$name" 2>&1 || status=$?
  [ $status -eq 0 ] || { cat "$tmp/out-$name" >&2; fail "$name: the program exited with status $status ($*)"; }
  [ "$(tail -n 1 "$tmp/out-$name")" = ok ] || { cat "$tmp/out-$name" >&2; fail "$name: the last line is not \"ok\""; }
  echo "  $name: ran, printed $(wc -l < "$tmp/out-$name") lines ending in \"ok\""
}

echo "== rubble from $src into $tmp/prefix"
# only the library and the command line: no tests, viewer or GPU modules, to keep this short
meson setup "$tmp/build" "$src" --prefix="$tmp/prefix" \
  -Dtests=disabled -Dviewer=disabled -Dopencl=disabled -Dcuda=disabled >"$tmp/setup.log" 2>&1 \
  || { cat "$tmp/setup.log" >&2; fail "meson setup"; }
ninja -C "$tmp/build" ${RUBBLE_JOBS:+-j "$RUBBLE_JOBS"} >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log" >&2; fail "build"; }
meson install -C "$tmp/build" --quiet >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; fail "meson install"; }
# the installed program runs without LD_LIBRARY_PATH: it finds librubble by its run path
env -u LD_LIBRARY_PATH "$tmp/prefix/bin/rubble" info >"$tmp/info.log" 2>&1 || { cat "$tmp/info.log" >&2; fail "installed rubble info"; }
echo "  installed; $tmp/prefix/bin/rubble runs: $(head -n 1 "$tmp/info.log")"
# the scenes the installed viewer's picker lists, and a scene file the installed command line runs
[ -f "$tmp/prefix/share/rubble/scenes/demo.yaml" ] || fail "share/rubble/scenes/demo.yaml was not installed"
"$tmp/prefix/bin/rubble" validate "$tmp/prefix/share/rubble/scenes/demo.yaml" >/dev/null ||
  fail "the installed rubble does not validate the installed demo scene"

app=$tmp/app
mkdir -p "$app"
cp "$src/examples/hello.c" "$app/hello.c"

echo "== (a) pkg-config"
export PKG_CONFIG_PATH=$(dirname "$(find "$tmp/prefix" -name rubble.pc -print -quit)")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
version=$(pkg-config --modversion rubble) || fail "pkg-config does not find rubble.pc"
libdir=$(pkg-config --variable=libdir rubble)
# shellcheck disable=SC2046  # the flags are separate words
$cc -std=c11 -O2 -o "$app/hello-pkg-config" "$app/hello.c" $(pkg-config --cflags --libs rubble) -lm \
  || fail "(a) cc with pkg-config's flags"
# a temporary prefix is not on ld.so's search path (an install to /usr/local is, after ldconfig)
check_run pkg-config env LD_LIBRARY_PATH="$libdir" "$app/hello-pkg-config"

echo "== (b) CMake: find_package(rubble $version) and rubble::rubble"
command -v cmake >/dev/null || fail "cmake is not installed"
mkdir -p "$app/cmake"
cat > "$app/cmake/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(hello C)
set(CMAKE_C_STANDARD 11)
find_package(rubble $version REQUIRED)
message(STATUS "rubble \${rubble_VERSION}: \${rubble_LIBRARY}")
add_executable(hello ../hello.c)
target_link_libraries(hello PRIVATE rubble::rubble)
EOF
# Ninja is there already (rubble builds with it); CMake's default generator would need make, which a
# fresh Debian machine does not have
cmake -G Ninja -S "$app/cmake" -B "$app/cmake/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release \
  >"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log" >&2; fail "(b) cmake configure"; }
grep -- "-- rubble " "$tmp/cmake.log" | sed 's/^/  /'
cmake --build "$app/cmake/build" >>"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log" >&2; fail "(b) cmake build"; }
# CMake links the imported library by its path and gives the program a run path to it (build tree)
check_run cmake env -u LD_LIBRARY_PATH "$app/cmake/build/hello"

echo "== (c) one-file build"
amalgamation=$tmp/prefix/share/rubble/amalgamation
[ -f "$amalgamation/rubble.c" ] && [ -f "$amalgamation/rubble.h" ] || fail "(c) $amalgamation/rubble.{c,h} not installed"
cp "$amalgamation/rubble.c" "$amalgamation/rubble.h" "$app/"
(cd "$app" && $cc -std=c11 -O2 -I. -o hello-one-file hello.c rubble.c -lm) || fail "(c) cc hello.c rubble.c"
check_run one-file env -u LD_LIBRARY_PATH "$app/hello-one-file"
if ldd "$app/hello-one-file" | grep -q librubble; then fail "(c) the one-file program links librubble"; fi

for name in cmake one-file; do
  cmp -s "$tmp/out-pkg-config" "$tmp/out-$name" \
    || { diff "$tmp/out-pkg-config" "$tmp/out-$name" >&2; fail "$name printed other lines than pkg-config"; }
done
echo "== the three builds printed the same $(wc -l < "$tmp/out-pkg-config") lines; took $(($(date +%s) - start)) s"
