// collide: contact manifolds of the candidate pairs, warm-started from last step's manifolds (per
// pair: core/kernels/narrow_phase.h, which the device kernels run too), and reused from last step
// where a pair of boxes or planes hardly moved (core/kernels/manifold_reuse.h).

#include "cpu_context.h"
#include "kernels/manifold_reuse.h"

static uint64_t pair_key(int a, int b) { return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b; }

#define RB_COLLIDE_AHEAD 8

// For each pair, the index of last step's manifold of the same shape pair, or -1. Both lists are
// sorted by pair, so one merge finds them all (cheaper here than the device's binary search per pair).
static void match_cache(rb_cpu_ctx *c)
{
    int j = 0;
    for (int i = 0; i < c->pair_count; ++i) {
        uint64_t key = pair_key(c->pairs[i].shape_a, c->pairs[i].shape_b);
        // a few manifolds ahead: the loop does too little per manifold for the hardware to fetch them
        // in time (it waited on them for most of its time)
        if (j + RB_COLLIDE_AHEAD < c->cache_count) // (no arithmetic on the cache before it exists)
            __builtin_prefetch(&c->cache[j + RB_COLLIDE_AHEAD]);
        while (j < c->cache_count && pair_key(c->cache[j].shape_a, c->cache[j].shape_b) < key)
            ++j;
        c->pair_offset[i] =
            j < c->cache_count && pair_key(c->cache[j].shape_a, c->cache[j].shape_b) == key ? j : -1;
    }
}

rb_status rb_cpu_collide(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    const rb_scene *s = c->scene;
    int n = c->pair_count;

    // last step's manifolds become the cache; allocate before touching anything
    if (!rb_cpu_reserve((void **)&c->pair_scratch, &c->pair_scratch_cap, n, sizeof *c->pair_scratch) ||
        !rb_cpu_reserve((void **)&c->pair_refs, &c->pair_refs_cap, n, sizeof *c->pair_refs) ||
        !rb_cpu_reserve((void **)&c->pair_offset, &c->pair_offset_cap, n + 1, sizeof *c->pair_offset) ||
        !rb_cpu_reserve((void **)&c->cache, &c->cache_cap, n, sizeof *c->cache) ||
        !rb_cpu_reserve((void **)&c->cache_refs, &c->cache_refs_cap, n, sizeof *c->cache_refs) ||
        !rb_cpu_reserve((void **)&c->refs, &c->refs_cap, c->manifold_count, sizeof *c->refs))
        return RB_ERR_OUT_OF_MEMORY;
    rb_contact_manifold *tmp = c->cache;
    int tmp_cap = c->cache_cap;
    c->cache = c->manifolds;
    c->cache_cap = c->manifold_cap;
    c->cache_count = c->manifold_count;
    c->manifolds = tmp;
    c->manifold_cap = tmp_cap;
    c->manifold_count = 0;
    rb_manifold_ref *tmp_refs = c->cache_refs;
    int tmp_refs_cap = c->cache_refs_cap;
    c->cache_refs = c->refs;
    c->cache_refs_cap = c->refs_cap;
    c->refs = tmp_refs;
    c->refs_cap = tmp_refs_cap;
    if (!rb_cpu_reserve((void **)&c->manifolds, &c->manifold_cap, n, sizeof *c->manifolds) ||
        !rb_cpu_reserve((void **)&c->refs, &c->refs_cap, n, sizeof *c->refs))
        return RB_ERR_OUT_OF_MEMORY;

    // pair_offset holds the cache index per pair first, then the compaction offsets
    match_cache(c);
    float margin = p->contact_margin;
#pragma omp parallel for schedule(dynamic, 256) num_threads(c->team)
    for (int i = 0; i < n; ++i) {
        int old = c->pair_offset[i];
        // bodies joined by a joint that keeps them apart make no contact (the pair stays a candidate,
        // as on the GPU backends)
        if (c->nocollide_count > 0 && rb_joined_no_collide(c->nocollide, c->nocollide_count,
                                                            s->shape_body[c->pairs[i].shape_a],
                                                            s->shape_body[c->pairs[i].shape_b])) {
            c->pair_scratch[i].m.count = 0;
            c->pair_refs[i].valid = 0;
            continue;
        }
        rb_narrow_phase_pair_reusing(&c->pair_scratch[i], &c->pair_refs[i], c->pairs[i].shape_a, c->pairs[i].shape_b,
                                     margin, p->dt, s->shape_body, s->shape_type, c->shape_world, s->shape_params,
                                     s->hull_pool, c->plane_world, s->shape_material, s->body_flags, s->body_lin_vel,
                                     s->body_ang_vel, s->body_local_center, old >= 0 ? &c->cache[old] : NULL,
                                     old >= 0 ? &c->cache_refs[old] : NULL);
    }

    // compact in pair order (a prefix sum keeps the canonical order for any thread count)
    int total = 0, points = 0;
    for (int i = 0; i < n; ++i) {
        __builtin_prefetch(&c->pair_scratch[i + RB_COLLIDE_AHEAD < n ? i + RB_COLLIDE_AHEAD : i].m.count);
        c->pair_offset[i] = total;
        total += c->pair_scratch[i].m.count > 0;
        points += c->pair_scratch[i].m.count;
    }
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int i = 0; i < n; ++i)
        if (c->pair_scratch[i].m.count > 0) {
            c->manifolds[c->pair_offset[i]] = c->pair_scratch[i];
            if (c->pair_refs[i].valid)
                c->refs[c->pair_offset[i]] = c->pair_refs[i];
            else
                c->refs[c->pair_offset[i]].valid = 0;
        }
    c->manifold_count = total;
    c->contact_point_count = points;
    return RB_OK;
}
