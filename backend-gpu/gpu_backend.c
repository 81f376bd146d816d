// The GPU backends' shared entry points (gpu_context.h): the kernel table, buffers, the device copy
// of the scene (upload of what the application changed, download of what it reads), read-back of pairs
// and manifolds, the start-up layout check, and the backend ops table that the OpenCL and CUDA modules
// fill their device API into.
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/shape_geom.h"
#include "gpu_context.h"

const char *const rb_gpu_kernel_names[K_COUNT] = {
    "rb_layout_sizes", "rb_scan_chunks", "rb_scan_serial", "rb_scan_add", "rb_sort_histogram", "rb_sort_scatter",
    "rb_sort_serial",    "rb_body_inertia", "rb_shape_bounds",
    "rb_bp_classify", "rb_bp_fill", "rb_bp_gather_entries", "rb_bp_grid_pairs", "rb_bp_special_pairs",
    "rb_compact_indices", "rb_pair_keys", "rb_pair_gather",
    "rb_collide_pairs", "rb_compact_manifolds", "rb_manifolds_untouched",
    "rb_fill_edges", "rb_mark_sleepers", "rb_wake_groups", "rb_prepare_constraints",
    "rb_solve_color", "rb_solve_serial", "rb_store_impulses", "rb_split_lists", "rb_split_prepare_blocks",
    "rb_split_blocks", "rb_split_gather", "rb_shock_answers", "rb_shock_level",
    "rb_integrate_velocities", "rb_zero_pseudo", "rb_integrate_positions", "rb_sleep_timers", "rb_islands_serial",
    "rb_bullet_sweeps",
    "rb_joints_color", "rb_joints_serial", "rb_joints_finish",
};

rb_status rb_gpu_fail(rb_gpu_ctx *c, rb_status status, const char *fmt, ...)
{
    if (!c->error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->error, sizeof c->error, fmt, ap);
        va_end(ap);
    }
    return status;
}

static void release_buf(rb_gpu_ctx *c, rb_gpu_buf *b)
{
    if (b->mem) {
        c->dev->release(c, b->mem);
        c->mem_used -= b->bytes;
    }
    b->mem = NULL;
    b->bytes = 0;
}

rb_status rb_gpu_reserve(rb_gpu_ctx *c, rb_gpu_buf *b, size_t bytes, const char *what)
{
    if (bytes == 0)
        bytes = 16;
    if (b->mem && b->bytes >= bytes)
        return RB_OK;
    size_t cap = b->bytes > 0 ? b->bytes : 256;
    while (cap < bytes)
        cap *= 2;
    if (c->mem_limit && c->mem_used - b->bytes + cap > c->mem_limit)
        return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY,
                           "out of device memory: %s needs %zu bytes, %zu of the %zu allowed by %s are in use", what,
                           cap, c->mem_used - b->bytes, c->mem_limit, c->dev->memory_limit_var);
    release_buf(c, b);
    rb_status s = c->dev->alloc(c, &b->mem, cap, what);
    if (s != RB_OK) {
        b->mem = NULL;
        return s;
    }
    b->bytes = cap;
    c->mem_used += cap;
    return RB_OK;
}

rb_status rb_gpu_read_counters(rb_gpu_ctx *c)
{
    return c->dev->read(c, c->counters.mem, 0, sizeof c->counters_host, c->counters_host, "reading the counters");
}

// The memory limit variable: bytes, with an optional K, M or G suffix.
static int parse_limit(const char *text, size_t *out)
{
    // digits first: strtoull would take "-5" as 2^64 - 5, i.e. no limit at all
    if (*text < '0' || *text > '9')
        return 0;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text)
        return 0;
    int shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10, ++end;
    else if (*end == 'M' || *end == 'm')
        shift = 20, ++end;
    else if (*end == 'G' || *end == 'g')
        shift = 30, ++end;
    if (*end != '\0' || v == 0 || v > (SIZE_MAX >> shift))
        return 0;
    *out = (size_t)(v << shift);
    return 1;
}

int rb_gpu_env_flag(const char *var, int *out, char *msg, size_t msg_size)
{
    const char *v = getenv(var);
    *out = v && strcmp(v, "1") == 0;
    if (v && *v && strcmp(v, "0") != 0 && strcmp(v, "1") != 0) {
        snprintf(msg, msg_size, "%s='%s' is not 0 or 1", var, v);
        return 0;
    }
    return 1;
}

