// collide: the manifold of every candidate pair (core/kernels/manifold_reuse.h
// rb_narrow_phase_pair_reusing, as on the CPU: last step's manifold replayed where a pair of boxes,
// planes or sharp hulls hardly moved, else core/kernels/narrow_phase.h), warm-started from last step's
// manifold of the same pair (rb_find_manifold: binary search in last step's sorted list), then compacted
// in pair order. Convex shapes read their records in the hull pool (core/kernels/hull.h).

RB_KERNEL void rb_collide_pairs(int np, float margin, float h, RB_GLOBAL const rb_pair *pairs,
                               RB_GLOBAL const int *shape_body, RB_GLOBAL const int *shape_type,
                               RB_GLOBAL const rb_xform *shape_world, RB_GLOBAL const rb_float4 *shape_params,
                               RB_GLOBAL const rb_float4 *hull_pool, RB_GLOBAL const rb_float4 *plane_world,
                               RB_GLOBAL const rb_float4 *material,
                               RB_GLOBAL const uint *flags, RB_GLOBAL const rb_float4 *lin_vel,
                               RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL const rb_float4 *local_center,
                               RB_GLOBAL const rb_contact_manifold *cache, RB_GLOBAL const rb_manifold_ref *cache_refs,
                               int cache_count, RB_GLOBAL rb_contact_manifold *scratch,
                               RB_GLOBAL rb_manifold_ref *pair_refs, RB_GLOBAL int *has, RB_GLOBAL int *npoints,
                               RB_GLOBAL const rb_joint_key *nocollide, int nocollide_count)
{
    int i = rb_thread_id();
    if (i >= np)
        return;
    int a = pairs[i].shape_a, b = pairs[i].shape_b;
    // bodies joined by a joint that keeps them apart make no contact (core/kernels/joint.h)
    if (nocollide_count > 0 && rb_joined_no_collide(nocollide, nocollide_count, shape_body[a], shape_body[b])) {
        has[i] = 0;
        npoints[i] = 0;
        return;
    }
    int old = rb_find_manifold(cache, cache_count, a, b);
    rb_contact_manifold m;
    rb_manifold_ref ref;
    int n = rb_narrow_phase_pair_reusing(&m, &ref, a, b, margin, h, shape_body, shape_type, shape_world, shape_params,
                                         hull_pool, plane_world, material, flags, lin_vel, ang_vel, local_center,
                                         old >= 0 ? &cache[old] : 0, old >= 0 ? &cache_refs[old] : 0);
    has[i] = n > 0;
    npoints[i] = n;
    if (n > 0) {
        scratch[i] = m;
        pair_refs[i] = ref;
    }
}

RB_KERNEL void rb_compact_manifolds(int n, RB_GLOBAL const int *has, RB_GLOBAL const int *offset,
                                   RB_GLOBAL const rb_contact_manifold *in, RB_GLOBAL const rb_manifold_ref *in_refs,
                                   RB_GLOBAL rb_contact_manifold *out, RB_GLOBAL rb_manifold_ref *out_refs)
{
    int i = rb_thread_id();
    if (i < n && has[i]) {
        out[offset[i]] = in[i];
        out_refs[offset[i]] = in_refs[i];
    }
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
