// What the device kernels (device_*.h) need beyond core/kernels/portable.h, for the two languages
// they are compiled as: OpenCL C 1.2 (backend-opencl, built by the driver at run time) and CUDA C++
// (backend-cuda, built by nvcc). The kernels keep to what both offer and what CUDA compute capability
// 1.0 offers: float only, no atomics, no warp intrinsics, no shared memory, no barriers; every
// work-item writes only the elements it owns.
#ifndef RB_DEVICE_PRELUDE_H
#define RB_DEVICE_PRELUDE_H

#include "portable.h"

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define RB_KERNEL __kernel
typedef ulong rb_u64;
RB_FN int rb_thread_id(void) { return (int)get_global_id(0); }
RB_FN int4 rb_int4(int x, int y, int z, int w) { return (int4)(x, y, z, w); }
// Index of the lowest set bit of v (v != 0).
RB_FN int rb_lowest_bit64(rb_u64 v) { return 63 - (int)clz(v & (~v + (rb_u64)1)); }
#elif defined(__CUDACC__) || defined(RB_DEVICE_EMULATION)
#if defined(__CUDACC__)
// C linkage: the host looks kernels up by their plain names (cuModuleGetFunction).
#define RB_KERNEL extern "C" __global__
// device code only: it reads the thread's built-in coordinates
#define RB_THREAD_FN static __device__ __forceinline__
#else
#define RB_THREAD_FN RB_FN
// tests/cuda_emulator/: the CUDA program compiled as C for the host, behind an emulated driver, so
// that the CUDA backend's host code and launches are exercised where there is no GPU. The launcher
// sets these four as CUDA would for each thread.
#define RB_KERNEL static
typedef struct rb_dim3 {
    unsigned x, y, z;
} rb_dim3;
extern rb_dim3 blockIdx, blockDim, gridDim, threadIdx;
typedef struct __attribute__((aligned(16))) int4 {
    int x, y, z, w;
} int4;
RB_FN int4 make_int4(int x, int y, int z, int w)
{
    int4 v = {x, y, z, w};
    return v;
}
#endif
typedef unsigned int uint;
typedef unsigned char uchar;
typedef unsigned long long rb_u64;
// A launch is a 2-D grid of 1-D blocks (grid x stays within compute capability 1.0's 65535 blocks),
// numbered row by row.
RB_THREAD_FN int rb_thread_id(void)
{
    return (int)((blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x);
}
RB_FN int4 rb_int4(int x, int y, int z, int w) { return make_int4(x, y, z, w); }
RB_FN int rb_lowest_bit64(rb_u64 v)
{
    int i = 0;
    while (!(v & 1ull)) {
        v >>= 1;
        ++i;
    }
    return i;
}
#else
#error "device_prelude.h is for OpenCL C and CUDA (or its emulation) only"
#endif

#endif
