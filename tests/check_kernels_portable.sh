#!/usr/bin/env bash
# The headers of core/kernels/ must compile unchanged as OpenCL C 1.2 and as CUDA C
# (docs/dev/kernel-rules.md). Checks with clang (OpenCL C) and nvcc (CUDA) where they are installed;
# a compiler that is missing is reported and skipped (exit 77), unless REQUIRE_KERNEL_COMPILERS
# names it (CI installs clang).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernels="$here/../core/kernels"
checked=0 missing=""
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if command -v clang >/dev/null; then
  clang -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only -Wall -Wextra -Werror \
    -Wdouble-promotion -I"$kernels" "$here/portability/kernels_use_all.cl" || { echo "FAIL: not valid OpenCL C"; exit 1; }
  echo "ok: core/kernels compiles as OpenCL C 1.2 (clang)"; checked=$((checked + 1))
else
  missing="$missing clang"
fi

nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
if [ -n "$nvcc" ]; then
  "$nvcc" -c -arch=sm_90 --fmad=false -Werror all-warnings -I"$kernels" -I"$here/portability" \
    "$here/portability/kernels_use_all.cu" -o "$tmp/k.o" || { echo "FAIL: not valid CUDA C"; exit 1; }
  echo "ok: core/kernels compiles as CUDA C (nvcc)"; checked=$((checked + 1))
else
  missing="$missing nvcc"
fi

for tool in $missing; do
  case " ${REQUIRE_KERNEL_COMPILERS:-} " in
    *" $tool "*) echo "FAIL: $tool is required (REQUIRE_KERNEL_COMPILERS) but not installed"; exit 1 ;;
  esac
  echo "skip: $tool not installed"
done
[ "$checked" -gt 0 ] || exit 77
exit 0
