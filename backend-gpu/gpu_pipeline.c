// The kernel set on the device: each function launches the kernels of one phase (kernels/device_*.h). The
// host reads back only the totals that size the next launches (a few ints per phase, RB_CNT_*), the
// colour starts, and what the application asks for (bodies, pairs, contacts).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_context.h"
#include "kernels/contact_solver_split.h"
#include "kernels/shock_levels.h"

#define RB_SERIAL_SCAN_MAX 4096

// Arguments of one launch, collected in order (OpenCL's clSetKernelArg, CUDA's kernelParams).
typedef struct karg {
    rb_gpu_ctx *c;
    int id;
    int n;
    rb_gpu_arg args[RB_GPU_MAX_ARGS];
} karg;

static karg kbegin(rb_gpu_ctx *c, int id)
{
    karg a;
    a.c = c;
    a.id = id;
    a.n = 0;
    return a;
}

// An argument that does not fit (too many, or too large) makes the launch fail in go().
static void arg(karg *a, size_t size, const void *value)
{
    if (a->n >= RB_GPU_MAX_ARGS || size > RB_GPU_MAX_ARG_BYTES) {
        a->n = RB_GPU_MAX_ARGS + 1;
        return;
    }
    a->args[a->n].size = size;
    memcpy(a->args[a->n].value, value, size);
    a->n++;
}
static void am(karg *a, const rb_gpu_buf *b) { arg(a, sizeof b->mem, &b->mem); }
static void anull(karg *a)
{
    void *none = NULL;
    arg(a, sizeof none, &none);
}
static void ai(karg *a, int v) { arg(a, sizeof v, &v); }
static void af(karg *a, float v) { arg(a, sizeof v, &v); }

// Runs the kernel over n work-items (nothing to do for n = 0).
static rb_status go(karg *a, size_t n, const char *what)
{
    if (a->n > RB_GPU_MAX_ARGS)
        return rb_gpu_fail(a->c, RB_ERR_BACKEND_FAILED,
                           "%s: the arguments of kernel %s do not fit a launch (at most %d, of %d bytes each)", what,
                           rb_gpu_kernel_names[a->id], RB_GPU_MAX_ARGS, RB_GPU_MAX_ARG_BYTES);
    if (n == 0)
        return RB_OK;
    return a->c->dev->launch(a->c, a->id, n, a->n, a->args, what);
}

#define TRY(x)                                                                                                        \
    do {                                                                                                              \
        rb_status s_ = (x);                                                                                           \
        if (s_ != RB_OK)                                                                                              \
            return s_;                                                                                                \
    } while (0)

static rb_status reserve(rb_gpu_ctx *c, rb_gpu_buf *b, size_t count, size_t elem, const char *what)
{
    return rb_gpu_reserve(c, b, count * elem, what);
}

// ---- scan and sort ----

// Exclusive scan of n ints (in may equal out); the total goes to counters[slot] on the device.
static rb_status scan_level(rb_gpu_ctx *c, const rb_gpu_buf *in, const rb_gpu_buf *out, int n, int slot, int level)
{
    if (level >= RB_GPU_SCAN_LEVELS)
        return rb_gpu_fail(c, RB_ERR_CAPACITY, "scan of %d elements is too deep", n);
    int chunks = (n + RB_SCAN_CHUNK - 1) / RB_SCAN_CHUNK;
    rb_gpu_buf *sums = &c->scan_sums[level];
    TRY(reserve(c, sums, (size_t)chunks + 1, sizeof(int), "scan scratch"));
    karg a = kbegin(c, K_SCAN_CHUNKS);
    ai(&a, n), am(&a, in), am(&a, out), am(&a, sums);
    TRY(go(&a, (size_t)chunks, "scan"));
    if (chunks <= RB_SERIAL_SCAN_MAX) {
        a = kbegin(c, K_SCAN_SERIAL);
        ai(&a, chunks), am(&a, sums), am(&a, sums), am(&a, &c->counters), ai(&a, slot);
        TRY(go(&a, 1, "scan"));
    } else {
        TRY(scan_level(c, sums, sums, chunks, slot, level + 1));
    }
    a = kbegin(c, K_SCAN_ADD);
    ai(&a, n), am(&a, out), am(&a, sums);
    return go(&a, (size_t)n, "scan");
}

// The most elements a scan or sort leaves to one work-item in one launch: a chunk's (as every
// work-item of the chunked scan does), or what the device chose (c->serial_max: a CPU device runs a few
// thousand in less time than the three launches of the chunked way cost).
static int serial_max(const rb_gpu_ctx *c) { return c->serial_max > RB_SCAN_CHUNK ? c->serial_max : RB_SCAN_CHUNK; }

static rb_status scan(rb_gpu_ctx *c, const rb_gpu_buf *in, const rb_gpu_buf *out, int n, int slot)
{
    if (n == 0) {
        return c->dev->fill_zero(c, c->counters.mem, sizeof(int) * (size_t)slot, sizeof(int), "scan");
    }
    if (n <= serial_max(c)) {
        karg a = kbegin(c, K_SCAN_SERIAL);
        ai(&a, n), am(&a, in), am(&a, out), am(&a, &c->counters), ai(&a, slot);
        return go(&a, 1, "scan");
    }
    return scan_level(c, in, out, n, slot, 0);
}

// Stable LSD radix sort of (keys, vals)[0, n) on the low `bits` bits; uses keys2 / vals2.
static rb_status radix_sort(rb_gpu_ctx *c, int n, int bits)
{
    if (n <= 1)
        return RB_OK;
    int blocks = (n + RB_SORT_BLOCK - 1) / RB_SORT_BLOCK;
    TRY(reserve(c, &c->keys2, (size_t)n, sizeof(uint32_t), "sort scratch"));
    TRY(reserve(c, &c->vals2, (size_t)n, sizeof(uint32_t), "sort scratch"));
    int passes = (bits + 3) / 4;
    passes += passes & 1; // an even number of passes ends in keys / vals
    if (blocks == 1 || n <= serial_max(c)) { // every pass by one work-item in one launch
        karg a = kbegin(c, K_SORT_SERIAL);
        ai(&a, n), ai(&a, passes), am(&a, &c->keys), am(&a, &c->vals), am(&a, &c->keys2), am(&a, &c->vals2);
        return go(&a, 1, "radix sort");
    }
    TRY(reserve(c, &c->hist, (size_t)blocks * 16, sizeof(int), "sort scratch"));
    rb_gpu_buf *src_k = &c->keys, *src_v = &c->vals, *dst_k = &c->keys2, *dst_v = &c->vals2;
    for (int p = 0; p < passes; ++p) {
        int shift = 4 * p;
        karg a = kbegin(c, K_SORT_HIST);
        ai(&a, n), ai(&a, shift < 32 ? shift : 28), ai(&a, blocks), am(&a, src_k), am(&a, &c->hist);
        TRY(go(&a, (size_t)blocks, "radix sort"));
        TRY(scan(c, &c->hist, &c->hist, blocks * 16, RB_CNT_SCRATCH));
        a = kbegin(c, K_SORT_SCATTER);
        ai(&a, n), ai(&a, shift < 32 ? shift : 28), ai(&a, blocks), am(&a, src_k), am(&a, src_v), am(&a, &c->hist),
            am(&a, dst_k), am(&a, dst_v);
        TRY(go(&a, (size_t)blocks, "radix sort"));
        rb_gpu_buf *t = src_k;
        src_k = dst_k, dst_k = t;
        t = src_v, src_v = dst_v, dst_v = t;
    }
    return RB_OK;
}

