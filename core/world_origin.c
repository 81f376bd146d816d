// Large worlds (docs/large-worlds.md): moving the world's origin (rb_world_shift_origin, PhysX's
// shiftOrigin) and counting the bodies whose motion a float position cannot follow
// (rb_counters.imprecise_bodies).
//
// Positions are 32-bit floats: a coordinate of magnitude x is a multiple of ulp(x) = 2^(e - 23), with
// 2^e <= |x| < 2^(e+1), and every position update x + v h rounds to that grid. A displacement per
// substep of only a few ulps comes out a whole number of ulps: a box sliding at 0.5 m/s moves 0.9375 m
// instead of 1 m in 2 s at x = 1e4 m (soft solver, h = 1/240 s: 2.13 ulps per substep, rounded to 2),
// and not at all at 1e6 m (ulp 0.0625 m), while its velocity still reads 0.5 m/s. The remedy is the
// application's: keep the action near the origin, moving the origin with it.
#include <float.h>
#include <math.h>

#include "world.h"

// A body is counted as imprecise when its displacement in one substep is under this many ulps of its
// largest coordinate. Rounding a position to the nearest float errs by at most half an ulp per substep,
// so the relative error of the motion per substep is at most 1 / (2 * RB_IMPRECISE_ULPS) = 1 %; and
// since the same rounding repeats while the velocity holds, the motion over many substeps can be off
// by as much (the sliding box above: 2.13 ulps per substep, 6 % short in 2 s). With the defaults of the
// soft solver (h = 1/240 s), 0.5 m/s moves 2.08 mm per substep: 273 ulps at 100 m (ulp 7.6e-6 m,
// 0.18 %, not counted), 34 ulps from 512 m (ulp 6.1e-5 m, counted), 2.1 ulps at 1e4 m, 0.03 at 1e6 m.
// A body at the sleep tolerance (0.05 m/s, 0.21 mm per substep) is counted from 64 m on.
#define RB_IMPRECISE_ULPS 50.0f

// The spacing of floats at magnitude x (x >= 0): 2^(e - 23) for 2^e <= x < 2^(e+1).
static float ulp_at(float x)
{
    int e;
    (void)frexpf(x, &e); // x = m 2^e with 0.5 <= m < 1, i.e. 2^(e-1) <= x < 2^e
    float u = ldexpf(1.0f, e - 24);
    return u > FLT_MIN ? u : FLT_MIN;
}

rb_status rb_count_imprecise_bodies(rb_world *w, int *out)
{
    // the counter is computed from the host's copy of the bodies, which a device backend must send back
    rb_status s = rb_sync_from_backend(w);
    if (s != RB_OK)
        return s;
    const rb_scene *sc = &w->scene;
    float h = w->settings.time_step / (float)rb_effective_substeps(&w->settings);
    // slower than the sleep tolerance is at rest to the solver (it may sleep): its creep does not count
    float rest = w->settings.linear_sleep_tolerance;
    int n = 0;
    for (int b = 0; b < sc->body_slots; ++b) {
        uint32_t f = sc->body_flags[b];
        if (!(f & RB_BODY_ALIVE) || !(f & RB_BODY_AWAKE) || (f & RB_BODY_FROZEN) ||
            (f & RB_BODY_TYPE_MASK) == RB_BODY_STATIC_T)
            continue;
        rb_float3 v = rb_xyz(sc->body_lin_vel[b]);
        float speed = rb_len(v);
        if (!(speed > rest))
            continue;
        rb_float4 p = sc->body_pos[b];
        float x = fmaxf(fabsf(p.x), fmaxf(fabsf(p.y), fabsf(p.z)));
        if (speed * h < RB_IMPRECISE_ULPS * ulp_at(x))
            ++n;
    }
    *out = n;
    return RB_OK;
}

rb_status rb_world_shift_origin(rb_world_id id, rb_vec3 new_origin)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!rb_finite_vec3(new_origin))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_shift_origin: new_origin must be finite, got (%g, %g, %g)",
                       new_origin.x, new_origin.y, new_origin.z);
    if (new_origin.x == 0.0f && new_origin.y == 0.0f && new_origin.z == 0.0f)
        return RB_OK;
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;
    rb_scene *sc = &w->scene;
    rb_float3 origin = rb_f3(new_origin.x, new_origin.y, new_origin.z);
    // a shift that would carry a body beyond the simulated coordinates (RB_COORDINATE_LIMIT; past the
    // float range it became infinite) is refused before anything moves
    for (int b = 0; b < sc->body_slots; ++b) {
        if (!(sc->body_flags[b] & RB_BODY_ALIVE))
            continue;
        rb_float3 p = rb_xyz(sc->body_pos[b]);
        if (!rb_in_coordinate_range(rb_origin_shifted(p, origin)))
            return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                           "rb_world_shift_origin: moving the origin to (%g, %g, %g) would put body slot %d, at "
                           "(%g, %g, %g), beyond %g m from the origin; nothing was moved",
                           new_origin.x, new_origin.y, new_origin.z, b, p.x, p.y, p.z, RB_COORDINATE_LIMIT);
    }

    // The backend first: a device may fail, and the host has not moved yet. Its caches (contact points)
    // and its copy of the positions move with the host's, so nothing is marked for upload: the CPU
    // backend reads an upload of body state as "the application moved these bodies" and would forget
    // the sequential solver's history of rest (backend-cpu/backend_cpu.c, cpu_upload).
    bool resend = !w->ops->shift_origin;
    if (w->ops->shift_origin && (s = w->ops->shift_origin(w->backend, origin)) != RB_OK) {
        const char *why = w->ops->last_error ? w->ops->last_error(w->backend) : NULL;
        // the device may hold part of the move: the host, which has not moved, is sent whole next step
        for (int b = 0; b < sc->body_slots; ++b)
            if (sc->body_flags[b] & RB_BODY_ALIVE)
                rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
        return rb_fail(w, s, "rb_world_shift_origin: backend '%s' could not move its copy of the scene: %s",
                       w->ops->name, why && *why ? why : rb_status_string(s));
    }
    for (int b = 0; b < sc->body_slots; ++b) {
        if (!(sc->body_flags[b] & RB_BODY_ALIVE))
            continue;
        rb_float4 p = sc->body_pos[b];
        sc->body_pos[b] = rb_f4_from3(rb_origin_shifted(rb_xyz(p), origin), p.w);
        if (resend)
            rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE);
    }
    return RB_OK;
}
