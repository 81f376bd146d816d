#!/usr/bin/env bash
# Writes the seed inputs of the API fuzz target (tests/fuzz/fuzz_api.c) into tests/fuzz/corpus/api/:
# call sequences a fuzzer would take long to find (a stacked scene that makes contacts, every shape
# type, stale ids, a second world, odd bulk ranges...). The byte encoding is fuzz_api.c's: run this
# again after changing it (the seeds still run if you do not, they just mean other calls).
#
#   tests/fuzz/api_seeds.sh [OUTPUT_DIR]
set -euo pipefail
out=${1:-"$(cd "$(dirname "$0")" && pwd)/corpus/api"}
mkdir -p "$out"

# ---- the encoding ----
bytes() { for b in "$@"; do printf '%b' "\\x$(printf '%02x' "$b")"; done; }
# fnum: -12 .. 12 in eighths (the argument is eighths: 4 = 0.5, -8 = -1); k_floats[] by index
F() { bytes $((128 + $1)); }
NAN_=21; INF_=19; NINF_=20; BIG=29; TINY=12; ZERO=0; FLTMAX=15 # indices into k_floats
Fk() { bytes "$1"; }
V() { F "$1"; F "$2"; F "$3"; }
# inum: -8 .. 215 directly; k_ints[] by index below 16
I() { bytes $(($1 + 24)); }
Ik() { bytes "$1"; }
INT_MAX_=10; INT_MIN_=11

CB=0 CS=2 DB=4 DS=5 BM=6 BG=8 SC=9 WS=10 BULK=11 CT=12 RAY=13 BID=14 FORGED=15 MISC=16 WL=17 STEP=18 SHIFT=19
STATIC=0 KINEMATIC=1 DYNAMIC=2

# create a body in world K of TYPE at (x, y, z) eighths: fields = position only
body() { bytes $CB "$1" "$2" 1; V "$3" "$4" "$5"; bytes 0 0 0; }
# a body with velocity too
moving_body() { bytes $CB "$1" "$2" 5; V "$3" "$4" "$5"; V "$6" "$7" "$8"; bytes 0 0 0; }
# shapes on body record B (default def)
sphere() { bytes $CS "$1" 0 0 0 0 0; F "$2"; }
capsule() { bytes $CS "$1" 0 0 0 0 1; F "$2"; F "$3"; }
box() { bytes $CS "$1" 0 0 0 0 2; V "$2" "$3" "$4"; }
plane() { bytes $CS "$1" 0 0 0 0 3; V "$2" "$3" "$4"; F "$5"; }
step() { bytes $STEP "${1:-0}"; }
contacts() { bytes $CT 0 0 0 1 1 0 0; }
pairs() { bytes $CT 0 1 0 1 1 0 0; }
ray() { bytes $RAY 0; V "$1" "$2" "$3"; V "$4" "$5" "$6"; bytes 1 0; }
get_all_transforms() { bytes $BULK 0 1 0 1 0 0 0 0 0; }

w() { cat > "$out/$1"; }

# ---- the seeds ----

# a ground plane and three boxes stacked on it: steps make contacts and pairs, a ray hits the top
{ bytes 0; body 0 $STATIC 0 0 0; plane 0 0 8 0 0
  for i in 0 1 2; do body 0 $DYNAMIC 0 $((4 + 8 * i)) 0; box $((i + 1)) 4 4 4; done
  step; step; step; contacts; pairs; ray 0 80 0 0 -80 0; get_all_transforms; } | w stack.bin

# every shape type on static, kinematic and dynamic bodies, with their getters
{ bytes 1; body 0 $STATIC 0 0 0; plane 0 8 8 0 -4
  body 0 $DYNAMIC 0 16 0; sphere 1 4; capsule 1 2 4; box 1 2 3 4
  moving_body 0 $KINEMATIC 16 8 0 -8 0 0; capsule 2 4 0; plane 2 0 8 0 0
  for g in 0 1 2 3 4 5 6 7; do bytes $SC $((g % 5)) 4 0 $g 0; done
  for g in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do bytes $BG 1 0 $g; I 8; bytes 0 0; done
  step; contacts; } | w shapes.bin

