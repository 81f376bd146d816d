// A stand-in for the NVIDIA driver's libcuda.so.1, for tests on machines without a GPU (CI): the entry
// points of backend-cuda/cuda_driver.h, with device memory in host memory and kernels run one thread
// at a time on the CPU (the CUDA program compiled as C, emulated_kernels.c). It runs the CUDA backend's
// host code for real — device choice, module loading, every launch with its grid and parameters,
// copies and fills at offsets — and checks what a real driver would refuse: a fat binary without
// nvcc's header or without a kernel of that name, grids past compute capability 1.0's 65535 blocks
// per dimension, blocks past the kernel's thread limit, buffer parameters that point outside device
// memory, copies that run past an allocation. It is not a GPU: races, memory coalescing and device codegen are not tested.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator.h"
#include "kernels/device_prelude.h"

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum {
    OK = 0,
    ERR_INVALID_VALUE = 1,
    ERR_OUT_OF_MEMORY = 2,
    ERR_INVALID_IMAGE = 200,
    ERR_INVALID_CONTEXT = 201,
    ERR_NOT_FOUND = 500,
    ERR_INVALID_HANDLE = 400,
    ERR_NO_BINARY_FOR_GPU = 209,
    ERR_LAUNCH_FAILED = 719,
};

// failure injection (RUBBLE_CUDA_EMULATOR_FAIL): which call fails, counted from the context's creation
static long g_fail_launch, g_fail_alloc, g_launches, g_allocations;
static int g_fail_load;

static void read_failures(void)
{
    const char *f = getenv("RUBBLE_CUDA_EMULATOR_FAIL");
    g_fail_launch = g_fail_alloc = g_launches = g_allocations = 0;
    g_fail_load = f && strcmp(f, "no-binary") == 0;
    if (f && strncmp(f, "launch:", 7) == 0)
        g_fail_launch = strtol(f + 7, NULL, 10);
    if (f && strncmp(f, "alloc:", 6) == 0)
        g_fail_alloc = strtol(f + 6, NULL, 10);
}

rb_dim3 blockIdx, blockDim, gridDim, threadIdx;

// The device memory: every allocation, so that a copy or launch with a stray pointer is caught.
typedef struct alloc {
    unsigned char *p;
    size_t bytes;
} alloc;
static alloc *g_allocs;
static int g_alloc_count, g_alloc_cap;
static size_t g_in_use, g_limit;
static int g_context_current;

typedef struct module {
    const unsigned char *image;
    size_t bytes;
} module;

static int find_alloc(CUdeviceptr ptr, size_t bytes)
{
    for (int i = 0; i < g_alloc_count; ++i) {
        uintptr_t lo = (uintptr_t)g_allocs[i].p;
        if (ptr >= lo && ptr + bytes <= lo + g_allocs[i].bytes)
            return i;
    }
    return -1;
}

static CUresult in_context(void) { return g_context_current ? OK : ERR_INVALID_CONTEXT; }

EXPORT CUresult cuInit(unsigned int flags) { return flags == 0 ? OK : ERR_INVALID_VALUE; }

EXPORT CUresult cuDriverGetVersion(int *v)
{
    *v = 13000;
    return OK;
}

static const char *error_name(CUresult r)
{
    switch (r) {
    case OK: return "CUDA_SUCCESS";
    case ERR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
    case ERR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
    case ERR_INVALID_IMAGE: return "CUDA_ERROR_INVALID_IMAGE";
    case ERR_INVALID_CONTEXT: return "CUDA_ERROR_INVALID_CONTEXT";
    case ERR_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
    case ERR_INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
    case ERR_NO_BINARY_FOR_GPU: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
    case ERR_LAUNCH_FAILED: return "CUDA_ERROR_LAUNCH_FAILED";
    }
    return NULL;
}

EXPORT CUresult cuGetErrorName(CUresult r, const char **name)
{
    *name = error_name(r);
    return *name ? OK : ERR_INVALID_VALUE;
}

