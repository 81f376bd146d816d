// Ray (segment) tests against one shape: the first point where the segment from `origin` to
// `origin + translation` enters the solid, as a fraction of the translation in [0, 1], and the
// outward surface normal there.
//
// Conventions shared by every routine (and by rb_world_cast_ray in api/rubble.h):
// - They return 1 on a hit and write `*fraction` and `*normal` (unit); 0 on a miss (outputs untouched).
// - Start inside: a segment whose origin lies strictly inside the solid hits at fraction 0 with the
//   normal -translation/|translation| (there is no entry point to report). An origin exactly on the
//   surface is outside: it hits at fraction 0 with the surface normal if the segment goes inwards.
// - A segment that only touches the surface (tangent) hits at the point of contact.
// - `translation` must be non-zero; a zero translation misses everything except the start-inside case.
//
// Numerics: the sphere and cylinder tests use the distance of closest approach (r² − |m − (m·u)u|²)
// rather than the textbook b² − ac, which cancels catastrophically when the origin is far away
// compared with the radius (a picking ray from a camera 100 m away at a 5 cm ball).
#ifndef RB_KERNELS_RAYCAST_H
#define RB_KERNELS_RAYCAST_H

#include "shape_geom.h"

// The start-inside answer: fraction 0, normal against the direction of travel.
RB_FN int rb_ray_start_inside(rb_float3 translation, float *fraction, rb_float3 *normal)
{
    *fraction = 0.0f;
    *normal = rb_neg(rb_normalize_or(translation, rb_f3(0.0f, 1.0f, 0.0f)));
    return 1;
}

// Sphere of radius `radius` centred at `center`.
RB_FN int rb_ray_sphere(rb_float3 center, float radius, rb_float3 origin, rb_float3 translation, float *fraction,
                        rb_float3 *normal)
{
    rb_float3 m = rb_sub(origin, center);
    float r2 = radius * radius;
    if (rb_len_sq(m) < r2)
        return rb_ray_start_inside(translation, fraction, normal);
    float length = rb_len(translation);
    if (!(length > 0.0f))
        return 0;
    rb_float3 u = rb_scale(translation, 1.0f / length);
    float b = rb_dot(m, u); // signed distance along u from the centre's foot to the origin
    if (b > 0.0f)
        return 0; // moving away from a sphere the origin is outside of
    rb_float3 f = rb_mad(m, -b, u); // from the centre to the closest point of the line
    float disc = r2 - rb_len_sq(f);
    if (disc < 0.0f)
        return 0;
    float t = -b - rb_sqrtf(disc); // distance along u to the entry point, >= 0 since |b| >= sqrt(disc)
    if (t > length)
        return 0;
    t = rb_maxf(t, 0.0f);
    rb_float3 hit = rb_mad(m, t, u); // relative to the centre
    *fraction = rb_minf(t / length, 1.0f);
    *normal = rb_normalize_or(hit, rb_neg(u));
    return 1;
}

// Infinite cylinder of radius `radius` about the local y axis, in the shape's local frame: the first
// entry with the origin outside it. Returns the distance along the unit direction `u` (or -1).
RB_FN float rb_ray_cylinder_y(rb_float3 o, rb_float3 u, float radius)
{
    float a = u.x * u.x + u.z * u.z; // |u projected on xz|²
    if (a < 1e-12f)
        return -1.0f; // parallel to the axis: never crosses the side
    float b = o.x * u.x + o.z * u.z;
    if (b > 0.0f)
        return -1.0f;
    // b² − a c = a r² − (o × u)_y², the stable form
    float cross = o.x * u.z - o.z * u.x;
    float disc = a * radius * radius - cross * cross;
    if (disc < 0.0f)
        return -1.0f;
    return rb_maxf((-b - rb_sqrtf(disc)) / a, 0.0f);
}

// Capsule: the segment from -half_length to +half_length along the local y axis of `xf`, swept by
// `radius`. The first entry into the union of the side cylinder (clipped to the segment) and the two
// end spheres is the first of the entries into each piece: the cylinder's flat ends lie inside the
// spheres, so a ray that enters there has entered a sphere at the same point or earlier.
RB_FN int rb_ray_capsule(rb_xform xf, float half_length, float radius, rb_float3 origin, rb_float3 translation,
                         float *fraction, rb_float3 *normal)
{
    rb_float3 o = rb_xform_inv_point(xf, origin);
    // inside: closer to the segment than the radius
    rb_float3 foot = rb_f3(0.0f, rb_clampf(o.y, -half_length, half_length), 0.0f);
    if (rb_len_sq(rb_sub(o, foot)) < radius * radius)
        return rb_ray_start_inside(translation, fraction, normal);
    float length = rb_len(translation);
    if (!(length > 0.0f))
        return 0;
    rb_float3 u = rb_scale(rb_inv_rotate(xf.q, translation), 1.0f / length);
    float best = RB_FLT_MAX;
    rb_float3 best_n = rb_f3(0.0f, 0.0f, 0.0f);
    float t = rb_ray_cylinder_y(o, u, radius);
    if (t >= 0.0f && t <= length) {
        rb_float3 p = rb_mad(o, t, u);
        if (p.y >= -half_length && p.y <= half_length) {
            best = t;
            best_n = rb_normalize_or(rb_f3(p.x, 0.0f, p.z), rb_neg(u));
        }
    }
    for (int end = 0; end < 2; ++end) {
        rb_float3 c = rb_f3(0.0f, end == 0 ? -half_length : half_length, 0.0f);
        float f;
        rb_float3 n;
        // the origin is outside the capsule, so outside each end sphere: this is a proper entry
        if (rb_ray_sphere(c, radius, o, rb_scale(u, length), &f, &n) && f * length < best) {
            best = f * length;
            best_n = n;
        }
    }
    if (best > length)
        return 0;
    *fraction = rb_minf(best / length, 1.0f);
    *normal = rb_rotate(xf.q, best_n);
    return 1;
}