// ---- buffers of the scene copy ----

#define BODY_BUFS(X)                                                                                                  \
    X(pos, rb_float4, body_pos) X(rot, rb_float4, body_rot) X(lin, rb_float4, body_lin_vel)                          \
    X(ang, rb_float4, body_ang_vel) X(force, rb_float4, body_force) X(torque, rb_float4, body_torque)                \
    X(local_center, rb_float4, body_local_center) X(inertia_diag, rb_float4, body_inertia_diag)                      \
    X(inertia_off, rb_float4, body_inertia_offdiag) X(inv_diag, rb_float4, body_inv_inertia_diag)                    \
    X(inv_off, rb_float4, body_inv_inertia_offdiag) X(params, rb_float4, body_params) X(flags, uint32_t, body_flags) \
    X(sleep_group, int, body_sleep_group)

#define SHAPE_BUFS(X)                                                                                                 \
    X(shape_body, int, shape_body, 1) X(shape_type, int, shape_type, 1) X(shape_lpos, rb_float4, shape_local_pos, 1) \
    X(shape_lrot, rb_float4, shape_local_rot, 1) X(shape_params, rb_float4, shape_params, 1)                         \
    X(material, rb_float4, shape_material, 1) X(filter, uint32_t, shape_filter, 2)

static rb_status write_range(rb_gpu_ctx *c, rb_gpu_buf *b, const void *host, size_t elem, int lo, int hi,
                             const char *what)
{
    if (hi <= lo)
        return RB_OK;
    return c->dev->write(c, b->mem, (size_t)lo * elem, (size_t)(hi - lo) * elem, (const char *)host + (size_t)lo * elem,
                         what);
}

static int grown_capacity(int have, int need)
{
    int cap = have > 0 ? have : 256;
    while (cap < need)
        cap = cap <= (1 << 29) ? cap * 2 : need;
    return cap;
}

// The grid cell: twice the median extent (2 x bounding radius) of the moving finite shapes (of all
// finite shapes when none moves), as the CPU broad phase chooses it; only speed depends on it.
static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static rb_status choose_cell(rb_gpu_ctx *c)
{
    const rb_scene *s = c->scene;
    float *ext = malloc(sizeof *ext * (size_t)(s->shape_slots > 0 ? s->shape_slots : 1));
    if (!ext)
        return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY, "out of host memory choosing the grid cell");
    for (int pass = 0; pass < 2; ++pass) {
        int n = 0;
        for (int i = 0; i < s->shape_slots; ++i) {
            int b = s->shape_body[i];
            if (b < 0 || s->shape_type[i] == RB_GEOM_PLANE)
                continue;
            if (pass == 0 && (s->body_flags[b] & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T)
                continue;
            float e = 2.0f * rb_geom_bounding_radius(s->shape_type[i], s->shape_params[i]);
            if (e > 0.0f && e < 1e30f)
                ext[n++] = e;
        }
        if (n > 0) {
            qsort(ext, (size_t)n, sizeof *ext, cmp_float);
            c->inv_cell = 1.0f / (2.0f * ext[n / 2]);
            free(ext);
            return RB_OK;
        }
    }
    free(ext);
    c->inv_cell = 1.0f;
    return RB_OK;
}

// The hull pool goes whole: a hull's creation appends a record, its destruction moves the records after it
// (and the convex shapes that name them, which the shape upload sends). Without hulls the buffer holds one
// zero rb_float4, which no kernel reads (only convex shapes and boxes against them read the pool).
static rb_status upload_hulls(rb_gpu_ctx *c)
{
    const rb_scene *s = c->scene;
    int n = s->hull_pool && s->hull_pool_size > 0 ? s->hull_pool_size : 0;
    rb_status st = rb_gpu_reserve(c, &c->hull_pool, sizeof(rb_float4) * (size_t)(n > 0 ? n : 1), "the hull pool");
    if (st != RB_OK)
        return st;
    if (n == 0)
        return c->dev->fill_zero(c, c->hull_pool.mem, 0, sizeof(rb_float4), "uploading the hull pool");
    return c->dev->write(c, c->hull_pool.mem, 0, sizeof(rb_float4) * (size_t)n, s->hull_pool, "uploading the hull pool");
}

