#!/usr/bin/env bash
# usage: check_cuda_features.sh NVCC KERNELS.cu GPU_KERNEL_DIR CORE_KERNEL_DIR
# The CUDA program keeps to what compute capability 1.0 offers (docs/backends.md): compiles it to PTX
# and fails on any atomic (atom., red.), warp intrinsic (shfl, vote, match, activemask, redux), block
# barrier (bar., barrier.), shared memory (.shared) or double-precision instruction (.f64). The build
# itself already fails on double precision (ptxas --warn-on-double-precision-use as an error); this
# checks the rest, kernel by kernel, and prints what each kernel uses.
set -uo pipefail
nvcc=$1; cu=$2; gdir=$3; cdir=$4
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$nvcc" -ptx -arch=compute_75 --fmad=false -I"$gdir" -I"$cdir" "$cu" -o "$tmp/k.ptx" || { echo "FAIL: nvcc"; exit 1; }
kernels=$(grep -c '^\.visible \.entry' "$tmp/k.ptx")
echo "$kernels kernels in the PTX"
[ "$kernels" -eq "$(cat "$gdir"/device_*.h | grep -c "RB_KERNEL void")" ] || { echo "FAIL: kernel count differs from the sources"; exit 1; }
bad=0
check() { # name, extended regex over instruction lines
  local hits
  hits=$(grep -vE '^\s*(//|\.reg|\.loc|\.file)' "$tmp/k.ptx" | grep -cE "$2")
  if [ "$hits" -ne 0 ]; then
    echo "FAIL: $hits PTX lines use $1:"; grep -vE '^\s*(//|\.reg)' "$tmp/k.ptx" | grep -E "$2" | head -5; bad=1
  else
    echo "ok: no $1"
  fi
}
check "atomics" '^\s*(@!?%p[0-9]+\s+)?(atom|red)\.'
check "warp intrinsics" '^\s*(@!?%p[0-9]+\s+)?(shfl|vote|match|activemask|redux)\.'
check "block barriers" '^\s*(@!?%p[0-9]+\s+)?(bar|barrier)\.'
check "shared memory" '\.shared'
check "double precision" '\.f64\b'
# per kernel: registers, local memory (per-thread arrays), shared memory, for the record
"$nvcc" -cubin -arch=sm_90 --fmad=false -Xptxas -v -I"$gdir" -I"$cdir" "$cu" -o "$tmp/k.cubin" 2>&1 |
  awk '/Compiling entry function/ { name = $7; gsub(/\047/, "", name) }
       /bytes stack frame/ { frame = $1 }
       /Used [0-9]+ registers/ { printf "  %-26s %3d registers, %4d bytes stack frame\n", name, $5, frame }'
exit $bad
