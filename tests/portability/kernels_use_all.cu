// The OpenCL check kernel, compiled as CUDA C (tests/check_kernels_portable.sh).
#define __kernel __global__
#define __global
#define get_global_id(d) (blockIdx.x * blockDim.x + threadIdx.x)
#include "kernels_use_all.cl"