static rb_status gpu_upload(rb_backend_ctx *ctx)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    rb_scene *s = c->scene;
    rb_status st;
    int full = c->full_upload;
    c->error[0] = '\0';
    if (s->body_slots > c->body_cap || !c->pos.mem) {
        int cap = grown_capacity(c->body_cap, s->body_slots);
#define RES(name, type, field)                                                                                        \
    if ((st = rb_gpu_reserve(c, &c->name, sizeof(type) * (size_t)cap, "the body arrays")) != RB_OK)                 \
        return st;
        BODY_BUFS(RES)
#undef RES
        c->body_cap = cap;
        full = 1;
    }
    if (s->shape_slots > c->shape_cap || !c->shape_body.mem) {
        int cap = grown_capacity(c->shape_cap, s->shape_slots);
#define RES(name, type, field, per)                                                                                   \
    if ((st = rb_gpu_reserve(c, &c->name, sizeof(type) * (per) * (size_t)cap, "the shape arrays")) != RB_OK)        \
        return st;
        SHAPE_BUFS(RES)
#undef RES
        c->shape_cap = cap;
        full = 1;
    }
    int blo = 0, bhi = s->body_slots, slo = 0, shi = s->shape_slots;
    if (!full) {
        blo = s->dirty_body_lo;
        bhi = (s->dirty & (RB_DIRTY_BODY_STATE | RB_DIRTY_BODY_PROPS)) ? s->dirty_body_hi : blo;
        slo = s->dirty_shape_lo;
        shi = (s->dirty & RB_DIRTY_SHAPES) ? s->dirty_shape_hi : slo;
    }
#define PUT(name, type, field)                                                                                        \
    if ((st = write_range(c, &c->name, s->field, sizeof(type), blo, bhi, "uploading the bodies")) != RB_OK)          \
        return st;
    BODY_BUFS(PUT)
#undef PUT
#define PUT(name, type, field, per)                                                                                   \
    if ((st = write_range(c, &c->name, s->field, sizeof(type) * (per), slo, shi, "uploading the shapes")) != RB_OK)  \
        return st;
    SHAPE_BUFS(PUT)
#undef PUT
    if (s->dirty & RB_DIRTY_SHAPES) {
        // contacts of changed shape slots must not warm start what is there now
        if ((st = rb_gpu_drop_manifolds(c, s->dirty_shape_lo, s->dirty_shape_hi)) != RB_OK ||
            (st = choose_cell(c)) != RB_OK)
            return st;
    }
    if ((full || (s->dirty & RB_DIRTY_HULLS) || !c->hull_pool.mem) && (st = upload_hulls(c)) != RB_OK)
        return st;
    if ((full || (s->dirty & RB_DIRTY_JOINTS) || !c->joints_synced || c->joint_version_seen != s->joint_version) &&
        (st = rb_gpu_sync_joints(c)) != RB_OK)
        return st;
    if ((st = c->dev->finish(c, "uploading the scene")) != RB_OK)
        return st;
    c->full_upload = 0;
    return RB_OK;
}

static rb_status gpu_download(rb_backend_ctx *ctx)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    rb_scene *s = c->scene;
    int n = s->body_slots < c->body_cap ? s->body_slots : c->body_cap;
    if (n <= 0 || !c->pos.mem)
        return RB_OK;
    rb_status st = RB_OK;
#define GET(name, type, field)                                                                                        \
    if (st == RB_OK)                                                                                                  \
        st = c->dev->read(c, c->name.mem, 0, sizeof(type) * (size_t)n, s->field, "downloading the bodies");
    GET(pos, rb_float4, body_pos)
    GET(rot, rb_float4, body_rot)
    GET(lin, rb_float4, body_lin_vel)
    GET(ang, rb_float4, body_ang_vel)
    GET(params, rb_float4, body_params)
    GET(flags, uint32_t, body_flags)
    GET(sleep_group, int, body_sleep_group)
#undef GET
    // the joints' impulses, reactions and broken flags live on the device between steps
    int nj = s->joint_slots < c->joint_slots_synced ? s->joint_slots : c->joint_slots_synced;
    if (st == RB_OK && nj > 0 && c->joints.mem)
        st = c->dev->read(c, c->joints.mem, 0, sizeof(rb_joint) * (size_t)nj, s->joints, "downloading the joints");
    return st;
}

// ---- creation ----