// Box of half extents `h` with pose `xf`: slabs in the box frame. The normal is that of the face the
// segment enters through (the last slab it enters).
RB_FN int rb_ray_box(rb_xform xf, rb_float3 h, rb_float3 origin, rb_float3 translation, float *fraction,
                     rb_float3 *normal)
{
    rb_float3 o = rb_xform_inv_point(xf, origin);
    if (rb_fabsf(o.x) < h.x && rb_fabsf(o.y) < h.y && rb_fabsf(o.z) < h.z)
        return rb_ray_start_inside(translation, fraction, normal);
    rb_float3 d = rb_inv_rotate(xf.q, translation);
    float t_first = -RB_FLT_MAX; // latest entry into a slab: the face the segment enters the box through
    float t_exit = 1.0f;
    int axis = -1;
    float sign = 0.0f;
    for (int i = 0; i < 3; ++i) {
        float oi = rb_get(o, i), di = rb_get(d, i), hi = rb_get(h, i);
        if (rb_fabsf(di) < 1e-30f) {
            if (oi < -hi || oi > hi)
                return 0; // parallel to this slab and outside it
            continue;
        }
        float inv = 1.0f / di;
        float t0 = (-hi - oi) * inv, t1 = (hi - oi) * inv; // crossings of the -h and +h faces
        float s = -1.0f;                                     // entering through the -h face
        if (t0 > t1) {
            float tmp = t0;
            t0 = t1;
            t1 = tmp;
            s = 1.0f;
        }
        if (t0 > t_first) {
            t_first = t0;
            axis = i;
            sign = s;
        }
        t_exit = rb_minf(t_exit, t1);
        if (rb_maxf(t_first, 0.0f) > t_exit)
            return 0;
    }
    if (!(t_first >= 0.0f)) {
        // Not outside any slab the segment crosses, yet not strictly inside: the origin lies on a face
        // of a slab the segment runs parallel to (sliding along the surface), or the translation is 0.
        axis = -1;
        for (int i = 0; i < 3; ++i) {
            float oi = rb_get(o, i);
            if (rb_fabsf(rb_get(d, i)) < 1e-30f && rb_fabsf(oi) >= rb_get(h, i)) {
                axis = i;
                sign = oi > 0.0f ? 1.0f : -1.0f;
            }
        }
        if (axis < 0 || !(rb_len_sq(d) > 0.0f))
            return 0;
        t_first = 0.0f;
    }
    rb_float3 n = rb_set(rb_f3(0.0f, 0.0f, 0.0f), axis, sign);
    *fraction = t_first;
    *normal = rb_rotate(xf.q, n);
    return 1;
}

// Solid half-space { x : dot(n, x) <= offset } with `plane` = (n, offset) in world space, n unit.
RB_FN int rb_ray_plane(rb_float4 plane, rb_float3 origin, rb_float3 translation, float *fraction, rb_float3 *normal)
{
    rb_float3 n = rb_xyz(plane);
    float dist = rb_dot(n, origin) - plane.w;
    if (dist < 0.0f)
        return rb_ray_start_inside(translation, fraction, normal);
    float denom = rb_dot(n, translation);
    if (!(denom < 0.0f))
        return 0; // parallel or moving away
    float t = dist / -denom;
    if (t > 1.0f)
        return 0;
    *fraction = t;
    *normal = n;
    return 1;
}

// Any shape: `g` as the narrow phase sees it (planes with params in world space).
RB_FN int rb_ray_geom(const rb_geom *g, rb_float3 origin, rb_float3 translation, float *fraction, rb_float3 *normal)
{
    if (g->type == RB_GEOM_SPHERE)
        return rb_ray_sphere(g->xf.p, g->params.x, origin, translation, fraction, normal);
    if (g->type == RB_GEOM_CAPSULE)
        return rb_ray_capsule(g->xf, g->params.x, g->params.y, origin, translation, fraction, normal);
    if (g->type == RB_GEOM_BOX)
        return rb_ray_box(g->xf, rb_xyz(g->params), origin, translation, fraction, normal);
    if (g->type == RB_GEOM_PLANE)
        return rb_ray_plane(g->params, origin, translation, fraction, normal);
    return 0;
}

#endif
