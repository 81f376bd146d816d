#!/usr/bin/env bash
# End-to-end test of the `rubble` command line (docs/cli.md), and of the options and exit statuses
# rubble-view shares with it when its path is given.
# usage: test_cli.sh PATH/TO/rubble [PATH/TO/rubble-view]
#        (meson test runs it with RUBBLE_SCENE_DIR=data/scenes)
# Needs only bash, grep, sed, awk: no python.
set -euo pipefail

RUBBLE=${1:?usage: test_cli.sh PATH/TO/rubble [PATH/TO/rubble-view]}
VIEWER=${2:-}
SCENE_DIR=${RUBBLE_SCENE_DIR:-$(cd "$(dirname "$0")/.." && pwd)/data/scenes}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The checks below choose backends explicitly; the caller's environment must not steer them.
unset RUBBLE_BACKEND RUBBLE_THREADS OMP_NUM_THREADS

failures=0
checks=0
pass() { checks=$((checks + 1)); echo "ok   - $1"; }
fail() {
    checks=$((checks + 1)); failures=$((failures + 1))
    echo "FAIL - $1"
    if [ -s "$TMP/out" ]; then echo "  stdout:"; sed 's/^/    /' "$TMP/out" | head -40; fi
    if [ -s "$TMP/err" ]; then echo "  stderr:"; sed 's/^/    /' "$TMP/err" | head -20; fi
}
skip() { echo "skip - $1"; }

# rb ARGS...: runs rubble; stdout in $TMP/out, stderr in $TMP/err, exit status in $status.
rb() {
    set +e
    "$RUBBLE" "$@" >"$TMP/out" 2>"$TMP/err"
    status=$?
    set -e
}

# expect_status N DESCRIPTION
expect_status() {
    if [ "$status" -eq "$1" ]; then pass "$2 (exit $1)"; else fail "$2: expected exit $1, got $status"; fi
}

# out_has REGEX DESCRIPTION / err_has REGEX DESCRIPTION (extended regex)
out_has() { if grep -Eq -- "$1" "$TMP/out"; then pass "$2"; else fail "$2: stdout does not match /$1/"; fi; }
err_has() { if grep -Eq -- "$1" "$TMP/err"; then pass "$2"; else fail "$2: stderr does not match /$1/"; fi; }
out_lacks() { if grep -Eq -- "$1" "$TMP/out"; then fail "$2: stdout matches /$1/"; else pass "$2"; fi; }

# one_line_error ARG: stderr is exactly one line and names ARG
one_line_error() {
    local lines
    lines=$(wc -l <"$TMP/err")
    if [ "$lines" -eq 1 ] && grep -Fq -- "$1" "$TMP/err"; then
        pass "one-line message naming '$1'"
    else
        fail "expected one line naming '$1' on stderr, got $lines lines"
    fi
}

# ---------------------------------------------------------------------------------------------
echo "# version and help"
rb --version
expect_status 0 "rubble --version"
out_has '^rubble [0-9]+\.[0-9]+\.[0-9]+$' "--version prints 'rubble X.Y.Z'"

for args in "help" "--help" "-h"; do
    rb $args
    expect_status 0 "rubble $args"
    out_has '^usage: rubble COMMAND' "rubble $args prints the usage"
    out_has '^  (info|run|bench) ' "rubble $args lists the commands"
done
for cmd in info run validate bench check; do
    rb "$cmd" --help
    expect_status 0 "rubble $cmd --help"
    out_has "^usage: rubble $cmd" "rubble $cmd --help prints its usage"
    rb help "$cmd"
    expect_status 0 "rubble help $cmd"
    out_has "^usage: rubble $cmd" "rubble help $cmd prints its usage"
done
rb
expect_status 2 "rubble without a command"
err_has '^usage: rubble' "rubble without a command prints the usage on stderr"

# ---------------------------------------------------------------------------------------------
echo "# info"
rb info
expect_status 0 "rubble info"
out_has '^rubble [0-9]+\.[0-9]+\.[0-9]+' "info prints the version"
out_has '^  cpu +available +device: .+' "info lists cpu as available, with its device"
opencl_available=0
for b in opencl cuda; do
    if grep -Eq "^  $b +available +device: .+" "$TMP/out"; then
        pass "info lists $b as available here, with its device"
        [ "$b" = opencl ] && opencl_available=1
    else
        out_has "^  $b +(not built|unavailable) +[^ ].{10,}" "info lists $b as not available, with a reason"
    fi
