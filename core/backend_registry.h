// Which backend a world runs on: the built-in CPU backend or a module loaded with dlopen.
#ifndef RB_CORE_BACKEND_REGISTRY_H
#define RB_CORE_BACKEND_REGISTRY_H

#include "backend.h"

typedef struct rb_backend_choice {
    const rb_backend_ops *ops;
    rb_backend_ctx *ctx;
    void *module;          // dlopen handle, NULL for the built-in CPU backend
    rb_backend kind;       // which backend it is (never RB_BACKEND_AUTO)
    char selection[256];   // how the choice was made, for rb_world_info.selection
} rb_backend_choice;

// Resolves RB_BACKEND_AUTO (RUBBLE_BACKEND, then CUDA GPU, OpenCL GPU, CPU) and starts the backend on
// `scene`. A backend asked for by name that cannot start is an error with the reason in msg.
rb_status rb_registry_open(rb_backend requested, int threads, rb_scene *scene, rb_backend_choice *out,
                           char *msg, size_t msg_size);
void rb_registry_close(void *module);

// Thread count: `requested` if > 0, else RUBBLE_THREADS, else OMP_NUM_THREADS, else all cores.
rb_status rb_resolve_threads(int requested, int *out, char *msg, size_t msg_size);

extern const rb_backend_ops rb_cpu_backend_ops;

#endif
