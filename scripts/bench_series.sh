#!/usr/bin/env bash
# An interleaved series of `rubble bench` beside ODE and Bullet (bench/compare/), one JSON line per
# run, for scripts/plot_bench.py. Interleaved: each round runs every engine on every scene in turn,
# so a change of load on the machine hits all engines alike instead of one.
#
#   scripts/bench_series.sh OUT.jsonl [RUBBLE] [COMPARE_DIR]
#     RUBBLE       the rubble program (default build/tools/rubble)
#     COMPARE_DIR  where bench/compare/build.sh put ode_bench and bullet_bench (default
#                  /tmp/rubble-compare; engines that are missing are left out, with a note)
#   ROUNDS (default 3), STEPS (default 300), SCENES (default "pyramid boxes pile"),
#   SCALING (default "pile:10 pile:20 pile:30": the pile:S curve, 1 round, STEPS/3 steps),
#   THREADS (default "1 2": rubble's thread counts), SLEEP_SCENES (default "pyramid stack boxes pile":
#   one run each with every engine's own sleeping on, SLEEP_STEPS frames, default 900 = 15 s, rubble
#   at its last thread count; "" leaves them out) are read from the environment.
# Every line gets "round" and "load" (the 1-minute load average when the run started) added, so
# a reader can see what else the machine was doing.
set -euo pipefail
out=${1:?usage: scripts/bench_series.sh OUT.jsonl [RUBBLE] [COMPARE_DIR]}
rubble=${2:-build/tools/rubble}
compare=${3:-/tmp/rubble-compare}
rounds=${ROUNDS:-3}
steps=${STEPS:-300}
scenes=${SCENES:-pyramid boxes pile}
scaling=${SCALING:-pile:10 pile:20 pile:30}
threads=${THREADS:-1 2}
sleep_scenes=${SLEEP_SCENES-pyramid stack boxes pile}
sleep_steps=${SLEEP_STEPS:-900}

[ -x "$rubble" ] || { echo "no rubble program at $rubble (build first, or pass its path)" >&2; exit 2; }
peers=()
for e in ode_bench bullet_bench; do
  if [ -x "$compare/$e" ]; then peers+=("$compare/$e"); else
    echo "note: $compare/$e not found (bench/compare/build.sh $compare builds it); left out" >&2
  fi
done
: > "$out"

# run PROGRAM ARGS...: one bench run, its JSON line tagged with the round and the load
run() {
  local load line
  load=$(cut -d' ' -f1 /proc/loadavg)
  line=$("$@" 2>/dev/null | tail -n 1)
  case "$line" in
    '{'*'}') printf '%s,"round":%s,"load":%s}\n' "${line%\}}" "$round" "$load" >> "$out" ;;
    *) echo "failed: $*" >&2 ;;
  esac
}

for round in $(seq 1 "$rounds"); do
  for s in $scenes; do
    for t in $threads; do run "$rubble" bench --scene "$s" --backend cpu --threads "$t" --steps "$steps"; done
    for p in "${peers[@]}"; do run "$p" --scene "$s" --steps "$steps"; done
    echo "round $round $s done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  done
done
round=1
for s in $scaling; do
  for t in $threads; do run "$rubble" bench --scene "$s" --backend cpu --threads "$t" --steps $((steps / 3)); done
  for p in "${peers[@]}"; do run "$p" --scene "$s" --steps $((steps / 3)); done
  echo "scaling $s done" >&2
done
# sleeping on: awake_final and all_asleep_s say whether and when every body slept
last_threads=${threads##* }
for s in $sleep_scenes; do
  run "$rubble" bench --scene "$s" --backend cpu --threads "$last_threads" --steps "$sleep_steps" --sleep
  for p in "${peers[@]}"; do run "$p" --scene "$s" --steps "$sleep_steps" --sleep; done
  echo "sleeping $s done" >&2
done
echo "wrote $(wc -l < "$out") runs to $out" >&2
