// collide: contact manifolds of the candidate pairs, warm-started from last step's manifolds.
#include <string.h>

#include "cpu_context.h"
#include "kernels/collide.h"

static uint64_t pair_key(int a, int b) { return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b; }

// Last step's manifold of the same shape pair, or NULL. The cache is sorted by pair.
static const rb_contact_manifold *find_cached(const rb_cpu_ctx *c, int a, int b)
{
    uint64_t key = pair_key(a, b);
    int lo = 0, hi = c->cache_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        uint64_t k = pair_key(c->cache[mid].shape_a, c->cache[mid].shape_b);
        if (k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < c->cache_count && c->cache[lo].shape_a == a && c->cache[lo].shape_b == b)
        return &c->cache[lo];
    return NULL;
}

// Copies accumulated impulses of points whose feature ids persist.
static void warm_start_from(rb_contact_manifold *m, const rb_contact_manifold *old)
{
    for (int i = 0; i < m->m.count; ++i) {
        for (int j = 0; j < old->m.count; ++j) {
            if (old->m.points[j].id == m->m.points[i].id) {
                m->normal_impulse[i] = old->normal_impulse[j];
                m->tangent_impulse[i][0] = old->tangent_impulse[j][0];
                m->tangent_impulse[i][1] = old->tangent_impulse[j][1];
                break;
            }
        }
    }
}

// Friction combines by geometric mean, restitution by maximum (see rb_shape_def in rubble.h).
static void mix_materials(const rb_scene *s, rb_contact_manifold *m)
{
    rb_float4 a = s->shape_material[m->shape_a], b = s->shape_material[m->shape_b];
    m->friction = sqrtf(a.x * b.x);
    m->restitution = a.y > b.y ? a.y : b.y;
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

    float margin = p->contact_margin;
#pragma omp parallel for schedule(dynamic, 256) num_threads(c->threads)
    for (int i = 0; i < n; ++i) {
        int a = c->pairs[i].shape_a, b = c->pairs[i].shape_b;
        rb_contact_manifold *m = &c->pair_scratch[i];
        memset(m, 0, sizeof *m);
        m->shape_a = a;
        m->shape_b = b;
        m->body_a = s->shape_body[a];
        m->body_b = s->shape_body[b];
        rb_geom ga = rb_geom_make(s->shape_type[a], c->shape_world[a],
                                  s->shape_type[a] == RB_GEOM_PLANE ? c->plane_world[a] : s->shape_params[a]);
        rb_geom gb = rb_geom_make(s->shape_type[b], c->shape_world[b],
                                  s->shape_type[b] == RB_GEOM_PLANE ? c->plane_world[b] : s->shape_params[b]);
        rb_collide(&ga, &gb, margin, &m->m);
        if (m->m.count == 0)
            continue;
        mix_materials(s, m);
        const rb_contact_manifold *old = find_cached(c, a, b);
        if (old)
            warm_start_from(m, old);
    }

    // compact in pair order (a prefix sum keeps the canonical order for any thread count)
    int total = 0, points = 0;
    for (int i = 0; i < n; ++i) {
        c->pair_offset[i] = total;
        total += c->pair_scratch[i].m.count > 0;
        points += c->pair_scratch[i].m.count;
    }
#pragma omp parallel for schedule(static) num_threads(c->threads)
    for (int i = 0; i < n; ++i)
        if (c->pair_scratch[i].m.count > 0)
            c->manifolds[c->pair_offset[i]] = c->pair_scratch[i];
    c->manifold_count = total;
    c->contact_point_count = points;
    return RB_OK;
}
