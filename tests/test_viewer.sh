#!/usr/bin/env bash
# rubble-view end to end (docs/viewer.md); bash and the png_stats helper only.
#
#   test_viewer.sh render VIEWER PNG_STATS
#       Renders the pyramid for 60 frames under Xvfb (Mesa's software OpenGL) and checks the PNG:
#       its size, that it is not blank (many colours, no colour covering most of it), and that
#       box-coloured pixels cover a plausible part of it. Then the joints: tests/data/joints_pendulum.yaml
#       (one joint of each kind) has joint-coloured pixels, none with --no-joints, and the pyramid
#       (no joints) none. Then convex hulls: data/scenes/convex-demo.yaml has hull-coloured (teal)
#       pixels, the pyramid none. Without Xvfb it skips (exit 77), except in CI (CI=true), where the
#       viewer is built and this test must run.
#   test_viewer.sh panel VIEWER PNG_STATS
#       The text and the side panel (Dear ImGui), headless under Xvfb: with --panel the panel's colour
#       fills its rectangle at the right and is nowhere else, the heads-up corner has text-coloured
#       pixels (none with --no-hud); --panel-scene picks scenes through the panel's list as a click does
#       (the summary names the scene, with the body count of loading it directly); an unknown name fails.
#   test_viewer.sh interactive VIEWER PNG_STATS
#       The interactive loop driven by xdotool under Xvfb, on the paused pyramid: `s` writes a
#       screenshot, `h` puts the help on it, F1 the side panel, dragging the top box draws the picking
#       spring (pure white, which nothing else is), `r` resets, `q` quits with status 0 and nothing on stderr.
#       Skips without Xvfb or xdotool, except in CI.
#   test_viewer.sh no-display VIEWER
#       Without a display rubble-view exits 1 with one clear line and writes nothing; bad command lines
#       exit 2; --help exits 0. No display needed.
set -uo pipefail
mode=${1:?mode: render, panel, interactive or no-display}
viewer=${2:?path to rubble-view}
tmp=$(mktemp -d)
fail() { echo "FAIL: $*"; exit 1; }

# One private Xvfb for this test run. -displayfd makes Xvfb pick a free display itself and say which
# once it accepts connections, so tests running side by side never race for a display number or a
# temporary directory, as xvfb-run -a does (it exits 5 when its clean-up loses such a race).
need_xvfb() {
  local tool
  for tool in Xvfb "$@"; do
    if ! command -v "$tool" >/dev/null; then
      [ "${CI:-}" = true ] && fail "$tool is not installed, but the viewer is built and CI must run this test (apt-get install xvfb xauth xdotool libgl1-mesa-dri)"
      echo "skip: $tool is not installed (apt-get install xvfb xauth xdotool libgl1-mesa-dri)"
      exit 77
    fi
  done
}
xvfb_pid=""
start_xvfb() {
  Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp 3>"$tmp/display" 2>"$tmp/xvfb.log" &
  xvfb_pid=$!
  for _ in $(seq 600); do
    if [ -s "$tmp/display" ]; then export DISPLAY=":$(head -1 "$tmp/display")"; return 0; fi
    kill -0 "$xvfb_pid" 2>/dev/null || break
    sleep 0.05
  done
  cat "$tmp/xvfb.log"
  fail "Xvfb did not start"
}
trap '[ -n "$xvfb_pid" ] && { kill "$xvfb_pid"; wait "$xvfb_pid"; } 2>/dev/null; rm -rf "$tmp"' EXIT

# The pyramid's cubes are drawn in an orange family (sleeping ones desaturated and darker, which all
# of them are after 60 frames); the ground is a bluish grey, the sky light blue, the heads-up panel
# dark. This RGB box takes the cubes' lit and shaded faces and none of the rest.
BOX_RANGE=80-255,40-200,0-95
# The convex hulls' teal (viewer/shape_cache.c: hue 160-176), lit: green well above red; the sky, the
# grey ground and statics (red close to green) and the orange boxes stay out of it.
CONVEX_RANGE=0-100,120-255,90-255
# The joints' magenta (viewer/joint_draw.h: A's anchors and links, the limits), as drawn (255, 40, 255)
# and where a shape hides it (55%: 140, 22, 140); no shape colour, sky or ground comes near it.
JOINTS=120-255,0-70,120-255

