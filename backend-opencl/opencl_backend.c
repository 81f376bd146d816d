// The OpenCL backend module (librubble-opencl.so): the OpenCL device operations under the shared GPU
// pipeline (backend-gpu/), creation on the chosen device (opencl_device.c) and the module entry point.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "opencl_device.h"

typedef struct ocl_state {
    cl_device_id dev;
    rb_ocl_program *shared;
    cl_context cl;
    cl_program prog;
    cl_command_queue q;
    cl_kernel k[K_COUNT];
    size_t local_size; // work-group size of every launch: 64, or less where a kernel allows less
} ocl_state;

// The longest scan or sort a CPU device runs in one work-item (rb_gpu_ctx.serial_max).
#define RB_OCL_CPU_SERIAL_MAX 8192

static ocl_state *st(rb_gpu_ctx *c) { return (ocl_state *)c->dev_state; }

// Records a failed OpenCL call as "what failed: CL_ERROR on DEVICE" (out of memory gets its own status).
static rb_status check(rb_gpu_ctx *c, cl_int err, const char *what)
{
    if (err == CL_SUCCESS)
        return RB_OK;
    if (rb_ocl_is_oom(err))
        return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY, "out of device memory in %s (%s) on %s", what,
                           rb_ocl_error_name(err), c->device);
    return rb_gpu_fail(c, RB_ERR_BACKEND_FAILED, "%s failed: %s on %s", what, rb_ocl_error_name(err), c->device);
}

static rb_status ocl_alloc(rb_gpu_ctx *c, void **mem, size_t bytes, const char *what)
{
    cl_int err;
    cl_mem m = clCreateBuffer(st(c)->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!m)
        return check(c, err, what);
    *mem = m;
    return RB_OK;
}

static void ocl_release(rb_gpu_ctx *c, void *mem)
{
    (void)c;
    clReleaseMemObject((cl_mem)mem);
}

static rb_status ocl_write(rb_gpu_ctx *c, void *mem, size_t offset, size_t bytes, const void *src, const char *what)
{
    return check(c, clEnqueueWriteBuffer(st(c)->q, (cl_mem)mem, CL_FALSE, offset, bytes, src, 0, NULL, NULL), what);
}

static rb_status ocl_read(rb_gpu_ctx *c, void *mem, size_t offset, size_t bytes, void *dst, const char *what)
{
    return check(c, clEnqueueReadBuffer(st(c)->q, (cl_mem)mem, CL_TRUE, offset, bytes, dst, 0, NULL, NULL), what);
}

static rb_status ocl_copy(rb_gpu_ctx *c, void *src, size_t src_offset, void *dst, size_t dst_offset, size_t bytes,
                          const char *what)
{
    return check(c,
                 clEnqueueCopyBuffer(st(c)->q, (cl_mem)src, (cl_mem)dst, src_offset, dst_offset, bytes, 0, NULL, NULL),
                 what);
}

static rb_status ocl_fill_zero(rb_gpu_ctx *c, void *mem, size_t offset, size_t bytes, const char *what)
{
    cl_uchar zero = 0;
    return check(c, clEnqueueFillBuffer(st(c)->q, (cl_mem)mem, &zero, 1, offset, bytes, 0, NULL, NULL), what);
}

// Work-groups of a fixed size (kernels check bounds). A fixed size matters on PoCL, which compiles a
// kernel anew for each work-group size it meets: left to the driver, the size would follow n from
// step to step.
static rb_status ocl_launch(rb_gpu_ctx *c, int kernel, size_t n, int nargs, const rb_gpu_arg *args, const char *what)
{
    ocl_state *o = st(c);
    cl_kernel k = o->k[kernel];
    for (int i = 0; i < nargs; ++i) {
        // a buffer argument whose value is a NULL cl_mem passes NULL to the kernel (OpenCL 1.2, 5.7.2)
        cl_int err = clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].value);
        if (err != CL_SUCCESS)
            return check(c, err, what);
    }
    size_t local = o->local_size;
    size_t global = (n + local - 1) / local * local;
    if (!c->profile)
        return check(c, clEnqueueNDRangeKernel(o->q, k, 1, NULL, &global, &local, 0, NULL, NULL), what);
    // RUBBLE_OPENCL_PROFILE: wait for each launch and add up its device time
    cl_event ev;
    cl_int err = clEnqueueNDRangeKernel(o->q, k, 1, NULL, &global, &local, 0, NULL, &ev);
    if (err == CL_SUCCESS) {
        cl_ulong t0 = 0, t1 = 0;
        err = clWaitForEvents(1, &ev);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
        clReleaseEvent(ev);
        c->kernel_ms[kernel] += (double)(t1 - t0) * 1e-6;
        c->kernel_launches[kernel]++;
    }
    return check(c, err, what);
}

static rb_status ocl_finish(rb_gpu_ctx *c, const char *what) { return check(c, clFinish(st(c)->q), what); }

