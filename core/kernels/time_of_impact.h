// Continuous collision of bullets (rb_body_def.is_bullet, RB_BODY_BULLET): after the step's positions
// are final, each fast bullet's motion over the step, from its pose at the start of the step to its pose
// now, is swept against the static and kinematic shapes, and a bullet that would have passed into one
// goes back to its time of impact, a small separation short of the touch, with its velocity kept: the
// next step's speculative contact then stops or bounces it (Box2D v3's continuous collision).
// backend-cpu/continuous.c and backend-gpu/kernels/device_continuous.h run it, one bullet at a time.
//
// The time of impact is found by conservative advancement (Mirtich 1996). For convex shapes, the
// separation along any unit direction n (the gap between their supports along n) is at most their
// distance, and it shrinks no faster than the relative motion of the centres of mass along n plus what
// the rotations move the shapes' surfaces; advancing by the separation over that rate never passes the
// first touch, and along the closest direction it lands on it (one step for a head-on approach). The
// directions are the narrow phase's normal (rb_collide) and the pair's separating axes, the separations
// are measured with the support functions along them, so a direction that is not the closest still
// gives a true lower bound (rb_time_of_impact).
//
// The motion between the two poses is a surrogate for the step's path: the centre of mass moves along
// the straight line, the orientation by normalised linear interpolation of the two quaternions (nlerp),
// whose angular speed is at most 4 tan(theta / 4) per unit of the step for a turn by theta (<= pi): no
// trigonometry, so every backend interpolates to the same bits. A point at distance r from the centre
// of mass then moves at most |dc| + 4 tan(theta / 4) r over the step.
#ifndef RB_KERNELS_TIME_OF_IMPACT_H
#define RB_KERNELS_TIME_OF_IMPACT_H

#include "body_flags.h"
#include "collide.h"
#include "pair.h"

#define RB_TOI_MAX_ITERATIONS 32
// A bullet is swept only when it moved more than this fraction of its smallest extent in the step (Box2D's
// test): a slower one cannot have passed anything its speculative contacts did not hold.
#define RB_TOI_FAST_FRACTION 0.5f
// A shape that starts the step touching a target is swept by a sphere of (at most) this fraction of its
// smallest extent at its centre instead (Box2D's fallback; rb_sweep_pair).
#define RB_TOI_CORE_FRACTION 0.25f
// The separation a bullet is put back at (its time of impact is when its shapes come this close): the
// world's linear_slop, but not less than this (a float resolves positions some metres from the origin
// to ~1e-6 m).
#define RB_TOI_MIN_TARGET 1e-4f

// Outcomes of rb_time_of_impact.
#define RB_TOI_SEPARATED 0  // no touch before t_max
#define RB_TOI_HIT 1        // touch at the returned t (or, out of iterations, the last t known to be apart)
#define RB_TOI_OVERLAPPED 2 // within the target separation at t = 0 already

// A body's motion over the step.
typedef struct rb_sweep {
    rb_float3 c0, c1;       // centre of mass at the start and at the end
    rb_float4 q0, q1;       // orientation at the start and at the end (q1 on q0's side: q0 . q1 >= 0)
    rb_float3 local_center; // centre of mass in the body frame
    float spin;             // bound on the angular speed of the interpolation, rad per unit of the step
} rb_sweep;

// One side of a pair: a shape in its body's frame, and how far its body's rotation can move its surface
// per radian (its distance from the centre of mass, plus its own extent where turning about its centre
// changes it: 0 for a sphere, the half length of a capsule, the half diagonal of a box).
typedef struct rb_toi_shape {
    int type;
    rb_xform pose;  // relative to the body origin
    rb_float4 params;
    float arm;
    RB_GLOBAL const rb_float4 *hull_pool; // the world's hull pool (convex shapes' records; 0: none, no hull)
} rb_toi_shape;

