// Backend selection and module loading (docs/architecture.md, §4).
#define _GNU_SOURCE // dladdr
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend_registry.h"
#include "rb_config.h"
#include "world.h"

static const char *const k_backend_names[] = {"auto", "cpu", "opencl", "cuda"};

const char *rb_backend_name(rb_backend backend)
{
    if ((int)backend < 0 || (int)backend > RB_BACKEND_CUDA)
        return "unknown";
    return k_backend_names[backend];
}

rb_status rb_backend_from_name(const char *name, rb_backend *out)
{
    if (!name || !out)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "rb_backend_from_name: name and out must not be NULL");
    for (int i = 0; i <= RB_BACKEND_CUDA; ++i) {
        if (strcasecmp(name, k_backend_names[i]) == 0) {
            *out = (rb_backend)i;
            return RB_OK;
        }
    }
    return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "unknown backend '%s': expected cpu, opencl, cuda or auto", name);
}

const char *rb_solver_name(rb_solver solver)
{
    switch (solver) {
    case RB_SOLVER_DEFAULT: return "default";
    case RB_SOLVER_BATCHED: return "batched";
    case RB_SOLVER_SEQUENTIAL: return "sequential";
    case RB_SOLVER_SPLIT: return "split";
    case RB_SOLVER_SOFT: return "soft";
    }
    return "unknown";
}

rb_status rb_solver_from_name(const char *name, rb_solver *out)
{
    if (!name || !out)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "rb_solver_from_name: name and out must not be NULL");
    for (int i = RB_SOLVER_DEFAULT; i <= RB_SOLVER_SOFT; ++i) {
        if (strcasecmp(name, rb_solver_name((rb_solver)i)) == 0) {
            *out = (rb_solver)i;
            return RB_OK;
        }
    }
    return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "unknown solver '%s': expected batched, split, sequential, soft or default", name);
}

// ---- threads ----

static int parse_positive_int(const char *text, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < 1 || v > 1024)
        return 0;
    *out = (int)v;
    return 1;
}

rb_status rb_resolve_threads(int requested, int *out, char *msg, size_t msg_size)
{
    if (requested > 0) {
        *out = requested;
        return RB_OK;
    }
    const char *vars[] = {"RUBBLE_THREADS", "OMP_NUM_THREADS"};
    for (int i = 0; i < 2; ++i) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            // OMP_NUM_THREADS may be a list ("4,2"); its first entry is the outer level
            char first[32];
            snprintf(first, sizeof first, "%s", v);
            first[strcspn(first, ",")] = '\0';
            if (!parse_positive_int(first, out)) {
                snprintf(msg, msg_size, "%s='%s' is not a thread count in [1, 1024]", vars[i], v);
                return RB_ERR_INVALID_ARGUMENT;
            }
            return RB_OK;
        }
    }
#ifdef _OPENMP
    *out = omp_get_num_procs();
#else
    *out = 1;
#endif
    if (*out < 1)
        *out = 1;
    return RB_OK;
}

// ---- modules ----

static const char *module_built_note(rb_backend b)
{
    if (b == RB_BACKEND_OPENCL && !RB_BUILT_OPENCL)
        return " This build of rubble was configured without the OpenCL backend (meson option -Dopencl).";
    if (b == RB_BACKEND_CUDA && !RB_BUILT_CUDA)
        return " This build of rubble was configured without the CUDA backend (meson option -Dcuda).";
    return "";
}

static void append(char *buf, size_t size, const char *fmt, const char *a, const char *b)
{
    size_t len = strlen(buf);
    if (len + 1 < size)
        rb_format(buf + len, size - len, fmt, a, b);
}