static void ocl_destroy_state(rb_gpu_ctx *c)
{
    ocl_state *o = st(c);
    if (!o)
        return;
    for (int i = 0; i < K_COUNT; ++i)
        if (o->k[i])
            clReleaseKernel(o->k[i]);
    if (o->q)
        clReleaseCommandQueue(o->q);
    rb_ocl_program_release(o->shared);
    free(o);
    c->dev_state = NULL;
}

static const rb_gpu_device_ops k_device = {
    .api = "OpenCL",
    .memory_limit_var = "RUBBLE_OPENCL_MEMORY_LIMIT",
    .alloc = ocl_alloc,
    .release = ocl_release,
    .write = ocl_write,
    .read = ocl_read,
    .copy = ocl_copy,
    .fill_zero = ocl_fill_zero,
    .launch = ocl_launch,
    .finish = ocl_finish,
    .destroy = ocl_destroy_state,
};

// The device, the program (shared by the worlds of the process), a queue and the kernels.
static rb_status open_device(rb_gpu_ctx *c, ocl_state *o, int require_gpu, char *msg, size_t msg_size)
{
    char listing[1024];
    rb_status s = rb_ocl_pick_device(require_gpu, &o->dev, listing, sizeof listing, msg, msg_size);
    if (s != RB_OK)
        return s;
    rb_ocl_describe_device(o->dev, c->device, sizeof c->device);
    char build_msg[1024];
    s = rb_ocl_program_acquire(o->dev, &o->shared, &o->cl, &o->prog, build_msg, sizeof build_msg);
    if (s != RB_OK) {
        snprintf(msg, msg_size, "%s: %s", c->device, build_msg);
        return s;
    }
    if (!rb_gpu_env_flag("RUBBLE_OPENCL_PROFILE", &c->profile, msg, msg_size))
        return RB_ERR_INVALID_ARGUMENT;
    cl_int err;
    o->q = clCreateCommandQueue(o->cl, o->dev, c->profile ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
    if (!o->q) {
        snprintf(msg, msg_size, "cannot create a command queue on %s: %s", c->device, rb_ocl_error_name(err));
        return rb_ocl_is_oom(err) ? RB_ERR_OUT_OF_MEMORY : RB_ERR_BACKEND_FAILED;
    }
    o->local_size = 64;
    // On a CPU device (PoCL) a launch costs more than scanning or sorting a few thousand elements on
    // one core; a GPU's one thread gets no more than a chunk (gpu_pipeline.c)
    cl_device_type type = 0;
    if (clGetDeviceInfo(o->dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS && (type & CL_DEVICE_TYPE_CPU))
        c->serial_max = RB_OCL_CPU_SERIAL_MAX;
    for (int i = 0; i < K_COUNT; ++i) {
        o->k[i] = clCreateKernel(o->prog, rb_gpu_kernel_names[i], &err);
        if (!o->k[i]) {
            snprintf(msg, msg_size, "kernel %s missing from the program on %s: %s", rb_gpu_kernel_names[i], c->device,
                     rb_ocl_error_name(err));
            return RB_ERR_BACKEND_FAILED;
        }
        size_t most = 0;
        if (clGetKernelWorkGroupInfo(o->k[i], o->dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL) ==
                CL_SUCCESS &&
            most > 0)
            while (o->local_size > most)
                o->local_size /= 2;
    }
    return RB_OK;
}

static rb_status ocl_create(rb_scene *scene, const rb_backend_config *cfg, rb_backend_ctx **out, char *msg,
                            size_t msg_size)
{
    rb_gpu_ctx *c = calloc(1, sizeof *c);
    ocl_state *o = calloc(1, sizeof *o);
    if (!c || !o) {
        free(c);
        free(o);
        snprintf(msg, msg_size, "out of memory creating the OpenCL backend");
        return RB_ERR_OUT_OF_MEMORY;
    }
    c->scene = scene;
    c->dev = &k_device;
    c->dev_state = o;
    rb_status s = open_device(c, o, cfg->require_gpu, msg, msg_size);
    if (s == RB_OK)
        s = rb_gpu_start(c, msg, msg_size);
    if (s != RB_OK) {
        rb_gpu_destroy((rb_backend_ctx *)c);
        return s;
    }
    *out = (rb_backend_ctx *)c;
    return RB_OK;
}

static rb_status ocl_probe(char *device, size_t device_size, char *msg, size_t msg_size)
{
    cl_device_id dev;
    char listing[1024];
    rb_status s = rb_ocl_pick_device(0, &dev, listing, sizeof listing, msg, msg_size);
    if (s != RB_OK)
        return s;
    rb_ocl_describe_device(dev, device, device_size);
    snprintf(msg, msg_size, "%s (RUBBLE_OPENCL_DEVICE picks another)", listing);
    return RB_OK;
}

__attribute__((visibility("default"))) const rb_backend_ops *rb_backend_module_ops(int abi_version)
{
    (void)abi_version; // the core compares ops.abi_version and reports a mismatch
    return rb_gpu_module_ops("opencl", ocl_create, ocl_probe);
}