static int bits_for(int n)
{
    int b = 1;
    while (b < 31 && (1 << b) < n)
        ++b;
    return b;
}

// ---- update_bounds ----

rb_status rb_gpu_update_bounds(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    const rb_scene *s = c->scene;
    c->error[0] = '\0';
    c->pairs_host_valid = c->manifolds_host_valid = 0;
    int nb = s->body_slots, ns = s->shape_slots;
    TRY(reserve(c, &c->inv_inertia_world, (size_t)c->body_cap, sizeof(rb_mat3), "body arrays"));
    TRY(reserve(c, &c->plin, (size_t)c->body_cap, sizeof(rb_float4), "body arrays"));
    TRY(reserve(c, &c->pang, (size_t)c->body_cap, sizeof(rb_float4), "body arrays"));
    TRY(reserve(c, &c->frozen, (size_t)c->body_cap, sizeof(int), "body arrays"));
    TRY(reserve(c, &c->start_pos, (size_t)c->body_cap, sizeof(rb_float4), "body arrays"));
    TRY(reserve(c, &c->start_rot, (size_t)c->body_cap, sizeof(rb_float4), "body arrays"));
    TRY(reserve(c, &c->awake, (size_t)c->body_cap, sizeof(int), "body arrays"));
    TRY(reserve(c, &c->wake_group, (size_t)c->body_cap, 1, "body arrays"));
    TRY(reserve(c, &c->parent, (size_t)c->body_cap, sizeof(int), "body arrays"));
    TRY(reserve(c, &c->rest, (size_t)c->body_cap, sizeof(float), "body arrays"));
    TRY(reserve(c, &c->rest_low, (size_t)c->body_cap, sizeof(float), "body arrays"));
    TRY(reserve(c, &c->body_start, (size_t)c->body_cap + 1, sizeof(int), "body arrays"));
    TRY(reserve(c, &c->shape_world, (size_t)c->shape_cap, sizeof(rb_xform), "shape arrays"));
    TRY(reserve(c, &c->aabb_lo, (size_t)c->shape_cap, sizeof(rb_float4), "shape arrays"));
    TRY(reserve(c, &c->aabb_hi, (size_t)c->shape_cap, sizeof(rb_float4), "shape arrays"));
    TRY(reserve(c, &c->plane_world, (size_t)c->shape_cap, sizeof(rb_float4), "shape arrays"));

    karg a = kbegin(c, K_BODY_INERTIA);
    ai(&a, nb), am(&a, &c->flags), am(&a, &c->inv_diag), am(&a, &c->inv_off), am(&a, &c->rot),
        am(&a, &c->inv_inertia_world);
    TRY(go(&a, (size_t)nb, "update_bounds"));
    a = kbegin(c, K_SHAPE_BOUNDS);
    ai(&a, ns), af(&a, p->contact_margin), af(&a, p->dt), am(&a, &c->shape_body), am(&a, &c->shape_type),
        am(&a, &c->shape_lpos), am(&a, &c->shape_lrot), am(&a, &c->shape_params), am(&a, &c->hull_pool),
        am(&a, &c->flags), am(&a, &c->pos), am(&a, &c->rot), am(&a, &c->local_center), am(&a, &c->lin),
        am(&a, &c->ang), am(&a, &c->shape_world), am(&a, &c->aabb_lo), am(&a, &c->aabb_hi), am(&a, &c->plane_world);
    return go(&a, (size_t)ns, "update_bounds");
}

// ---- find_pairs ----