static void release_all(rb_gpu_ctx *c)
{
    rb_gpu_buf *bufs[] = {
#define B(name, ...) &c->name,
        BODY_BUFS(B) SHAPE_BUFS(B)
#undef B
        &c->inv_inertia_world, &c->plin, &c->pang, &c->frozen, &c->awake, &c->wake_group, &c->parent,
        &c->rest, &c->rest_low, &c->body_start, &c->shape_world, &c->aabb_lo, &c->aabb_hi, &c->plane_world, &c->role,
        &c->cell_lo, &c->cell_hi, &c->cell_count, &c->entry_start, &c->special_flag, &c->special_off, &c->special_list,
        &c->special_count, &c->special_at, &c->special_pairs, &c->keys, &c->vals, &c->keys2, &c->vals2, &c->entry,
        &c->sorted_entry, &c->entry_count, &c->entry_at, &c->hist, &c->pairs_raw, &c->pairs, &c->scratch, &c->has,
        &c->npoints, &c->moff, &c->manifolds, &c->cache, &c->cons, &c->points, &c->color_order,
        &c->first_point, &c->split_list, &c->delta, &c->edges, &c->counters, &c->shock_support_start,
        &c->shock_supports, &c->shock_answer, &c->refs, &c->cache_refs, &c->pair_refs,
        &c->start_pos, &c->start_rot, &c->joints, &c->joint_order, &c->joint_edges, &c->joint_kept, &c->nocollide,
        &c->hull_pool,
    };
    if (c->dev) {
        for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
            release_buf(c, bufs[i]);
        for (int i = 0; i < RB_GPU_SCAN_LEVELS; ++i)
            release_buf(c, &c->scan_sums[i]);
        c->dev->destroy(c);
    }
    free(c->pairs_host);
    free(c->manifolds_host);
    free(c->shock_host);
    free(c->edges_host);
    free(c->flags_host);
    free(c->color_mask_host);
    free(c->edge_color_host);
    free(c->color_order_host);
    free(c->first_point_host);
    free(c->joint_edges_host);
    free(c->joint_edge_color_host);
    free(c->joint_order_host);
    free(c->nocollide_host);
    free(c);
}

void rb_gpu_destroy(rb_backend_ctx *ctx)
{
    if (!ctx)
        return;
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    if (c->profile) {
        fprintf(stderr, "rubble %s profile (device time per kernel, %s):\n", c->dev ? c->dev->api : "?", c->device);
        for (int i = 0; i < K_COUNT; ++i)
            if (c->kernel_launches[i] > 0)
                fprintf(stderr, "  %-26s %8ld launches %10.2f ms %8.1f us/launch\n", rb_gpu_kernel_names[i],
                        c->kernel_launches[i], c->kernel_ms[i], 1e3 * c->kernel_ms[i] / (double)c->kernel_launches[i]);
    }
    release_all(c);
}

// The kernels see the structs of core/backend.h and core/kernels/ through their own compiler: check
// that it lays them out as the host does before trusting a byte of it.
static rb_status check_layout(rb_gpu_ctx *c, char *msg, size_t msg_size)
{
    enum { N = 10 };
    const int host[N] = {(int)sizeof(rb_contact_manifold), (int)sizeof(rb_contact_constraint),
                         (int)sizeof(rb_contact_point),   (int)sizeof(rb_mat3),
                         (int)sizeof(rb_xform),           (int)sizeof(rb_pair),
                         (int)sizeof(rb_float4),          (int)sizeof(rb_constraint_edge),
                         (int)sizeof(rb_manifold_ref),    (int)sizeof(rb_joint)};
    const char *names[N] = {"rb_contact_manifold", "rb_contact_constraint", "rb_contact_point", "rb_mat3",
                            "rb_xform", "rb_pair", "rb_float4", "rb_constraint_edge", "rb_manifold_ref", "rb_joint"};
    int dev[N] = {0};
    rb_gpu_arg a;
    a.size = sizeof c->counters.mem;
    memcpy(a.value, &c->counters.mem, sizeof c->counters.mem);
    rb_status s = c->dev->launch(c, K_LAYOUT, 1, 1, &a, "running the first kernel");
    if (s == RB_OK)
        s = c->dev->read(c, c->counters.mem, 0, sizeof dev, dev, "running the first kernel");
    if (s != RB_OK) {
        snprintf(msg, msg_size, "%s", c->error);
        return s;
    }
    for (int i = 0; i < N; ++i) {
        if (dev[i] != host[i]) {
            snprintf(msg, msg_size, "the %s compiler of %s lays out %s in %d bytes, the host in %d", c->dev->api,
                     c->device, names[i], dev[i], host[i]);
            return RB_ERR_BACKEND_FAILED;
        }
    }
    return RB_OK;
}