RB_FN rb_sweep rb_sweep_make(rb_float4 pos0, rb_float4 rot0, rb_float4 pos1, rb_float4 rot1, rb_float4 local_center)
{
    rb_sweep s;
    s.c0 = rb_xyz(pos0);
    s.c1 = rb_xyz(pos1);
    s.q0 = rot0;
    float d = rot0.x * rot1.x + rot0.y * rot1.y + rot0.z * rot1.z + rot0.w * rot1.w;
    s.q1 = d < 0.0f ? rb_f4(-rot1.x, -rot1.y, -rot1.z, -rot1.w) : rot1;
    d = rb_minf(rb_fabsf(d), 1.0f);
    // along the arc phi = theta / 2 between the quaternions (cos phi = |q0 . q1|) the interpolated one
    // moves fastest midway, 2 sin(phi) / (1 + cos phi) = 2 tan(phi / 2) per unit of t, and the rotation
    // turns twice as fast as its quaternion moves: 4 tan(theta / 4)
    s.spin = 4.0f * rb_sqrtf(rb_maxf(1.0f - d * d, 0.0f)) / (1.0f + d);
    s.local_center = rb_xyz(local_center);
    return s;
}

RB_FN rb_float3 rb_sweep_center(const rb_sweep *s, float t)
{
    return t == 0.0f ? s->c0 : rb_lerp3(s->c0, s->c1, t);
}

RB_FN rb_float4 rb_sweep_rotation(const rb_sweep *s, float t)
{
    if (t == 0.0f)
        return s->q0;
    rb_float4 a = s->q0, b = s->q1;
    return rb_quat_normalize(rb_f4(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), a.z + t * (b.z - a.z),
                                   a.w + t * (b.w - a.w)));
}

// How far the centre of mass moved over the step, plus the most a point at distance `radius` from it
// was moved by the rotation.
RB_FN float rb_sweep_motion(const rb_sweep *s, float radius)
{
    return rb_len(rb_sub(s->c1, s->c0)) + s->spin * radius;
}

// The shape's world geometry at t (a plane as its world plane).
RB_FN rb_geom rb_sweep_geom(const rb_sweep *s, float t, const rb_toi_shape *shape)
{
    rb_float4 q = rb_sweep_rotation(s, t);
    rb_xform body = rb_xform_make(rb_sub(rb_sweep_center(s, t), rb_rotate(q, s->local_center)), q);
    rb_xform world = rb_xform_mul(body, shape->pose);
    return rb_geom_make_pooled(shape->type, world,
                               shape->type == RB_GEOM_PLANE ? rb_plane_to_world(world, shape->params) : shape->params,
                               shape->hull_pool);
}

// The largest n . x over a finite shape's points.
RB_FN_CALLED float rb_geom_support(const rb_geom *g, rb_float3 n)
{
    float c = rb_dot(n, g->xf.p);
    if (g->type == RB_GEOM_SPHERE)
        return c + g->params.x;
    if (g->type == RB_GEOM_CAPSULE)
        return c + rb_fabsf(rb_dot(n, rb_rotate(g->xf.q, rb_f3(0.0f, g->params.x, 0.0f)))) + g->params.y;
    if (g->type == RB_GEOM_CONVEX) {
        // the farthest vertex along n (n taken into the hull frame: rotating it once is rotating every
        // vertex), and the rounding radius around it
        rb_float3 d = rb_inv_rotate(g->xf.q, n);
        int count = rb_hull_vertex_count(g->hull);
        float best = -RB_FLT_MAX;
        for (int i = 0; i < count; ++i)
            best = rb_maxf(best, rb_dot(rb_hull_vertex(g->hull, i), d));
        return c + best + g->params.x;
    }
    rb_float3 l = rb_inv_rotate(g->xf.q, n);
    return c + rb_fabsf(l.x) * g->params.x + rb_fabsf(l.y) * g->params.y + rb_fabsf(l.z) * g->params.z;
}

// Half the thickness of a finite shape where it is thinnest.
RB_FN float rb_geom_min_extent(int type, rb_float4 params)
{
    if (type == RB_GEOM_SPHERE)
        return params.x;
    if (type == RB_GEOM_CAPSULE)
        return params.y;
    if (type == RB_GEOM_CONVEX)
        return params.w;
    return rb_minf(params.x, rb_minf(params.y, params.z));
}