rb_status rb_gpu_find_pairs(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    int ns = c->scene->shape_slots;
    size_t cap = (size_t)c->shape_cap;
    TRY(reserve(c, &c->role, cap, sizeof(int), "broad phase"));
    TRY(reserve(c, &c->cell_lo, cap, 4 * sizeof(int), "broad phase"));
    TRY(reserve(c, &c->cell_hi, cap, 4 * sizeof(int), "broad phase"));
    TRY(reserve(c, &c->cell_count, cap, sizeof(int), "broad phase"));
    TRY(reserve(c, &c->entry_start, cap, sizeof(int), "broad phase"));
    TRY(reserve(c, &c->special_flag, cap, sizeof(int), "broad phase"));
    TRY(reserve(c, &c->special_off, cap, sizeof(int), "broad phase"));
    TRY(reserve(c, &c->special_list, cap, sizeof(int), "broad phase"));
    TRY(reserve(c, &c->special_count, cap, sizeof(int), "broad phase"));
    TRY(reserve(c, &c->special_at, cap, sizeof(int), "broad phase"));

    karg a = kbegin(c, K_BP_CLASSIFY);
    ai(&a, ns), af(&a, c->inv_cell), am(&a, &c->shape_body), am(&a, &c->shape_type), am(&a, &c->flags),
        am(&a, &c->aabb_lo), am(&a, &c->aabb_hi), am(&a, &c->role), am(&a, &c->cell_lo), am(&a, &c->cell_hi),
        am(&a, &c->cell_count), am(&a, &c->special_flag);
    TRY(go(&a, (size_t)ns, "find_pairs"));
    TRY(scan(c, &c->cell_count, &c->entry_start, ns, RB_CNT_ENTRIES));
    TRY(scan(c, &c->special_flag, &c->special_off, ns, RB_CNT_SPECIAL));
    TRY(rb_gpu_read_counters(c));
    int ne = c->counters_host[RB_CNT_ENTRIES], nspecial = c->counters_host[RB_CNT_SPECIAL];

    // grid entries, sorted by cell key
    TRY(reserve(c, &c->keys, (size_t)ne, sizeof(uint32_t), "broad-phase entries"));
    TRY(reserve(c, &c->vals, (size_t)ne, sizeof(uint32_t), "broad-phase entries"));
    TRY(reserve(c, &c->entry, (size_t)ne, 4 * sizeof(int), "broad-phase entries"));
    TRY(reserve(c, &c->sorted_entry, (size_t)ne, 4 * sizeof(int), "broad-phase entries"));
    TRY(reserve(c, &c->entry_count, (size_t)ne, sizeof(int), "broad-phase entries"));
    TRY(reserve(c, &c->entry_at, (size_t)ne, sizeof(int), "broad-phase entries"));
    int key_bits = bits_for(ne) + 1; // about two keys per entry: short runs of aliased cells
    if (key_bits > 30)
        key_bits = 30;
    a = kbegin(c, K_BP_FILL);
    ai(&a, ns), ai(&a, key_bits), am(&a, &c->role), am(&a, &c->cell_lo), am(&a, &c->cell_hi), am(&a, &c->entry_start),
        am(&a, &c->keys), am(&a, &c->vals), am(&a, &c->entry);
    TRY(go(&a, (size_t)ns, "find_pairs"));
    TRY(radix_sort(c, ne, key_bits));
    a = kbegin(c, K_BP_GATHER_ENTRIES);
    ai(&a, ne), am(&a, &c->vals), am(&a, &c->entry), am(&a, &c->sorted_entry);
    TRY(go(&a, (size_t)ne, "find_pairs"));

    // count the pairs of each entry and of each shape against the special shapes
    for (int write = 0; write < 2; ++write) {
        a = kbegin(c, K_BP_GRID_PAIRS);
        ai(&a, ne), ai(&a, write), am(&a, &c->keys), am(&a, &c->sorted_entry), am(&a, &c->aabb_lo), am(&a, &c->aabb_hi), am(&a, &c->shape_body), am(&a, &c->flags), am(&a, &c->filter),
            am(&a, &c->entry_count), am(&a, &c->entry_at), am(&a, &c->pairs_raw);
        TRY(go(&a, (size_t)ne, "find_pairs"));
        a = kbegin(c, K_BP_SPECIAL_PAIRS);
        ai(&a, ns), ai(&a, nspecial), ai(&a, write), am(&a, &c->special_list), am(&a, &c->role), am(&a, &c->aabb_lo),
            am(&a, &c->aabb_hi), am(&a, &c->plane_world), am(&a, &c->shape_body), am(&a, &c->flags),
            am(&a, &c->filter), am(&a, &c->special_count), am(&a, &c->special_at), am(&a, &c->special_pairs);
        if (write == 0) {
            karg b = kbegin(c, K_COMPACT_INDICES);
            ai(&b, ns), am(&b, &c->special_flag), am(&b, &c->special_off), am(&b, &c->special_list);
            TRY(go(&b, (size_t)ns, "find_pairs"));
        }
        TRY(go(&a, nspecial > 0 ? (size_t)ns : 0, "find_pairs"));
        if (write == 1)
            break;
        TRY(scan(c, &c->entry_count, &c->entry_at, ne, RB_CNT_GRID_PAIRS));
        if (nspecial > 0)
            TRY(scan(c, &c->special_count, &c->special_at, ns, RB_CNT_SPECIAL_PAIRS));
        else
            TRY(scan(c, &c->special_count, &c->special_at, 0, RB_CNT_SPECIAL_PAIRS));
        TRY(rb_gpu_read_counters(c));
        // the budget before any pair memory: an overlapping heap has pairs quadratic in its size (the
        // device's int counts may have wrapped for one, hence the sign test)
        int64_t found = (int64_t)c->counters_host[RB_CNT_GRID_PAIRS] + c->counters_host[RB_CNT_SPECIAL_PAIRS];
        if (c->counters_host[RB_CNT_GRID_PAIRS] < 0 || c->counters_host[RB_CNT_SPECIAL_PAIRS] < 0 ||
            (p->max_pairs > 0 && found > p->max_pairs))
            return rb_gpu_fail(c, RB_ERR_CAPACITY,
                               "more than %d candidate pairs (%lld counted), the world's budget max_pairs; shapes "
                               "overlap far more than a resting scene's do (rb_world_def.max_pairs raises it)",
                               p->max_pairs, c->counters_host[RB_CNT_GRID_PAIRS] < 0 ||
                                                     c->counters_host[RB_CNT_SPECIAL_PAIRS] < 0
                                                 ? (long long)INT32_MAX
                                                 : (long long)found);
        int np = (int)found;
        TRY(reserve(c, &c->pairs_raw, (size_t)np, sizeof(rb_pair), "pairs"));
        TRY(reserve(c, &c->pairs, (size_t)np, sizeof(rb_pair), "pairs"));
        TRY(reserve(c, &c->special_pairs, (size_t)c->counters_host[RB_CNT_SPECIAL_PAIRS], sizeof(rb_pair), "pairs"));
    }
    int grid = c->counters_host[RB_CNT_GRID_PAIRS], special = c->counters_host[RB_CNT_SPECIAL_PAIRS];
    int np = grid + special;
    if (special > 0)
        TRY(c->dev->copy(c, c->special_pairs.mem, 0, c->pairs_raw.mem, sizeof(rb_pair) * (size_t)grid,
                         sizeof(rb_pair) * (size_t)special, "find_pairs"));

    // canonical order: by (a, b) in one sort where both slots fit in a 32-bit key (up to 2^16 shapes:
    // 6 radix passes for the 1496 ragdoll capsules instead of 8), else by b, then (stably) by a
    TRY(reserve(c, &c->keys, (size_t)np, sizeof(uint32_t), "pair sort"));
    TRY(reserve(c, &c->vals, (size_t)np, sizeof(uint32_t), "pair sort"));
    int bits = bits_for(ns);
    if (2 * bits <= 32) {
        a = kbegin(c, K_PAIR_KEYS);
        ai(&a, np), ai(&a, -bits), am(&a, &c->pairs_raw), anull(&a), am(&a, &c->keys), am(&a, &c->vals);
        TRY(go(&a, (size_t)np, "find_pairs"));
        TRY(radix_sort(c, np, 2 * bits));
    } else {
        a = kbegin(c, K_PAIR_KEYS);
        ai(&a, np), ai(&a, 0), am(&a, &c->pairs_raw), anull(&a), am(&a, &c->keys), am(&a, &c->vals);
        TRY(go(&a, (size_t)np, "find_pairs"));
        TRY(radix_sort(c, np, bits));
        a = kbegin(c, K_PAIR_KEYS);
        ai(&a, np), ai(&a, 1), am(&a, &c->pairs_raw), am(&a, &c->vals), am(&a, &c->keys), am(&a, &c->vals);
        TRY(go(&a, (size_t)np, "find_pairs"));
        TRY(radix_sort(c, np, bits));
    }
    a = kbegin(c, K_PAIR_GATHER);
    ai(&a, np), am(&a, &c->pairs_raw), am(&a, &c->vals), am(&a, &c->pairs);
    TRY(go(&a, (size_t)np, "find_pairs"));
    c->pair_count = np;
    c->pairs_host_valid = 0;
    return RB_OK;
}

// ---- collide ----

