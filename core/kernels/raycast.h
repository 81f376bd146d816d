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

#include "collide_convex.h"
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

// Is the projection of x (hull frame) on face f's plane inside the face (or on its rim)?
RB_FN int rb_ray_face_holds(rb_hull_view h, int f, rb_float3 x)
{
    rb_float3 n = rb_xyz(rb_hull_plane(h, f));
    int cnt = rb_mini(rb_hull_face_edge_count(h, f), RB_HULL_MAX_VERTICES);
    int e = rb_hull_face_first_edge(h, f);
    rb_float3 a = rb_hull_vertex(h, rb_hull_edge_origin(h, e));
    for (int k = 0; k < cnt; ++k) {
        e = rb_hull_edge_next(h, e);
        rb_float3 b = rb_hull_vertex(h, rb_hull_edge_origin(h, e));
        if (rb_dot(rb_cross(rb_sub(b, a), n), rb_sub(x, a)) > 0.0f)
            return 0;
        a = b;
    }
    return 1;
}

// The rotation that takes the local y axis to the unit vector u (half a turn about x for u = -y).
RB_FN rb_float4 rb_ray_quat_from_y(rb_float3 u)
{
    float w = 1.0f + u.y;
    if (w < 1e-6f)
        return rb_f4(1.0f, 0.0f, 0.0f, 0.0f);
    return rb_quat_normalize(rb_f4(u.z, 0.0f, -u.x, w)); // (y x u, 1 + y . u)
}

// Convex hull h with pose xf, rounded by `radius` (>= 0), in the hull frame. The segment is clipped
// against the face planes moved out by the radius (the Cyrus-Beck slabs of a convex polyhedron): the
// last plane it enters through, if it enters before it leaves any, is the face it hits. For radius 0
// that is the answer; the start-inside and sliding cases are those of the box. A rounded hull is the
// union of its faces' slabs (each face moved out by up to the radius) and a capsule of the radius about
// every edge (the vertices are the capsules' end spheres), and lies inside the moved planes: an entry
// through a moved plane at a point above its face is exact; otherwise the first entry is the earliest
// over the slabs' tops (a moved plane crossed above its face) and the edges' capsules (rb_ray_capsule),
// since a slab's sides lie inside the capsules of its edges. A rounded hull's start-inside test is the
// exact distance of the origin to the core (rb_cx_point_hull) against the radius.
RB_FN int rb_ray_convex(rb_hull_view h, rb_xform xf, float radius, rb_float3 origin, rb_float3 translation,
                        float *fraction, rb_float3 *normal)
{
    if (!h.rec) // made without the pool: nothing to hit
        return 0;
    rb_float3 o = rb_xform_inv_point(xf, origin);
    rb_float3 d = rb_inv_rotate(xf.q, translation);
    if (radius > 0.0f) {
        rb_float3 q, nq;
        int feature;
        if (rb_cx_point_hull(h, o, &q, &nq, &feature) < radius)
            return rb_ray_start_inside(translation, fraction, normal);
    }
    int nf = rb_mini(rb_hull_face_count(h), RB_HULL_MAX_FACES);
    float t_first = -RB_FLT_MAX; // latest entry: the face the segment enters through
    float t_exit = 1.0f;
    int face = -1, inside = 1;
    for (int f = 0; f < nf; ++f) {
        rb_float4 pl = rb_hull_plane(h, f);
        float dist = rb_dot(rb_xyz(pl), o) - (pl.w + radius); // > 0: outside this plane
        float den = rb_dot(rb_xyz(pl), d);
        if (!(dist < 0.0f))
            inside = 0;
        if (rb_fabsf(den) < 1e-30f) {
            if (dist > 0.0f)
                return 0; // parallel to this plane and outside it
            continue;
        }
        float t = -dist / den;
        if (den < 0.0f) {
            if (t > t_first) {
                t_first = t;
                face = f;
            }
        } else {
            t_exit = rb_minf(t_exit, t);
        }
        if (rb_maxf(t_first, 0.0f) > t_exit)
            return 0;
    }
    if (radius > 0.0f) {
        if (t_first >= 0.0f && face >= 0 && rb_ray_face_holds(h, face, rb_mad(o, t_first, d))) {
            *fraction = t_first;
            *normal = rb_rotate(xf.q, rb_xyz(rb_hull_plane(h, face)));
            return 1;
        }
        float best = RB_FLT_MAX;
        rb_float3 best_n = rb_f3(0.0f, 1.0f, 0.0f);
        for (int f = 0; f < nf; ++f) {
            rb_float4 pl = rb_hull_plane(h, f);
            float den = rb_dot(rb_xyz(pl), d);
            if (!(den < 0.0f))
                continue;
            float t = (pl.w + radius - rb_dot(rb_xyz(pl), o)) / den;
            if (t >= 0.0f && t < best && rb_ray_face_holds(h, f, rb_mad(o, t, d))) {
                best = t;
                best_n = rb_xyz(pl);
            }
        }
        int ne = rb_mini(rb_hull_half_edge_count(h) / 2, RB_CX_MAX_EDGES);
        for (int k = 0; k < ne; ++k) {
            rb_float3 a = rb_hull_vertex(h, rb_hull_edge_origin(h, 2 * k));
            rb_float3 b = rb_hull_vertex(h, rb_hull_edge_origin(h, 2 * k + 1));
            rb_float3 ab = rb_sub(b, a);
            float len = rb_len(ab);
            if (!(len > 0.0f))
                continue;
            rb_xform exf = rb_xform_make(rb_scale(rb_add(a, b), 0.5f), rb_ray_quat_from_y(rb_scale(ab, 1.0f / len)));
            float t;
            rb_float3 n;
            if (rb_ray_capsule(exf, 0.5f * len, radius, o, d, &t, &n) && t < best) {
                best = t;
                best_n = n;
            }
        }
        if (!(best <= 1.0f))
            return 0;
        *fraction = best;
        *normal = rb_rotate(xf.q, best_n);
        return 1;
    }
    if (inside)
        return rb_ray_start_inside(translation, fraction, normal);
    if (!(t_first >= 0.0f)) {
        // not outside any plane the segment crosses, yet not strictly inside: the origin lies on a face
        // the segment runs along (sliding on the surface), or the translation is 0
        face = -1;
        for (int f = 0; f < nf; ++f) {
            rb_float4 pl = rb_hull_plane(h, f);
            if (rb_fabsf(rb_dot(rb_xyz(pl), d)) < 1e-30f && rb_dot(rb_xyz(pl), o) - pl.w >= 0.0f)
                face = f;
        }
        if (face < 0 || !(rb_len_sq(d) > 0.0f))
            return 0;
        t_first = 0.0f;
    }
    *fraction = t_first;
    *normal = rb_rotate(xf.q, rb_xyz(rb_hull_plane(h, face)));
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
    if (g->type == RB_GEOM_CONVEX)
        return rb_ray_convex(g->hull, g->xf, g->params.x, origin, translation, fraction, normal);
    return 0;
}

#endif
