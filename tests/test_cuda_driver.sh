#!/usr/bin/env bash
# usage: test_cuda_driver.sh RUBBLE NVCC
# On a machine without the NVIDIA driver, the CUDA module opens the CUDA toolkit's stub libcuda (which
# exports every driver entry point and fails cuInit with CUDA_ERROR_STUB_LIBRARY) in place of
# libcuda.so.1 (RUBBLE_CUDA_DRIVER). Checks that the module finds every entry point it needs by its ABI name
# (cuMemAlloc_v2 ...), and that the failure reaches `rubble info` and a world as "no CUDA device".
set -uo pipefail
rubble=$1; nvcc=$2
stub=$(dirname "$(readlink -f "$nvcc")")/../lib64/stubs/libcuda.so
if [ ! -f "$stub" ]; then
  echo "no stub libcuda next to $nvcc (looked for $stub), skipped"; exit 77
fi
if "$rubble" info | grep -qE '^  cuda +available'; then
  echo "a CUDA driver and device are present: the stub test is for machines without one, skipped"; exit 77
fi
line=$(RUBBLE_CUDA_DRIVER="$stub" "$rubble" info | grep -E '^  cuda ')
echo "$line"
case "$line" in
  *"has no "*) echo "FAIL: the module asks the driver for an entry point it does not export"; exit 1 ;;
  *"no CUDA device: cuInit failed: CUDA_ERROR_STUB_LIBRARY"*) ;;
  *) echo "FAIL: expected 'no CUDA device: cuInit failed: CUDA_ERROR_STUB_LIBRARY'"; exit 1 ;;
esac
out=$(RUBBLE_CUDA_DRIVER="$stub" "$rubble" run pyramid --steps 1 --backend cuda 2>&1)
rc=$?
echo "$out"
[ $rc -ne 0 ] || { echo "FAIL: --backend cuda ran without a device"; exit 1; }
echo "$out" | grep -q "backend 'cuda'.*cannot start: no CUDA device" || { echo "FAIL: no reason given"; exit 1; }
echo "ok"
