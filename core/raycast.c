// World queries: rb_world_cast_ray. The per-shape tests are in kernels/raycast.h.
//
// Brute force over the shape slots: O(shapes) per ray. A bounding-sphere test rejects most shapes
// before their exact test; see docs/api.md ("Queries") for the measured cost (milliseconds for a pick
// among 100,000 bodies), which is fine for picking and occasional queries. Many rays per step would
// want the broad phase's structure; that can come later behind the same call.
#include <string.h>

#include "kernels/raycast.h"
#include "world.h"

rb_status rb_world_cast_ray(rb_world_id id, rb_vec3 origin, rb_vec3 translation, uint32_t mask_bits, rb_ray_hit *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_cast_ray: out must not be NULL");
    if (!rb_finite_vec3(origin))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_cast_ray: origin must be finite, got (%g, %g, %g)",
                       origin.x, origin.y, origin.z);
    if (!rb_finite_vec3(translation))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_cast_ray: translation must be finite, got (%g, %g, %g)",
                       translation.x, translation.y, translation.z);
    rb_float3 o = rb_f3(origin.x, origin.y, origin.z);
    rb_float3 d = rb_f3(translation.x, translation.y, translation.z);
    // |d| itself must be finite and non-zero: a segment needs a direction (the start-inside normal is
    // -d/|d|), and the squared length of a finite but huge vector can overflow
    float length = rb_len(d);
    if (!(length > 0.0f) || !(length <= RB_FLT_MAX))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "rb_world_cast_ray: translation must be non-zero with a finite length, got (%g, %g, %g)",
                       translation.x, translation.y, translation.z);
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;

    memset(out, 0, sizeof *out);
    const rb_scene *sc = &w->scene;
    // the quick reject below needs 1/|d|², which over- or underflows for extreme lengths: skip it there
    bool quick_reject = length > 1e-15f && length < 1e15f;
    float inv_len_sq = quick_reject ? 1.0f / (length * length) : 0.0f;
    int best_shape = -1;
    float best_fraction = 2.0f;
    rb_float3 best_normal = rb_f3(0.0f, 0.0f, 0.0f);
    for (int sh = 0; sh < sc->shape_slots; ++sh) {
        int b = sc->shape_body[sh];
        if (b < 0 || (sc->shape_filter[2 * sh] & mask_bits) == 0)
            continue;
        rb_xform body = rb_scene_body_origin(sc, b);
        rb_float4 params = sc->shape_params[sh];
        int type = sc->shape_type[sh];
        if (quick_reject && type != RB_GEOM_PLANE) {
            // the segment passes farther from the shape's origin than its bounding radius (plus 0.1%
            // for rounding: a graze that close is decided by the exact test)
            rb_float3 c = rb_xform_point(body, rb_xyz(sc->shape_local_pos[sh]));
            float t = rb_clampf(rb_dot(rb_sub(c, o), d) * inv_len_sq, 0.0f, 1.0f);
            float r = rb_geom_bounding_radius(type, params);
            if (rb_len_sq(rb_sub(rb_mad(o, t, d), c)) > r * r * 1.002f + 1e-12f)
                continue;
        }
        rb_xform local = rb_xform_make(rb_xyz(sc->shape_local_pos[sh]), sc->shape_local_rot[sh]);
        rb_xform xf = rb_xform_mul(body, local);
        if (type == RB_GEOM_PLANE)
            params = rb_plane_to_world(xf, params);
        rb_geom g = rb_geom_make_pooled(type, xf, params, sc->hull_pool);
        float fraction;
        rb_float3 normal;
        // strictly nearer: on a tie the lower shape slot wins, so the answer does not depend on order
        if (rb_ray_geom(&g, o, d, &fraction, &normal) && fraction < best_fraction) {
            best_shape = sh;
            best_fraction = fraction;
            best_normal = normal;
        }
    }
    if (best_shape < 0)
        return RB_OK;
    rb_float3 p = rb_mad(o, best_fraction, d);
    out->hit = true;
    out->shape = rb_make_shape_id(w, best_shape);
    out->body = rb_make_body_id(w, sc->shape_body[best_shape]);
    out->point = (rb_vec3){p.x, p.y, p.z};
    out->normal = (rb_vec3){best_normal.x, best_normal.y, best_normal.z};
    out->fraction = best_fraction;
    return RB_OK;
}