// Directory holding librubble itself, so an installed or build-tree library finds its modules.
static int library_dir(char *out, size_t size)
{
    Dl_info info;
    if (!dladdr((void *)&rb_version_string, &info) || !info.dli_fname)
        return 0;
    char resolved[PATH_MAX];
    // canonical path (no "tools/../"), for readable messages
    snprintf(out, size, "%s", realpath(info.dli_fname, resolved) ? resolved : info.dli_fname);
    char *slash = strrchr(out, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    return 1;
}

// Tries `dir/file`. Returns 1 and fills handle/ops on success; records why not in `tried`.
static int try_module_path(const char *dir, const char *file, void **handle, const rb_backend_ops **ops,
                           char *tried, size_t tried_size)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (access(path, F_OK) != 0) {
        append(tried, tried_size, "%s%s: not found; ", path, "");
        return 0;
    }
    // RTLD_NODELETE: a module stays mapped after dlclose. A GPU driver it pulls in (the OpenCL ICD
    // loader and PoCL) keeps worker threads and process-wide state that outlive any one world, and
    // must not be unmapped under them; it also lets sanitizers name the driver in their reports.
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!h) {
        append(tried, tried_size, "%s: %s; ", path, dlerror());
        return 0;
    }
    rb_backend_module_fn fn;
    *(void **)&fn = dlsym(h, RB_BACKEND_MODULE_SYMBOL);
    if (!fn) {
        append(tried, tried_size, "%s: not a rubble backend module (no symbol %s); ", path, RB_BACKEND_MODULE_SYMBOL);
        dlclose(h);
        return 0;
    }
    const rb_backend_ops *o = fn(RB_BACKEND_ABI_VERSION);
    if (!o || o->abi_version != RB_BACKEND_ABI_VERSION) {
        char abi[64];
        snprintf(abi, sizeof abi, "%d, this library needs %d", o ? o->abi_version : -1, RB_BACKEND_ABI_VERSION);
        append(tried, tried_size, "%s: built for backend ABI %s; ", path, abi);
        dlclose(h);
        return 0;
    }
    *handle = h;
    *ops = o;
    return 1;
}

// Finds and loads librubble-<name>.so: RUBBLE_MODULE_PATH (':'-separated), the directory of
// librubble, then the install directory.
// `skipped` (optional) receives the candidates that were tried and failed before the one loaded.
static rb_status load_module(rb_backend b, void **handle, const rb_backend_ops **ops, char *msg, size_t msg_size,
                             char *skipped, size_t skipped_size)
{
    char file[64];
    snprintf(file, sizeof file, "librubble-%s.so", rb_backend_name(b));
    char tried[2048] = "";
    rb_status found = RB_ERR_BACKEND_UNAVAILABLE;
    const char *env = getenv("RUBBLE_MODULE_PATH");
    if (env && *env) {
        char dirs[PATH_MAX];
        snprintf(dirs, sizeof dirs, "%s", env);
        char *save = NULL;
        for (char *d = strtok_r(dirs, ":", &save); d && found != RB_OK; d = strtok_r(NULL, ":", &save))
            if (try_module_path(d, file, handle, ops, tried, sizeof tried))
                found = RB_OK;
    }
    char dir[PATH_MAX];
    if (found != RB_OK && library_dir(dir, sizeof dir) && try_module_path(dir, file, handle, ops, tried, sizeof tried))
        found = RB_OK;
    if (found != RB_OK && try_module_path(RB_MODULE_DIR, file, handle, ops, tried, sizeof tried))
        found = RB_OK;
    size_t len = strlen(tried);
    if (len >= 2)
        tried[len - 2] = '\0'; // drop the trailing "; "
    if (found == RB_OK) {
        if (skipped)
            snprintf(skipped, skipped_size, "%s", tried);
        return RB_OK;
    }
    snprintf(msg, msg_size, "module %s could not be loaded (%s).%s", file, tried, module_built_note(b));
    return RB_ERR_BACKEND_UNAVAILABLE;
}

void rb_registry_close(void *module)
{
    if (module)
        dlclose(module);
}

// Loads (if needed) and starts one backend. On failure `reason` says why.
static rb_status start_backend(rb_backend b, int threads, int require_gpu, rb_scene *scene, rb_backend_choice *out,
                               char *reason, size_t reason_size)
{
    const rb_backend_ops *ops = NULL;
    void *module = NULL;
    char skipped[1024] = "";
    if (b == RB_BACKEND_CPU) {
        ops = &rb_cpu_backend_ops;
    } else {
        rb_status s = load_module(b, &module, &ops, reason, reason_size, skipped, sizeof skipped);
        if (s != RB_OK)
            return s;
    }
    rb_backend_config cfg = {threads, require_gpu};
    rb_backend_ctx *ctx = NULL;
    char msg[1024] = "";
    rb_status s = ops->create(scene, &cfg, &ctx, msg, sizeof msg);
    if (s != RB_OK) {
        // modules passed over on the way (RUBBLE_MODULE_PATH) are part of the story
        rb_format(reason, reason_size, "%s%s%s%s", msg[0] ? msg : rb_status_string(s),
                  skipped[0] ? " (modules passed over before this one: " : "", skipped, skipped[0] ? ")" : "");
        rb_registry_close(module);
        return s;
    }
    out->ops = ops;
    out->ctx = ctx;
    out->module = module;
    out->kind = b;
    return RB_OK;
}

