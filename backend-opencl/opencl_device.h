// OpenCL platforms and devices: listing, choice (RUBBLE_OPENCL_DEVICE), and the program build with
// its log. Shared by the backend's probe and create.
#ifndef RB_OPENCL_DEVICE_H
#define RB_OPENCL_DEVICE_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stddef.h>

#include "../api/rubble.h"

// Picks the device: RUBBLE_OPENCL_DEVICE (global index as `rubble info` lists it, or a
// case-insensitive substring of the device or platform name), else the first GPU, else (unless
// require_gpu) the first device. `listing` receives the platforms and devices found.
rb_status rb_ocl_pick_device(int require_gpu, cl_device_id *out, char *listing, size_t listing_size, char *msg,
                             size_t msg_size);

// "NAME (PLATFORM, OpenCL C x.y, N compute units)".
void rb_ocl_describe_device(cl_device_id dev, char *out, size_t size);

// A context and the built program for `dev`, shared by the worlds of the process (one build per
// device and build options). On a build failure returns RB_ERR_BACKEND_FAILED with the start of the
// build log in msg (the whole log is written to a file named there).
typedef struct rb_ocl_program rb_ocl_program;
rb_status rb_ocl_program_acquire(cl_device_id dev, rb_ocl_program **out, cl_context *ctx, cl_program *prog, char *msg,
                                 size_t msg_size);
void rb_ocl_program_release(rb_ocl_program *p);

// Text of an OpenCL error code ("CL_OUT_OF_RESOURCES").
const char *rb_ocl_error_name(cl_int err);
// Whether an error code means the device ran out of memory.
int rb_ocl_is_oom(cl_int err);

#endif
