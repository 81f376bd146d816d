// OpenCL platforms and devices, device choice, and the shared program build (opencl_device.h).
#define _GNU_SOURCE // strcasestr
#include "opencl_device.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opencl_source.h"

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

const char *rb_ocl_error_name(cl_int err)
{
    switch (err) {
#define E(x) case x: return #x;
        E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
        E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
        E(CL_BUILD_PROGRAM_FAILURE) E(CL_INVALID_VALUE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE)
        E(CL_INVALID_CONTEXT) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_BUILD_OPTIONS)
        E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL)
        E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
        E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE)
        E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_OPERATION)
        E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_GLOBAL_WORK_SIZE)
#undef E
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL driver registered with the ICD loader)";
    }
    return "unknown OpenCL error";
}

int rb_ocl_is_oom(cl_int err)
{
    return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY ||
           err == CL_INVALID_BUFFER_SIZE;
}

static void append(char *buf, size_t size, const char *text)
{
    size_t len = strlen(buf);
    if (len + 1 < size)
        snprintf(buf + len, size - len, "%s", text);
}

void rb_ocl_describe_device(cl_device_id dev, char *out, size_t size)
{
    char name[256] = "", pname[256] = "", cver[64] = "";
    cl_platform_id plat = NULL;
    cl_uint units = 0;
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_VERSION, sizeof cver, cver, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL);
    if (plat)
        clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    snprintf(out, size, "%s (%s, %s, %u compute units)", name, pname, cver, units);
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; ++s)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

rb_status rb_ocl_pick_device(int require_gpu, cl_device_id *out, char *listing, size_t listing_size, char *msg,
                             size_t msg_size)
{
    listing[0] = '\0';
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(MAX_PLATFORMS, plats, &np);
    if (err != CL_SUCCESS || np == 0) {
        snprintf(msg, msg_size,
                 "no OpenCL platform found (%s): install an OpenCL driver, e.g. pocl-opencl-icd for the CPU, and the "
                 "ICD loader ocl-icd-libopencl1",
                 err != CL_SUCCESS ? rb_ocl_error_name(err) : "none registered in /etc/OpenCL/vendors");
        return RB_ERR_BACKEND_UNAVAILABLE;
    }
    cl_device_id devs[MAX_DEVICES];
    cl_device_type types[MAX_DEVICES];
    char names[MAX_DEVICES][160];
    char pnames[MAX_DEVICES][96];
    int nd = 0;
    for (cl_uint p = 0; p < np && nd < MAX_DEVICES; ++p) {
        char pname[96] = "";
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        cl_uint n = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, (cl_uint)(MAX_DEVICES - nd), devs + nd, &n) != CL_SUCCESS)
            n = 0;
        char line[320];
        snprintf(line, sizeof line, "%splatform %u '%s':", p ? "; " : "", p, pname);
        append(listing, listing_size, line);
        for (cl_uint d = 0; d < n; ++d, ++nd) {
            clGetDeviceInfo(devs[nd], CL_DEVICE_NAME, sizeof names[nd], names[nd], NULL);
            clGetDeviceInfo(devs[nd], CL_DEVICE_TYPE, sizeof types[nd], &types[nd], NULL);
            snprintf(pnames[nd], sizeof pnames[nd], "%s", pname);
            snprintf(line, sizeof line, " [%d] %s (%s)", nd, names[nd],
                     types[nd] & CL_DEVICE_TYPE_GPU ? "GPU" : types[nd] & CL_DEVICE_TYPE_CPU ? "CPU" : "other");
            append(listing, listing_size, line);
        }
        if (n == 0)
            append(listing, listing_size, " no devices");
    }
    if (nd == 0) {
        snprintf(msg, msg_size, "no OpenCL device found (%s)", listing);
        return RB_ERR_BACKEND_UNAVAILABLE;
    }
    const char *want = getenv("RUBBLE_OPENCL_DEVICE");
    int chosen = -1;
    if (want && *want) {
        if (all_digits(want)) {
            long idx = strlen(want) <= 6 ? strtol(want, NULL, 10) : -1; // no overflow from a long string
            if (idx >= 0 && idx < nd)
                chosen = (int)idx;
        } else {
            for (int i = 0; i < nd && chosen < 0; ++i)
                if (strcasestr(names[i], want) || strcasestr(pnames[i], want))
                    chosen = i;
        }
        if (chosen < 0) {
            snprintf(msg, msg_size, "RUBBLE_OPENCL_DEVICE='%s' matches no OpenCL device (by index or name); found: %s",
                     want, listing);
            return RB_ERR_BACKEND_UNAVAILABLE;
        }
        if (require_gpu && !(types[chosen] & CL_DEVICE_TYPE_GPU)) {
            snprintf(msg, msg_size,
                     "RUBBLE_OPENCL_DEVICE='%s' is not a GPU; the automatic choice takes OpenCL only on a GPU (ask for "
                     "the opencl backend by name to use it)",
                     want);
            return RB_ERR_BACKEND_UNAVAILABLE;
        }
    } else {
        for (int i = 0; i < nd && chosen < 0; ++i)
            if (types[i] & CL_DEVICE_TYPE_GPU)
                chosen = i;
        if (chosen < 0 && require_gpu) {
            snprintf(msg, msg_size,
                     "no OpenCL GPU (found: %s); a CPU device such as PoCL is used only when the opencl backend is asked "
                     "for by name",
                     listing);
            return RB_ERR_BACKEND_UNAVAILABLE;
        }
        if (chosen < 0)
            chosen = 0;
    }
    *out = devs[chosen];
    return RB_OK;
}

