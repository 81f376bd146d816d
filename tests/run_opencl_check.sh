#!/usr/bin/env bash
# Runs `rubble check ARGS...` (CPU against OpenCL, kernel by kernel) when an OpenCL device is there.
# Without one the test is skipped (exit 77), except in CI (CI=true), where OpenCL runs on PoCL and a
# missing device is a failure: the cross-check must never be skipped silently there.
set -uo pipefail
rubble=$1; shift
if ! "$rubble" info | grep -qE '^  opencl +available'; then
  echo "no OpenCL device: $("$rubble" info | grep -E '^  opencl ')"
  if [ "${CI:-}" = true ]; then echo "FAIL: CI=true requires an OpenCL device (install pocl-opencl-icd)"; exit 1; fi
  exit 77
fi
exec "$rubble" check "$@"