rb_status rb_gpu_collide(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    int np = c->pair_count;
    TRY(reserve(c, &c->scratch, (size_t)np, sizeof(rb_contact_manifold), "narrow phase"));
    TRY(reserve(c, &c->has, (size_t)np, sizeof(int), "narrow phase"));
    TRY(reserve(c, &c->npoints, (size_t)np, sizeof(int), "narrow phase"));
    TRY(reserve(c, &c->moff, (size_t)np, sizeof(int), "narrow phase"));
    TRY(reserve(c, &c->pair_refs, (size_t)np, sizeof(rb_manifold_ref), "narrow phase"));
    // last step's manifolds (and their reference poses) become the warm-start cache
    rb_gpu_buf t = c->cache;
    c->cache = c->manifolds;
    c->manifolds = t;
    t = c->cache_refs;
    c->cache_refs = c->refs;
    c->refs = t;
    c->cache_count = c->manifold_count;
    c->manifold_count = 0;
    TRY(reserve(c, &c->cache, 1, sizeof(rb_contact_manifold), "narrow phase"));
    TRY(reserve(c, &c->cache_refs, 1, sizeof(rb_manifold_ref), "narrow phase"));

    karg a = kbegin(c, K_COLLIDE);
    ai(&a, np), af(&a, p->contact_margin), af(&a, p->dt), am(&a, &c->pairs), am(&a, &c->shape_body),
        am(&a, &c->shape_type), am(&a, &c->shape_world), am(&a, &c->shape_params), am(&a, &c->hull_pool),
        am(&a, &c->plane_world), am(&a, &c->material), am(&a, &c->flags), am(&a, &c->lin), am(&a, &c->ang),
        am(&a, &c->local_center), am(&a, &c->cache), am(&a, &c->cache_refs), ai(&a, c->cache_count),
        am(&a, &c->scratch), am(&a, &c->pair_refs), am(&a, &c->has), am(&a, &c->npoints);
    if (c->nocollide_count > 0)
        am(&a, &c->nocollide);
    else
        anull(&a);
    ai(&a, c->nocollide_count);
    TRY(go(&a, (size_t)np, "collide"));
    TRY(scan(c, &c->has, &c->moff, np, RB_CNT_MANIFOLDS));
    TRY(scan(c, &c->npoints, &c->npoints, np, RB_CNT_POINTS));
    TRY(rb_gpu_read_counters(c));
    int nm = c->counters_host[RB_CNT_MANIFOLDS];
    TRY(reserve(c, &c->manifolds, (size_t)nm, sizeof(rb_contact_manifold), "contacts"));
    TRY(reserve(c, &c->refs, (size_t)nm, sizeof(rb_manifold_ref), "contacts"));
    a = kbegin(c, K_COMPACT_MANIFOLDS);
    ai(&a, np), am(&a, &c->has), am(&a, &c->moff), am(&a, &c->scratch), am(&a, &c->pair_refs), am(&a, &c->manifolds),
        am(&a, &c->refs);
    TRY(go(&a, (size_t)np, "collide"));
    // the constraint graph: edge i is manifold i (build_batches and update_sleep read only the edges)
    TRY(reserve(c, &c->edges, (size_t)nm, sizeof(rb_constraint_edge), "constraint graph"));
    a = kbegin(c, K_FILL_EDGES);
    ai(&a, np), am(&a, &c->has), am(&a, &c->moff), am(&a, &c->npoints), am(&a, &c->manifolds), am(&a, &c->edges);
    TRY(go(&a, (size_t)np, "collide"));
    c->manifold_count = nm;
    c->point_count = c->counters_host[RB_CNT_POINTS];
    c->manifolds_host_valid = 0;
    return RB_OK;
}

rb_status rb_gpu_drop_manifolds(rb_gpu_ctx *c, int lo, int hi)
{
    int n = c->manifold_count;
    if (n == 0)
        return RB_OK;
    TRY(reserve(c, &c->has, (size_t)n, sizeof(int), "contacts"));
    TRY(reserve(c, &c->moff, (size_t)n, sizeof(int), "contacts"));
    TRY(reserve(c, &c->scratch, (size_t)n, sizeof(rb_contact_manifold), "contacts"));
    TRY(reserve(c, &c->pair_refs, (size_t)n, sizeof(rb_manifold_ref), "contacts"));
    karg a = kbegin(c, K_MANIFOLDS_UNTOUCHED);
    ai(&a, n), ai(&a, lo), ai(&a, hi), am(&a, &c->manifolds), am(&a, &c->has);
    TRY(go(&a, (size_t)n, "dropping contacts of changed shapes"));
    TRY(scan(c, &c->has, &c->moff, n, RB_CNT_KEEP));
    a = kbegin(c, K_COMPACT_MANIFOLDS);
    ai(&a, n), am(&a, &c->has), am(&a, &c->moff), am(&a, &c->manifolds), am(&a, &c->refs), am(&a, &c->scratch),
        am(&a, &c->pair_refs);
    TRY(go(&a, (size_t)n, "dropping contacts of changed shapes"));
    TRY(rb_gpu_read_counters(c));
    rb_gpu_buf t = c->manifolds;
    c->manifolds = c->scratch;
    c->scratch = t;
    t = c->refs;
    c->refs = c->pair_refs;
    c->pair_refs = t;
    c->manifold_count = c->counters_host[RB_CNT_KEEP];
    c->manifolds_host_valid = 0;
    return RB_OK;
}

// ---- shock levels ----

// Grows a host array to hold n elements (contents not kept).
static int host_reserve(void **p, size_t n, size_t elem)
{
    void *grown = realloc(*p, (n ? n : 1) * elem);
    if (!grown)
        return 0;
    *p = grown;
    return 1;
}

// The levels from the support tests (rb_shock_levels_from_answers, core/kernels/shock_levels.h, as the
// CPU backend builds them) on the host, for the reason the colouring runs there: a breadth-first walk is
// serial, and one GPU thread took 9.7 ms of each `pile` step on an H100. The answers come back (2 ints
// per constraint); each levelled body's supports go to the device, and the level starts stay here.
static rb_status shock_levels_on_host(rb_gpu_ctx *c, int nb, int nm)
{
    size_t need = 5 * (size_t)nb + 4 + 4 * (size_t)nm;
    if (need > c->shock_host_cap) {
        if (!host_reserve((void **)&c->shock_host, need, sizeof(int)))
            return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY, "out of host memory for the shock levels of %d constraints",
                               nm);
        c->shock_host_cap = need;
    }
    rb_shock_arrays s;
    s.level = c->shock_host;
    s.carry_start = s.level + nb;
    s.carry = s.carry_start + nb + 1;
    s.order = s.carry + nm;
    s.level_start = s.order + nb;
    s.support_start = s.level_start + nb + 2;
    s.supports = s.support_start + nb + 1;
    s.answer = s.supports + nm;
    TRY(c->dev->read(c, c->shock_answer.mem, 0, sizeof(int) * 2 * (size_t)nm, s.answer, "reading the supports"));
    int bodies = 0, levels = rb_shock_levels_from_answers(nb, nm, s, &bodies);
    if (levels == 0)
        return RB_OK;
    c->shock_level_start_host = s.level_start;
    int supports = s.support_start[bodies];
    TRY(c->dev->write(c, c->shock_support_start.mem, 0, sizeof(int) * ((size_t)bodies + 1), s.support_start,
                      "writing the shock levels"));
    if (supports > 0)
        TRY(c->dev->write(c, c->shock_supports.mem, 0, sizeof(int) * (size_t)supports, s.supports,
                          "writing the shock levels"));
    c->shock_levels = levels;
    return RB_OK;
}

// ---- build_batches ----

