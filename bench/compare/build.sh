#!/bin/sh
# Builds the ODE and Bullet drivers into $1 (default /tmp/rubble-compare); nothing goes into the repo.
# Needs: apt-get install -y libode-dev libbullet-dev pkg-config gcc g++
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/rubble-compare}
mkdir -p "$out"
gcc -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra \
    -DODE_VERSION_STRING="\"$(pkg-config --modversion ode)\"" \
    $(pkg-config --cflags ode) "$here/ode_bench.c" -o "$out/ode_bench" $(pkg-config --libs ode) -lm
g++ -std=c++17 -O2 -Wall -Wextra \
    $(pkg-config --cflags bullet) "$here/bullet_bench.cpp" -o "$out/bullet_bench" $(pkg-config --libs bullet) -lm
echo "built $out/ode_bench $out/bullet_bench"