done
out_has '^auto +[a-z]+ on ' "info says which backend auto takes here"
out_has '^threads +[0-9]+ by default' "info prints the default thread count"
out_has '^solvers +batched, sequential, split, soft' "info lists the solvers"
for v in RUBBLE_BACKEND RUBBLE_THREADS OMP_NUM_THREADS; do
    out_has "^  $v +\(not set\)$" "info shows $v (not set)"
done
out_has "^  RUBBLE_MODULE_PATH +[^ ]" "info shows RUBBLE_MODULE_PATH"
RUBBLE_THREADS=3 rb info
out_has '^  RUBBLE_THREADS +3$' "info shows RUBBLE_THREADS=3"
out_has '^threads +3 by default' "info's default thread count follows RUBBLE_THREADS"

# ---------------------------------------------------------------------------------------------
echo "# run: summary"
rb run stack --steps 60
expect_status 0 "run stack --steps 60"
out_has '^scene +stack \(built-in, seed 1\)$' "summary names the scene"
out_has '^backend +[a-z]+ on .+' "summary names the backend and device"
out_has '^ +chosen: .+' "summary says how the backend was chosen"
out_has '^solver +[a-z]+' "summary names the solver"
out_has '^threads +[0-9]+$' "summary gives the thread count"
out_has '^bodies +20 dynamic, 0 kinematic, 1 static$' "summary counts 20 dynamic bodies and the ground"
out_has '^solver +soft, ' "the CPU's default solver is soft"
out_has '^steps +60 x 16\.6667 ms \(4 substeps\), sleep on$' "summary gives steps, time step, the solver's substeps and sleep"
out_has '^time +[0-9.]+ ms/step median, [0-9.]+ ms/step mean, [0-9.]+ s total$' "summary gives ms/step median and mean"
out_has '^ +integrate [0-9.]+ +bounds [0-9.]+ +broad [0-9.]+ +narrow [0-9.]+ +batches [0-9.]+$' "summary gives the phase split (1)"
out_has '^ +correct [0-9.]+ +solve [0-9.]+ +sleep [0-9.]+ +transfer [0-9.]+$' "summary gives the phase split (2)"
out_has '^contacts +[0-9]+ points in [0-9]+ touching pairs at the end' "summary gives the contacts at the end"
out_has '^  slot 1 +position \( *-?[0-9.]+, +-?[0-9.]+, +-?[0-9.]+\) m +speed [0-9.]+ m/s$' "summary shows the first dynamic body"
out_has '^  slot 20 +position ' "summary shows the last body (the top cube)"
if [ -s "$TMP/err" ]; then fail "run with stderr not a terminal writes nothing on stderr (no progress bar)"; else
    pass "run with stderr not a terminal writes nothing on stderr (no progress bar)"; fi

rb run stack --steps 10 --dt 0.01 --substeps 2 --no-sleep
expect_status 0 "run with --dt, --substeps, --no-sleep"
out_has '^steps +10 x 10 ms \(2 substeps\), sleep off \(--no-sleep\)$' "overrides show in the summary"

rb run stack --steps=5 --threads=1 --backend=cpu --solver=batched
expect_status 0 "run accepts --option=value"
out_has '^threads +1$' "--threads=1 is used"
out_has '^backend +cpu on ' "--backend=cpu is used"
out_has '^solver +batched, 10 velocity \+ 4 position iterations$' "--solver=batched is used, with the default iterations"

rb run stack --steps 600 --threads 1 --solver sequential --no-sleep
expect_status 0 "run --solver sequential"
out_has '^solver +sequential, up to 2 x contacts resolutions per batch, 6 x per shock level$' "--solver sequential is used"
out_has '^steps +600 x 16.6667 ms \(3 substeps\), sleep off \(--no-sleep\)$' "sequential runs 3 substeps by default"
out_has '^  slot 20 +position \( +[-0-9.]+, +19\.(4[5-9]|5)[0-9]*, ' "the sequential solver keeps the stack standing (top above 19.45 m)"

