// The narrow phase, per candidate pair: collide with the speculative distance, combine the
// materials, carry the impulses of last step's points over (warm start). backend-cpu/narrow_phase.c
// and backend-gpu/kernels/device_narrow_phase.h run rb_narrow_phase_pair over their pairs.
#ifndef RB_KERNELS_NARROW_PHASE_H
#define RB_KERNELS_NARROW_PHASE_H

#include "body_flags.h"
#include "collide.h"
#include "contact_manifold.h"
#include "contact_persistence.h"

// rb_closing_distance of two bodies in the substep h; a sleeping body does not move.
RB_FN float rb_bodies_closing_distance(int a, int b, float h, RB_GLOBAL const unsigned int *body_flags,
                                       RB_GLOBAL const rb_float4 *lin_vel, RB_GLOBAL const rb_float4 *ang_vel,
                                       RB_GLOBAL const rb_float4 *local_center)
{
    rb_float3 va = rb_f3(0.0f, 0.0f, 0.0f), vb = va;
    float spin = 0.0f;
    if (body_flags[a] & RB_BODY_AWAKE) {
        va = rb_xyz(lin_vel[a]);
        spin += rb_len(rb_xyz(ang_vel[a])) * local_center[a].w;
    }
    if (body_flags[b] & RB_BODY_AWAKE) {
        vb = rb_xyz(lin_vel[b]);
        spin += rb_len(rb_xyz(ang_vel[b])) * local_center[b].w;
    }
    return rb_closing_distance(va, vb, spin, h);
}

// Shape i's geometry in the world: planes from their world form (update_bounds), the rest from
// their parameters at the world pose.
RB_FN rb_geom rb_shape_world_geom(int i, RB_GLOBAL const int *shape_type, RB_GLOBAL const rb_xform *shape_world,
                                  RB_GLOBAL const rb_float4 *shape_params, RB_GLOBAL const rb_float4 *hull_pool,
                                  RB_GLOBAL const rb_float4 *plane_world)
{
    int type = shape_type[i];
    return rb_geom_make_pooled(type, shape_world[i], type == RB_GEOM_PLANE ? plane_world[i] : shape_params[i],
                               hull_pool);
}

// Combined materials (friction by geometric mean, restitution by maximum; a static friction of 0
// means "same as the kinetic one"), impulses zeroed.
RB_FN void rb_contact_manifold_materials(rb_contact_manifold *m, rb_float4 material_a, rb_float4 material_b)
{
    m->friction = rb_mix_friction(material_a.x, material_b.x);
    m->static_friction = rb_mix_friction(material_a.w > 0.0f ? material_a.w : material_a.x,
                                         material_b.w > 0.0f ? material_b.w : material_b.x);
    m->restitution = rb_mix_restitution(material_a.y, material_b.y);
    for (int k = 0; k < RB_MAX_MANIFOLD_POINTS; ++k) {
        m->normal_impulse[k] = 0.0f;
        m->friction_impulse[k] = rb_f3(0.0f, 0.0f, 0.0f);
        m->carried_impact[k] = 0.0f;
    }
}

// The accumulated impulses of the points that persist from last step's manifold `old` of the same
// pair (rb_warm_match within `radius`).
RB_FN void rb_contact_manifold_carry(rb_contact_manifold *m, RB_GLOBAL const rb_contact_manifold *old, float radius)
{
    rb_manifold om = old->m;
    int src[RB_MAX_MANIFOLD_POINTS];
    rb_warm_match(&m->m, &om, radius, src);
    for (int k = 0; k < m->m.count; ++k) {
        int j = src[k];
        if (j < 0)
            continue;
        m->normal_impulse[k] = old->normal_impulse[j];
        m->friction_impulse[k] = old->friction_impulse[j];
        m->carried_impact[k] = old->carried_impact[j];
    }
}

// The manifold of candidate pair (a, b) into *m, warm-started from `old`, last step's manifold of the
// pair, or 0 if it had none (found by rb_find_manifold, or on the CPU by one merge of the two sorted
// lists). Returns the point count (0: the pair does not touch, and only shapes, bodies and m->m are set).
// Every shape is within the simulated coordinates (rb_in_coordinate_range: the API refuses positions
// beyond them and a body that moves there is frozen), so its squared distances do not overflow.
RB_FN int rb_narrow_phase_pair(rb_contact_manifold *m, int a, int b, float margin, float h,
                               RB_GLOBAL const int *shape_body, RB_GLOBAL const int *shape_type,
                               RB_GLOBAL const rb_xform *shape_world, RB_GLOBAL const rb_float4 *shape_params,
                               RB_GLOBAL const rb_float4 *hull_pool, RB_GLOBAL const rb_float4 *plane_world,
                               RB_GLOBAL const rb_float4 *shape_material,
                               RB_GLOBAL const unsigned int *body_flags, RB_GLOBAL const rb_float4 *lin_vel,
                               RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL const rb_float4 *local_center,
                               RB_GLOBAL const rb_contact_manifold *old)
{
    m->shape_a = a;
    m->shape_b = b;
    m->body_a = shape_body[a];
    m->body_b = shape_body[b];
    rb_geom ga = rb_shape_world_geom(a, shape_type, shape_world, shape_params, hull_pool, plane_world);
    rb_geom gb = rb_shape_world_geom(b, shape_type, shape_world, shape_params, hull_pool, plane_world);
    float reach = margin + rb_bodies_closing_distance(m->body_a, m->body_b, h, body_flags, lin_vel, ang_vel, local_center);
    rb_collide(&ga, &gb, reach, &m->m);
    if (m->m.count == 0)
        return 0;
    rb_contact_manifold_materials(m, shape_material[a], shape_material[b]);
    if (old)
        rb_contact_manifold_carry(m, old, margin);
    return m->m.count;
}

#endif