case "$mode" in
render)
  stats=${3:?path to png_stats}
  need_xvfb
  start_xvfb
  out="$tmp/pyramid.png"
  "$viewer" pyramid --frames 60 --screenshot "$out" >"$tmp/log" 2>&1
  status=$?
  cat "$tmp/log"
  [ "$status" -eq 0 ] || fail "rubble-view exited with status $status"
  grep -q "wrote $out (1280 x 720)" "$tmp/log" || fail "no 'wrote $out (1280 x 720)' line"
  [ -s "$out" ] || fail "no screenshot at $out"

  "$stats" "$out" "$BOX_RANGE" >"$tmp/stats" || fail "png_stats could not read the screenshot"
  cat "$tmp/stats"
  read -r _ width height < <(grep '^size ' "$tmp/stats")
  colours=$(awk '/^colours /{print $2}' "$tmp/stats")
  dominant=$(awk '/^dominant /{print $2}' "$tmp/stats")
  boxes=$(awk '/^range /{print $3}' "$tmp/stats")
  [ "$width" = 1280 ] && [ "$height" = 720 ] || fail "image is ${width} x ${height}, expected 1280 x 720"
  # a blank or single-colour frame has a handful of colours; shading, the grid and antialiasing give thousands
  [ "$colours" -ge 1000 ] || fail "only $colours distinct colours: the frame looks blank"
  awk -v d="$dominant" 'BEGIN { exit !(d < 0.5) }' || fail "one colour covers $dominant of the frame: blank"
  # the pyramid (10 m wide, 10 m tall, framed whole) covers about a sixth of the frame
  awk -v f="$boxes" 'BEGIN { exit !(f >= 0.06 && f <= 0.45) }' ||
    fail "box-coloured pixels ($BOX_RANGE) cover $boxes of the frame, expected 0.06 to 0.45"
  echo "ok: pyramid after 60 frames: $colours colours, box-coloured fraction $boxes"

  # joints: drawn over the scene in their own colour, hidden with --no-joints
  scene="$(dirname "$0")/data/joints_pendulum.yaml"
  joint_fraction() { "$stats" "$1" "$JOINTS" | awk '/^range /{print $3}'; }
  "$viewer" "$scene" --frames 30 --screenshot "$tmp/joints.png" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; fail "rubble-view $scene failed"; }
  "$viewer" "$scene" --no-joints --frames 30 --screenshot "$tmp/no-joints.png" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; fail "rubble-view $scene --no-joints failed"; }
  shown=$(joint_fraction "$tmp/joints.png")
  hidden=$(joint_fraction "$tmp/no-joints.png")
  pyramid=$(joint_fraction "$out")
  echo "joint-coloured pixels ($JOINTS): $shown with joints, $hidden with --no-joints, $pyramid in the pyramid"
  # six joints' anchors (discs of 4 to 9 pixels), links and gizmos: about 500 pixels at 1280 x 720
  awk -v j="$shown" -v n="$hidden" -v p="$pyramid" 'BEGIN { exit !(j * 1280 * 720 >= 150 && n == 0 && p == 0) }' ||
    fail "joints are not drawn in their colour, or that colour shows without them"
  echo "ok: joints drawn, and hidden with --no-joints"

  # convex hulls: the polyhedra of data/scenes/convex-demo.yaml, drawn flat-shaded in their own colour
  scene="$(dirname "$0")/../data/scenes/convex-demo.yaml"
  "$viewer" "$scene" --frames 30 --screenshot "$tmp/convex.png" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log"; fail "rubble-view $scene failed"; }
  convex=$("$stats" "$tmp/convex.png" "$CONVEX_RANGE" | awk '/^range /{print $3}')
  colours=$("$stats" "$tmp/convex.png" | awk '/^colours /{print $2}')
  pyramid=$("$stats" "$out" "$CONVEX_RANGE" | awk '/^range /{print $3}')
  echo "hull-coloured pixels ($CONVEX_RANGE): $convex in convex-demo ($colours colours), $pyramid in the pyramid"
  # 97 hulls of 0.3 to 0.9 m seen whole from about 25 m: a few percent of the frame
  awk -v c="$convex" -v p="$pyramid" -v n="$colours" 'BEGIN { exit !(c >= 0.01 && c <= 0.4 && p == 0 && n >= 1000) }' ||
    fail "convex hulls are not drawn in their colour, or that colour shows in the pyramid"
  echo "ok: convex hulls drawn"
  ;;
