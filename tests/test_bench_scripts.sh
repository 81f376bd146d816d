#!/usr/bin/env bash
# scripts/bench_series.sh and scripts/plot_bench.py (docs/performance.md, "Measuring it yourself"):
# a tiny series with rubble only (no ODE/Bullet drivers in the test's compare directory) gives one JSON
# line per run, tagged with its round and the load, the sleeping round's line says when everything
# slept; where matplotlib is installed, the plot script draws the three pictures and prints the tables.
set -uo pipefail
rubble=${1:?path to rubble}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

ROUNDS=2 STEPS=12 SCENES=stack SCALING="pile:2 pile:3" THREADS=1 SLEEP_SCENES=stack SLEEP_STEPS=90 \
  bash "$src/scripts/bench_series.sh" "$tmp/series.jsonl" "$rubble" "$tmp/no-peers" 2>"$tmp/log" ||
  { cat "$tmp/log"; fail "bench_series.sh failed"; }
grep -q "no-peers/ode_bench not found" "$tmp/log" || fail "a missing peer is not named: $(cat "$tmp/log")"
# 2 rounds of stack, pile:2 and pile:3 once, the sleeping stack once
[ "$(wc -l < "$tmp/series.jsonl")" -eq 5 ] || fail "expected 5 runs: $(cat "$tmp/series.jsonl")"
[ "$(grep -c '"scene":"stack".*"steps":12,.*"round":[12],"load":[0-9.]*}$' "$tmp/series.jsonl")" -eq 2 ] ||
  fail "the two timing rounds are not tagged: $(cat "$tmp/series.jsonl")"
grep -q '"scene":"pile:3","bodies":180,"steps":4,' "$tmp/series.jsonl" || fail "no pile:3 run of STEPS/3 steps"
grep -q '"scene":"stack".*"sleep":true.*"awake_final":0,"all_asleep_s":[0-9.]*,"round"' "$tmp/series.jsonl" ||
  fail "the sleeping stack does not say when it slept: $(cat "$tmp/series.jsonl")"
echo "ok: bench_series.sh wrote 5 tagged runs"

py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if ! "$py" -c "import matplotlib" 2>/dev/null; then
  echo "skip: matplotlib is not installed (apt-get install python3-matplotlib): plot_bench.py not run"
  exit 0
fi
"$py" "$src/scripts/plot_bench.py" "$tmp/series.jsonl" "$tmp" >"$tmp/tables" 2>&1 || { cat "$tmp/tables"; fail "plot_bench.py failed"; }
for f in bench-ms-per-step bench-pile-scaling bench-phases; do
  [ -s "$tmp/$f.png" ] || fail "plot_bench.py did not write $f.png: $(cat "$tmp/tables")"
done
grep -q "^| stack | " "$tmp/tables" || fail "no stack row in the timing table: $(cat "$tmp/tables")"
grep -q "^| stack | rubble soft, 1 thr | 90 | 0 of 20 | [0-9.]* s |" "$tmp/tables" ||
  fail "no sleeping row: $(cat "$tmp/tables")"
echo "ok: plot_bench.py drew the three pictures and printed both tables"
