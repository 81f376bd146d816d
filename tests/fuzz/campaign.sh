#!/usr/bin/env bash
# A fuzzing campaign over both libFuzzer targets (docs/fuzzing.md).
#
#   tests/fuzz/campaign.sh [SECONDS_PER_TARGET] [BUILD_DIR]
#
# Configures (if needed) and builds a clang build with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer in BUILD_DIR (default build-fuzz), then runs fuzz_scene_yaml and
# fuzz_api for SECONDS_PER_TARGET each (default 60). Each target starts from a scratch copy of its
# repository corpus and regressions: the repository is not written to unless RUBBLE_FUZZ_MERGE=1,
# which merges the inputs that found new coverage into tests/fuzz/corpus/<target>/ at the end.
#
# A crash (an invariant's abort, an ASan or UBSan report), an input slower than 10 s, or one that
# needs more than 2 GB fails the campaign: the exit status is non-zero and the reproducer's path is
# printed. Keep it with `cp REPRODUCER tests/fuzz/regressions/<target>/WHAT-IT-DID` (docs/fuzzing.md).
#
# Environment: RUBBLE_FUZZ_WORK (scratch directory, default a new one under /tmp, kept),
# RUBBLE_FUZZ_FLAGS (more libFuzzer flags, e.g. "-jobs=8 -workers=8" or "-max_len=65536"),
# RUBBLE_FUZZ_MERGE=1 (see above), RUBBLE_FUZZ_STRICT=1 (also check the known defects that wait for
# their fix: docs/fuzzing.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
build=${2:-$root/build-fuzz}
case $build in /*) ;; *) build=$PWD/$build ;; esac
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: $0 [SECONDS_PER_TARGET] [BUILD_DIR]" >&2
  exit 2
fi

if ! command -v clang >/dev/null; then
  echo "campaign.sh: clang is needed (libFuzzer comes with it): apt-get install clang" >&2
  exit 2
fi
if ! echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return d && n; }' |
     clang -fsanitize=fuzzer,address,undefined -x c - -o /dev/null 2>/dev/null; then
  echo "campaign.sh: clang cannot link libFuzzer with ASan + UBSan: install compiler-rt" \
       "(Debian, Ubuntu: libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev)" >&2
  exit 2
fi
if [ ! -f "$build/build.ninja" ]; then
  echo "=== configuring $build (clang, libFuzzer, ASan + UBSan)"
  CC=clang meson setup "$build" "$root" -Dbuildtype=debugoptimized -Dfuzz=enabled -Dtests=enabled \
    -Db_sanitize=address,undefined -Db_lundef=false -Dopencl=disabled -Dcuda=disabled -Dviewer=disabled >/dev/null
fi
echo "=== building the fuzz targets"
ninja -C "$build" tests/fuzz/fuzz_scene_yaml tests/fuzz/fuzz_api >/dev/null

work=${RUBBLE_FUZZ_WORK:-$(mktemp -d /tmp/rubble-fuzz.XXXXXX)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
# abort on the first UBSan report, as an ASan report does; leaks count too. Known defects that wait
# for their fix are suppressed (tests/fuzz/ubsan.supp) unless RUBBLE_FUZZ_STRICT=1.
ubsan_supp=":suppressions=$root/tests/fuzz/ubsan.supp"
[ "${RUBBLE_FUZZ_STRICT:-0}" = 1 ] && ubsan_supp=""
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1$ubsan_supp}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}

failed=0
summary=()
for target in scene api; do
  case $target in
    scene) bin=fuzz_scene_yaml; extra=(-dict="$root/tests/fuzz/scene.dict") ;;
    # libFuzzer's entropic schedule spends 70% of the time in its bookkeeping on this target (its
    # checks run the same getters many times: many features per input); without it, 4x the inputs
    api) bin=fuzz_api; extra=(-entropic=0) ;;
  esac
  dir=$work/$target
  rm -rf "$dir/artifacts"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp -n "$root/tests/fuzz/corpus/$target/"* "$dir/corpus/" 2>/dev/null || true
  cp -n "$root/tests/fuzz/regressions/$target/"* "$dir/corpus/" 2>/dev/null || true
  rm -f "$dir/corpus/README"*
  echo "=== $bin for $seconds s (corpus $dir/corpus, reproducers in $dir/artifacts)"
  # Run in the work directory (with -jobs, libFuzzer writes fuzz-N.log files where it runs).
  # -max_len=4096 keeps inputs small and quick (larger seeds run once, then are cut); later flags in
  # RUBBLE_FUZZ_FLAGS override these.
  set +e
  # shellcheck disable=SC2086 # RUBBLE_FUZZ_FLAGS is a list of flags
  (cd "$dir" && exec "$build/tests/fuzz/$bin" "$dir/corpus" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=4096 -artifact_prefix="$dir/artifacts/" -print_final_stats=1 "${extra[@]}" \
    ${RUBBLE_FUZZ_FLAGS:-}) > "$dir/log.txt" 2>&1
  status=$?
  set -e
  grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' "$dir/log.txt" || true
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log.txt" | tail -1)
  summary+=("$bin: ${runs:-?} inputs, ${rate:-?} exec/s, exit status $status")
  reproducers=$(find "$dir/artifacts" -type f 2>/dev/null)
  if [ "$status" -ne 0 ] || [ -n "$reproducers" ]; then
    failed=1
    echo "!!! $bin failed (exit status $status). The end of its log ($dir/log.txt):"
    tail -n 40 "$dir/log.txt"
    for r in $reproducers; do
      echo "!!! reproducer: $r"
      echo "    replay it:   $build/tests/fuzz/$bin $r"
      echo "    keep it:     cp $r $root/tests/fuzz/regressions/$target/<what-it-did>"
    done
  fi
  if [ "${RUBBLE_FUZZ_MERGE:-0}" = 1 ]; then
    echo "=== merging new coverage into tests/fuzz/corpus/$target/"
    "$build/tests/fuzz/$bin" -merge=1 "$root/tests/fuzz/corpus/$target" "$dir/corpus" "${extra[@]}" \
      > "$dir/merge.txt" 2>&1 || { echo "merge failed: $dir/merge.txt"; failed=1; }
  fi
done

echo "=== fuzzing summary (work directory $work)"
printf '  %s\n' "${summary[@]}"
exit $failed