// The greedy colouring in edge order (rb_color_edges, core/kernels/constraint_graph.h, as the CPU
// backend runs it) on the host, over the edges and body flags read back; the colour order and each
// constraint's first point go back. It is serial: one GPU thread walking the edges ran about ten times
// slower than a CPU core (pile on an H100: 10.5 ms against ~1 ms here, docs/performance.md), and the
// read-back of 16 bytes per edge costs less than the difference. Returns the number of colours in *colors.
static rb_status color_on_host(rb_gpu_ctx *c, int nm, int nb, int *colors)
{
    if (nm > c->edges_host_cap) {
        if (!host_reserve((void **)&c->edges_host, (size_t)nm, sizeof *c->edges_host) ||
            !host_reserve((void **)&c->edge_color_host, (size_t)nm, sizeof(int)) ||
            !host_reserve((void **)&c->color_order_host, (size_t)nm, sizeof(int)) ||
            !host_reserve((void **)&c->first_point_host, (size_t)nm, sizeof(int)))
            return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY, "out of host memory colouring %d constraints", nm);
        c->edges_host_cap = nm;
    }
    if (nb > c->bodies_host_cap) {
        if (!host_reserve((void **)&c->flags_host, (size_t)nb, sizeof *c->flags_host) ||
            !host_reserve((void **)&c->color_mask_host, (size_t)nb, sizeof *c->color_mask_host))
            return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY, "out of host memory colouring %d bodies", nb);
        c->bodies_host_cap = nb;
    }
    TRY(c->dev->read(c, c->edges.mem, 0, sizeof *c->edges_host * (size_t)nm, c->edges_host, "reading the edges"));
    TRY(c->dev->read(c, c->flags.mem, 0, sizeof *c->flags_host * (size_t)nb, c->flags_host, "reading the edges"));
    memset(c->color_mask_host, 0, sizeof *c->color_mask_host * (size_t)nb);
    *colors = rb_color_edges(nm, c->edges_host, c->flags_host, c->color_mask_host, c->edge_color_host,
                             c->color_order_host, c->color_start_host);
    int first = 0;
    for (int j = 0; j < nm; ++j) {
        c->first_point_host[j] = first;
        first += c->edges_host[c->color_order_host[j]].row_count;
    }
    TRY(c->dev->write(c, c->color_order.mem, 0, sizeof(int) * (size_t)nm, c->color_order_host, "writing the colours"));
    return c->dev->write(c, c->first_point.mem, 0, sizeof(int) * (size_t)nm, c->first_point_host,
                         "writing the colours");
}

static rb_status fill_zero(rb_gpu_ctx *c, rb_gpu_buf *b, size_t bytes, const char *what)
{
    if (bytes == 0)
        return RB_OK;
    return c->dev->fill_zero(c, b->mem, 0, bytes, what);
}

// ---- joints ----

static int cmp_joint_key(const void *x, const void *y)
{
    rb_joint_key a = *(const rb_joint_key *)x, b = *(const rb_joint_key *)y;
    return a < b ? -1 : a > b;
}

// The joints go to the device whole; their edges (live joints in slot order, as the CPU builds them:
// backend-cpu/joint_solver.c), their greedy colours in that order, and the keys of joined bodies that
// do not collide are rebuilt here on the host, where the joints and the body types are.
rb_status rb_gpu_sync_joints(rb_gpu_ctx *c)
{
    rb_scene *s = c->scene;
    int nj = s->joint_slots, nb = s->body_slots;
    c->joint_edge_count = c->joint_color_count = c->nocollide_count = 0;
    memset(c->joint_color_start_host, 0, sizeof c->joint_color_start_host);
    c->joint_version_seen = s->joint_version;
    c->joints_synced = 1;
    c->joint_slots_synced = nj;
    if (nj == 0)
        return RB_OK;
    if (nj > c->joint_host_cap) {
        if (!host_reserve((void **)&c->joint_edges_host, (size_t)nj, sizeof *c->joint_edges_host) ||
            !host_reserve((void **)&c->joint_edge_color_host, (size_t)nj, sizeof(int)) ||
            !host_reserve((void **)&c->joint_order_host, (size_t)nj, sizeof(int)) ||
            !host_reserve((void **)&c->nocollide_host, (size_t)nj, sizeof *c->nocollide_host))
            return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY, "out of host memory for %d joints", nj);
        c->joint_host_cap = nj;
    }
    if (nb > c->bodies_host_cap) {
        if (!host_reserve((void **)&c->flags_host, (size_t)nb, sizeof *c->flags_host) ||
            !host_reserve((void **)&c->color_mask_host, (size_t)nb, sizeof *c->color_mask_host))
            return rb_gpu_fail(c, RB_ERR_OUT_OF_MEMORY, "out of host memory colouring %d bodies", nb);
        c->bodies_host_cap = nb;
    }
    int ne = 0, nk = 0;
    for (int j = 0; j < nj; ++j) {
        const rb_joint *k = &s->joints[j];
        if (k->type < 0 || !(k->flags & RB_JF_ENABLED) || (k->flags & RB_JF_BROKEN))
            continue;
        rb_constraint_edge e = {k->body_a >= 0 ? k->body_a : k->body_b, k->body_b, RB_EDGE_JOINT, j, 1};
        c->joint_edges_host[ne++] = e;
        if (!(k->flags & RB_JF_COLLIDE) && k->body_a >= 0)
            c->nocollide_host[nk++] = rb_joint_pair_key(k->body_a, k->body_b);
    }
    // the colours read only the body types (static and kinematic bodies may share a colour), which the
    // host's flags hold
    memset(c->color_mask_host, 0, sizeof *c->color_mask_host * (size_t)nb);
    int colors = ne > 0 ? rb_color_edges(ne, c->joint_edges_host, s->body_flags, c->color_mask_host,
                                         c->joint_edge_color_host, c->joint_order_host, c->joint_color_start_host)
                        : 0;
    for (int i = 0; i < ne; ++i) // edge indices to joint slots
        c->joint_order_host[i] = c->joint_edges_host[c->joint_order_host[i]].first_row;
    if (nk > 1)
        qsort(c->nocollide_host, (size_t)nk, sizeof *c->nocollide_host, cmp_joint_key);
    TRY(reserve(c, &c->joints, (size_t)nj, sizeof(rb_joint), "joints"));
    TRY(reserve(c, &c->joint_order, (size_t)(ne > 0 ? ne : 1), sizeof(int), "joints"));
    TRY(reserve(c, &c->joint_edges, (size_t)(ne > 0 ? ne : 1), sizeof(rb_constraint_edge), "joints"));
    TRY(reserve(c, &c->joint_kept, (size_t)(ne > 0 ? ne : 1), sizeof(rb_joint_kept), "joints"));
    TRY(reserve(c, &c->nocollide, (size_t)(nk > 0 ? nk : 1), sizeof(rb_joint_key), "joints"));
    TRY(c->dev->write(c, c->joints.mem, 0, sizeof(rb_joint) * (size_t)nj, s->joints, "uploading the joints"));
    if (ne > 0) {
        TRY(c->dev->write(c, c->joint_order.mem, 0, sizeof(int) * (size_t)ne, c->joint_order_host, "uploading the joints"));
        TRY(c->dev->write(c, c->joint_edges.mem, 0, sizeof(rb_constraint_edge) * (size_t)ne, c->joint_edges_host,
                          "uploading the joints"));
    }
    if (nk > 0)
        TRY(c->dev->write(c, c->nocollide.mem, 0, sizeof(rb_joint_key) * (size_t)nk, c->nocollide_host,
                          "uploading the joints"));
    TRY(c->dev->finish(c, "uploading the joints"));
    c->joint_edge_count = ne;
    c->joint_color_count = colors;
    c->nocollide_count = nk;
    return RB_OK;
}