# NaN, infinities and huge values everywhere a float goes
{ bytes 2; bytes $CB 0 $DYNAMIC 1; Fk $NAN_; F 0; F 0; bytes 0 0 0
  body 0 $DYNAMIC 0 8 0
  bytes $CS 0 0 0 0 0 0; Fk $INF_
  bytes $CS 0 4; Fk $NAN_; bytes 0 0 0 0; F 4
  bytes $CS 0 0 0 0 0 2; Fk $BIG; Fk $FLTMAX; Fk $TINY
  bytes $BM 0 1 0; Fk $NINF_; F 0; F 0
  bytes $BM 0 3; Fk $NAN_; F 0; F 0; bytes 1 0; V 0 0 0
  bytes $BM 0 5 0; Fk $NAN_
  bytes $BM 0 6; Fk $BIG; V 0 0 0; Fk $BIG; Fk $BIG; Fk $BIG; bytes 0 0
  bytes $WS 0 0; Fk $NAN_; F 0; F 0
  bytes $WS 0 1 1; Fk $ZERO; bytes 0 8
  bytes $RAY 0; Fk $NAN_; F 0; F 0; V 0 -8 0; bytes 1 0
  step; } | w nan-and-huge.bin

# stale ids: a destroyed body and shape used again, destroyed twice, reused slots
{ bytes 3; body 0 $DYNAMIC 0 8 0; sphere 0 4; bytes $DB 0; bytes $DB 0
  bytes $BG 0 0 1; I 4; bytes 0 0; bytes $DS 0; sphere 0 4
  body 0 $DYNAMIC 0 8 0; sphere 1 4; bytes $BID 0 1 0 0; bytes $BID 0 1 1 0
  bytes $SC 0 5 0 0; bytes $SC 1 5 0 0; bytes $FORGED; I 1; bytes 0 0; I 1; bytes 0 0 1 1
  bytes $DB 1; step; } | w stale-ids.bin

# a second world: bodies in it, the world destroyed, its ids used, the world made again
{ bytes 4; bytes $WL 1 0 11 0 0; body 1 $DYNAMIC 0 8 0; sphere 0 4; body 0 $STATIC 0 0 0
  bytes $BG 0 0 0; I 4; bytes 0 0
  bytes $WL 1; bytes $BG 0 0 0; I 4; bytes 0 0; bytes $BM 0 0; V 0 0 0; bytes 0
  bytes $WL 1 2 11 0 0; body 1 $DYNAMIC 0 8 0; bytes $BG 0 0 0; I 4; bytes 0 0; bytes $BG 2 0 0; I 4; bytes 0 0
  step 1; bytes $WL 0; body 0 $DYNAMIC 0 0 0; step 0; } | w worlds.bin

# bulk access over odd ranges, with holes, NULL buffers and poisoned values
{ bytes 0; for i in 0 1 2 3; do body 0 $DYNAMIC $((i * 8)) 8 0; sphere $i 4; done; bytes $DB 1
  for r in "1 0 1 4 1 0 0 0" "1 2 1 2 1 0 0 0" "0 0 1 0 1 0 0 0" "1 1 1 3 1 0 0 2" "1 0 1 1 1 0 1 3 1" \
           "1 0 1 2 0 0 0 0 1 0 0" "1 0 0 240 255 255 255 1 0 0 0" "0 0 10 1 3 1 0 0 4"; do
    # shellcheck disable=SC2086 # $r is a list of bytes
    bytes $BULK 0 $r; done
  bytes $BULK 0 0; Ik $INT_MAX_; bytes 1 1 1 0 0 0
  step; get_all_transforms; } | w bulk.bin