// ---- the shared program ----

struct rb_ocl_program {
    cl_device_id dev;
    char options[512];
    cl_context ctx;
    cl_program prog;
    int refs;
};

#define PROGRAM_SLOTS 8
static rb_ocl_program g_programs[PROGRAM_SLOTS];
static pthread_mutex_t g_programs_lock = PTHREAD_MUTEX_INITIALIZER;

static void build_options(cl_device_id dev, char *out, size_t size)
{
    // the same rounding as the C build: correctly rounded / and sqrt where the device offers it
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(dev, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL);
    const char *extra = getenv("RUBBLE_OPENCL_BUILD_OPTIONS");
    snprintf(out, size, "-cl-std=CL1.2%s%s%s", (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) ? " -cl-fp32-correctly-rounded-divide-sqrt" : "",
             extra && *extra ? " " : "", extra && *extra ? extra : "");
}

// Writes the whole build log to a file; returns its path in `path` (empty if it could not).
static void save_log(const char *log, char *path, size_t size)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/rubble-opencl-build-%ld.log", dir && *dir ? dir : "/tmp", (long)getpid());
    FILE *f = fopen(path, "w");
    if (!f) {
        path[0] = '\0';
        return;
    }
    fputs(log, f);
    fclose(f);
}

static rb_status build(rb_ocl_program *p, char *msg, size_t msg_size)
{
    cl_int err;
    p->ctx = clCreateContext(NULL, 1, &p->dev, NULL, NULL, &err);
    if (!p->ctx) {
        snprintf(msg, msg_size, "cannot create an OpenCL context: %s", rb_ocl_error_name(err));
        return rb_ocl_is_oom(err) ? RB_ERR_OUT_OF_MEMORY : RB_ERR_BACKEND_FAILED;
    }
    const char *src = rb_opencl_program_source;
    size_t len = (size_t)rb_opencl_program_source_size;
    p->prog = clCreateProgramWithSource(p->ctx, 1, &src, &len, &err);
    if (!p->prog) {
        snprintf(msg, msg_size, "cannot create the OpenCL program: %s", rb_ocl_error_name(err));
        clReleaseContext(p->ctx);
        return RB_ERR_BACKEND_FAILED;
    }
    err = clBuildProgram(p->prog, 1, &p->dev, p->options, NULL, NULL);
    if (err == CL_SUCCESS)
        return RB_OK;
    size_t log_size = 0;
    clGetProgramBuildInfo(p->prog, p->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
    char *log = calloc(1, log_size + 1);
    if (log)
        clGetProgramBuildInfo(p->prog, p->dev, CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
    char path[512] = "";
    if (log)
        save_log(log, path, sizeof path);
    // the first error lines say what is wrong; keep the message to one paragraph
    char excerpt[600] = "";
    if (log) {
        const char *first = strstr(log, "error");
        snprintf(excerpt, sizeof excerpt, "%s", first ? first : log);
        for (char *c = excerpt; *c; ++c)
            if (*c == '\n')
                *c = ' ';
    }
    snprintf(msg, msg_size, "OpenCL kernel build failed (%s, options '%s'): %s%s%s%s", rb_ocl_error_name(err),
             p->options, excerpt[0] ? excerpt : "(empty build log)", path[0] ? " [whole build log: " : "",
             path, path[0] ? "]" : "");
    free(log);
    clReleaseProgram(p->prog);
    clReleaseContext(p->ctx);
    return RB_ERR_BACKEND_FAILED;
}

rb_status rb_ocl_program_acquire(cl_device_id dev, rb_ocl_program **out, cl_context *ctx, cl_program *prog, char *msg,
                                 size_t msg_size)
{
    char options[512];
    build_options(dev, options, sizeof options);
    pthread_mutex_lock(&g_programs_lock);
    rb_ocl_program *free_slot = NULL;
    for (int i = 0; i < PROGRAM_SLOTS; ++i) {
        rb_ocl_program *p = &g_programs[i];
        if (p->refs > 0 && p->dev == dev && strcmp(p->options, options) == 0) {
            p->refs++;
            *out = p;
            *ctx = p->ctx;
            *prog = p->prog;
            pthread_mutex_unlock(&g_programs_lock);
            return RB_OK;
        }
        if (p->refs == 0 && !free_slot)
            free_slot = p;
    }
    if (!free_slot) {
        pthread_mutex_unlock(&g_programs_lock);
        snprintf(msg, msg_size, "too many OpenCL programs in this process (%d devices and option sets at once)",
                 PROGRAM_SLOTS);
        return RB_ERR_CAPACITY;
    }
    memset(free_slot, 0, sizeof *free_slot);
    free_slot->dev = dev;
    snprintf(free_slot->options, sizeof free_slot->options, "%s", options);
    rb_status s = build(free_slot, msg, msg_size);
    if (s == RB_OK) {
        free_slot->refs = 1;
        *out = free_slot;
        *ctx = free_slot->ctx;
        *prog = free_slot->prog;
    }
    pthread_mutex_unlock(&g_programs_lock);
    return s;
}

void rb_ocl_program_release(rb_ocl_program *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&g_programs_lock);
    if (--p->refs == 0) {
        clReleaseProgram(p->prog);
        clReleaseContext(p->ctx);
        p->prog = NULL;
        p->ctx = NULL;
    }
    pthread_mutex_unlock(&g_programs_lock);
}