// The extent of a shape that turning about its own centre moves (see rb_toi_shape.arm).
RB_FN float rb_geom_turning_extent(int type, rb_float4 params)
{
    if (type == RB_GEOM_SPHERE)
        return 0.0f;
    if (type == RB_GEOM_CAPSULE)
        return params.x;
    return rb_geom_bounding_radius(type, params);
}

RB_FN rb_toi_shape rb_toi_shape_make(int type, rb_float4 local_pos, rb_float4 local_rot, rb_float4 params,
                                     rb_float4 body_local_center)
{
    rb_toi_shape s;
    s.type = type;
    s.pose = rb_xform_make(rb_xyz(local_pos), local_rot);
    s.params = params;
    s.hull_pool = 0;
    s.arm = type == RB_GEOM_PLANE ? 0.0f
                                  : rb_len(rb_sub(rb_xyz(local_pos), rb_xyz(body_local_center))) +
                                        rb_geom_turning_extent(type, params);
    return s;
}

// A sphere of radius r at shape s's centre (r = 0: the centre itself).
RB_FN rb_toi_shape rb_toi_core(const rb_toi_shape *s, float r)
{
    rb_toi_shape c = *s;
    c.type = RB_GEOM_SPHERE;
    c.params = rb_f4(r, 0.0f, 0.0f, 0.0f);
    c.arm = s->arm - rb_geom_turning_extent(s->type, s->params);
    return c;
}

// The directions a box or a capsule adds to the separating axes of a pair: a box's three face normals, a
// capsule's axis (whose cross products with the other shape's edges are axes). Returns how many.
RB_FN int rb_toi_geom_axes(const rb_geom *g, rb_float3 *axes)
{
    if (g->type == RB_GEOM_BOX) {
        axes[0] = rb_rotate(g->xf.q, rb_f3(1.0f, 0.0f, 0.0f));
        axes[1] = rb_rotate(g->xf.q, rb_f3(0.0f, 1.0f, 0.0f));
        axes[2] = rb_rotate(g->xf.q, rb_f3(0.0f, 0.0f, 1.0f));
        return 3;
    }
    if (g->type == RB_GEOM_CAPSULE) {
        axes[0] = rb_rotate(g->xf.q, rb_f3(0.0f, 1.0f, 0.0f));
        return 1;
    }
    return 0;
}

// What one advancement step learns from the directions it tries.
typedef struct rb_toi_probe {
    float d;     // the largest separation along them: a lower bound of the distance
    float step;  // the largest safe advance of t any of them allows
    int apart;   // one of them separates by more than the target and does not close: they never touch
} rb_toi_probe;

// Direction u (unit, or zero: skipped) from a to b: the separation along it, and how far it lets t advance
// before it could fall to the target (it shrinks at most `rate` per unit of t).
RB_FN void rb_toi_try(const rb_geom *ga, const rb_geom *gb, rb_float3 u, rb_float3 dc, float turn, float target,
                      float tolerance, rb_toi_probe *p)
{
    if (!(rb_len_sq(u) > 0.5f))
        return;
    float d = -rb_geom_support(gb, rb_neg(u)) - rb_geom_support(ga, u);
    p->d = rb_maxf(p->d, d);
    if (!(d > target + tolerance))
        return;
    float rate = rb_dot(dc, u) + turn;
    if (!(rate > 0.0f))
        p->apart = 1;
    else
        p->step = rb_maxf(p->step, (d - target) / rate);
}

// u and -u.
RB_FN void rb_toi_try_both(const rb_geom *ga, const rb_geom *gb, rb_float3 u, rb_float3 dc, float turn, float target,
                           float tolerance, rb_toi_probe *p)
{
    rb_toi_try(ga, gb, u, dc, turn, target, tolerance, p);
    rb_toi_try(ga, gb, rb_neg(u), dc, turn, target, tolerance, p);
}