EXPORT CUresult cuGetErrorString(CUresult r, const char **text)
{
    *text = error_name(r) ? "reported by the rubble CUDA driver emulator" : NULL;
    return *text ? OK : ERR_INVALID_VALUE;
}

EXPORT CUresult cuDeviceGetCount(int *n)
{
    *n = 1;
    return OK;
}

EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
    if (ordinal != 0)
        return ERR_INVALID_VALUE;
    *d = 0;
    return OK;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    (void)d;
    snprintf(name, (size_t)len, "rubble CUDA driver emulator (host CPU, not a GPU)");
    return OK;
}

EXPORT CUresult cuDeviceGetAttribute(int *v, int attribute, CUdevice d)
{
    (void)d;
    switch (attribute) {
    case 16: *v = 1; return OK; // multiprocessors
    case 75: *v = 1; return OK; // compute capability 1.0: what the kernels are kept to
    case 76: *v = 0; return OK;
    }
    return ERR_INVALID_VALUE;
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    (void)d;
    *bytes = (size_t)1 << 30;
    return OK;
}

static int g_primary;

EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d)
{
    (void)d;
    *ctx = &g_primary;
    const char *limit = getenv("RUBBLE_CUDA_EMULATOR_MEMORY");
    g_limit = limit ? (size_t)strtoull(limit, NULL, 10) : 0;
    read_failures();
    return OK;
}

EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
    (void)d;
    return OK;
}

EXPORT CUresult cuCtxSetCurrent(void *ctx)
{
    g_context_current = ctx == &g_primary;
    return ctx == NULL || ctx == &g_primary ? OK : ERR_INVALID_CONTEXT;
}

EXPORT CUresult cuCtxSynchronize(void) { return in_context(); }

// nvcc's fat binary: magic 0xBA55ED50, a 16-byte header, then `size` bytes of images.
EXPORT CUresult cuModuleLoadData(void **out, const void *image)
{
    if (in_context() != OK)
        return ERR_INVALID_CONTEXT;
    const unsigned char *p = image;
    uint32_t magic;
    uint16_t header;
    uint64_t size;
    memcpy(&magic, p, 4);
    memcpy(&header, p + 6, 2);
    memcpy(&size, p + 8, 8);
    if (magic != 0xBA55ED50u || header != 16 || size == 0)
        return ERR_INVALID_IMAGE;
    if (g_fail_load)
        return ERR_NO_BINARY_FOR_GPU;
    module *m = malloc(sizeof *m);
    if (!m)
        return ERR_OUT_OF_MEMORY;
    m->image = p;
    m->bytes = 16 + (size_t)size;
    *out = m;
    return OK;
}

EXPORT CUresult cuModuleUnload(void *m)
{
    free(m);
    return OK;
}

// The kernel must be in the fat binary under its plain (extern "C") name, and in the emulator's table.
EXPORT CUresult cuModuleGetFunction(const void **fn, void *mod, const char *name)
{
    const module *m = mod;
    size_t len = strlen(name) + 1; // with its NUL, as in the ELF string table
    int in_image = 0;
    for (size_t i = 0; i + len <= m->bytes && !in_image; ++i)
        in_image = m->image[i] == (unsigned char)name[0] && memcmp(m->image + i, name, len) == 0;
    if (!in_image)
        return ERR_NOT_FOUND;
    for (int k = 0; k < rb_emu_kernel_count; ++k) {
        if (strcmp(rb_emu_kernels[k].name, name) == 0) {
            *fn = &rb_emu_kernels[k];
            return OK;
        }
    }
    return ERR_NOT_FOUND;
}