rb_status rb_gpu_build_batches(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    int nb = c->scene->body_slots;
    // Waking a group brings back contacts the broad phase skipped while it slept, so detection runs
    // again (as on the CPU). Each round wakes at least one group, so this ends.
    TRY(fill_zero(c, &c->wake_group, (size_t)nb, "build_batches"));
    for (;;) {
        if (c->manifold_count == 0 && c->joint_edge_count == 0)
            break;
        TRY(fill_zero(c, &c->counters, sizeof(int), "build_batches")); // RB_CNT_WAKE is slot 0
        karg a = kbegin(c, K_MARK_SLEEPERS);
        ai(&a, c->manifold_count), am(&a, &c->edges), am(&a, &c->flags), am(&a, &c->sleep_group),
            am(&a, &c->wake_group), am(&a, &c->counters);
        TRY(go(&a, (size_t)c->manifold_count, "build_batches"));
        // joints wake what they hold, as contacts do
        a = kbegin(c, K_MARK_SLEEPERS);
        ai(&a, c->joint_edge_count), am(&a, &c->joint_edges), am(&a, &c->flags), am(&a, &c->sleep_group),
            am(&a, &c->wake_group), am(&a, &c->counters);
        TRY(go(&a, (size_t)c->joint_edge_count, "build_batches"));
        TRY(rb_gpu_read_counters(c));
        if (!c->counters_host[RB_CNT_WAKE])
            break;
        a = kbegin(c, K_WAKE_GROUPS);
        ai(&a, nb), am(&a, &c->flags), am(&a, &c->params), am(&a, &c->sleep_group), am(&a, &c->wake_group);
        TRY(go(&a, (size_t)nb, "build_batches"));
        TRY(fill_zero(c, &c->wake_group, (size_t)nb, "build_batches"));
        TRY(rb_gpu_find_pairs(ctx, p));
        TRY(rb_gpu_collide(ctx, p));
    }

    int nm = c->manifold_count;
    TRY(reserve(c, &c->cons, (size_t)nm, sizeof(rb_contact_constraint), "constraints"));
    TRY(reserve(c, &c->points, (size_t)c->point_count, sizeof(rb_contact_point), "constraints"));
    TRY(reserve(c, &c->color_order, (size_t)nm, sizeof(int), "constraints"));
    TRY(reserve(c, &c->first_point, (size_t)nm, sizeof(int), "constraints"));
    int colors = 0;
    if (nm > 0)
        TRY(color_on_host(c, nm, nb, &colors));
    else
        memset(c->color_start_host, 0, sizeof c->color_start_host);
    // rb_prepare_constraints raises the restitution flag
    TRY(c->dev->fill_zero(c, c->counters.mem, sizeof(int) * RB_CNT_RESTITUTION, sizeof(int), "build_batches"));
    karg a = kbegin(c, K_PREPARE);
    ai(&a, nm), af(&a, p->linear_slop), am(&a, &c->edges), am(&a, &c->manifolds), am(&a, &c->color_order),
        am(&a, &c->first_point), am(&a, &c->flags), am(&a, &c->pos), am(&a, &c->rot), am(&a, &c->lin), am(&a, &c->ang),
        am(&a, &c->inv_diag), am(&a, &c->inv_inertia_world), am(&a, &c->cons), am(&a, &c->points),
        am(&a, &c->counters);
    TRY(go(&a, (size_t)nm, "build_batches"));
    // shock-propagation levels (kernels/device_shock.h), from the prepared constraints
    float g = rb_len(p->gravity);
    int shock = nm > 0 && g > 1e-6f;
    c->shock_levels = 0;
    if (shock) {
        TRY(reserve(c, &c->shock_support_start, (size_t)nb + 1, sizeof(int), "shock levels"));
        TRY(reserve(c, &c->shock_supports, (size_t)nm, sizeof(int), "shock levels"));
        TRY(reserve(c, &c->shock_answer, 2 * (size_t)nm, sizeof(int), "shock levels"));
        rb_float4 up = rb_f4(-p->gravity.x / g, -p->gravity.y / g, -p->gravity.z / g, 0.0f);
        a = kbegin(c, K_SHOCK_ANSWERS);
        ai(&a, nm), arg(&a, sizeof up, &up), am(&a, &c->cons), am(&a, &c->points), am(&a, &c->shock_answer);
        TRY(go(&a, (size_t)nm, "build_batches"));
        TRY(shock_levels_on_host(c, nb, nm));
    }
    TRY(rb_gpu_read_counters(c));
    c->color_count = colors;
    c->any_restitution = nm > 0 && c->counters_host[RB_CNT_RESTITUTION];
    return RB_OK;
}

// ---- integrate ----

rb_status rb_gpu_integrate_velocities(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    int nb = c->scene->body_slots;
    rb_float4 g = rb_f4(p->gravity.x, p->gravity.y, p->gravity.z, 0.0f);
    karg a = kbegin(c, K_INTEGRATE_VELOCITIES);
    ai(&a, nb), arg(&a, sizeof g, &g), af(&a, p->dt), ai(&a, p->substep == p->substeps - 1), am(&a, &c->flags),
        am(&a, &c->lin), am(&a, &c->ang), am(&a, &c->inertia_diag), am(&a, &c->inertia_off), am(&a, &c->inv_diag),
        am(&a, &c->inv_inertia_world), am(&a, &c->rot), am(&a, &c->force), am(&a, &c->torque), am(&a, &c->params),
        am(&a, &c->frozen), ai(&a, p->substep > 0), am(&a, &c->pos), am(&a, &c->start_pos), am(&a, &c->start_rot);
    return go(&a, (size_t)nb, "integrate_velocities");
}

rb_status rb_gpu_integrate_positions(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    int nb = c->scene->body_slots;
    karg a = kbegin(c, K_INTEGRATE_POSITIONS);
    ai(&a, nb), af(&a, p->dt), am(&a, &c->flags), am(&a, &c->pos), am(&a, &c->rot), am(&a, &c->lin), am(&a, &c->ang),
        am(&a, &c->plin), am(&a, &c->pang), am(&a, &c->frozen), ai(&a, p->substep == 0), am(&a, &c->start_pos),
        am(&a, &c->start_rot);
    return go(&a, (size_t)nb, "integrate_positions");
}

