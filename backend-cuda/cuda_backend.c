// The CUDA backend module (librubble-cuda.so): the CUDA device operations under the shared GPU pipeline
// (backend-gpu/), on the driver API (cuda_driver.h), with the kernels of backend-gpu/kernels/ compiled
// by nvcc into a fat binary that is linked into the module (cuda_fatbin.c).
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_driver.h"
#include "cuda_fatbin.h"
#include "cuda_launch.h"
#include "gpu_context.h"

// Threads per block (grids: cuda_launch.h).
#define BLOCK_THREADS 128

typedef struct cuda_state {
    const rb_cuda_driver *d;
    CUdevice dev;
    CUcontext ctx;
    CUmodule module;
    CUfunction k[K_COUNT];
    unsigned block[K_COUNT]; // threads per block for each kernel (fewer where its registers allow fewer)
} cuda_state;

static cuda_state *st(rb_gpu_ctx *c) { return (cuda_state *)c->dev_state; }

static CUdeviceptr dptr(void *mem) { return (CUdeviceptr)(uintptr_t)mem; }

static rb_status check(rb_gpu_ctx *c, CUresult r, const char *what)
{
    if (r == CUDA_SUCCESS)
        return RB_OK;
    char text[256];
    rb_cuda_error_text(st(c)->d, r, text, sizeof text);
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY, "out of device memory in %s (%s) on %s", what, text, c->device);
    return rb_gpu_fail(c, RB_ERR_BACKEND_FAILED, "%s failed: %s on %s", what, text, c->device);
}

// The driver's current context is per host thread: a world may be stepped from any thread.
static rb_status use(rb_gpu_ctx *c, const char *what) { return check(c, st(c)->d->cuCtxSetCurrent(st(c)->ctx), what); }

static rb_status cu_alloc(rb_gpu_ctx *c, void **mem, size_t bytes, const char *what)
{
    CUdeviceptr p = 0;
    rb_status s = use(c, what);
    if (s == RB_OK)
        s = check(c, st(c)->d->cuMemAlloc(&p, bytes), what);
    if (s == RB_OK)
        *mem = (void *)(uintptr_t)p;
    return s;
}

static void cu_release(rb_gpu_ctx *c, void *mem)
{
    if (use(c, "freeing device memory") == RB_OK)
        st(c)->d->cuMemFree(dptr(mem));
}

static rb_status cu_write(rb_gpu_ctx *c, void *mem, size_t offset, size_t bytes, const void *src, const char *what)
{
    rb_status s = use(c, what);
    return s != RB_OK ? s : check(c, st(c)->d->cuMemcpyHtoD(dptr(mem) + offset, src, bytes), what);
}

static rb_status cu_read(rb_gpu_ctx *c, void *mem, size_t offset, size_t bytes, void *dst, const char *what)
{
    rb_status s = use(c, what);
    return s != RB_OK ? s : check(c, st(c)->d->cuMemcpyDtoH(dst, dptr(mem) + offset, bytes), what);
}

static rb_status cu_copy(rb_gpu_ctx *c, void *src, size_t src_offset, void *dst, size_t dst_offset, size_t bytes,
                         const char *what)
{
    rb_status s = use(c, what);
    return s != RB_OK ? s : check(c, st(c)->d->cuMemcpyDtoD(dptr(dst) + dst_offset, dptr(src) + src_offset, bytes), what);
}

