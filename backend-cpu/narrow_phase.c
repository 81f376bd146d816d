// collide: contact manifolds of the candidate pairs, warm-started from last step's manifolds.

#include "cpu_context.h"
#include "kernels/collide.h"
#include "kernels/contact_persistence.h"

static uint64_t pair_key(int a, int b) { return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b; }

// For each pair, the index of last step's manifold of the same shape pair, or -1. Both lists are
// sorted by pair, so one merge finds them all.
static void match_cache(rb_cpu_ctx *c)
{
    int j = 0;
    for (int i = 0; i < c->pair_count; ++i) {
        uint64_t key = pair_key(c->pairs[i].shape_a, c->pairs[i].shape_b);
        while (j < c->cache_count && pair_key(c->cache[j].shape_a, c->cache[j].shape_b) < key)
            ++j;
        c->pair_offset[i] =
            j < c->cache_count && pair_key(c->cache[j].shape_a, c->cache[j].shape_b) == key ? j : -1;
    }
}

static void copy_impulses(rb_contact_manifold *m, int i, const rb_contact_manifold *old, int j)
{
    m->normal_impulse[i] = old->normal_impulse[j];
    m->friction_impulse[i] = old->friction_impulse[j];
    m->carried_impact[i] = old->carried_impact[j];
}

// Copies the accumulated impulses of the points that persist (rb_warm_match).
static void warm_start_from(rb_contact_manifold *m, const rb_contact_manifold *old, float radius)
{
    int src[RB_MAX_MANIFOLD_POINTS];
    rb_warm_match(&m->m, &old->m, radius, src);
    for (int i = 0; i < m->m.count; ++i)
        if (src[i] >= 0)
            copy_impulses(m, i, old, src[i]);
}

// rb_closing_distance of two bodies; a sleeping body does not move.
static float closing_distance(const rb_scene *s, int a, int b, float h)
{
    rb_float3 va = rb_f3(0.0f, 0.0f, 0.0f), vb = va;
    float spin = 0.0f;
    if ((s->body_flags[a] & RB_BODY_AWAKE)) {
        va = rb_xyz(s->body_lin_vel[a]);
        spin += rb_len(rb_xyz(s->body_ang_vel[a])) * s->body_local_center[a].w;
    }
    if ((s->body_flags[b] & RB_BODY_AWAKE)) {
        vb = rb_xyz(s->body_lin_vel[b]);
        spin += rb_len(rb_xyz(s->body_ang_vel[b])) * s->body_local_center[b].w;
    }
    return rb_closing_distance(va, vb, spin, h);
}

static void mix_materials(const rb_scene *s, rb_contact_manifold *m)
{
    rb_float4 a = s->shape_material[m->shape_a], b = s->shape_material[m->shape_b];
    m->friction = rb_mix_friction(a.x, b.x);
    float sa = a.w > 0.0f ? a.w : a.x, sb = b.w > 0.0f ? b.w : b.x; // static friction, 0 = kinetic
    m->static_friction = rb_mix_friction(sa, sb);
    m->restitution = rb_mix_restitution(a.y, b.y);
}

rb_status rb_cpu_collide(rb_backend_ctx *ctx, const rb_step_params *p)
{
    rb_cpu_ctx *c = (rb_cpu_ctx *)ctx;
    const rb_scene *s = c->scene;
    int n = c->pair_count;

    // last step's manifolds become the cache; allocate before touching anything
    if (!rb_cpu_reserve((void **)&c->pair_scratch, &c->pair_scratch_cap, n, sizeof *c->pair_scratch) ||
        !rb_cpu_reserve((void **)&c->pair_offset, &c->pair_offset_cap, n + 1, sizeof *c->pair_offset) ||
        !rb_cpu_reserve((void **)&c->cache, &c->cache_cap, n, sizeof *c->cache))
        return RB_ERR_OUT_OF_MEMORY;
    rb_contact_manifold *tmp = c->cache;
    int tmp_cap = c->cache_cap;
    c->cache = c->manifolds;
    c->cache_cap = c->manifold_cap;
    c->cache_count = c->manifold_count;
    c->manifolds = tmp;
    c->manifold_cap = tmp_cap;
    c->manifold_count = 0;
    if (!rb_cpu_reserve((void **)&c->manifolds, &c->manifold_cap, n, sizeof *c->manifolds))
        return RB_ERR_OUT_OF_MEMORY;

    // pair_offset holds the cache index per pair first, then the compaction offsets
    match_cache(c);
    float margin = p->contact_margin;
#pragma omp parallel for schedule(dynamic, 256) num_threads(c->team)
    for (int i = 0; i < n; ++i) {
        int a = c->pairs[i].shape_a, b = c->pairs[i].shape_b;
        rb_contact_manifold *m = &c->pair_scratch[i];
        m->shape_a = a;
        m->shape_b = b;
        m->body_a = s->shape_body[a];
        m->body_b = s->shape_body[b];
        rb_geom ga = rb_geom_make(s->shape_type[a], c->shape_world[a],
                                  s->shape_type[a] == RB_GEOM_PLANE ? c->plane_world[a] : s->shape_params[a]);
        rb_geom gb = rb_geom_make(s->shape_type[b], c->shape_world[b],
                                  s->shape_type[b] == RB_GEOM_PLANE ? c->plane_world[b] : s->shape_params[b]);
        rb_collide(&ga, &gb, margin + closing_distance(s, m->body_a, m->body_b, p->dt), &m->m);
        if (m->m.count == 0)
            continue;
        mix_materials(s, m);
        for (int k = 0; k < m->m.count; ++k) {
            m->normal_impulse[k] = 0.0f;
            m->friction_impulse[k] = rb_f3(0.0f, 0.0f, 0.0f);
            m->carried_impact[k] = 0.0f;
        }
        int old = c->pair_offset[i];
        if (old >= 0)
            warm_start_from(m, &c->cache[old], margin);
    }

    // compact in pair order (a prefix sum keeps the canonical order for any thread count)
    int total = 0, points = 0;
    for (int i = 0; i < n; ++i) {
        c->pair_offset[i] = total;
        total += c->pair_scratch[i].m.count > 0;
        points += c->pair_scratch[i].m.count;
    }
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int i = 0; i < n; ++i)
        if (c->pair_scratch[i].m.count > 0)
            c->manifolds[c->pair_offset[i]] = c->pair_scratch[i];
    c->manifold_count = total;
    c->contact_point_count = points;
    return RB_OK;
}