rb_status rb_gpu_start(rb_gpu_ctx *c, char *msg, size_t msg_size)
{
    c->full_upload = 1;
    const char *limit = getenv(c->dev->memory_limit_var);
    if (limit && *limit && !parse_limit(limit, &c->mem_limit)) {
        snprintf(msg, msg_size, "%s='%s' is not a byte count > 0 (digits, optional K, M or G)", c->dev->memory_limit_var,
                 limit);
        return RB_ERR_INVALID_ARGUMENT;
    }
    rb_status s;
    if ((s = rb_gpu_reserve(c, &c->counters, sizeof(int) * RB_CNT_COUNT, "the counters")) != RB_OK) {
        snprintf(msg, msg_size, "%s", c->error);
        return s;
    }
    return check_layout(c, msg, msg_size);
}

static const char *gpu_device_name(rb_backend_ctx *ctx) { return ((rb_gpu_ctx *)ctx)->device; }

static int gpu_supports_solver(rb_backend_ctx *ctx, int solver)
{
    (void)ctx;
    return rb_gpu_has_solver(solver);
}

// The host copy of `count` elements of `buf`, read once per step (`*valid`) into a growing array.
static rb_status read_back(rb_gpu_ctx *c, const rb_gpu_buf *buf, int count, size_t elem, void **host, int *cap,
                           int *valid, const char *what)
{
    if (!*valid && count > 0) {
        if (count > *cap) {
            void *p = realloc(*host, elem * (size_t)count);
            if (!p)
                return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY, "out of host memory %s", what);
            *host = p;
            *cap = count;
        }
        rb_status s = c->dev->read(c, buf->mem, 0, elem * (size_t)count, *host, what);
        if (s != RB_OK)
            return s;
    }
    *valid = 1;
    return RB_OK;
}

static rb_status gpu_get_pairs(rb_backend_ctx *ctx, const rb_pair **pairs, int *count)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    rb_status s = read_back(c, &c->pairs, c->pair_count, sizeof(rb_pair), (void **)&c->pairs_host,
                            &c->pairs_host_cap, &c->pairs_host_valid, "reading the pairs");
    *pairs = c->pairs_host;
    *count = c->pair_count;
    return s;
}

static rb_status gpu_get_manifolds(rb_backend_ctx *ctx, const rb_contact_manifold **m, int *count)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    rb_status s = read_back(c, &c->manifolds, c->manifold_count, sizeof(rb_contact_manifold),
                            (void **)&c->manifolds_host, &c->manifolds_host_cap, &c->manifolds_host_valid,
                            "reading the contacts");
    *m = c->manifolds_host;
    *count = c->manifold_count;
    return s;
}

static void gpu_get_stats(rb_backend_ctx *ctx, rb_backend_stats *out)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    out->pairs = c->pair_count;
    out->manifolds = c->manifold_count;
    out->contacts = c->point_count;
    out->colors = c->color_count;
    out->awake_bodies = c->awake_bodies;
}

static const char *gpu_last_error(rb_backend_ctx *ctx)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    return c->error;
}

// ---- rb_world_shift_origin ----