EXPORT CUresult cuFuncGetAttribute(int *v, int attribute, const void *fn)
{
    (void)fn;
    if (attribute != 0)
        return ERR_INVALID_VALUE;
    *v = 512; // threads per block: fewer than the backend's first choice would be a real-device case too
    return OK;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *out, size_t bytes)
{
    if (in_context() != OK)
        return ERR_INVALID_CONTEXT;
    if (bytes == 0)
        return ERR_INVALID_VALUE;
    if (g_limit && g_in_use + bytes > g_limit)
        return ERR_OUT_OF_MEMORY;
    if (++g_allocations == g_fail_alloc)
        return ERR_OUT_OF_MEMORY;
    if (g_alloc_count == g_alloc_cap) {
        int cap = g_alloc_cap ? 2 * g_alloc_cap : 256;
        alloc *a = realloc(g_allocs, sizeof *a * (size_t)cap);
        if (!a)
            return ERR_OUT_OF_MEMORY;
        g_allocs = a;
        g_alloc_cap = cap;
    }
    // filled with a pattern: the backend must not read what it never wrote
    unsigned char *p = malloc(bytes);
    if (!p)
        return ERR_OUT_OF_MEMORY;
    memset(p, 0xA5, bytes);
    g_allocs[g_alloc_count].p = p;
    g_allocs[g_alloc_count].bytes = bytes;
    g_alloc_count++;
    g_in_use += bytes;
    *out = (CUdeviceptr)(uintptr_t)p;
    return OK;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr ptr)
{
    for (int i = 0; i < g_alloc_count; ++i) {
        if ((uintptr_t)g_allocs[i].p == ptr) {
            free(g_allocs[i].p);
            g_in_use -= g_allocs[i].bytes;
            g_allocs[i] = g_allocs[--g_alloc_count];
            return OK;
        }
    }
    return ERR_INVALID_VALUE;
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes)
{
    if (in_context() != OK || find_alloc(dst, bytes) < 0)
        return ERR_INVALID_VALUE;
    memcpy((void *)(uintptr_t)dst, src, bytes);
    return OK;
}

EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes)
{
    if (in_context() != OK || find_alloc(src, bytes) < 0)
        return ERR_INVALID_VALUE;
    memcpy(dst, (const void *)(uintptr_t)src, bytes);
    return OK;
}

EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    if (in_context() != OK || find_alloc(dst, bytes) < 0 || find_alloc(src, bytes) < 0)
        return ERR_INVALID_VALUE;
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
    return OK;
}

EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t count)
{
    if (in_context() != OK || find_alloc(dst, count) < 0)
        return ERR_INVALID_VALUE;
    memset((void *)(uintptr_t)dst, value, count);
    return OK;
}

// Every thread of every block, in order. Buffer parameters must point into device memory (or be NULL).
EXPORT CUresult cuLaunchKernel(const void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shared_bytes, void *stream, void **params, void **extra)
{
    const rb_emu_kernel *k = fn;
    if (in_context() != OK)
        return ERR_INVALID_CONTEXT;
    if (!k || !params || extra || stream || shared_bytes)
        return ERR_INVALID_VALUE;
    if (gx == 0 || gy == 0 || gz != 1 || gx > 65535 || gy > 65535 || bx == 0 || bx > 512 || by != 1 || bz != 1)
        return ERR_INVALID_VALUE;
    for (int i = 0; i < k->nparams; ++i) {
        if (!params[i])
            return ERR_INVALID_VALUE;
        if (k->pointer_params & (1u << i)) {
            CUdeviceptr ptr;
            memcpy(&ptr, params[i], sizeof ptr);
            if (ptr != 0 && find_alloc(ptr, 1) < 0)
                return ERR_INVALID_VALUE; // a host pointer, a freed buffer, or garbage
        }
    }
    if (++g_launches == g_fail_launch)
        return ERR_LAUNCH_FAILED;
    gridDim.x = gx, gridDim.y = gy, gridDim.z = 1;
    blockDim.x = bx, blockDim.y = 1, blockDim.z = 1;
    for (unsigned y = 0; y < gy; ++y)
        for (unsigned x = 0; x < gx; ++x)
            for (unsigned t = 0; t < bx; ++t) {
                blockIdx.x = x, blockIdx.y = y, blockIdx.z = 0;
                threadIdx.x = t, threadIdx.y = 0, threadIdx.z = 0;
                k->call(params);
            }
    return OK;
}