int rb_gpu_frozen_in_last_step(rb_backend_ctx *ctx)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    int nb = c->scene->body_slots;
    if (nb == 0)
        return 0;
    if (scan(c, &c->frozen, &c->parent, nb, RB_CNT_FROZEN) != RB_OK || rb_gpu_read_counters(c) != RB_OK)
        return 0;
    return c->counters_host[RB_CNT_FROZEN];
}

// ---- solve_constraints ----

typedef struct solve_args {
    float inv_h, bias_factor, slop, max_push, restitution_threshold;
} solve_args;


static rb_status batched_sweep(rb_gpu_ctx *c, int op, const solve_args *sa)
{
    const rb_gpu_buf *lin = op == RB_OP_POSITION ? &c->plin : &c->lin, *ang = op == RB_OP_POSITION ? &c->pang : &c->ang;
    for (int k = 0; k < c->color_count; ++k) {
        int lo = c->color_start_host[k], n = c->color_start_host[k + 1] - lo;
        karg a = kbegin(c, K_SOLVE_COLOR);
        ai(&a, lo), ai(&a, n), ai(&a, op), arg(&a, sizeof *sa, sa), am(&a, &c->cons), am(&a, &c->points),
            am(&a, &c->flags), am(&a, lin), am(&a, ang);
        TRY(go(&a, (size_t)n, "solve_constraints"));
    }
    int lo = c->color_start_host[RB_GPU_MAX_COLORS], n = c->color_start_host[RB_GPU_MAX_COLORS + 1] - lo;
    if (n > 0) {
        karg a = kbegin(c, K_SOLVE_SERIAL);
        ai(&a, lo), ai(&a, n), ai(&a, op), arg(&a, sizeof *sa, sa), am(&a, &c->cons), am(&a, &c->points),
            am(&a, &c->flags), am(&a, lin), am(&a, ang);
        TRY(go(&a, 1, "solve_constraints"));
    }
    return RB_OK;
}

static rb_status split_sweep(rb_gpu_ctx *c, int op, const solve_args *sa)
{
    const rb_gpu_buf *lin = op == RB_OP_POSITION ? &c->plin : &c->lin, *ang = op == RB_OP_POSITION ? &c->pang : &c->ang;
    int nm = c->manifold_count, nb = c->scene->body_slots;
    karg a = kbegin(c, K_SPLIT_BLOCKS);
    ai(&a, nm), ai(&a, op), arg(&a, sizeof *sa, sa), am(&a, &c->cons), am(&a, &c->points), am(&a, lin), am(&a, ang),
        am(&a, &c->delta);
    TRY(go(&a, (size_t)nm, "solve_constraints"));
    a = kbegin(c, K_SPLIT_GATHER);
    ai(&a, nb), am(&a, &c->body_start), am(&a, &c->split_list), am(&a, &c->delta), am(&a, lin), am(&a, ang);
    return go(&a, (size_t)nb, "solve_constraints");
}

// The shock pass over the levels, one launch per level (kernels/device_shock.h).
static rb_status shock_pass(rb_gpu_ctx *c, int position, const solve_args *sa)
{
    const rb_gpu_buf *lin = position ? &c->plin : &c->lin, *ang = position ? &c->pang : &c->ang;
    for (int l = 0; l < c->shock_levels; ++l) {
        int lo = c->shock_level_start_host[l], n = c->shock_level_start_host[l + 1] - lo;
        if (n <= 0)
            continue;
        karg a = kbegin(c, K_SHOCK_LEVEL);
        ai(&a, lo), ai(&a, n), ai(&a, position), arg(&a, sizeof *sa, sa), am(&a, &c->shock_support_start),
            am(&a, &c->shock_supports), am(&a, &c->cons), am(&a, &c->points), am(&a, &c->flags), am(&a, lin),
            am(&a, ang);
        TRY(go(&a, (size_t)n, "solve_constraints"));
    }
    return RB_OK;
}

// The split solver's per-body lists over the edges and its rows' split masses, once per solve.
static rb_status split_prepare(rb_gpu_ctx *c)
{
    int nm = c->manifold_count, nb = c->scene->body_slots;
    TRY(reserve(c, &c->split_list, 2 * (size_t)nm, sizeof(int), "split solver"));
    TRY(reserve(c, &c->delta, 4 * (size_t)nm, sizeof(rb_float4), "split solver"));
    karg a = kbegin(c, K_SPLIT_LISTS);
    ai(&a, nm), ai(&a, nb), am(&a, &c->edges), am(&a, &c->color_order), am(&a, &c->flags), am(&a, &c->body_start),
        am(&a, &c->split_list);
    TRY(go(&a, 1, "solve_constraints"));
    a = kbegin(c, K_SPLIT_PREPARE);
    ai(&a, nm), am(&a, &c->cons), am(&a, &c->points), am(&a, &c->flags), am(&a, &c->body_start);
    return go(&a, (size_t)nm, "solve_constraints");
}

// What solve_constraints runs for each solver the GPU backends have: one table each, chosen once per
// call from p->solver.
typedef struct gpu_solver {
    rb_status (*prepare)(rb_gpu_ctx *c); // before the sweeps; NULL: nothing
    rb_status (*sweep)(rb_gpu_ctx *c, int op, const solve_args *sa);
    int restitution_sweeps; // Gauss-Seidel by colours: 1; Jacobi with split masses: more
} gpu_solver;

// The joints' pass by colours (kernels/device_joints.h), as the CPU's rb_cpu_joints_warm_start /
// rb_cpu_joints_solve: the rigid solvers' Baumgarte rows (RB_JOINT_PASS_RIGID), or their rows on the
// pseudo velocities in the position pass (RB_JOINT_PASS_POSITION).
static rb_status joints_sweep(rb_gpu_ctx *c, int op, const rb_step_params *p, int pass)
{
    const rb_gpu_buf *lin = pass == RB_JOINT_PASS_POSITION ? &c->plin : &c->lin;
    const rb_gpu_buf *ang = pass == RB_JOINT_PASS_POSITION ? &c->pang : &c->ang;
    if (c->joint_edge_count == 0)
        return RB_OK;
    rb_joint_args ja = rb_joint_args_of(rb_joint_settings_make(p->dt, p->inv_dt, p->joint_hertz, p->joint_damping_ratio,
                                                               p->position_correction, p->max_push_velocity, pass),
                                        op);
    for (int k = 0; k <= c->joint_color_count; ++k) {
        int overflow = k == c->joint_color_count;
        int ci = overflow ? RB_GPU_MAX_COLORS : k;
        int lo = c->joint_color_start_host[ci], n = c->joint_color_start_host[ci + 1] - lo;
        if (n <= 0)
            continue;
        karg a = kbegin(c, overflow ? K_JOINTS_SERIAL : K_JOINTS_COLOR);
        ai(&a, lo), ai(&a, n), arg(&a, sizeof ja, &ja), am(&a, &c->joints), am(&a, &c->joint_order), am(&a, &c->flags),
            am(&a, &c->pos), am(&a, &c->rot), am(&a, lin), am(&a, ang), am(&a, &c->inv_diag), am(&a, &c->inv_off),
            am(&a, &c->joint_kept);
        TRY(go(&a, overflow ? 1 : (size_t)n, "solve_constraints"));
    }
    return RB_OK;
}