panel)
  # the text drawn with Dear ImGui and the side panel, headless: --panel opens the panel, --panel-scene
  # picks a scene in its list the way a click does (the same code); checked on the picture and on the
  # summary line's scene and body count
  stats=${3:?path to png_stats}
  need_xvfb
  start_xvfb
  view() { "$viewer" "$@"; }
  bodies() { sed -n "s/^rubble-view: $1, \([0-9]*\) bodies on .*/\1/p" "$2"; }
  fraction() { "$stats" "$1" "$2" | awk '/^range /{print $3}'; }
  # the panel's background is opaque RGB (28, 32, 42), the panel the right 30% (384 pixels) of a
  # 1280-pixel frame; the heads-up text is at most (240, 240, 240), in the top-left corner; neither
  # colour is anywhere in the scene (sky, ground, boxes)
  PANEL=28-28,32-32,42-42
  TEXT=225-240,225-240,225-240
  view pyramid --panel --panel-scene stack --frames 2 --steps-per-frame 0 --screenshot "$tmp/panel.png" >"$tmp/log" 2>&1
  status=$?
  cat "$tmp/log"
  [ "$status" -eq 0 ] || fail "--panel --panel-scene stack: rubble-view exited with status $status"
  picked=$(bodies stack "$tmp/log")
  [ -n "$picked" ] || fail "--panel-scene stack: the summary does not name the scene 'stack'"
  view stack --no-hud --frames 1 --steps-per-frame 0 --screenshot "$tmp/plain.png" >"$tmp/log2" 2>&1 ||
    { cat "$tmp/log2"; fail "rubble-view stack --no-hud failed"; }
  direct=$(bodies stack "$tmp/log2")
  [ "$picked" = "$direct" ] || fail "stack picked in the panel has $picked bodies, loaded directly $direct"
  echo "ok: stack picked in the panel: $picked bodies, as loaded directly"

  in_panel=$(fraction "$tmp/panel.png" "$PANEL@900,0,380,720")
  in_scene=$(fraction "$tmp/panel.png" "$PANEL@0,110,880,610")
  hud_text=$(fraction "$tmp/panel.png" "$TEXT@0,0,520,100")
  scene_text=$(fraction "$tmp/panel.png" "$TEXT@0,110,880,610")
  plain_panel=$(fraction "$tmp/plain.png" "$PANEL@900,0,380,720")
  plain_text=$(fraction "$tmp/plain.png" "$TEXT@0,0,520,100")
  echo "panel colour: $in_panel of the panel's rectangle, $in_scene of the scene's; without the panel $plain_panel"
  echo "text colour: $hud_text of the heads-up corner, $scene_text of the scene; with --no-hud $plain_text"
  # the panel's background shows between its widgets (about half of it), and nowhere else
  awk -v p="$in_panel" -v s="$in_scene" -v q="$plain_panel" 'BEGIN { exit !(p > 0.25 && s == 0 && q == 0) }' ||
    fail "the panel is not drawn at the right side (or its colour is elsewhere)"
  # four lines of text: about 1% of the corner's pixels at the text's full brightness
  awk -v h="$hud_text" -v s="$scene_text" -v q="$plain_text" 'BEGIN { exit !(h > 0.003 && s == 0 && q == 0) }' ||
    fail "no heads-up text drawn in the top-left corner (or text colour elsewhere)"

  # a built-in name before a file's; a file by its name without .yaml
  view pyramid --panel-scene demo --frames 1 --steps-per-frame 0 >"$tmp/log3" 2>&1 ||
    { cat "$tmp/log3"; fail "--panel-scene demo failed"; }
  grep -q "^rubble-view: .*/demo.yaml, [1-9][0-9]* bodies on " "$tmp/log3" ||
    { cat "$tmp/log3"; fail "--panel-scene demo did not load data/scenes/demo.yaml"; }
  msg=$(view pyramid --panel-scene no-such-scene --frames 1 2>&1); status=$?
  [ "$status" -eq 1 ] || fail "--panel-scene no-such-scene: expected status 1, got $status"
  case "$msg" in *"the panel lists no scene 'no-such-scene' (it lists pyramid, stack, pile, boxes"*) ;;
    *) fail "--panel-scene no-such-scene: $msg" ;; esac
  echo "ok: the panel's picker finds built-in scenes and files, and names the choices for one it lacks"
  ;;