rb_status rb_registry_open(rb_backend requested, int threads, rb_scene *scene, rb_backend_choice *out,
                           char *msg, size_t msg_size)
{
    memset(out, 0, sizeof *out);
    const char *origin = "asked for by the program";
    if (requested == RB_BACKEND_AUTO) {
        const char *env = getenv("RUBBLE_BACKEND");
        if (env && *env) {
            rb_backend from_env;
            if (rb_backend_from_name(env, &from_env) != RB_OK) {
                snprintf(msg, msg_size, "RUBBLE_BACKEND='%s' is not one of cpu, opencl, cuda, auto", env);
                return RB_ERR_INVALID_ARGUMENT;
            }
            requested = from_env;
            origin = "asked for by RUBBLE_BACKEND";
        }
    }

    char reason[1536];
    if (requested != RB_BACKEND_AUTO) {
        rb_status s = start_backend(requested, threads, 0, scene, out, reason, sizeof reason);
        if (s != RB_OK) {
            snprintf(msg, msg_size, "backend '%s' (%s) cannot start: %s", rb_backend_name(requested), origin, reason);
            return s;
        }
        snprintf(out->selection, sizeof out->selection, "%s (%s)", rb_backend_name(requested), origin);
        return RB_OK;
    }

    // Automatic: a CUDA GPU, else an OpenCL GPU, else the CPU. Each skipped backend is reported.
    char notes[512] = "auto: ";
    const rb_backend gpu_order[] = {RB_BACKEND_CUDA, RB_BACKEND_OPENCL};
    for (int i = 0; i < 2; ++i) {
        rb_backend b = gpu_order[i];
        if (start_backend(b, threads, 1, scene, out, reason, sizeof reason) == RB_OK) {
            snprintf(out->selection, sizeof out->selection, "auto: took %s (GPU found)", rb_backend_name(b));
            return RB_OK;
        }
        size_t len = strlen(notes);
        // keep the note short: the first clause of the reason
        char brief[160];
        rb_format(brief, sizeof brief, "%s", reason);
        size_t cut = strcspn(brief, "(");
        while (cut > 0 && brief[cut - 1] == ' ')
            --cut;
        brief[cut] = '\0';
        snprintf(notes + len, sizeof notes - len, "%s not used (%s); ", rb_backend_name(b), brief);
    }
    rb_status s = start_backend(RB_BACKEND_CPU, threads, 0, scene, out, reason, sizeof reason);
    if (s != RB_OK) {
        snprintf(msg, msg_size, "no backend could start; cpu: %s", reason);
        return s;
    }
    snprintf(out->selection, sizeof out->selection, "%stook cpu", notes);
    return RB_OK;
}

rb_status rb_backend_probe(rb_backend backend, rb_backend_info *out)
{
    if (!out)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "rb_backend_probe: out must not be NULL");
    if ((int)backend <= RB_BACKEND_AUTO || (int)backend > RB_BACKEND_CUDA)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "rb_backend_probe: backend must be cpu, opencl or cuda, got %d",
                              (int)backend);
    memset(out, 0, sizeof *out);
    out->backend = backend;
    out->name = rb_backend_name(backend);
    const rb_backend_ops *ops = &rb_cpu_backend_ops;
    void *module = NULL;
    if (backend != RB_BACKEND_CPU) {
        if (load_module(backend, &module, &ops, out->message, sizeof out->message, NULL, 0) != RB_OK)
            return RB_OK; // not built / not loadable: reported in out->message
    }
    out->built = true;
    rb_status s = ops->probe(out->device, sizeof out->device, out->message, sizeof out->message);
    out->available = s == RB_OK;
    rb_registry_close(module);
    return RB_OK;
}