// The time of impact in [0, t_max] of shape a (finite) on sweep sa against shape b (any type) on sweep sb:
// the first t where their distance is within target + tolerance (target < the distance at t, so the
// shapes at t are apart by about the target). *state is one of RB_TOI_*; for RB_TOI_SEPARATED the result
// is t_max. Deterministic: the sequence of t depends only on the pair, not on t_max.
//
// The directions tried at each t: the narrow phase's normal (rb_collide: for a sphere or a capsule the
// direction of the closest points), the line of the centres, and the pair's separating axes (the boxes'
// face normals and the cross products of box edges and capsule axes, both ways): every one gives a lower
// bound of the distance, whatever it is, and the best step is taken. The narrow phase's point count is
// not trusted to mean "apart": box-box clipping can find no point for boxes within the margin (a box above
// a wall's top edge, the wall's face chosen as reference).
RB_FN float rb_time_of_impact(const rb_toi_shape *a, const rb_sweep *sa, const rb_toi_shape *b, const rb_sweep *sb,
                              float target, float tolerance, float t_max, int *state)
{
    rb_float3 dc = rb_sub(rb_sub(sa->c1, sa->c0), rb_sub(sb->c1, sb->c0));
    float arm_b = b->arm;
    if (b->type == RB_GEOM_PLANE && sb->spin > 0.0f) {
        // a turning plane moves its far points without bound: only the part a can reach matters, within
        // the distance of the centres, the relative motion and a's reach about its centre of mass
        arm_b = rb_len(rb_sub(sa->c0, sb->c0)) + rb_len(dc) + a->arm + rb_geom_bounding_radius(a->type, a->params);
    }
    float turn = sa->spin * a->arm + sb->spin * arm_b;
    float full = rb_len(dc) + turn;
    float t = 0.0f;
    for (int it = 0; it < RB_TOI_MAX_ITERATIONS; ++it) {
        rb_geom ga = rb_sweep_geom(sa, t, a), gb = rb_sweep_geom(sb, t, b);
        // beyond what the rest of the step can close, they cannot touch
        float reach = (1.0f - t) * full + target + tolerance;
        rb_toi_probe p;
        p.d = -RB_FLT_MAX;
        p.step = 0.0f;
        p.apart = 0;
        if (b->type == RB_GEOM_PLANE) {
            // the half-space n_p . x <= offset: the direction from a to it is -n_p, the distance exact
            rb_float3 n = rb_neg(rb_xyz(gb.params));
            p.d = -rb_geom_support(&ga, n) - gb.params.w;
            float rate = rb_dot(dc, n) + turn;
            p.apart = !(rate > 0.0f);
            p.step = p.apart ? 0.0f : (p.d - target) / rate;
        } else {
            rb_manifold m;
            rb_collide(&ga, &gb, reach, &m);
            rb_toi_try(&ga, &gb, m.normal, dc, turn, target, tolerance, &p);
            rb_toi_try(&ga, &gb, rb_normalize_or(rb_sub(gb.xf.p, ga.xf.p), rb_f3(0.0f, 0.0f, 0.0f)), dc, turn, target,
                       tolerance, &p);
            rb_float3 ua[3], ub[3];
            int na = rb_toi_geom_axes(&ga, ua), nb = rb_toi_geom_axes(&gb, ub);
            for (int i = 0; i < na; ++i)
                if (ga.type == RB_GEOM_BOX)
                    rb_toi_try_both(&ga, &gb, ua[i], dc, turn, target, tolerance, &p);
            for (int j = 0; j < nb; ++j)
                if (gb.type == RB_GEOM_BOX)
                    rb_toi_try_both(&ga, &gb, ub[j], dc, turn, target, tolerance, &p);
            for (int i = 0; i < na; ++i)
                for (int j = 0; j < nb; ++j)
                    rb_toi_try_both(&ga, &gb, rb_normalize_or(rb_cross(ua[i], ub[j]), rb_f3(0.0f, 0.0f, 0.0f)), dc,
                                    turn, target, tolerance, &p);
        }
        if (p.d <= target + tolerance) {
            *state = t == 0.0f ? RB_TOI_OVERLAPPED : RB_TOI_HIT;
            return t;
        }
        if (p.apart || p.d > reach) {
            *state = RB_TOI_SEPARATED;
            return t_max;
        }
        t += p.step;
        if (!(t < t_max)) {
            *state = RB_TOI_SEPARATED;
            return t_max;
        }
    }
    *state = RB_TOI_HIT; // out of iterations: the last t known to be apart
    return t;
}

