// Stand-ins for a GPU backend module, to test how the core loads modules and reports failures.
// Built three times (see meson.build beside this file):
//   FAKE_NO_SYMBOL  - a shared object without the entry point
//   FAKE_WRONG_ABI  - an entry point that reports a different backend ABI
//   FAKE_NO_DEVICE  - a well-formed module whose create() finds no device
#include <stdio.h>

#include "backend.h"

#ifndef FAKE_NO_SYMBOL
static rb_status fake_create(rb_scene *scene, const rb_backend_config *cfg, rb_backend_ctx **out, char *msg,
                             size_t msg_size)
{
    (void)scene;
    (void)cfg;
    (void)out;
    snprintf(msg, msg_size, "no OpenCL device: fake module for tests");
    return RB_ERR_BACKEND_UNAVAILABLE;
}

static rb_status fake_probe(char *device, size_t device_size, char *msg, size_t msg_size)
{
    snprintf(device, device_size, "none");
    snprintf(msg, msg_size, "no OpenCL device: fake module for tests");
    return RB_ERR_BACKEND_UNAVAILABLE;
}

static const rb_backend_ops fake_ops = {
#ifdef FAKE_WRONG_ABI
    .abi_version = RB_BACKEND_ABI_VERSION + 100,
#else
    .abi_version = RB_BACKEND_ABI_VERSION,
#endif
    .name = "opencl",
    .create = fake_create,
    .probe = fake_probe,
};

__attribute__((visibility("default"))) const rb_backend_ops *rb_backend_module_ops(int abi_version)
{
    (void)abi_version;
    return &fake_ops;
}
#else
__attribute__((visibility("default"))) int rb_not_a_backend(void) { return 42; }
#endif