// What the device keeps in world space between steps: its copy of the body positions, and the contact
// points of the last step's manifolds (next step's warm-start cache and the read-back). The reuse
// references are shape-relative, and shape poses, bounds and the broad-phase grid are rebuilt at every
// step. Done on the host (one read and two writes; a shift is rare): the core has just brought the
// host scene up to date and moves it after this returns, with the same rb_origin_shifted. Until the
// writes nothing has changed; if one of them fails the core re-sends every body from its unmoved host
// copy, and the manifolds, whose device copy is then uncertain, are dropped.
static rb_status gpu_shift_origin(rb_backend_ctx *ctx, rb_float3 origin)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    const rb_scene *s = c->scene;
    c->error[0] = '\0';
    const rb_contact_manifold *unused;
    int count;
    rb_status st = RB_OK;
    if (c->manifold_count > 0 && (st = gpu_get_manifolds(ctx, &unused, &count)) != RB_OK)
        return st;
    int n = s->body_slots < c->body_cap ? s->body_slots : c->body_cap;
    rb_float4 *pos = NULL;
    if (n > 0 && c->pos.mem) {
        if (!(pos = malloc(sizeof *pos * (size_t)n)))
            return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY, "out of host memory moving the origin");
        for (int b = 0; b < n; ++b) {
            rb_float4 p = s->body_pos[b];
            pos[b] = (s->body_flags[b] & RB_BODY_ALIVE) ? rb_f4_from3(rb_origin_shifted(rb_xyz(p), origin), p.w) : p;
        }
        st = c->dev->write(c, c->pos.mem, 0, sizeof *pos * (size_t)n, pos, "moving the origin");
    }
    for (int i = 0; i < c->manifold_count; ++i) {
        rb_manifold *m = &c->manifolds_host[i].m;
        for (int k = 0; k < m->count; ++k)
            m->points[k].point = rb_origin_shifted(m->points[k].point, origin);
    }
    if (st == RB_OK && c->manifold_count > 0)
        st = c->dev->write(c, c->manifolds.mem, 0, sizeof(rb_contact_manifold) * (size_t)c->manifold_count,
                           c->manifolds_host, "moving the origin");
    // the writes may read `pos` until the queue is finished, whatever became of them
    rb_status done = c->dev->finish(c, "moving the origin");
    st = st != RB_OK ? st : done;
    free(pos);
    if (st != RB_OK) {
        c->manifold_count = 0;
        c->manifolds_host_valid = 0;
    }
    return st;
}

// Each kernel-set entry ends when its kernels have run: the core's per-phase times then measure the
// phase, not whatever was still queued before a later phase's read-back. The cost is one wait per
// phase, a few microseconds.
#define FINISHED(fn)                                                                                                  \
    static rb_status fn##_finished(rb_backend_ctx *ctx, const rb_step_params *p)                                      \
    {                                                                                                                 \
        rb_status s = fn(ctx, p);                                                                                     \
        if (s != RB_OK)                                                                                               \
            return s;                                                                                                 \
        rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;                                                                            \
        return c->dev->finish(c, #fn);                                                                                \
    }
FINISHED(rb_gpu_integrate_velocities)
FINISHED(rb_gpu_update_bounds)
FINISHED(rb_gpu_find_pairs)
FINISHED(rb_gpu_collide)
FINISHED(rb_gpu_build_batches)
FINISHED(rb_gpu_solve_constraints)
FINISHED(rb_gpu_integrate_positions)
FINISHED(rb_gpu_update_sleep)
FINISHED(rb_gpu_solve_continuous)
#undef FINISHED

// One table per module (each module links its own copy of this file), filled on first use.
const rb_backend_ops *rb_gpu_module_ops(const char *name, rb_backend_create_fn create, rb_backend_probe_fn probe)
{
    static rb_backend_ops ops;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    if (!ops.name) {
        ops.abi_version = RB_BACKEND_ABI_VERSION;
        ops.create = create;
        ops.probe = probe;
        ops.destroy = rb_gpu_destroy;
        ops.device_name = gpu_device_name;
        ops.supports_solver = gpu_supports_solver;
        ops.upload = gpu_upload;
        ops.download = gpu_download;
        ops.integrate_velocities = rb_gpu_integrate_velocities_finished;
        ops.update_bounds = rb_gpu_update_bounds_finished;
        ops.find_pairs = rb_gpu_find_pairs_finished;
        ops.collide = rb_gpu_collide_finished;
        ops.build_batches = rb_gpu_build_batches_finished;
        ops.correct_penetrations = NULL;
        ops.solve_constraints = rb_gpu_solve_constraints_finished;
        ops.integrate_positions = rb_gpu_integrate_positions_finished;
        ops.update_sleep = rb_gpu_update_sleep_finished;
        ops.get_pairs = gpu_get_pairs;
        ops.get_manifolds = gpu_get_manifolds;
        ops.get_stats = gpu_get_stats;
        ops.frozen_in_last_step = rb_gpu_frozen_in_last_step;
        ops.last_error = gpu_last_error;
        ops.shift_origin = gpu_shift_origin;
        ops.solve_continuous = rb_gpu_solve_continuous_finished;
        ops.name = name; // last: the table is complete once it has a name
    }
    pthread_mutex_unlock(&lock);
    return &ops;
}