interactive)
  stats=${3:?path to png_stats}
  need_xvfb xdotool
  start_xvfb
  viewer=$(realpath "$viewer")
  stats=$(realpath "$stats")
  bash "$0" interactive-session "$viewer" "$stats" "$tmp"
  status=$?
  # KEEP=DIR keeps the screenshots, to look at when the test fails
  if [ -n "${KEEP:-}" ]; then cp "$tmp"/*.png "$KEEP"/; fi
  exit "$status"
  ;;
interactive-session)
  # (with DISPLAY set to the private Xvfb) $4: the directory to work in
  stats=${3:?}
  cd "${4:?}" || fail "no directory $4"
  "$viewer" pyramid --paused --width 1280 --height 720 >out.log 2>err.log &
  pid=$!
  window=""
  for _ in $(seq 120); do
    window=$(xdotool search --name '^rubble-view$' 2>/dev/null | head -1)
    [ -n "$window" ] && break
    kill -0 "$pid" 2>/dev/null || { cat err.log; fail "rubble-view exited before its window appeared"; }
    sleep 0.5
  done
  [ -n "$window" ] || { kill "$pid"; fail "no rubble-view window after 60 s"; }
  # keys as the window's own events, so no window manager or focus is needed
  key() { xdotool key --window "$window" "$@"; }
  # waits for the viewer to write rubble-view-$1.png (a frame or two later)
  shot() {
    key s
    for _ in $(seq 240); do
      grep -q "wrote rubble-view-$1.png" out.log && return 0
      kill -0 "$pid" 2>/dev/null || { cat err.log; fail "rubble-view exited while taking screenshot $1"; }
      sleep 0.25
    done
    kill "$pid"; fail "screenshot $1 was not written within 60 s"
  }
  fraction() { "$stats" "$1" "$2" | awk '/^range /{print $3}'; }
  # the translucent panels: dark where they lie over the ground and the boxes
  DARK=0-80,0-80,0-90
  WHITE=245-255,245-255,245-255 # brighter than the heads-up text (240)
  sleep 1
  shot 001
  [ "$("$stats" rubble-view-001.png | awk '/^size /{print $2 "x" $3}')" = 1280x720 ] || fail "screenshot 001 is not 1280 x 720"
  key h
  shot 002
  dark1=$(fraction rubble-view-001.png $DARK)
  dark2=$(fraction rubble-view-002.png $DARK)
  echo "dark (panel) pixels: $dark1 without help, $dark2 with help"
  # the help panel covers about a quarter of the frame
  awk -v a="$dark1" -v b="$dark2" 'BEGIN { exit !(b - a > 0.10) }' || fail "h: the help panel did not appear"
  key h
  # the top box of the pyramid is at (640, 190) in the framed view of a 1280 x 720 window; drag it
  # off to the side: with the world paused the box stays and the spring stretches from it to the mouse
  xdotool mousemove --window "$window" 640 190 mousedown 1
  sleep 0.5
  xdotool mousemove --window "$window" 640 150
  sleep 0.3
  xdotool mousemove --window "$window" 900 330
  sleep 0.5
  shot 003
  xdotool mouseup 1
  white1=$(fraction rubble-view-001.png $WHITE)
  white3=$(fraction rubble-view-003.png $WHITE)
  echo "pure white (spring) pixels: $white1 before the drag, $white3 during it"
  awk -v a="$white1" -v b="$white3" 'BEGIN { exit !(a == 0 && b * 1280 * 720 >= 40) }' ||
    fail "dragging the top box drew no picking spring"
  key r
  shot 004
  # F1: the side panel, opaque RGB (28, 32, 42), over the right 30% of the frame
  key F1
  shot 005
  side=$(fraction rubble-view-005.png 28-28,32-32,42-42@900,0,380,720)
  echo "panel-coloured pixels in the panel's rectangle after F1: $side"
  awk -v p="$side" 'BEGIN { exit !(p > 0.25) }' || fail "F1: the side panel did not appear"
  # a click on the second scene of its list, "stack  (built-in)" (16-pixel DejaVu Sans: its row is
  # at y = 100 to 114), loads the stack in a new world
  xdotool mousemove --window "$window" 960 107
  sleep 0.5
  xdotool click --window "$window" 1
  for _ in $(seq 120); do
    grep -q "picked stack in the panel" out.log && break
    kill -0 "$pid" 2>/dev/null || { cat err.log; fail "rubble-view exited after the click in the panel"; }
    sleep 0.25
  done
  grep -q "^rubble-view: picked stack in the panel: [1-9][0-9]* bodies" out.log ||
    { cat out.log; fail "a click on 'stack' in the panel did not load the stack"; }
  key q
  for _ in $(seq 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$pid" 2>/dev/null && { kill "$pid"; fail "q did not quit within 60 s"; }
  wait "$pid"
  status=$?
  cat out.log
  [ "$status" -eq 0 ] || { cat err.log; fail "rubble-view exited with status $status after q"; }
  [ ! -s err.log ] || { cat err.log; fail "rubble-view wrote to stderr"; }
  echo "ok: keys s, h, F1, r, q and a picking drag work in the interactive loop"
  ;;
no-display)
  # a window needs a display: no X, no Wayland, no forced SDL driver
  msg=$(env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$viewer" pyramid --frames 1 --screenshot "$tmp/x.png" 2>&1)
  status=$?
  echo "$msg"
  [ "$status" -eq 1 ] || fail "expected exit status 1 without a display, got $status"
  [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ] || fail "expected one line of message, got: $msg"
  case "$msg" in
    "rubble-view: cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are not set); run under xvfb-run"*) ;;
    *) fail "unexpected message: $msg" ;;
  esac
  [ ! -e "$tmp/x.png" ] || fail "a screenshot was written without a display"
  echo "ok: no display: status 1, one line"

  # a display that is named but not there: SDL's own reason, still one line and status 1
  msg=$(env -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER DISPLAY=:4242 "$viewer" pyramid --frames 1 --screenshot "$tmp/x.png" 2>&1)
  status=$?
  echo "$msg"
  [ "$status" -eq 1 ] || fail "DISPLAY=:4242: expected exit status 1, got $status"
  [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ] || fail "DISPLAY=:4242: expected one line of message, got: $msg"
  case "$msg" in "rubble-view: cannot open a window: SDL_Init(SDL_INIT_VIDEO) failed: "*"DISPLAY=:4242"*) ;;
    *) fail "DISPLAY=:4242: unexpected message: $msg" ;; esac
  [ ! -e "$tmp/x.png" ] || fail "a screenshot was written without a display"

  msg=$("$viewer" pyramid --frames abc 2>&1); status=$?
  [ "$status" -eq 2 ] || fail "--frames abc: expected status 2, got $status"
  case "$msg" in *"--frames: expected a whole number"*"got 'abc'"*) ;; *) fail "--frames abc: $msg" ;; esac
  msg=$("$viewer" pyramid --bogus 2>&1); status=$?
  [ "$status" -eq 2 ] || fail "--bogus: expected status 2, got $status"
  case "$msg" in *"unknown option '--bogus'"*) ;; *) fail "--bogus: $msg" ;; esac
  msg=$("$viewer" 2>&1); status=$?
  [ "$status" -eq 2 ] || fail "no scene: expected status 2, got $status"
  # a scene that cannot be built is reported before any window is needed
  msg=$(env -u DISPLAY "$viewer" no-such-scene --frames 1 2>&1); status=$?
  [ "$status" -eq 1 ] || fail "no-such-scene: expected status 1, got $status"
  case "$msg" in "rubble-view: cannot build the scene: "*) ;; *) fail "no-such-scene: $msg" ;; esac
  "$viewer" --help | grep -q "^usage: rubble-view SCENE" || fail "--help does not print the usage"
  echo "ok: command-line errors: status 2 with the argument named; --help"
  ;;
*)
  fail "unknown mode '$mode' (render, panel, interactive or no-display)"
  ;;
esac
