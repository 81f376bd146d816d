// Portability layer for the per-element physics math in core/kernels/.
//
// Everything under core/kernels/ is written in the common subset of C99, OpenCL C 1.2 and CUDA C:
// float only (no double), no recursion, no dynamic allocation, no library calls other than the
// math functions below. Pointers are to private (function-local) data, except where a parameter is
// marked RB_GLOBAL: an array in the device's global memory (OpenCL's __global; nothing in C and CUDA),
// which is how the per-element glue reads the scene's arrays on every backend. The CPU backend includes
// these headers; the OpenCL backend embeds them as source; the CUDA backend includes them in .cu files.
#ifndef RB_KERNELS_PORTABLE_H
#define RB_KERNELS_PORTABLE_H

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define RB_OPENCL 1
// Same rounding as the C build (-ffp-contract=off) and CUDA (--fmad=false): no fused multiply-add,
// so the backends can be compared element by element.
#pragma OPENCL FP_CONTRACT OFF
#define RB_FN static inline
#define RB_CONSTANT __constant
#define RB_GLOBAL __global
#define rb_sqrtf(x) sqrt(x)
#define rb_fabsf(x) fabs(x)
#define rb_atan2f(y, x) atan2(y, x)
#define rb_floorf(x) floor(x)
#define RB_FLT_MAX FLT_MAX
#define RB_FLT_EPSILON FLT_EPSILON
#elif defined(__CUDACC__)
#define RB_FN static __host__ __device__ __forceinline__
#define RB_CONSTANT
#define RB_GLOBAL
#define rb_sqrtf(x) sqrtf(x)
#define rb_fabsf(x) fabsf(x)
#define rb_atan2f(y, x) atan2f(y, x)
#define rb_floorf(x) floorf(x)
#define RB_FLT_MAX 3.402823466e+38f
#define RB_FLT_EPSILON 1.192092896e-07f
#else
#include <float.h>
#include <math.h>
#define RB_FN static inline
#define RB_CONSTANT
#define RB_GLOBAL
#define rb_sqrtf(x) sqrtf(x)
#define rb_fabsf(x) fabsf(x)
#define rb_atan2f(y, x) atan2f(y, x)
#define rb_floorf(x) floorf(x)
#define RB_FLT_MAX FLT_MAX
#define RB_FLT_EPSILON FLT_EPSILON
#endif

// Pointers into a backend's buffers, for the glue that walks them (OpenCL's global address space;
// a plain pointer elsewhere). backend-gpu/kernels/device_prelude.h defines it the same way.
#ifndef RB_GLOBAL
#ifdef RB_OPENCL
#define RB_GLOBAL __global
#else
#define RB_GLOBAL
#endif
#endif

// The large routines called from many places (the convex pair routines): CUDA inlines every RB_FN
// (__forceinline__), and with these at every call site of rb_collide the CUDA program took 3.5 times as
// long to compile; there they are called. C and OpenCL leave the choice to the compiler.
#if defined(__CUDACC__)
#define RB_FN_CALLED static __host__ __device__ __noinline__
#else
#define RB_FN_CALLED RB_FN
#endif

#define RB_PI 3.14159265358979f

// min/max written out rather than fminf/fmaxf: identical results on every compiler and device
// (no NaN special cases that differ between libm and device intrinsics).
RB_FN float rb_minf(float a, float b) { return a < b ? a : b; }
RB_FN float rb_maxf(float a, float b) { return a > b ? a : b; }
RB_FN float rb_clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }
RB_FN int rb_mini(int a, int b) { return a < b ? a : b; }
RB_FN int rb_maxi(int a, int b) { return a > b ? a : b; }

// sin and cos in float arithmetic only (Cephes sinf/cosf: reduction by pi/4 in three parts, then
// minimax polynomials on [-pi/4, pi/4]; about 1 ulp for |x| < 8192). The device libraries' sinf
// differ in the last bits from libm's, and CUDA's reduces large arguments in double precision, which
// compute capability 1.0 lacks: this one gives the same bits on every backend (with contraction off).
RB_FN float rb_sincos_poly_sin(float x, float z)
{
    return ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * x + x;
}
RB_FN float rb_sincos_poly_cos(float z)
{
    return ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f) * z * z - 0.5f * z +
           1.0f;
}
// The octant of |x| (even, 0..6 after & 7) and |x| reduced to [-pi/4, pi/4].
RB_FN float rb_sincos_reduce(float ax, int *octant)
{
    if (!(ax <= 8192.0f)) {
        // whole turns off first (precision there is moot); NaN and infinity give NaN
        if (!(ax < 3.0e38f)) {
            *octant = 0;
            return ax - ax;
        }
        ax -= 6.28318530717958648f * rb_floorf(ax * 0.159154943091895336f);
        if (!(ax >= 0.0f && ax < 6.3f))
            ax = 0.0f; // beyond float resolution of the angle
    }
    int j = (int)(ax * 1.27323954473516f); // 4 / pi
    float y = (float)j;
    if (j & 1) {
        j += 1;
        y += 1.0f;
    }
    *octant = j & 7;
    return ((ax - y * 0.78515625f) - y * 2.4187564849853515625e-4f) - y * 3.77489497744594108e-8f;
}
RB_FN float rb_sinf(float x)
{
    int j;
    float r = rb_sincos_reduce(rb_fabsf(x), &j);
    float sign = x < 0.0f ? -1.0f : 1.0f;
    if (j > 3) {
        sign = -sign;
        j -= 4;
    }
    float z = r * r;
    float y = (j == 1 || j == 2) ? rb_sincos_poly_cos(z) : rb_sincos_poly_sin(r, z);
    return sign * y;
}
RB_FN float rb_cosf(float x)
{
    int j;
    float r = rb_sincos_reduce(rb_fabsf(x), &j);
    float sign = 1.0f;
    if (j > 3) {
        sign = -sign;
        j -= 4;
    }
    if (j > 1)
        sign = -sign;
    float z = r * r;
    float y = (j == 1 || j == 2) ? rb_sincos_poly_sin(r, z) : rb_sincos_poly_cos(z);
    return sign * y;
}

#endif