static rb_status cu_fill_zero(rb_gpu_ctx *c, void *mem, size_t offset, size_t bytes, const char *what)
{
    rb_status s = use(c, what);
    return s != RB_OK ? s : check(c, st(c)->d->cuMemsetD8(dptr(mem) + offset, 0, bytes), what);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static rb_status cu_launch(rb_gpu_ctx *c, int kernel, size_t n, int nargs, const rb_gpu_arg *args, const char *what)
{
    cuda_state *o = st(c);
    rb_status s = use(c, what);
    if (s != RB_OK)
        return s;
    void *params[RB_GPU_MAX_ARGS];
    for (int i = 0; i < nargs; ++i)
        params[i] = (void *)args[i].value;
    unsigned block = o->block[kernel], gx, gy;
    if (!rb_cuda_grid(n, block, RB_CUDA_GRID_MAX, &gx, &gy))
        return rb_gpu_fail(c, RB_ERR_CAPACITY, "%s: %zu work-items are more than one launch of %s can take", what, n,
                           rb_gpu_kernel_names[kernel]);
    double t0 = c->profile ? now_ms() : 0.0;
    s = check(c, o->d->cuLaunchKernel(o->k[kernel], gx, gy, 1, block, 1, 1, 0, NULL, params, NULL), what);
    if (s == RB_OK && c->profile) {
        // RUBBLE_CUDA_PROFILE: wait for each launch; host time from launch to completion
        s = check(c, o->d->cuCtxSynchronize(), what);
        c->kernel_ms[kernel] += now_ms() - t0;
        c->kernel_launches[kernel]++;
    }
    return s;
}

static rb_status cu_finish(rb_gpu_ctx *c, const char *what)
{
    rb_status s = use(c, what);
    return s != RB_OK ? s : check(c, st(c)->d->cuCtxSynchronize(), what);
}

static void cu_destroy_state(rb_gpu_ctx *c)
{
    cuda_state *o = st(c);
    if (!o)
        return;
    if (o->ctx) {
        o->d->cuCtxSetCurrent(o->ctx);
        if (o->module)
            o->d->cuModuleUnload(o->module);
        o->d->cuDevicePrimaryCtxRelease(o->dev);
    }
    free(o);
    c->dev_state = NULL;
}

static const rb_gpu_device_ops k_device = {
    .api = "CUDA",
    .memory_limit_var = "RUBBLE_CUDA_MEMORY_LIMIT",
    .alloc = cu_alloc,
    .release = cu_release,
    .write = cu_write,
    .read = cu_read,
    .copy = cu_copy,
    .fill_zero = cu_fill_zero,
    .launch = cu_launch,
    .finish = cu_finish,
    .destroy = cu_destroy_state,
};

// ---- devices ----

static void describe(const rb_cuda_driver *d, CUdevice dev, int index, char *out, size_t size)
{
    char name[256] = "";
    int major = 0, minor = 0, sms = 0;
    size_t mem = 0;
    d->cuDeviceGetName(name, (int)sizeof name, dev);
    d->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    d->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    d->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    d->cuDeviceTotalMem(&mem, dev);
    snprintf(out, size, "[%d] %s (sm_%d%d, %d multiprocessors, %.1f GiB)", index, name, major, minor, sms,
             (double)mem / (1024.0 * 1024.0 * 1024.0));
}

// The driver and the device: RUBBLE_CUDA_DEVICE (index as `rubble info` lists it), else device 0.
// `listing` receives every device.
static rb_status pick_device(const rb_cuda_driver **out_d, CUdevice *out, int *index, char *listing,
                             size_t listing_size, char *msg, size_t msg_size)
{
    listing[0] = '\0';
    char why[512];
    const rb_cuda_driver *d = rb_cuda_driver_load(why, sizeof why);
    if (!d) {
        snprintf(msg, msg_size, "no CUDA device: %s", why);
        return RB_ERR_BACKEND_UNAVAILABLE;
    }
    int count = 0;
    CUresult r = d->cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count <= 0) {
        rb_cuda_error_text(d, r, why, sizeof why);
        snprintf(msg, msg_size, "no CUDA device: the driver reports none%s%s", r != CUDA_SUCCESS ? ": " : "",
                 r != CUDA_SUCCESS ? why : "");
        return RB_ERR_BACKEND_UNAVAILABLE;
    }
    for (int i = 0; i < count; ++i) {
        CUdevice dev;
        char line[400];
        if (d->cuDeviceGet(&dev, i) != CUDA_SUCCESS)
            continue;
        describe(d, dev, i, line, sizeof line);
        size_t len = strlen(listing);
        snprintf(listing + len, listing_size - len, "%s%s", i ? "; " : "", line);
    }
    int chosen = 0;
    const char *want = getenv("RUBBLE_CUDA_DEVICE");
    if (want && *want) {
        char *end = NULL;
        errno = 0;
        long v = strtol(want, &end, 10);
        if (errno || end == want || *end != '\0' || v < 0 || v >= count) {
            snprintf(msg, msg_size, "RUBBLE_CUDA_DEVICE='%s' is not a device index; CUDA devices: %s", want, listing);
            return RB_ERR_INVALID_ARGUMENT;
        }
        chosen = (int)v;
    }
    r = d->cuDeviceGet(out, chosen);
    if (r != CUDA_SUCCESS) {
        rb_cuda_error_text(d, r, why, sizeof why);
        snprintf(msg, msg_size, "CUDA device %d cannot be opened: %s", chosen, why);
        return RB_ERR_BACKEND_UNAVAILABLE;
    }
    *out_d = d;
    *index = chosen;
    return RB_OK;
}