// How far the centre of shape a (on sweep sa) is from shape b (on sb) at the start: its distance from
// b's surface, negative inside b.
RB_FN float rb_toi_center_clearance(const rb_toi_shape *a, const rb_sweep *sa, const rb_toi_shape *b,
                                    const rb_sweep *sb)
{
    rb_toi_shape point = rb_toi_core(a, 0.0f);
    rb_geom ga = rb_sweep_geom(sa, 0.0f, &point), gb = rb_sweep_geom(sb, 0.0f, b);
    if (b->type == RB_GEOM_PLANE)
        return rb_dot(rb_xyz(gb.params), ga.xf.p) - gb.params.w;
    rb_manifold m;
    rb_collide(&ga, &gb, RB_FLT_MAX, &m);
    return -rb_geom_support(&gb, rb_neg(m.normal)) - rb_dot(m.normal, ga.xf.p);
}

// ---- the per-bullet glue (the CPU loop and the device kernel) ----

// A body whose motion is swept: a live, awake dynamic bullet that is not frozen.
RB_FN int rb_is_swept_bullet(unsigned int f)
{
    return (f & RB_BODY_BULLET) && rb_integrates_velocity(f) && (f & RB_BODY_ALIVE);
}

// A shape a bullet is swept against: on a live static or kinematic body that is not frozen.
RB_FN int rb_is_sweep_target(int j, RB_GLOBAL const int *shape_body, RB_GLOBAL const unsigned int *body_flags)
{
    int b = shape_body[j];
    if (b < 0)
        return 0;
    unsigned int f = body_flags[b];
    return !rb_is_dynamic_flags(f) && (f & RB_BODY_ALIVE) && !(f & RB_BODY_FROZEN);
}

// Body b's motion over the step, from the poses saved at its start (start_pos, start_rot) to now.
RB_FN rb_sweep rb_body_sweep(int b, RB_GLOBAL const rb_float4 *pos, RB_GLOBAL const rb_float4 *rot,
                             RB_GLOBAL const rb_float4 *start_pos, RB_GLOBAL const rb_float4 *start_rot,
                             RB_GLOBAL const rb_float4 *local_center)
{
    return rb_sweep_make(start_pos[b], start_rot[b], pos[b], rot[b], local_center[b]);
}

// Shape i as one side of a pair (its body's centre of mass from local_center; a convex shape's record in
// hull_pool).
RB_FN rb_toi_shape rb_shape_toi_side(int i, RB_GLOBAL const int *shape_body, RB_GLOBAL const int *shape_type,
                                     RB_GLOBAL const rb_float4 *shape_local_pos,
                                     RB_GLOBAL const rb_float4 *shape_local_rot,
                                     RB_GLOBAL const rb_float4 *shape_params, RB_GLOBAL const rb_float4 *hull_pool,
                                     RB_GLOBAL const rb_float4 *local_center)
{
    rb_toi_shape s = rb_toi_shape_make(shape_type[i], shape_local_pos[i], shape_local_rot[i], shape_params[i],
                                       local_center[shape_body[i]]);
    s.hull_pool = hull_pool;
    return s;
}

// The box that holds a finite shape over the whole sweep: its boxes at the two ends, joined, grown by what
// the rotation can move its points off the straight lines between their two ends (the turn times their
// distance from the centre of mass), and by `grow`.
RB_FN void rb_sweep_shape_box(const rb_sweep *s, const rb_toi_shape *shape, float grow, rb_float3 *lo,
                              rb_float3 *hi)
{
    rb_float3 lo0, hi0, lo1, hi1;
    float r = shape->arm - rb_geom_turning_extent(shape->type, shape->params) +
              rb_geom_bounding_radius(shape->type, shape->params);
    float reach = s->spin * r + grow;
    rb_geom g0 = rb_sweep_geom(s, 0.0f, shape), g1 = rb_sweep_geom(s, 1.0f, shape);
    rb_geom_aabb(g0, reach, &lo0, &hi0);
    rb_geom_aabb(g1, reach, &lo1, &hi1);
    *lo = rb_min3(lo0, lo1);
    *hi = rb_max3(hi0, hi1);
}