# ---------------------------------------------------------------------------------------------
echo "# run: --out CSV"
rb run stack --steps 30 --out "$TMP/stack.csv"
expect_status 0 "run --out"
if [ -f "$TMP/stack.csv" ]; then
    header=$(head -n 1 "$TMP/stack.csv")
    if [ "$header" = "slot,type,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz" ]; then pass "CSV header"; else fail "CSV header is '$header'"; fi
    rows=$(($(wc -l <"$TMP/stack.csv") - 1))
    if [ "$rows" -eq 21 ]; then pass "CSV has one row per live body (21)"; else fail "CSV has $rows rows, expected 21"; fi
    num='-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?'
    bad=$(tail -n +2 "$TMP/stack.csv" | awk -F, -v num="^$num\$" '
        NF != 15 || $1 !~ /^[0-9]+$/ || $2 !~ /^(static|kinematic|dynamic)$/ { bad++; next }
        { for (i = 3; i <= 15; ++i) if ($i !~ num) { bad++; next } }
        END { print bad + 0 }')
    if [ "$bad" -eq 0 ]; then pass "every CSV row parses (15 fields, numbers)"; else fail "$bad CSV rows do not parse"; fi
    dyn=$(grep -c ',dynamic,' "$TMP/stack.csv" || true)
    if [ "$dyn" -eq 20 ]; then pass "CSV has 20 dynamic rows"; else fail "CSV has $dyn dynamic rows"; fi
    top=$(awk -F, '$1 == 20 { print $4 }' "$TMP/stack.csv")
    if awk -v y="$top" 'BEGIN { exit !(y > 15 && y < 20) }'; then pass "top cube's y in the CSV is plausible ($top)"; else
        fail "top cube's y in the CSV is $top"; fi
else
    fail "run --out wrote no file"
fi
rb run stack --steps 1 --out "$TMP/no-such-dir/x.csv"
expect_status 1 "run --out into a missing directory"
err_has "no-such-dir/x\.csv" "the message names the file"

# Outputs are opened before the run: ten million steps of the pile would take hours, so a prompt
# failure (well under the time it takes even to build the pile) with nothing on stdout means no
# step ran.
for opt in --out --trajectory; do
    t0=$(date +%s%N)
    rb run pile --steps 10000000 $opt /nonexistent-dir/x.csv
    ms=$((($(date +%s%N) - t0) / 1000000))
    expect_status 1 "run pile --steps 10000000 $opt /nonexistent-dir/x.csv"
    err_has "^rubble run: $opt: cannot open '/nonexistent-dir/x\.csv' for writing: No such file or directory\$" \
        "$opt to a bad path: one line with the path and the reason"
    if [ "$ms" -lt 3000 ] && [ ! -s "$TMP/out" ]; then pass "$opt to a bad path fails before any step (${ms} ms, no summary)"; else
        fail "$opt to a bad path took ${ms} ms or printed a summary"; fi
done

# ---------------------------------------------------------------------------------------------
echo "# run: --hash and determinism across thread counts"
hash_re='^state-hash: [0-9a-f]{16}$'
rb run stack --steps 20 --hash
expect_status 0 "run --hash"
n=$(grep -Ec "$hash_re" "$TMP/out" || true)
m=$(grep -c 'state-hash' "$TMP/out" || true)
if [ "$n" -eq 1 ] && [ "$m" -eq 1 ]; then pass "--hash prints exactly one 'state-hash: <16 hex>' line"; else
    fail "--hash printed $m state-hash lines, $n well-formed"; fi
rb run stack --steps 20 --hash --quiet
lines=$(wc -l <"$TMP/out")
if [ "$lines" -eq 1 ] && grep -Eq "$hash_re" "$TMP/out"; then pass "--hash --quiet prints only the hash line"; else
    fail "--hash --quiet printed $lines lines"; fi

# hash_of SCENE STEPS THREADS -> prints the hash
hash_of() {
    { "$RUBBLE" run "$1" --steps "$2" --threads "$3" --backend cpu --hash --quiet 2>"$TMP/err" || true; } |
        sed -n 's/^state-hash: //p'
}
for case in "pyramid 60" "pile 30"; do
    set -- $case
    h1=$(hash_of "$1" "$2" 1)
    h2=$(hash_of "$1" "$2" 2)
    if [ -n "$h1" ] && [ "$h1" = "$h2" ]; then pass "$1, $2 steps: same state hash with 1 and 2 threads ($h1)"; else
        fail "$1, $2 steps: state hash with 1 thread '$h1', with 2 threads '$h2'"; fi
done
# a resting stack under the sequential solver stays bitwise still (and sleeps): a falling pile changes
h3=$(hash_of pile:4 20 1)
h4=$(hash_of pile:4 21 1)
if [ "$h3" != "$h4" ]; then pass "the hash changes when the state does"; else fail "20 and 21 steps give the same hash"; fi
h5=$(hash_of pile:4 20 1)
if [ "$h3" = "$h5" ]; then pass "the hash repeats run to run"; else fail "two identical runs gave $h3 and $h5"; fi

# ---------------------------------------------------------------------------------------------
echo "# bench: one JSON line"
str='"([^"\\]|\\.)*"'
int='-?[0-9]+'
num='-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?'
numnull="($num|null)"
phases="\"phases_ms\":\\{\"integrate\":$num,\"bounds\":$num,\"broad\":$num,\"narrow\":$num,\"batches\":$num,\"correct\":$num,\"solve\":$num,\"sleep\":$num,\"transfer\":$num\\}"
# bench_re SCENE BODIES STEPS SLEEP QUALITY -> the regular expression of the whole line
bench_re() {
    # with sleeping on the line ends with whether and when every body slept
    local sleep_tail=""
    [ "$4" = true ] && sleep_tail=",\"awake_final\":$int,\"all_asleep_s\":$num"
    echo "^\\{\"engine\":\"rubble\",\"version\":$str,\"backend\":$str,\"device\":$str,\"solver\":$str,\"threads\":$int,\"scene\":\"$1\",\"bodies\":$2,\"steps\":$3,\"substeps\":$int,\"sleep\":$4,\"ms_per_step_median\":$num,\"ms_per_step_mean\":$num,\"ms_total\":$num,\"contacts_last\":$int,$phases,$5\"max_speed_final\":$numnull$sleep_tail\\}\$"
}
# check_bench DESCRIPTION SCENE BODIES STEPS SLEEP QUALITY
check_bench() {
    local lines
    lines=$(wc -l <"$TMP/out")
    if [ "$lines" -eq 1 ]; then pass "$1: exactly one line"; else fail "$1: $lines lines on stdout"; fi
    if grep -Eq "$(bench_re "$2" "$3" "$4" "$5" "$6")" "$TMP/out"; then
        pass "$1: every field, in order, well-formed"
    else
        fail "$1: the JSON line does not have the fields of docs/bench-scenes.md in order"
    fi
}

rb bench --scene stack --steps 20
expect_status 0 "bench --scene stack --steps 20"
check_bench "bench stack" stack 20 20 false "\"max_drift\":$numnull,\"top_y\":$numnull,"
for key in engine version backend device solver threads scene bodies steps substeps sleep ms_per_step_median \
    ms_per_step_mean ms_total contacts_last phases_ms integrate bounds broad narrow batches correct solve \
    transfer max_drift top_y max_speed_final; do
    grep -q "\"$key\":" "$TMP/out" || fail "bench stack: key '$key' missing"
done
out_lacks '"max_penetration"|"escaped"|"min_y"' "bench stack leaves out the pile and boxes fields"
out_lacks 'nan|inf' "bench stack prints no nan or inf"

rb bench --scene pile --steps 12 --backend cpu --threads 2 --sleep
expect_status 0 "bench --scene pile --steps 12 --backend cpu --threads 2 --sleep"
check_bench "bench pile" pile 8000 12 true "\"max_penetration\":$numnull,\"max_ground_penetration\":$numnull,\"escaped\":$int,"
out_has '"threads":2,' "bench reports --threads 2"
out_lacks '"top_y"|"max_drift"|"min_y"' "bench pile leaves out top_y, max_drift and min_y"
out_has '"escaped":0,' "no sphere escapes the pen in 12 steps"
out_has '"awake_final":8000,"all_asleep_s":-1}' "bench --sleep: 8000 spheres still falling after 12 steps, never all asleep"

# the stack of 20 cubes rests from the start: every cube asleep within the first second (0.5 s today)
rb bench --scene stack --steps 90 --sleep
expect_status 0 "bench --scene stack --steps 90 --sleep"
check_bench "bench stack --sleep" stack 20 90 true "\"max_drift\":$numnull,\"top_y\":$numnull,"
asleep=$(sed -n 's/.*"awake_final":0,"all_asleep_s":\([0-9.]*\)}$/\1/p' "$TMP/out")
if [ -n "$asleep" ] && awk -v t="$asleep" 'BEGIN { exit !(t > 0 && t <= 1.0) }'; then
    pass "bench stack --sleep: every cube asleep after $asleep s"
else
    fail "bench stack --sleep: not all asleep within 1 s: $(cat "$TMP/out")"
fi

rb bench boxes --steps 5 --seed 7
expect_status 0 "bench boxes (scene as a positional argument, 5 steps, seed 7)"
check_bench "bench boxes" boxes 4096 5 false "\"escaped\":$int,\"min_y\":$numnull,"

rb bench --scene pile:3 --steps 3
expect_status 0 "bench --scene pile:3"
check_bench "bench pile:3" 'pile:3' 180 3 false "\"max_penetration\":$numnull,\"max_ground_penetration\":$numnull,\"escaped\":$int,"

# ---------------------------------------------------------------------------------------------
echo "# bad arguments: exit 2, one line naming the argument"
bad_args() { # EXPECTED-NAME ARGS...
    local name=$1
    shift
    rb "$@"
    expect_status 2 "rubble $*"
    one_line_error "$name"
}
bad_args "--frobnicate" run stack --frobnicate
bad_args "--steps" run stack --steps
bad_args "--steps" run stack --steps abc
bad_args "--steps" run stack --steps 0
bad_args "--threads" run stack --threads -1
bad_args "--threads" bench --scene stack --threads two
bad_args "--backend" run stack --backend bogus
bad_args "--solver" run stack --solver bogus
bad_args "--dt" run stack --dt -0.5
bad_args "--dt" run stack --dt nan
bad_args "--seed" bench --scene pile --seed x
bad_args "--hash" run stack --hash=yes
bad_args "SCENE" run
bad_args "SCENE" validate
bad_args "--every" run stack --every 5
bad_args "--format" run stack --trajectory "$TMP/t.csv" --format xml
bad_args "--every" run stack --trajectory "$TMP/t.csv" --every 0
bad_args "--scene" bench
bad_args "nosuch" bench --scene nosuch
bad_args "frobnicate" frobnicate
bad_args "extra" info extra

# ---------------------------------------------------------------------------------------------
echo "# library errors: exit 1 with the library's message"
if [ "$opencl_available" -eq 0 ]; then
    rb run pile --backend opencl
    expect_status 1 "run pile --backend opencl (no OpenCL here)"
    err_has "backend 'opencl' .*cannot start: .+" "the library's backend message is printed"
else
    skip "run --backend opencl failure: OpenCL can start on this machine"
fi
RUBBLE_BACKEND=bogus rb run stack --steps 1
expect_status 1 "RUBBLE_BACKEND=bogus rubble run stack"
err_has "RUBBLE_BACKEND='bogus'" "the message names RUBBLE_BACKEND and its value"
RUBBLE_THREADS=lots rb run stack --steps 1
expect_status 1 "RUBBLE_THREADS=lots rubble run stack"
err_has "RUBBLE_THREADS='lots'" "the message names RUBBLE_THREADS and its value"
RUBBLE_BACKEND=cpu rb run stack --steps 1
expect_status 0 "RUBBLE_BACKEND=cpu rubble run stack"
out_has 'RUBBLE_BACKEND' "the summary says RUBBLE_BACKEND chose the backend"

printf 'this is { not a scene\n' >"$TMP/broken.yaml"
rb run "$TMP/broken.yaml" --steps 1
expect_status 1 "run a malformed scene file"
err_has "broken\.yaml" "the message names the file"
rb run "$TMP/missing.yaml"
expect_status 1 "run a missing scene file"
err_has "^rubble run: cannot open the scene file '.*missing\.yaml': No such file or directory\$" "the message names the file and why"
rb run no-such-scene
expect_status 1 "run a name that is neither a file nor a built-in scene"
err_has "^rubble run: cannot build the scene: unknown standard scene 'no-such-scene'" "the library's message names the scene"
rb run pile:x
expect_status 1 "run pile:x"

# A scene file's world settings are applied first, the command line's overrides after them.
cat >"$TMP/settings.yaml" <<'YAML'
rubble-scene: 1
world:
  time_step: 0.01
  substeps: 2
  sleep: false
generators:
  - ground: {}
bodies:
  - type: dynamic
    position: [0, 2, 0]
    shapes:
      - sphere: {radius: 0.5}
YAML
rb run "$TMP/settings.yaml" --steps 10
expect_status 0 "run a small scene file"
out_has '^steps +10 x 10 ms \(2 substeps\)' "the file's time step and substeps are used"
out_has '^bodies +1 dynamic, 0 kinematic, 1 static$' "the file's bodies are loaded"
rb run "$TMP/settings.yaml" --steps 10 --dt 0.005
out_has '^steps +10 x 5 ms \(2 substeps\)' "--dt replaces the file's time step and keeps its substeps"

# ---------------------------------------------------------------------------------------------
echo "# validate"
rb validate "$TMP/settings.yaml"
expect_status 0 "validate a good scene file"
out_has '^bodies +2: 1 dynamic, 0 kinematic, 1 static$' "validate counts the bodies"
out_has '^shapes +2$' "validate counts the shapes (the sphere and the ground plane)"
out_has '^world +time step 10 ms, 2 substeps, ' "validate shows the file's world settings"
out_has '^OK$' "validate ends with OK"
rb validate stack
expect_status 0 "validate a built-in scene"
out_has '^bodies +21: 20 dynamic, 0 kinematic, 1 static$' "validate stack counts 20 cubes and the ground"
rb validate "$TMP/broken.yaml"
expect_status 1 "validate a malformed scene file"
err_has '^rubble validate: cannot load the scene: .*broken\.yaml:[0-9]+:[0-9]+' "the loader's message with file:line:column"
out_lacks 'OK' "a bad scene does not say OK"
rb validate "$TMP/missing.yaml"
expect_status 1 "validate a missing scene file"

# ---------------------------------------------------------------------------------------------
echo "# run --trajectory"
# One sphere falling freely from y = 100 m (no ground, no damping) for 60 steps of 1/60 s:
# y(t) = 100 - g t^2 / 2, 95.095 m after 1 s. The integrator's substeps (semi-implicit Euler)
# fall faster than the exact curve by g t h / 2 = 0.02 m at h = 1/240 s, t = 1 s: 0.05 m of tolerance.
cat >"$TMP/fall.yaml" <<'YAML'
rubble-scene: 1
world:
  sleep: false
bodies:
  - type: dynamic
    position: [0, 100, 0]
    shapes:
      - sphere: {radius: 0.5}
YAML
rb run "$TMP/fall.yaml" --steps 60 --every 7 --trajectory "$TMP/fall.csv" --quiet
expect_status 0 "run --trajectory FILE.csv --every 7"
header=$(head -n 1 "$TMP/fall.csv" 2>/dev/null || true)
if [ "$header" = "step,time,body,x,y,z,qx,qy,qz,qw" ]; then pass "trajectory CSV header"; else fail "trajectory CSV header is '$header'"; fi
steps=$(tail -n +2 "$TMP/fall.csv" | cut -d, -f1 | tr '\n' ' ')
if [ "$steps" = "0 7 14 21 28 35 42 49 56 60 " ]; then pass "rows at step 0, every 7 steps and the last (10 rows)"; else
    fail "rows at steps '$steps', expected 0 7 14 ... 56 60"; fi
bad=$(tail -n +2 "$TMP/fall.csv" | awk -F, '
    { t = $2; want = 100 - 9.81 * t * t / 2; d = $5 - want; if (d < 0) d = -d
      if (NF != 10 || d > 0.05 || $4 != 0 || $6 != 0) { print; n++ } }
    END { exit n > 0 }' || echo bad)
if [ -z "$bad" ]; then pass "the sphere's y follows free fall, y = 100 - g t^2 / 2, within 0.05 m"; else
    fail "rows off the free-fall curve: $bad"; fi
last_t=$(tail -n 1 "$TMP/fall.csv" | cut -d, -f2)
if awk -v t="$last_t" 'BEGIN { exit !(t > 0.9999 && t < 1.0001) }'; then pass "time of step 60 is 1 s"; else
    fail "time of step 60 is '$last_t'"; fi

rb run stack --steps 10 --every 5 --trajectory "$TMP/stack.jsonl"
expect_status 0 "run --trajectory FILE.jsonl"
rows=$(wc -l <"$TMP/stack.jsonl")
if [ "$rows" -eq 60 ]; then pass "JSON lines: 3 samples (steps 0, 5, 10) x 20 moving bodies, no static ground"; else
    fail "JSON lines: $rows rows, expected 60"; fi
jnum='-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?'
badj=$(grep -Evc "^\{\"step\":[0-9]+,\"time\":$jnum,\"body\":[0-9]+,\"x\":$jnum,\"y\":$jnum,\"z\":$jnum,\"qx\":$jnum,\"qy\":$jnum,\"qz\":$jnum,\"qw\":$jnum\}\$" "$TMP/stack.jsonl" || true)
if [ "$badj" -eq 0 ]; then pass "every JSON line has step,time,body,x,y,z,qx,qy,qz,qw"; else fail "$badj JSON lines malformed"; fi
rb run stack --steps 3 --trajectory "$TMP/poses.txt" --format jsonl
if head -n 1 "$TMP/poses.txt" | grep -q '^{"step":0,'; then pass "--format jsonl wins over the extension"; else
    fail "--format jsonl: first line is '$(head -n 1 "$TMP/poses.txt")'"; fi

# ---------------------------------------------------------------------------------------------
echo "# scene files from \$RUBBLE_SCENE_DIR"
for f in demo.yaml stack.yaml; do
    path="$SCENE_DIR/$f"
    if [ -z "$SCENE_DIR" ] || [ ! -f "$path" ]; then
        skip "$f: not in '${SCENE_DIR:-(RUBBLE_SCENE_DIR not set)}' yet"
        continue
    fi
    rb run "$path" --steps 30 --out "$TMP/file.csv" --hash
    expect_status 0 "run $f"
    out_has "^scene +.*$f \(file\)$" "the summary says $f was loaded from a file"
    out_has "$hash_re" "run $f --hash prints the hash"
    rows=-1
    [ -f "$TMP/file.csv" ] && rows=$(($(wc -l <"$TMP/file.csv") - 1))
    live=$(sed -n 's/^bodies *\([0-9]*\) dynamic, \([0-9]*\) kinematic, \([0-9]*\) static$/\1 \2 \3/p' "$TMP/out" |
        awk '{ print $1 + $2 + $3 }')
    if [ -n "$live" ] && [ "$rows" -eq "$live" ]; then pass "$f: CSV has one row per body ($rows)"; else
        fail "$f: CSV has $rows rows, summary counts '${live}' bodies"; fi
    rb run "$path" --steps 5 --dt 0.005 --no-sleep
    out_has '^steps +5 x 5 ms .*sleep off' "$f: --dt and --no-sleep override the file's settings"
done

# hulls: counted once however many convex shapes share one (convex-demo.yaml: 4 named hulls, a wedge's
# own and 32 rocks' own, for 97 convex shapes)
if [ -n "$SCENE_DIR" ] && [ -f "$SCENE_DIR/convex-demo.yaml" ]; then
    rb validate "$SCENE_DIR/convex-demo.yaml"
    expect_status 0 "validate convex-demo.yaml"
    out_has '^hulls +37, for 97 convex shapes$' "validate counts the hulls, shared ones once"
    rb run "$SCENE_DIR/convex-demo.yaml" --steps 2
    out_has '^hulls +37, for 97 convex shapes$' "run counts the hulls"
    rb validate stack
    out_has '^hulls +0$' "a scene without convex shapes has no hulls"
else
    skip "convex-demo.yaml: not in '${SCENE_DIR:-(RUBBLE_SCENE_DIR not set)}' yet"
fi

# data/scenes holds the standard scenes as files: loaded, they are the same scene bit for bit.
for s in stack pyramid; do
    path="$SCENE_DIR/$s.yaml"
    if [ -z "$SCENE_DIR" ] || [ ! -f "$path" ]; then
        skip "$s.yaml against the built-in $s: file not there yet"
        continue
    fi
    hf=$({ "$RUBBLE" run "$path" --steps 30 --threads 1 --backend cpu --no-sleep --hash --quiet || true; } |
        sed -n 's/^state-hash: //p')
    hb=$({ "$RUBBLE" run "$s" --steps 30 --threads 1 --backend cpu --no-sleep --hash --quiet || true; } |
        sed -n 's/^state-hash: //p')
    if [ -n "$hf" ] && [ "$hf" = "$hb" ]; then pass "$s.yaml and the built-in $s give the same state after 30 steps"; else
        fail "$s.yaml gives state hash '$hf', the built-in $s '$hb'"; fi
done

# `rubble check` of a backend against itself: every difference is exactly 0, orientations included
# (measured in double, so equal quaternions give 0, not float rounding).
rb check --scene "$SCENE_DIR/demo.yaml" --steps 20 --backends cpu,cpu --threads 1
expect_status 0 "check cpu,cpu"
out_has '^check .*, solver batched$' "check compares the batched solver unless told otherwise (every backend has it)"
out_has 'orientation difference, rad +0  ' "check cpu,cpu: orientation difference exactly 0"
out_has 'position difference, m +0  ' "check cpu,cpu: position difference exactly 0"

# ---------------------------------------------------------------------------------------------
echo "# rubble and rubble-view: one parser, one help, the same exit statuses"
if [ -z "$VIEWER" ] || [ ! -x "$VIEWER" ]; then
    skip "rubble-view not given or not built"
else
    # the shared options' help, from the --backend line to the --threads line, is the same text
    common_help() { sed -n '/^  --backend B/,/^  --threads N/p' | sed 's/^ *//' | tr -s ' '; }
    "$RUBBLE" run --help | common_help >"$TMP/help-rubble"
    "$VIEWER" --help | common_help >"$TMP/help-view"
    if [ -s "$TMP/help-rubble" ] && cmp -s "$TMP/help-rubble" "$TMP/help-view"; then
        pass "rubble run --help and rubble-view --help describe --backend, --solver, --threads alike"; else
        fail "the shared options' help differs: $(diff "$TMP/help-rubble" "$TMP/help-view" | head -5 | tr '\n' ' ')"; fi
    for solver in batched sequential split soft default; do
        if grep -q "^$solver " "$TMP/help-view"; then pass "rubble-view --help lists the solver $solver"; else
            fail "rubble-view --help does not list the solver $solver"; fi
    done
    # same_status DESCRIPTION ARGS...: rubble run ARGS and rubble-view ARGS (no display needed: each
    # fails before a window) exit alike, with the same message after the program's name
    same_status() {
        local what=$1
        shift
        rb run "$@"
        local rs=$status
        local rmsg
        rmsg=$(sed 's/^rubble run: //; s/ (see .*--help.)$//' "$TMP/err")
        set +e
        env -u DISPLAY -u WAYLAND_DISPLAY "$VIEWER" "$@" --frames 1 >"$TMP/out" 2>"$TMP/err"
        local vs=$?
        set -e
        local vmsg
        vmsg=$(sed 's/^rubble-view: //; s/ (see .*--help.)$//' "$TMP/err")
        if [ "$rs" -eq "$vs" ] && [ "$rs" -ne 0 ] && [ "$rmsg" = "$vmsg" ]; then
            pass "$what: both exit $rs with '$rmsg'"; else
            fail "$what: rubble run exits $rs ('$rmsg'), rubble-view $vs ('$vmsg')"; fi
    }
    same_status "unknown scene" no-such-scene
    same_status "missing scene file" "$TMP/missing.yaml"
    same_status "malformed scene file" "$TMP/broken.yaml"
    same_status "unknown option" stack --frobnicate
    same_status "bad --threads" stack --threads two
    same_status "unknown --solver" stack --solver bogus
    same_status "unknown --backend" stack --backend bogus
    same_status "bad --seed" stack --seed -1
    set +e
    env -u DISPLAY -u WAYLAND_DISPLAY "$VIEWER" stack --screenshot /nonexistent-dir/x.png >"$TMP/out" 2>"$TMP/err"
    status=$?
    set -e
    expect_status 1 "rubble-view --screenshot to a bad path"
    err_has "^rubble-view: --screenshot: cannot open '/nonexistent-dir/x\.png' for writing: No such file or directory\$" \
        "the screenshot path is checked first, before the display"
fi

echo
if [ "$failures" -ne 0 ]; then
    echo "$failures of $checks checks failed"
    exit 1
fi
echo "all $checks checks passed"
