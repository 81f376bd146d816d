// collide: the manifold of every candidate pair (rb_collide), warm-started from last step's manifold
// of the same pair (binary search in last step's sorted list, rb_warm_match), then compacted in pair
// order. Same per-pair code as backend-cpu/narrow_phase.c.

RB_FN int rb_pair_less(int a0, int b0, int a1, int b1) { return a0 < a1 || (a0 == a1 && b0 < b1); }

// Index of the manifold of pair (a, b) in the sorted list, or -1.
RB_FN int rb_find_manifold(RB_GLOBAL const rb_contact_manifold *list, int n, int a, int b)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (rb_pair_less(list[mid].shape_a, list[mid].shape_b, a, b))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && list[lo].shape_a == a && list[lo].shape_b == b ? lo : -1;
}

RB_KERNEL void rb_collide_pairs(int np, float margin, float h, RB_GLOBAL const rb_pair *pairs,
                               RB_GLOBAL const int *shape_body, RB_GLOBAL const int *shape_type,
                               RB_GLOBAL const rb_xform *shape_world, RB_GLOBAL const rb_float4 *shape_params,
                               RB_GLOBAL const rb_float4 *plane_world, RB_GLOBAL const rb_float4 *material,
                               RB_GLOBAL const uint *flags, RB_GLOBAL const rb_float4 *lin_vel,
                               RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL const rb_float4 *local_center,
                               RB_GLOBAL const rb_contact_manifold *cache, int cache_count,
                               RB_GLOBAL rb_contact_manifold *scratch, RB_GLOBAL int *has, RB_GLOBAL int *npoints)
{
    int i = rb_thread_id();
    if (i >= np)
        return;
    int a = pairs[i].shape_a, b = pairs[i].shape_b;
    rb_contact_manifold m;
    m.shape_a = a;
    m.shape_b = b;
    m.body_a = shape_body[a];
    m.body_b = shape_body[b];
    rb_geom ga = rb_geom_make(shape_type[a], shape_world[a],
                              shape_type[a] == RB_GEOM_PLANE ? plane_world[a] : shape_params[a]);
    rb_geom gb = rb_geom_make(shape_type[b], shape_world[b],
                              shape_type[b] == RB_GEOM_PLANE ? plane_world[b] : shape_params[b]);
    // speculative distance: a sleeping body does not move
    rb_float3 va = rb_f3(0.0f, 0.0f, 0.0f), vb = va;
    float spin = 0.0f;
    if (flags[m.body_a] & RB_BODY_AWAKE) {
        va = rb_xyz(lin_vel[m.body_a]);
        spin += rb_len(rb_xyz(ang_vel[m.body_a])) * local_center[m.body_a].w;
    }
    if (flags[m.body_b] & RB_BODY_AWAKE) {
        vb = rb_xyz(lin_vel[m.body_b]);
        spin += rb_len(rb_xyz(ang_vel[m.body_b])) * local_center[m.body_b].w;
    }
    rb_collide(&ga, &gb, margin + rb_closing_distance(va, vb, spin, h), &m.m);
    has[i] = m.m.count > 0;
    npoints[i] = m.m.count;
    if (m.m.count == 0)
        return;
    rb_float4 ma = material[a], mb = material[b];
    m.friction = rb_mix_friction(ma.x, mb.x);
    m.static_friction = rb_mix_friction(ma.w > 0.0f ? ma.w : ma.x, mb.w > 0.0f ? mb.w : mb.x); // 0 = kinetic
    m.restitution = rb_mix_restitution(ma.y, mb.y);
    for (int k = 0; k < RB_MAX_MANIFOLD_POINTS; ++k) {
        m.normal_impulse[k] = 0.0f;
        m.friction_impulse[k] = rb_f3(0.0f, 0.0f, 0.0f);
        m.carried_impact[k] = 0.0f;
    }
    int old = rb_find_manifold(cache, cache_count, a, b);
    if (old >= 0) {
        rb_manifold om = cache[old].m;
        int src[RB_MAX_MANIFOLD_POINTS];
        rb_warm_match(&m.m, &om, margin, src);
        for (int k = 0; k < m.m.count; ++k) {
            if (src[k] < 0)
                continue;
            m.normal_impulse[k] = cache[old].normal_impulse[src[k]];
            m.friction_impulse[k] = cache[old].friction_impulse[src[k]];
            m.carried_impact[k] = cache[old].carried_impact[src[k]];
        }
    }
    scratch[i] = m;
}

RB_KERNEL void rb_compact_manifolds(int n, RB_GLOBAL const int *has, RB_GLOBAL const int *offset,
                                   RB_GLOBAL const rb_contact_manifold *in, RB_GLOBAL rb_contact_manifold *out)
{
    int i = rb_thread_id();
    if (i < n && has[i])
        out[offset[i]] = in[i];
}

// keep[i] = 0 for the manifolds that touch a shape slot in [lo, hi) (changed by the application:
// they must not warm start what is there now).
RB_KERNEL void rb_manifolds_untouched(int n, int lo, int hi, RB_GLOBAL const rb_contact_manifold *m, RB_GLOBAL int *keep)
{
    int i = rb_thread_id();
    if (i >= n)
        return;
    int a = m[i].shape_a, b = m[i].shape_b;
    keep[i] = !((a >= lo && a < hi) || (b >= lo && b < hi));
}