// The joints' reactions after the substep; a joint that broke brings the joints back to the host, which
// rebuilds their edges and the no-collide keys for the next step (the core sees the change there).
static rb_status joints_finish(rb_gpu_ctx *c, const rb_step_params *p)
{
    int ne = c->joint_edge_count;
    if (ne == 0)
        return RB_OK;
    TRY(c->dev->fill_zero(c, c->counters.mem, sizeof(int) * RB_CNT_JOINT_BROKE, sizeof(int), "solve_constraints"));
    karg a = kbegin(c, K_JOINTS_FINISH);
    ai(&a, ne), af(&a, p->inv_dt), am(&a, &c->joints), am(&a, &c->joint_order), am(&a, &c->flags), am(&a, &c->pos),
        am(&a, &c->rot), am(&a, &c->lin), am(&a, &c->ang), am(&a, &c->inv_diag), am(&a, &c->inv_off),
        am(&a, &c->counters);
    TRY(go(&a, (size_t)ne, "solve_constraints"));
    TRY(rb_gpu_read_counters(c));
    if (!c->counters_host[RB_CNT_JOINT_BROKE])
        return RB_OK;
    rb_scene *s = c->scene;
    TRY(c->dev->read(c, c->joints.mem, 0, sizeof(rb_joint) * (size_t)s->joint_slots, s->joints, "reading the joints"));
    s->joint_version++;
    return rb_gpu_sync_joints(c);
}

static const gpu_solver batched = {NULL, batched_sweep, 1},
                        split = {split_prepare, split_sweep, RB_SPLIT_RESTITUTION_SWEEPS};
static const gpu_solver *const solvers[] = {[RB_SOLVER_BATCHED] = &batched, [RB_SOLVER_SPLIT] = &split};

int rb_gpu_has_solver(int solver)
{
    return solver > 0 && solver < (int)(sizeof solvers / sizeof *solvers) && solvers[solver];
}

rb_status rb_gpu_solve_constraints(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    const gpu_solver *o = solvers[p->solver];
    int nb = c->scene->body_slots, nm = c->manifold_count;
    karg a = kbegin(c, K_ZERO_PSEUDO);
    ai(&a, nb), am(&a, &c->plin), am(&a, &c->pang);
    TRY(go(&a, (size_t)nb, "solve_constraints"));
    if (nm == 0) {
        // joints alone (no contact this step): warm start, the iterations, the reactions
        if (c->joint_edge_count == 0)
            return RB_OK;
        TRY(joints_sweep(c, RB_JOINT_OP_WARM, p, RB_JOINT_PASS_RIGID));
        for (int it = 0; it < p->iterations; ++it)
            TRY(joints_sweep(c, RB_JOINT_OP_SOLVE, p, RB_JOINT_PASS_RIGID));
        return joints_finish(c, p);
    }
    solve_args sa = {p->inv_dt, p->position_correction, p->linear_slop, p->max_push_velocity,
                     p->restitution_threshold};
    rb_status (*sweep)(rb_gpu_ctx *, int, const solve_args *) = o->sweep;
    if (o->prepare)
        TRY(o->prepare(c));
    if (c->any_restitution) {
        // read-only for the bodies: every constraint at once
        a = kbegin(c, K_SOLVE_COLOR);
        ai(&a, 0), ai(&a, nm), ai(&a, RB_OP_MEASURE), arg(&a, sizeof sa, &sa), am(&a, &c->cons), am(&a, &c->points),
            am(&a, &c->flags), am(&a, &c->lin), am(&a, &c->ang);
        TRY(go(&a, (size_t)nm, "solve_constraints"));
    }
    TRY(sweep(c, RB_OP_WARM_START, &sa));
    TRY(joints_sweep(c, RB_JOINT_OP_WARM, p, RB_JOINT_PASS_RIGID));
    for (int it = 0; it < p->iterations; ++it) {
        TRY(joints_sweep(c, RB_JOINT_OP_SOLVE, p, RB_JOINT_PASS_RIGID));
        TRY(sweep(c, RB_OP_SOLVE, &sa));
    }
    TRY(shock_pass(c, 0, &sa));
    if (c->any_restitution)
        for (int it = 0; it < o->restitution_sweeps; ++it)
            TRY(sweep(c, RB_OP_RESTITUTION, &sa));
    for (int it = 0; it < p->position_iterations; ++it) {
        TRY(joints_sweep(c, RB_JOINT_OP_SOLVE, p, RB_JOINT_PASS_POSITION));
        TRY(sweep(c, RB_OP_POSITION, &sa));
    }
    TRY(shock_pass(c, 1, &sa));
    a = kbegin(c, K_STORE_IMPULSES);
    ai(&a, nm), af(&a, sa.inv_h), af(&a, sa.slop), am(&a, &c->cons), am(&a, &c->points), am(&a, &c->color_order),
        am(&a, &c->manifolds);
    TRY(go(&a, (size_t)nm, "solve_constraints"));
    c->manifolds_host_valid = 0;
    return joints_finish(c, p);
}

// ---- update_sleep ----

rb_status rb_gpu_update_sleep(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_gpu_ctx *c = (rb_gpu_ctx *)ctx;
    int nb = c->scene->body_slots;
    karg a = kbegin(c, K_SLEEP_TIMERS);
    ai(&a, nb), af(&a, p->dt), af(&a, p->linear_sleep_tolerance), af(&a, p->angular_sleep_tolerance),
        am(&a, &c->flags), am(&a, &c->lin), am(&a, &c->ang), am(&a, &c->local_center), am(&a, &c->params),
        am(&a, &c->rest_low), am(&a, &c->awake);
    TRY(go(&a, (size_t)nb, "update_sleep"));
    TRY(scan(c, &c->awake, &c->parent, nb, RB_CNT_AWAKE));
    TRY(fill_zero(c, &c->counters, sizeof(int) * (RB_CNT_SLEPT + 1), "update_sleep")); // clears SLEPT (and WAKE..)
    if (p->enable_sleep && nb > 0) {
        a = kbegin(c, K_ISLANDS);
        ai(&a, nb), ai(&a, c->manifold_count), af(&a, p->time_to_sleep), am(&a, &c->edges), ai(&a, c->joint_edge_count),
            am(&a, &c->joint_edges), am(&a, &c->flags),
            am(&a, &c->lin), am(&a, &c->ang), am(&a, &c->params), am(&a, &c->sleep_group), am(&a, &c->parent),
            am(&a, &c->rest), am(&a, &c->counters);
        TRY(go(&a, 1, "update_sleep"));
    }
    TRY(rb_gpu_read_counters(c));
    c->awake_bodies = c->counters_host[RB_CNT_AWAKE] - c->counters_host[RB_CNT_SLEPT];
    return RB_OK;
}
