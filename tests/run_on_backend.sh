#!/usr/bin/env bash
# usage: run_on_backend.sh BACKEND RUBBLE COMMAND [ARGS...]
# Runs COMMAND (`rubble check ...`, or a physics test with RUBBLE_TEST_BACKEND=BACKEND) when BACKEND
# (opencl or cuda) has a device; RUBBLE is the command line, asked which backends can start. Without
# a device the test is skipped (exit 77) with the reason, except OpenCL in CI (CI=true), where OpenCL
# runs on PoCL and a missing device is a failure: the OpenCL tests must never be skipped silently
# there. CI has no GPU, so the CUDA tests skip there and run on a GPU machine; they run in CI against
# the CUDA driver emulator (RUBBLE_CUDA_DRIVER, with RUBBLE_TEST_REQUIRE_BACKEND=1: no skipping).
set -uo pipefail
backend=$1; rubble=$2; shift 2
if ! "$rubble" info | grep -qE "^  $backend +available"; then
  echo "no $backend device, skipped: $("$rubble" info | grep -E "^  $backend ")"
  if [ "$backend" = opencl ] && [ "${CI:-}" = true ]; then
    echo "FAIL: CI=true requires an OpenCL device (install pocl-opencl-icd)"; exit 1
  fi
  if [ "${RUBBLE_TEST_REQUIRE_BACKEND:-}" = 1 ]; then
    echo "FAIL: RUBBLE_TEST_REQUIRE_BACKEND=1 (the CUDA driver emulator was given)"; exit 1
  fi
  exit 77
fi
exec "$@"