// Whether a bullet may hit target shape j: the filters of both shapes let them collide.
RB_FN int rb_sweep_filter_allows(int i, int j, RB_GLOBAL const unsigned int *filter)
{
    return (filter[2 * i] & filter[2 * j + 1]) != 0u && (filter[2 * j] & filter[2 * i + 1]) != 0u;
}

// The time of impact of bullet shape a (on sweep sa) against target shape b (on sb), before t_max. A
// shape that starts touching b (resting on it, sliding along it, or put back against it by the last
// step's sweep) must still be free to move along it: a sphere at its centre is swept instead (Box2D's
// fallback), of a quarter of the shape's smallest extent (RB_TOI_CORE_FRACTION), and not more than half
// the centre's clearance from b, with a target separation not more than a quarter of it. The centre then
// keeps at least half its clearance whatever the solver does to the shape (the shape may sink into b up
// to its core, a frame at a time, but its centre never reaches b's surface, so it cannot come out on the
// other side). A shape whose centre is already at or inside b's surface is left to the contact solver.
// Returns t_max when nothing is hit before it.
RB_FN float rb_sweep_pair(const rb_toi_shape *a, const rb_sweep *sa, const rb_toi_shape *b, const rb_sweep *sb,
                          float target, float tolerance, float t_max)
{
    int state;
    float t = rb_time_of_impact(a, sa, b, sb, target, tolerance, t_max, &state);
    if (state == RB_TOI_OVERLAPPED) {
        float clear = rb_toi_center_clearance(a, sa, b, sb);
        if (!(clear > 4.0f * RB_FLT_EPSILON * (1.0f + rb_len(sa->c0))))
            return t_max;
        float r = rb_minf(RB_TOI_CORE_FRACTION * rb_geom_min_extent(a->type, a->params), 0.5f * clear);
        float core_target = rb_minf(target, 0.25f * clear);
        rb_toi_shape core = rb_toi_core(a, r);
        t = rb_time_of_impact(&core, sa, b, sb, core_target, 0.25f * core_target, t_max, &state);
        if (state == RB_TOI_OVERLAPPED)
            return t_max;
    }
    return state == RB_TOI_SEPARATED ? t_max : t;
}

// Puts body b at its pose at t of sweep s (its velocities are kept).
RB_FN void rb_sweep_move_to(int b, const rb_sweep *s, float t, RB_GLOBAL rb_float4 *pos, RB_GLOBAL rb_float4 *rot)
{
    pos[b] = rb_f4_from3(rb_sweep_center(s, t), 0.0f);
    rot[b] = rb_sweep_rotation(s, t);
}

// Half the thickness of body b's thinnest finite shape (RB_FLT_MAX if it has none), shapes found by scanning.
RB_FN float rb_body_min_extent(int b, int ns, RB_GLOBAL const int *shape_body, RB_GLOBAL const int *shape_type,
                               RB_GLOBAL const rb_float4 *shape_params)
{
    float extent = RB_FLT_MAX;
    for (int i = 0; i < ns; ++i)
        if (shape_body[i] == b && shape_type[i] != RB_GEOM_PLANE)
            extent = rb_minf(extent, rb_geom_min_extent(shape_type[i], shape_params[i]));
    return extent;
}

// Is the bullet on sweep s with bounding radius `radius` (about its centre of mass) and smallest extent
// `extent` fast enough to be swept (RB_TOI_FAST_FRACTION)?
RB_FN int rb_sweep_is_fast(const rb_sweep *s, float radius, float extent)
{
    return extent < RB_FLT_MAX && rb_sweep_motion(s, radius) > RB_TOI_FAST_FRACTION * extent;
}