// The context, the module (the fat binary) and the kernels.
static rb_status open_device(rb_gpu_ctx *c, cuda_state *o, char *msg, size_t msg_size)
{
    char listing[1024], text[256];
    int index = 0;
    rb_status s = pick_device(&o->d, &o->dev, &index, listing, sizeof listing, msg, msg_size);
    if (s != RB_OK)
        return s;
    describe(o->d, o->dev, index, c->device, sizeof c->device);
    CUresult r = o->d->cuDevicePrimaryCtxRetain(&o->ctx, o->dev);
    if (r != CUDA_SUCCESS) {
        o->ctx = NULL;
        rb_cuda_error_text(o->d, r, text, sizeof text);
        snprintf(msg, msg_size, "cannot create a CUDA context on %s: %s", c->device, text);
        return r == CUDA_ERROR_OUT_OF_MEMORY ? RB_ERR_OUT_OF_MEMORY : RB_ERR_BACKEND_FAILED;
    }
    o->d->cuCtxSetCurrent(o->ctx);
    r = o->d->cuModuleLoadData(&o->module, rb_cuda_fatbin);
    if (r != CUDA_SUCCESS) {
        o->module = NULL;
        rb_cuda_error_text(o->d, r, text, sizeof text);
        if (r == CUDA_ERROR_NO_BINARY_FOR_GPU)
            snprintf(msg, msg_size,
                     "the CUDA kernels do not load on %s: %s; librubble-cuda.so was built for %s: rebuild with "
                     "meson -Dcuda-arch=XY for this GPU",
                     c->device, text, rb_cuda_arch_list);
        else
            snprintf(msg, msg_size, "the CUDA kernels do not load on %s: %s", c->device, text);
        return RB_ERR_BACKEND_FAILED;
    }
    for (int i = 0; i < K_COUNT; ++i) {
        r = o->d->cuModuleGetFunction(&o->k[i], o->module, rb_gpu_kernel_names[i]);
        if (r != CUDA_SUCCESS) {
            rb_cuda_error_text(o->d, r, text, sizeof text);
            snprintf(msg, msg_size, "kernel %s missing from the CUDA module on %s: %s", rb_gpu_kernel_names[i],
                     c->device, text);
            return RB_ERR_BACKEND_FAILED;
        }
        int most = 0;
        o->block[i] = BLOCK_THREADS;
        if (o->d->cuFuncGetAttribute(&most, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, o->k[i]) == CUDA_SUCCESS &&
            most > 0)
            while (o->block[i] > (unsigned)most && o->block[i] > 32)
                o->block[i] /= 2;
    }
    if (!rb_gpu_env_flag("RUBBLE_CUDA_PROFILE", &c->profile, msg, msg_size))
        return RB_ERR_INVALID_ARGUMENT;
    return RB_OK;
}

static rb_status cu_create(rb_scene *scene, const rb_backend_config *cfg, rb_backend_ctx **out, char *msg,
                           size_t msg_size)
{
    (void)cfg; // every CUDA device is a GPU
    rb_gpu_ctx *c = calloc(1, sizeof *c);
    cuda_state *o = calloc(1, sizeof *o);
    if (!c || !o) {
        free(c);
        free(o);
        snprintf(msg, msg_size, "out of memory creating the CUDA backend");
        return RB_ERR_OUT_OF_MEMORY;
    }
    c->scene = scene;
    rb_status s = open_device(c, o, msg, msg_size);
    if (s != RB_OK) {
        if (o->d) {
            c->dev = &k_device;
            c->dev_state = o;
            rb_gpu_destroy((rb_backend_ctx *)c);
        } else {
            free(o);
            free(c);
        }
        return s;
    }
    c->dev = &k_device;
    c->dev_state = o;
    s = rb_gpu_start(c, msg, msg_size);
    if (s != RB_OK) {
        rb_gpu_destroy((rb_backend_ctx *)c);
        return s;
    }
    *out = (rb_backend_ctx *)c;
    return RB_OK;
}

static rb_status cu_probe(char *device, size_t device_size, char *msg, size_t msg_size)
{
    const rb_cuda_driver *d = NULL;
    CUdevice dev;
    int index = 0;
    char listing[1024];
    rb_status s = pick_device(&d, &dev, &index, listing, sizeof listing, msg, msg_size);
    if (s != RB_OK)
        return s;
    describe(d, dev, index, device, device_size);
    int version = 0;
    d->cuDriverGetVersion(&version);
    snprintf(msg, msg_size, "%s (driver %d.%d; RUBBLE_CUDA_DEVICE picks another; kernels built for %s)", listing,
             version / 1000, version % 1000 / 10, rb_cuda_arch_list);
    return RB_OK;
}

__attribute__((visibility("default"))) const rb_backend_ops *rb_backend_module_ops(int abi_version)
{
    (void)abi_version; // the core compares ops.abi_version and reports a mismatch
    return rb_gpu_module_ops("cuda", cu_create, cu_probe);
}
