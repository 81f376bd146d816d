#!/usr/bin/env bash
# usage: run_on_opencl.sh RUBBLE COMMAND [ARGS...]
# Runs COMMAND (`rubble check ...`, or a physics test with RUBBLE_TEST_BACKEND=opencl) when an OpenCL
# device is there; RUBBLE is the command line, asked which backends can start. Without a device the
# test is skipped (exit 77), except in CI (CI=true), where OpenCL runs on PoCL and a missing device is
# a failure: the OpenCL tests must never be skipped silently there.
set -uo pipefail
rubble=$1; shift
if ! "$rubble" info | grep -qE '^  opencl +available'; then
  echo "no OpenCL device: $("$rubble" info | grep -E '^  opencl ')"
  if [ "${CI:-}" = true ]; then echo "FAIL: CI=true requires an OpenCL device (install pocl-opencl-icd)"; exit 1; fi
  exit 77
fi
exec "$@"
