// Loading the CUDA driver (cuda_driver.h).
#include "cuda_driver.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rb_cuda_driver g_driver;
static const rb_cuda_driver *g_loaded;
static char g_error[512];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

void rb_cuda_error_text(const rb_cuda_driver *d, CUresult r, char *out, size_t size)
{
    const char *name = NULL, *text = NULL;
    if (d && d->cuGetErrorName)
        d->cuGetErrorName(r, &name);
    if (d && d->cuGetErrorString)
        d->cuGetErrorString(r, &text);
    if (name) {
        snprintf(out, size, "%s (%s)", name, text ? text : "no description");
        return;
    }
    // the codes that come before a working driver can name them (the stub library names nothing)
    switch (r) {
    case 34: name = "CUDA_ERROR_STUB_LIBRARY (the CUDA toolkit's stub libcuda was loaded, not the driver's)"; break;
    case 35: name = "CUDA_ERROR_INSUFFICIENT_DRIVER (the NVIDIA driver is older than this CUDA version)"; break;
    case 100: name = "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)"; break;
    case 999: name = "CUDA_ERROR_UNKNOWN"; break;
    default: break;
    }
    if (name)
        snprintf(out, size, "%s", name);
    else
        snprintf(out, size, "CUDA error %d", r);
}

static void load(void)
{
    // RUBBLE_CUDA_DRIVER: another driver library (a path), e.g. tests/cuda_emulator's
    const char *path = getenv("RUBBLE_CUDA_DRIVER");
    if (!path || !*path)
        path = "libcuda.so.1";
    // RTLD_NODELETE: the driver keeps threads and process-wide state that outlive any one world
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!h) {
        snprintf(g_error, sizeof g_error, "%s cannot be loaded (%s): the NVIDIA driver is not installed on this machine",
                 path, dlerror());
        return;
    }
    struct {
        void **slot;
        const char *name;
    } syms[] = {
        {(void **)&g_driver.cuInit, "cuInit"},
        {(void **)&g_driver.cuDriverGetVersion, "cuDriverGetVersion"},
        {(void **)&g_driver.cuGetErrorName, "cuGetErrorName"},
        {(void **)&g_driver.cuGetErrorString, "cuGetErrorString"},
        {(void **)&g_driver.cuDeviceGetCount, "cuDeviceGetCount"},
        {(void **)&g_driver.cuDeviceGet, "cuDeviceGet"},
        {(void **)&g_driver.cuDeviceGetName, "cuDeviceGetName"},
        {(void **)&g_driver.cuDeviceGetAttribute, "cuDeviceGetAttribute"},
        {(void **)&g_driver.cuDeviceTotalMem, "cuDeviceTotalMem_v2"},
        {(void **)&g_driver.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
        {(void **)&g_driver.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"},
        {(void **)&g_driver.cuCtxSetCurrent, "cuCtxSetCurrent"},
        {(void **)&g_driver.cuCtxSynchronize, "cuCtxSynchronize"},
        {(void **)&g_driver.cuModuleLoadData, "cuModuleLoadData"},
        {(void **)&g_driver.cuModuleUnload, "cuModuleUnload"},
        {(void **)&g_driver.cuModuleGetFunction, "cuModuleGetFunction"},
        {(void **)&g_driver.cuFuncGetAttribute, "cuFuncGetAttribute"},
        {(void **)&g_driver.cuMemAlloc, "cuMemAlloc_v2"},
        {(void **)&g_driver.cuMemFree, "cuMemFree_v2"},
        {(void **)&g_driver.cuMemcpyHtoD, "cuMemcpyHtoD_v2"},
        {(void **)&g_driver.cuMemcpyDtoH, "cuMemcpyDtoH_v2"},
        {(void **)&g_driver.cuMemcpyDtoD, "cuMemcpyDtoD_v2"},
        {(void **)&g_driver.cuMemsetD8, "cuMemsetD8_v2"},
        {(void **)&g_driver.cuLaunchKernel, "cuLaunchKernel"},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; ++i) {
        *syms[i].slot = dlsym(h, syms[i].name);
        if (!*syms[i].slot) {
            snprintf(g_error, sizeof g_error, "%s has no %s: the NVIDIA driver is too old", path, syms[i].name);
            return;
        }
    }
    CUresult r = g_driver.cuInit(0);
    if (r != CUDA_SUCCESS) {
        char text[256];
        rb_cuda_error_text(&g_driver, r, text, sizeof text);
        snprintf(g_error, sizeof g_error, "cuInit failed: %s", text);
        return;
    }
    g_loaded = &g_driver;
}

const rb_cuda_driver *rb_cuda_driver_load(char *msg, size_t msg_size)
{
    pthread_once(&g_once, load);
    if (!g_loaded)
        snprintf(msg, msg_size, "%s", g_error);
    return g_loaded;
}