# mass data and body types: dynamic -> kinematic -> static -> dynamic, with a given mass in between
{ bytes 1; body 0 $DYNAMIC 0 8 0; box 0 4 4 4
  bytes $BM 0 6; F 16; V 0 0 0; V 8 8 8; bytes 0 0
  for t in $KINEMATIC $DYNAMIC $STATIC $DYNAMIC; do bytes $BM 0 8 "$t"; done
  plane 0 0 8 0 0; bytes $BM 0 8 $DYNAMIC; bytes $DS 0; bytes $BM 0 8 $DYNAMIC
  bytes $SC 0 2; F 0; bytes $SC 0 2; F 8; step; } | w mass-and-types.bin

# every world setting, good and bad values
{ bytes 3; body 0 $STATIC 0 0 0; plane 0 0 8 0 0; body 0 $DYNAMIC 0 8 0; sphere 1 4
  bytes $WS 0 0; V 0 -80 0; bytes $WS 0 1 1; F 1; bytes 1; I 64; bytes $WS 0 1 1; F 1; bytes 1; I 65
  bytes $WS 0 2 1; Ik 8; bytes 1; I 0; bytes $WS 0 2 1; I 0; bytes 0 3
  for v in 0 1 2 3 4 5 6; do bytes $WS 0 3 $v; done
  for fld in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
    bytes $WS 0 4; F -8; I -1; bytes $fld; if [ $fld = 14 ]; then bytes 1 1; fi; bytes 0; done
  bytes $WS 0 5 1; bytes $WS 0 6; F 8; bytes $WS 0 6; F -8
  for g in 0 1 2 3 4; do bytes $WS 0 7 0 $g; bytes $WS 0 7 1 $g; done
  step; step; } | w settings.bin

# sleep, waking, bullets, forces and impulses
{ bytes 4; body 0 $STATIC 0 0 0; plane 0 0 8 0 0; body 0 $DYNAMIC 0 4 0; sphere 1 4
  bytes $BM 1 7 0 0; bytes $BM 1 7 0 1; bytes $BM 1 7 1 0; bytes $BM 1 7 2 1; bytes $BM 0 7 0 1
  for sub in 0 1 2 3 4 5; do bytes $BM 1 3; V 8 0 0; bytes 1 $sub; if [ $sub = 0 ] || [ $sub = 3 ]; then V 0 8 0; fi; done
  bytes $WS 0 5 0; bytes $BM 1 7 0 0; step; bytes $WS 0 5 1; step; step; } | w sleep-and-forces.bin

# names, rotations, forged ids and the origin shift
{ bytes 0; body 0 $DYNAMIC 0 8 0; sphere 0 4
  bytes $MISC; I 3; bytes 3 1 0 1 1 1 2 0 0; V 0 8 0; F 8
  bytes $MISC; Ik $INT_MIN_; bytes 6 1 0 1 1 1 2 1 3 1 4 1 5 0 0; V 0 0 0; F 4
  bytes $FORGED; I 1; bytes 0 1; I 1; bytes 0 1 1 1
  bytes $SHIFT 0; V 80 0 0; bytes $SHIFT 0; Fk $NAN_; F 0; F 0; step; } | w misc.bin

# many bodies at one point: every pair overlaps (the pair budget and a large contact set)
{ bytes 2; for i in $(seq 0 39); do body 0 $DYNAMIC 0 0 0; sphere "$i" 8; done; step; step; contacts; pairs; } | w pile.bin

# a world made with bad definitions, then a good one
{ bytes 0; for c in 0 1 2 3 4 5 6 7 8 9 10; do
    bytes $WL 1 0 $c
    case $c in 0) Fk $NAN_; F 0; F 0 ;; 1|10) Fk $NAN_ ;; 2|3|7) I -1 ;; 4|5|6|8) bytes 1 ;; esac
    bytes 0 0; done
  bytes $WL 1 1 7; I 100; bytes 0 0; body 1 $DYNAMIC 0 0 0; step 1; } | w world-defs.bin

echo "seeds in $out: $(find "$out" -type f | wc -l)"