// Bullet shape i (its side a, its box lo-hi over the sweep sa) against target shape j: the earliest time
// of impact before t_min, or t_min. The boxes only spare pairs that cannot meet.
RB_FN float rb_sweep_against(int i, const rb_toi_shape *a, const rb_sweep *sa, rb_float4 lo, rb_float4 hi, int j,
                             float target, float tolerance, float t_min, RB_GLOBAL const rb_float4 *pos,
                             RB_GLOBAL const rb_float4 *rot, RB_GLOBAL const rb_float4 *start_pos,
                             RB_GLOBAL const rb_float4 *start_rot, RB_GLOBAL const rb_float4 *local_center,
                             RB_GLOBAL const int *shape_body, RB_GLOBAL const int *shape_type,
                             RB_GLOBAL const rb_float4 *shape_local_pos, RB_GLOBAL const rb_float4 *shape_local_rot,
                             RB_GLOBAL const rb_float4 *shape_params, RB_GLOBAL const rb_float4 *hull_pool,
                             RB_GLOBAL const unsigned int *filter)
{
    if (!rb_sweep_filter_allows(i, j, filter))
        return t_min;
    rb_sweep sj = rb_body_sweep(shape_body[j], pos, rot, start_pos, start_rot, local_center);
    rb_toi_shape b = rb_shape_toi_side(j, shape_body, shape_type, shape_local_pos, shape_local_rot, shape_params,
                                       hull_pool, local_center);
    if (b.type != RB_GEOM_PLANE) {
        rb_float3 jlo, jhi;
        rb_sweep_shape_box(&sj, &b, target + tolerance, &jlo, &jhi);
        if (!rb_aabb_overlap(lo, hi, rb_f4_from3(jlo, 0.0f), rb_f4_from3(jhi, 0.0f)))
            return t_min;
    }
    return rb_sweep_pair(a, sa, &b, &sj, target, tolerance, t_min);
}

// The sweep of body b, with its shapes and the targets found by scanning all ns shape slots (the device
// kernel; the CPU keeps lists of both and makes the same tests in the same order): if b is a fast bullet
// and hits a target before the end of the step, it goes back to its time of impact.
RB_FN void rb_bullet_sweep(int b, int ns, float target, float tolerance, RB_GLOBAL const unsigned int *flags,
                           RB_GLOBAL rb_float4 *pos, RB_GLOBAL rb_float4 *rot, RB_GLOBAL const rb_float4 *start_pos,
                           RB_GLOBAL const rb_float4 *start_rot, RB_GLOBAL const rb_float4 *local_center,
                           RB_GLOBAL const int *shape_body, RB_GLOBAL const int *shape_type,
                           RB_GLOBAL const rb_float4 *shape_local_pos, RB_GLOBAL const rb_float4 *shape_local_rot,
                           RB_GLOBAL const rb_float4 *shape_params, RB_GLOBAL const rb_float4 *hull_pool,
                           RB_GLOBAL const unsigned int *filter)
{
    if (!rb_is_swept_bullet(flags[b]))
        return;
    rb_sweep sb = rb_body_sweep(b, pos, rot, start_pos, start_rot, local_center);
    if (!rb_sweep_is_fast(&sb, local_center[b].w, rb_body_min_extent(b, ns, shape_body, shape_type, shape_params)))
        return;
    float t_min = 1.0f;
    for (int i = 0; i < ns; ++i) {
        if (shape_body[i] != b || shape_type[i] == RB_GEOM_PLANE)
            continue;
        rb_toi_shape a = rb_shape_toi_side(i, shape_body, shape_type, shape_local_pos, shape_local_rot, shape_params,
                                           hull_pool, local_center);
        rb_float3 lo, hi;
        rb_sweep_shape_box(&sb, &a, target + tolerance, &lo, &hi);
        for (int j = 0; j < ns; ++j)
            if (rb_is_sweep_target(j, shape_body, flags))
                t_min = rb_sweep_against(i, &a, &sb, rb_f4_from3(lo, 0.0f), rb_f4_from3(hi, 0.0f), j, target, tolerance,
                                         t_min, pos, rot, start_pos, start_rot, local_center, shape_body, shape_type,
                                         shape_local_pos, shape_local_rot, shape_params, hull_pool, filter);
    }
    if (t_min < 1.0f)
        rb_sweep_move_to(b, &sb, t_min, pos, rot);
}

// The separation bullets are put back at, and the tolerance of the search, from the world's linear slop.
RB_FN float rb_sweep_target(float linear_slop) { return rb_maxf(linear_slop, RB_TOI_MIN_TARGET); }
RB_FN float rb_sweep_tolerance(float target) { return 0.25f * target; }

#endif
