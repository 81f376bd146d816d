// Joints: the rows of every joint type, written once for every backend (docs/joints.md).
//
// A joint links body A (or the static world, body_a = -1) to body B. Each keeps an anchor and a frame
// in each body (anchor about the body's centre of mass, frame as a quaternion in the body's frame; for
// the world, a world point and a world orientation). The rows are velocity rows in the soft step's
// form (Catto's soft constraint, as Box2D v3's joints): solved with the soft bias in the solve pass,
// without bias in the relax pass, and with a plain Baumgarte bias for the rigid solvers. Limits are
// speculative (a limit not yet reached lets the gap close within the substep and no further), motors
// clamp their accumulated impulse to the largest force or torque times the substep.
//
// Rows per type (frame axes x̂, ŷ, ẑ; A's copy unless said):
//   ball        the point: 3 rows (one 3x3 block)
//   hinge       the point; ẑ_B kept on ẑ_A: 2 angular rows; angle θ about ẑ: limits and motor
//   cone_twist  the point; swing of x̂_B from x̂_A within the cone: 1 row; twist about x̂: limits
//   fixed       the point; relative rotation: 3 angular rows (one block)
//   slider      the anchor offset across x̂: 2 rows; relative rotation: 3 rows; offset along x̂: limits
//               and motor
//   distance    the anchors' distance: a rigid row (length) or a [min, max] range, and a spring
//   spring      the distance joint with the spring on and no rigid row
#ifndef RB_KERNELS_JOINT_H
#define RB_KERNELS_JOINT_H

#include "body_flags.h"
#include "contact_soft.h"
#include "integrate.h"
#include "vec_math.h"

#define RB_JK_BALL 0
#define RB_JK_HINGE 1
#define RB_JK_CONE_TWIST 2
#define RB_JK_FIXED 3
#define RB_JK_DISTANCE 4
#define RB_JK_SPRING 5
#define RB_JK_SLIDER 6
#define RB_JK_TYPES 7

// rb_joint.flags
#define RB_JF_LIMIT 0x1u           // hinge, slider, distance: the [lower, upper] range is enforced
#define RB_JF_MOTOR 0x2u           // hinge, slider: the motor drives
#define RB_JF_SPRING_ON 0x4u       // distance, spring: the spring acts (a spring joint always)
#define RB_JF_COLLIDE 0x8u         // the two bodies may collide with each other
#define RB_JF_BROKEN 0x10u         // broke under its break force or torque: no longer solved
#define RB_JF_ENABLED 0x20u        // live and switched on

// Accumulated impulses (rb_joint.impulse), per substep: N s or N m s
#define RB_JI_POINT 0   // 0..2: the point (world vector); slider: the two rows across the axis (world vector)
#define RB_JI_ANGLE 3   // 3..5: the angular lock (world vector; hinge: the two rows across the axis)
#define RB_JI_LOWER 6   // lower limit (hinge angle, slider offset, distance, cone twist)
#define RB_JI_UPPER 7   // upper limit
#define RB_JI_SWING 8   // cone swing limit
#define RB_JI_MOTOR 9
#define RB_JI_AXIAL 10  // distance: the rigid row or the spring
#define RB_JI_COUNT 12

typedef struct rb_joint {
    rb_float4 anchor_a;   // xyz: anchor in A's frame about its centre of mass (A = world: a world point)
    rb_float4 anchor_b;
    // The joint frame's x̂ and ŷ in A's and in B's frame (ẑ = x̂ × ŷ). Axes rather than a quaternion:
    // an axis-aligned frame is then exact (0 and ±1), so a planar scene stays planar bit for bit (a
    // quaternion of 90° carries √½ rounded, and the rotated axes pick up components of 6e-8 off the plane)
    rb_float4 frame_ax, frame_ay;
    rb_float4 frame_bx, frame_by;
    rb_float4 limits;     // x lower, y upper (hinge: rad; slider: m; distance: m); cone: z swing 1 (about ẑ),
                          // w swing 2 (about ŷ), x twist half-range
    rb_float4 drive;      // x motor speed (rad/s or m/s), y largest motor torque or force, z length (distance,
                          // spring rest length), w unused
    rb_float4 spring;     // x stiffness (N/m), y damping (N s/m), z frequency (Hz), w damping ratio: a
                          // frequency > 0 takes the place of stiffness and damping
    rb_float4 breaking;   // x largest force (N), y largest torque (N m): 0 = unbreakable
    rb_float4 reaction;   // xyz: force on B at its anchor in the last substep (N), w: unused
    rb_float4 reaction_torque; // xyz: torque on B (N m), w unused
    float impulse[RB_JI_COUNT];
    int body_a, body_b;   // body slots; body_a = -1: the static world
    int type;             // RB_JOINT_*
    unsigned int flags;   // RB_JF_LIMIT ...
} rb_joint;

// How a pass treats the rows' position error.
#define RB_JOINT_PASS_SOFT 0    // soft bias (the soft step's solve)
#define RB_JOINT_PASS_RELAX 1   // no bias (the soft step's relax; limits stay speculative)
#define RB_JOINT_PASS_RIGID 2   // Baumgarte bias: a fraction of the error per substep (batched, split,
                                // sequential), warm started at RB_JOINT_RIGID_WARM of the last impulse
#define RB_JOINT_PASS_POSITION 3 // the rigid solvers' position pass (split impulses, on the pseudo
                                // velocities that push bodies out of each other): the hard rows and
                                // limits without bias, no springs or motors, impulses of its own that
                                // start at zero in each pass and are dropped after it (an equality
                                // row's impulse does not depend on them; a limit only pushes). A body
                                // pushed out of the ground then takes its joint partners along instead
                                // of pulling the joint open for the velocity rows' bias to close later
                                // (batched and split: 1.2 cm apart in the joined push-out test, 1.8 mm)

// The rigid passes warm start with this fraction of the last substep's impulses (Bullet's default
// warm-starting factor). With all of it a straight chain of 10 links holding 10 kg winds up through
// the Baumgarte bias and flies apart (batched: 530% stretch); with 0.85 it hangs within 1.1%. A split
// impulse instead (velocity rows without bias, the bias on pseudo velocities) held the straight chain
// but let the swinging 40-link chain of the bench scene come apart at one substep.
#define RB_JOINT_RIGID_WARM 0.85f

typedef struct rb_joint_settings {
    float h, inv_h;       // substep
    int pass;             // RB_JOINT_PASS_*
    rb_softness soft;     // the hard rows' softness (RB_JOINT_PASS_SOFT)
    float bias_factor;    // RB_JOINT_PASS_RIGID: fraction of the error removed per substep
    float max_bias;       // m/s or rad/s: cap of the bias speed
} rb_joint_settings;

// The settings of a pass from the step's: the joint softness (joint_hertz > 0 and joint_damping_ratio,
// resolved by core/step.c: Box2D v3's 60 Hz and 2 at the default substeps), the rigid solvers'
// Baumgarte fraction (position_correction, else 0.2), the bias capped at max_push_velocity (else
// 3 m/s). Every backend makes them here.
RB_FN rb_joint_settings rb_joint_settings_make(float dt, float inv_dt, float joint_hertz, float joint_damping_ratio,
                                               float position_correction, float max_push, int pass)
{
    rb_joint_settings st;
    st.h = dt;
    st.inv_h = inv_dt;
    st.pass = pass;
    st.soft = rb_make_softness(joint_hertz, joint_damping_ratio, dt, 1.0f);
    st.bias_factor = position_correction > 0.0f ? position_correction : 0.2f;
    st.max_bias = max_push > 0.0f ? max_push : 3.0f;
    return st;
}

// The settings in one kernel argument of at most 32 bytes (the GPU backends' launch limit), with the
// operation (RB_JOINT_OP_*).
typedef struct rb_joint_args {
    float h, inv_h, bias_rate, mass_scale, impulse_scale, bias_factor, max_bias;
    int pass_op; // pass * 2 + op: the 32 bytes hold no more
} rb_joint_args;

RB_FN rb_joint_args rb_joint_args_of(rb_joint_settings st, int op)
{
    rb_joint_args ja;
    ja.h = st.h;
    ja.inv_h = st.inv_h;
    ja.bias_rate = st.soft.bias_rate;
    ja.mass_scale = st.soft.mass_scale;
    ja.impulse_scale = st.soft.impulse_scale;
    ja.bias_factor = st.bias_factor;
    ja.max_bias = st.max_bias;
    ja.pass_op = st.pass * 2 + op;
    return ja;
}

RB_FN rb_joint_settings rb_joint_settings_of(rb_joint_args ja)
{
    rb_joint_settings st;
    st.h = ja.h;
    st.inv_h = ja.inv_h;
    st.pass = ja.pass_op / 2;
    st.soft.bias_rate = ja.bias_rate;
    st.soft.mass_scale = ja.mass_scale;
    st.soft.impulse_scale = ja.impulse_scale;
    st.bias_factor = ja.bias_factor;
    st.max_bias = ja.max_bias;
    return st;
}

// ---- angles ----

// atan2 from a fixed polynomial (|error| < 2e-7 rad), so that every backend computes the same angle
// bit for bit (libm's and the device compilers' atan2 differ in the last bits).
RB_FN float rb_joint_atan2(float y, float x)
{
    float ax = rb_fabsf(x), ay = rb_fabsf(y);
    float mx = rb_maxf(ax, ay), mn = rb_minf(ax, ay);
    if (mx == 0.0f)
        return 0.0f;
    float t = mn / mx, s = t * t;
    float r = ((((((-0.0040540580f * s + 0.0218612288f) * s - 0.0559098861f) * s + 0.0964200441f) * s -
                 0.1390853351f) * s + 0.1994653599f) * s - 0.3332985605f) * s * t + t;
    if (ay > ax)
        r = 1.5707963268f - r;
    if (x < 0.0f)
        r = 3.1415926536f - r;
    return y < 0.0f ? -r : r;
}

// The angle between two unit vectors, accurate near 0 and π (atan2 of sine and cosine).
RB_FN float rb_angle_between(rb_float3 a, rb_float3 b) { return rb_joint_atan2(rb_len(rb_cross(a, b)), rb_dot(a, b)); }

// ---- the two bodies as the rows see them ----

typedef struct rb_joint_body {
    rb_float3 c;       // centre of mass, world
    rb_float4 q;
    rb_float3 v, w;
    float inv_mass;
    rb_mat3 inv_i;     // world
} rb_joint_body;

// Body b (-1: the world) without its world inverse inertia (zero; rb_joint_inv_inertia gives it).
// Static, kinematic, frozen and sleeping bodies take no impulse.
RB_FN rb_joint_body rb_joint_load_motion(int b, RB_GLOBAL const unsigned int *flags, RB_GLOBAL const rb_float4 *pos,
                                         RB_GLOBAL const rb_float4 *rot, RB_GLOBAL const rb_float4 *lin_vel,
                                         RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL const rb_float4 *inv_i_diag)
{
    rb_joint_body s;
    s.inv_i = rb_mat3_zero();
    if (b < 0) {
        s.c = rb_f3(0.0f, 0.0f, 0.0f);
        s.q = rb_quat_identity();
        s.v = s.c;
        s.w = s.c;
        s.inv_mass = 0.0f;
        return s;
    }
    s.c = rb_xyz(pos[b]);
    s.q = rot[b];
    s.v = rb_xyz(lin_vel[b]);
    s.w = rb_xyz(ang_vel[b]);
    if (rb_integrates_velocity(flags[b])) {
        s.inv_mass = inv_i_diag[b].w;
    } else {
        s.inv_mass = 0.0f;
        if (!(flags[b] & RB_BODY_AWAKE) || (flags[b] & RB_BODY_FROZEN)) {
            s.v = rb_f3(0.0f, 0.0f, 0.0f); // a sleeping or frozen body stands still
            s.w = s.v;
        }
    }
    return s;
}

// The world inverse inertia of body b (loaded by rb_joint_load_motion): from `cur_diag` / `cur_off`
// where a backend keeps it for the current pose (rb_world_inv_inertia_sym's layout), else from the
// orientation (the same numbers, computed here). Zero for a body that takes no impulse.
RB_FN rb_mat3 rb_joint_inv_inertia(int b, const rb_joint_body *s, RB_GLOBAL const unsigned int *flags,
                                   RB_GLOBAL const rb_float4 *inv_i_diag, RB_GLOBAL const rb_float4 *inv_i_offdiag,
                                   RB_GLOBAL const rb_float4 *cur_diag, RB_GLOBAL const rb_float4 *cur_off)
{
    if (b < 0 || !rb_integrates_velocity(flags[b]))
        return rb_mat3_zero();
    if (cur_diag)
        return rb_mat3_symmetric(rb_xyz(cur_diag[b]), rb_xyz(cur_off[b]));
    return rb_mat3_rotate_tensor(s->q, rb_mat3_symmetric(rb_xyz(inv_i_diag[b]), rb_xyz(inv_i_offdiag[b])));
}

RB_FN rb_joint_body rb_joint_load_body(int b, RB_GLOBAL const unsigned int *flags, RB_GLOBAL const rb_float4 *pos,
                                       RB_GLOBAL const rb_float4 *rot, RB_GLOBAL const rb_float4 *lin_vel,
                                       RB_GLOBAL const rb_float4 *ang_vel, RB_GLOBAL const rb_float4 *inv_i_diag,
                                       RB_GLOBAL const rb_float4 *inv_i_offdiag)
{
    rb_joint_body s = rb_joint_load_motion(b, flags, pos, rot, lin_vel, ang_vel, inv_i_diag);
    s.inv_i = rb_joint_inv_inertia(b, &s, flags, inv_i_diag, inv_i_offdiag, 0, 0);
    return s;
}

// What the rows need of the joint at the bodies' current poses.
typedef struct rb_joint_geometry {
    rb_float3 ra, rb;     // anchors about the centres of mass, world
    rb_float3 d;          // anchor B - anchor A
    rb_float3 xa, ya, za; // A's copy of the frame's axes, world
    rb_float3 xb, yb, zb; // B's copy
} rb_joint_geometry;

RB_FN rb_joint_geometry rb_joint_geometry_of(const rb_joint *j, const rb_joint_body *a, const rb_joint_body *b)
{
    rb_joint_geometry g;
    g.ra = j->body_a >= 0 ? rb_rotate(a->q, rb_xyz(j->anchor_a)) : rb_f3(0.0f, 0.0f, 0.0f);
    g.rb = rb_rotate(b->q, rb_xyz(j->anchor_b));
    rb_float3 pa = j->body_a >= 0 ? rb_add(a->c, g.ra) : rb_xyz(j->anchor_a);
    g.d = rb_sub(rb_add(b->c, g.rb), pa);
    // a ball joint has no frame (and a distance or spring joint): only the anchors
    if (j->type == RB_JK_BALL || j->type == RB_JK_DISTANCE || j->type == RB_JK_SPRING) {
        g.xa = g.ya = g.za = g.xb = g.yb = g.zb = rb_f3(0.0f, 0.0f, 0.0f);
        return g;
    }
    g.xa = j->body_a >= 0 ? rb_rotate(a->q, rb_xyz(j->frame_ax)) : rb_xyz(j->frame_ax);
    g.ya = j->body_a >= 0 ? rb_rotate(a->q, rb_xyz(j->frame_ay)) : rb_xyz(j->frame_ay);
    g.za = rb_cross(g.xa, g.ya);
    g.xb = rb_rotate(b->q, rb_xyz(j->frame_bx));
    g.yb = rb_rotate(b->q, rb_xyz(j->frame_by));
    g.zb = rb_cross(g.xb, g.yb);
    return g;
}

// The hinge angle of B relative to A about ẑ (right-handed, 0 at creation): atan2((ŷ_A × ŷ_B)·ẑ_A, ŷ_A·ŷ_B).
RB_FN float rb_joint_hinge_angle(const rb_joint_geometry *g)
{
    return rb_joint_atan2(rb_dot(rb_cross(g->ya, g->yb), g->za), rb_dot(g->ya, g->yb));
}

// The twist about x̂ of the relative rotation q = Q_A⁻¹ Q_B (sign with q_w ≥ 0): 2 atan2(q_x, q_w).
// From the axes: with R = Aᵀ B (R_ij = a_i · b_j), 4 q_w q_x = R_zy − R_yz and 4 q_w² = 1 + tr R.
RB_FN float rb_joint_twist(const rb_joint_geometry *g)
{
    float sx = rb_dot(g->za, g->yb) - rb_dot(g->ya, g->zb);
    float cw = 1.0f + rb_dot(g->xa, g->xb) + rb_dot(g->ya, g->yb) + rb_dot(g->za, g->zb);
    return 2.0f * rb_joint_atan2(sx, cw);
}

// The relative rotation's small-angle vector (world): the rotation that takes A's frame onto B's,
// ½ Σ a_i × b_i (θ n for small angles θ about n, bounded for large ones).
RB_FN rb_float3 rb_joint_angle_error(const rb_joint_geometry *g)
{
    rb_float3 e = rb_add(rb_add(rb_cross(g->xa, g->xb), rb_cross(g->ya, g->yb)), rb_cross(g->za, g->zb));
    return rb_scale(e, 0.5f);
}

// ---- row helpers ----

// A scalar row: J = (-u, -aa; u, ab) on (v_A, ω_A; v_B, ω_B). Its speed and effective mass.
typedef struct rb_joint_row {
    rb_float3 u, aa, ab;
} rb_joint_row;

RB_FN float rb_row_speed(rb_joint_row r, const rb_joint_body *a, const rb_joint_body *b)
{
    return rb_dot(r.u, rb_sub(b->v, a->v)) + rb_dot(r.ab, b->w) - rb_dot(r.aa, a->w);
}

RB_FN float rb_row_inv_mass(rb_joint_row r, const rb_joint_body *a, const rb_joint_body *b)
{
    return (a->inv_mass + b->inv_mass) * rb_dot(r.u, r.u) + rb_dot(r.aa, rb_mat3_mulv(a->inv_i, r.aa)) +
           rb_dot(r.ab, rb_mat3_mulv(b->inv_i, r.ab));
}

RB_FN void rb_row_apply(rb_joint_row r, rb_joint_body *a, rb_joint_body *b, float lambda)
{
    a->v = rb_mad(a->v, -a->inv_mass * lambda, r.u);
    a->w = rb_sub(a->w, rb_mat3_mulv(a->inv_i, rb_scale(r.aa, lambda)));
    b->v = rb_mad(b->v, b->inv_mass * lambda, r.u);
    b->w = rb_add(b->w, rb_mat3_mulv(b->inv_i, rb_scale(r.ab, lambda)));
}

// An angular row about axis n: J = (0, -n; 0, n).
RB_FN rb_joint_row rb_angular_row(rb_float3 n)
{
    rb_joint_row r;
    r.u = rb_f3(0.0f, 0.0f, 0.0f);
    r.aa = n;
    r.ab = n;
    return r;
}

// A linear row along a direction u of the world at the anchors (d/dt of u·(p_B - p_A) with u fixed).
RB_FN rb_joint_row rb_linear_row(const rb_joint_geometry *g, rb_float3 u)
{
    rb_joint_row r;
    r.u = u;
    r.aa = rb_cross(g->ra, u);
    r.ab = rb_cross(g->rb, u);
    return r;
}

// A linear row along a direction u that turns with A (the slider's axis and the directions across it):
// d/dt of u·(p_B - p_A) then has A's lever reaching B's anchor, r_A + d.
RB_FN rb_joint_row rb_slider_row(const rb_joint_geometry *g, rb_float3 u)
{
    rb_joint_row r;
    r.u = u;
    r.aa = rb_cross(rb_add(g->ra, g->d), u);
    r.ab = rb_cross(g->rb, u);
    return r;
}

// The bias speed and mass scale of a hard row with position error c (the error grows with the row's
// speed; the row drives the speed towards -bias).
RB_FN void rb_joint_bias(const rb_joint_settings *st, float c, float *bias, float *mass_scale)
{
    *bias = 0.0f;
    *mass_scale = 1.0f;
    if (st->pass == RB_JOINT_PASS_SOFT) {
        *bias = rb_clampf(st->soft.bias_rate * c, -st->max_bias, st->max_bias);
        *mass_scale = st->soft.mass_scale;
    } else if (st->pass == RB_JOINT_PASS_RIGID) {
        *bias = rb_clampf(st->bias_factor * st->inv_h * c, -st->max_bias, st->max_bias);
    }
}

// The soft pass's leak of the accumulated impulse (Catto's soft constraint: the impulse scale). Without
// it the accumulated impulse of a loaded joint integrates the error like a controller's integral term,
// and a long chain holding a weight winds up and shakes apart (10 links and 10 kg, straight down).
RB_FN float rb_joint_leak(const rb_joint_settings *st) { return st->pass == RB_JOINT_PASS_SOFT ? st->soft.impulse_scale : 0.0f; }

// A one-sided limit row: c ≥ 0 is allowed (c: the distance to the stop, growing with the row's speed).
// Speculative while c > 0: the row may close the gap within the substep, no more.
RB_FN void rb_limit_row(const rb_joint_settings *st, rb_joint_row r, float c, float *acc, rb_joint_body *a,
                        rb_joint_body *b)
{
    float bias = 0.0f, scale = 1.0f, leak = 0.0f;
    if (c > 0.0f) {
        bias = c * st->inv_h;
    } else {
        rb_joint_bias(st, c, &bias, &scale);
        leak = rb_joint_leak(st);
    }
    float speed = rb_row_speed(r, a, b);
    // a stop that holds no impulse and that the bodies do not reach within the substep takes none
    // (the clamp below would give 0): most limits of a moving ragdoll, most of the time, without the
    // row's effective mass and its four products with the inverse inertias
    if (c > 0.0f && *acc == 0.0f && speed + bias >= 0.0f)
        return;
    float k = rb_row_inv_mass(r, a, b);
    if (k <= 0.0f)
        return;
    float lambda = -scale * (speed + bias) / k - leak * *acc;
    float next = rb_maxf(*acc + lambda, 0.0f);
    lambda = next - *acc;
    *acc = next;
    rb_row_apply(r, a, b, lambda);
}

// ---- the blocks ----

// K of the point: (m_A + m_B) E - [r_A]× I_A [r_A]× - [r_B]× I_B [r_B]× (A's lever reaching B's anchor).
RB_FN rb_mat3 rb_point_mass_matrix(const rb_joint_geometry *g, rb_float3 ra, const rb_joint_body *a, const rb_joint_body *b)
{
    rb_mat3 sa = rb_skew(ra), sb = rb_skew(g->rb);
    float m = a->inv_mass + b->inv_mass;
    rb_mat3 k = rb_mat3_diag(rb_f3(m, m, m));
    k = rb_mat3_add_scaled(k, rb_mat3_mul(rb_mat3_mul(sa, a->inv_i), sa), -1.0f);
    k = rb_mat3_add_scaled(k, rb_mat3_mul(rb_mat3_mul(sb, b->inv_i), sb), -1.0f);
    return k;
}

RB_FN rb_float3 rb_point_speed(const rb_joint_geometry *g, rb_float3 ra, const rb_joint_body *a, const rb_joint_body *b)
{
    return rb_sub(rb_add(b->v, rb_cross(b->w, g->rb)), rb_add(a->v, rb_cross(a->w, ra)));
}

RB_FN void rb_point_apply(const rb_joint_geometry *g, rb_float3 ra, rb_joint_body *a, rb_joint_body *b, rb_float3 p)
{
    a->v = rb_mad(a->v, -a->inv_mass, p);
    a->w = rb_sub(a->w, rb_mat3_mulv(a->inv_i, rb_cross(ra, p)));
    b->v = rb_mad(b->v, b->inv_mass, p);
    b->w = rb_add(b->w, rb_mat3_mulv(b->inv_i, rb_cross(g->rb, p)));
}

RB_FN void rb_angular_apply(rb_joint_body *a, rb_joint_body *b, rb_float3 l)
{
    a->w = rb_sub(a->w, rb_mat3_mulv(a->inv_i, l));
    b->w = rb_add(b->w, rb_mat3_mulv(b->inv_i, l));
}

// The bias of a block of rows with position error c (a vector): as rb_joint_bias, with the cap on the
// vector's length, so the cap never turns the bias off the error's direction.
RB_FN rb_float3 rb_vec_bias(const rb_joint_settings *st, rb_float3 c, float *mass_scale)
{
    float len = rb_len(c), bias;
    rb_joint_bias(st, len, &bias, mass_scale);
    return len > 0.0f ? rb_scale(c, bias / len) : c;
}

// The inverse of the point rows' mass matrix (for the slider the rows across its axis, the axis row a
// dummy of unit mass). It depends on the poses and the bodies' masses alone.
RB_FN rb_mat3 rb_point_mass_inverse(const rb_joint_geometry *g, const rb_joint_body *a, const rb_joint_body *b,
                                    int slider)
{
    // the slider's rows across its axis turn with A: A's lever reaches B's anchor (rb_slider_row)
    rb_float3 ra = slider ? rb_add(g->ra, g->d) : g->ra;
    rb_mat3 k = rb_point_mass_matrix(g, ra, a, b);
    if (slider) {
        // the axis direction is free: solve in the plane across it
        rb_float3 x = g->xa;
        rb_mat3 p = rb_mat3_add_scaled(rb_mat3_diag(rb_f3(1.0f, 1.0f, 1.0f)),
                                       rb_mat3_rows(rb_scale(x, x.x), rb_scale(x, x.y), rb_scale(x, x.z)), -1.0f);
        k = rb_mat3_mul(rb_mat3_mul(p, k), p);
        k = rb_mat3_add_scaled(k, rb_mat3_rows(rb_scale(x, x.x), rb_scale(x, x.y), rb_scale(x, x.z)), 1.0f);
    }
    return rb_mat3_inverse(k);
}

// The point rows: anchor B on anchor A. For the slider only the part across its axis (`across`).
// kinv: rb_point_mass_inverse at these poses (kept by the caller: rb_joint_op).
RB_FN void rb_solve_point(const rb_joint_settings *st, const rb_joint_geometry *g, const rb_mat3 *kinv, float *acc,
                          rb_joint_body *a, rb_joint_body *b, int slider)
{
    float scale;
    // the slider's error is only the part across its axis
    rb_float3 err = slider ? rb_sub(g->d, rb_scale(g->xa, rb_dot(g->d, g->xa))) : g->d;
    rb_float3 bias = rb_vec_bias(st, err, &scale);
    rb_float3 ra = slider ? rb_add(g->ra, g->d) : g->ra;
    rb_mat3 ki = *kinv;
    rb_float3 cdot = rb_add(rb_point_speed(g, ra, a, b), bias);
    if (slider) {
        rb_float3 x = g->xa;
        cdot = rb_sub(cdot, rb_scale(x, rb_dot(cdot, x)));
        rb_float3 p_imp = rb_scale(rb_mat3_mulv(ki, cdot), -scale);
        p_imp = rb_mad(p_imp, -rb_joint_leak(st), rb_f3(acc[0], acc[1], acc[2]));
        p_imp = rb_sub(p_imp, rb_scale(x, rb_dot(p_imp, x)));
        rb_point_apply(g, ra, a, b, p_imp);
        acc[0] += p_imp.x;
        acc[1] += p_imp.y;
        acc[2] += p_imp.z;
        return;
    }
    rb_float3 p_imp = rb_scale(rb_mat3_mulv(ki, cdot), -scale);
    p_imp = rb_mad(p_imp, -rb_joint_leak(st), rb_f3(acc[0], acc[1], acc[2]));
    rb_point_apply(g, ra, a, b, p_imp);
    acc[0] += p_imp.x;
    acc[1] += p_imp.y;
    acc[2] += p_imp.z;
}

// The angular lock: all three axes (fixed, slider) or the two across ẑ (hinge: ẑ_B on ẑ_A).
RB_FN void rb_solve_angular_lock(const rb_joint_settings *st, const rb_joint_geometry *g, float *acc,
                                 rb_joint_body *a, rb_joint_body *b, int hinge)
{
    rb_mat3 k = rb_mat3_add_scaled(a->inv_i, b->inv_i, 1.0f);
    rb_float3 wrel = rb_sub(b->w, a->w);
    float scale;
    if (hinge) {
        rb_float3 e = rb_cross(g->za, g->zb); // the rotation that takes ẑ_A onto ẑ_B
        rb_float3 b1 = g->xa, b2 = g->ya;
        float c1 = rb_dot(e, b1), c2 = rb_dot(e, b2);
        float bias1, bias2;
        rb_joint_bias(st, c1, &bias1, &scale);
        rb_joint_bias(st, c2, &bias2, &scale);
        rb_float3 kb1 = rb_mat3_mulv(k, b1), kb2 = rb_mat3_mulv(k, b2);
        float k11 = rb_dot(b1, kb1), k12 = rb_dot(b1, kb2), k22 = rb_dot(b2, kb2);
        float det = k11 * k22 - k12 * k12;
        if (!(det > 0.0f))
            return;
        float r1 = rb_dot(wrel, b1) + bias1, r2 = rb_dot(wrel, b2) + bias2;
        float inv = 1.0f / det;
        float l1 = -scale * (k22 * r1 - k12 * r2) * inv;
        float l2 = -scale * (k11 * r2 - k12 * r1) * inv;
        rb_float3 l = rb_add(rb_scale(b1, l1), rb_scale(b2, l2));
        // the leak of the accumulated impulse's part across the axis
        rb_float3 old = rb_f3(acc[0], acc[1], acc[2]);
        l = rb_mad(l, -rb_joint_leak(st), rb_sub(old, rb_scale(g->za, rb_dot(old, g->za))));
        rb_angular_apply(a, b, l);
        acc[0] += l.x;
        acc[1] += l.y;
        acc[2] += l.z;
        return;
    }
    rb_float3 bias = rb_vec_bias(st, rb_joint_angle_error(g), &scale);
    rb_float3 l = rb_scale(rb_mat3_mulv(rb_mat3_inverse(k), rb_add(wrel, bias)), -scale);
    l = rb_mad(l, -rb_joint_leak(st), rb_f3(acc[0], acc[1], acc[2]));
    rb_angular_apply(a, b, l);
    acc[0] += l.x;
    acc[1] += l.y;
    acc[2] += l.z;
}

// ---- the axial rows of each type (limits, motor, spring, rigid distance) ----

// The row along the distance joint's line and the current distance.
RB_FN rb_joint_row rb_distance_row(const rb_joint_geometry *g, float *length)
{
    float len = rb_len(g->d);
    *length = len;
    rb_float3 u = len > 1e-6f ? rb_scale(g->d, 1.0f / len) : rb_f3(0.0f, 1.0f, 0.0f);
    return rb_linear_row(g, u);
}

// The implicit spring-damper row (Catto's soft constraint from stiffness k and damping c): exact for a
// linear spring over the substep, stable for any k and c.
RB_FN void rb_spring_row(const rb_joint_settings *st, const rb_joint *j, rb_joint_row r, float c,
                         float *acc, rb_joint_body *a, rb_joint_body *b)
{
    float kinv = rb_row_inv_mass(r, a, b);
    if (kinv <= 0.0f)
        return;
    float stiffness = j->spring.x, damping = j->spring.y;
    if (j->spring.z > 0.0f) {
        float m = 1.0f / kinv, omega = 2.0f * RB_PI * j->spring.z;
        stiffness = m * omega * omega;
        damping = 2.0f * m * j->spring.w * omega;
    }
    float hc = st->h * (damping + st->h * stiffness);
    if (hc <= 0.0f)
        return;
    float gamma = 1.0f / hc;
    float bias = c * st->h * stiffness * gamma;
    float lambda = -(rb_row_speed(r, a, b) + bias + gamma * *acc) / (kinv + gamma);
    *acc += lambda;
    rb_row_apply(r, a, b, lambda);
}

// A motor on row r: drives the row's speed to `speed` with at most max_force·h per substep.
RB_FN void rb_motor_row(const rb_joint_settings *st, rb_joint_row r, float speed, float max_force, float *acc,
                        rb_joint_body *a, rb_joint_body *b)
{
    float k = rb_row_inv_mass(r, a, b);
    if (k <= 0.0f)
        return;
    float lambda = -(rb_row_speed(r, a, b) - speed) / k;
    float cap = max_force * st->h;
    float next = rb_clampf(*acc + lambda, -cap, cap);
    lambda = next - *acc;
    *acc = next;
    rb_row_apply(r, a, b, lambda);
}

// The cone's swing limit: the angle between x̂_A and x̂_B within the (elliptical) cone of half-angles
// swing 1 (about ẑ) and swing 2 (about ŷ).
RB_FN float rb_cone_swing_limit(const rb_joint *j, const rb_joint_geometry *g, rb_float3 n)
{
    float s1 = j->limits.z, s2 = j->limits.w;
    if (s1 == s2)
        return s1;
    // the swing's direction in A's frame: 1/L² = (n·ŷ/s2)² + (n·ẑ/s1)²
    float ny = rb_dot(n, g->ya), nz = rb_dot(n, g->za);
    float q = (ny * ny) / rb_maxf(s2 * s2, 1e-12f) + (nz * nz) / rb_maxf(s1 * s1, 1e-12f);
    return q > 0.0f ? 1.0f / rb_sqrtf(q) : rb_maxf(s1, s2);
}

RB_FN void rb_solve_axial(const rb_joint_settings *st, rb_joint *j, const rb_joint_geometry *g,
                          rb_joint_body *a, rb_joint_body *b)
{
    unsigned int f = j->flags;
    switch (j->type) {
    case RB_JK_HINGE: {
        rb_joint_row r = rb_angular_row(g->za);
        if ((f & RB_JF_MOTOR) && st->pass != RB_JOINT_PASS_POSITION)
            rb_motor_row(st, r, j->drive.x, j->drive.y, &j->impulse[RB_JI_MOTOR], a, b);
        if (f & RB_JF_LIMIT) {
            float angle = rb_joint_hinge_angle(g);
            rb_limit_row(st, r, angle - j->limits.x, &j->impulse[RB_JI_LOWER], a, b);
            rb_joint_row ru = rb_angular_row(rb_neg(g->za));
            rb_limit_row(st, ru, j->limits.y - angle, &j->impulse[RB_JI_UPPER], a, b);
        }
        break;
    }
    case RB_JK_SLIDER: {
        rb_joint_row r = rb_slider_row(g, g->xa);
        if ((f & RB_JF_MOTOR) && st->pass != RB_JOINT_PASS_POSITION)
            rb_motor_row(st, r, j->drive.x, j->drive.y, &j->impulse[RB_JI_MOTOR], a, b);
        if (f & RB_JF_LIMIT) {
            float s = rb_dot(g->d, g->xa);
            rb_limit_row(st, r, s - j->limits.x, &j->impulse[RB_JI_LOWER], a, b);
            rb_joint_row ru = rb_slider_row(g, rb_neg(g->xa));
            rb_limit_row(st, ru, j->limits.y - s, &j->impulse[RB_JI_UPPER], a, b);
        }
        break;
    }
    case RB_JK_DISTANCE:
    case RB_JK_SPRING: {
        float len;
        rb_joint_row r = rb_distance_row(g, &len);
        if (f & RB_JF_SPRING_ON) {
            if (st->pass != RB_JOINT_PASS_POSITION)
                rb_spring_row(st, j, r, len - j->drive.z, &j->impulse[RB_JI_AXIAL], a, b);
        } else if (!(f & RB_JF_LIMIT)) {
            // rigid rod: an equality row
            float kinv = rb_row_inv_mass(r, a, b);
            if (kinv > 0.0f) {
                float bias, scale;
                rb_joint_bias(st, len - j->drive.z, &bias, &scale);
                float lambda = -scale * (rb_row_speed(r, a, b) + bias) / kinv - rb_joint_leak(st) * j->impulse[RB_JI_AXIAL];
                j->impulse[RB_JI_AXIAL] += lambda;
                rb_row_apply(r, a, b, lambda);
            }
        }
        if (f & RB_JF_LIMIT) {
            // a lower end of 0 is no limit (a length is never below it): its row would stop a body
            // passing through the anchor, where the direction of the length turns over
            if (j->limits.x > 0.0f)
                rb_limit_row(st, r, len - j->limits.x, &j->impulse[RB_JI_LOWER], a, b);
            rb_joint_row ru = r;
            ru.u = rb_neg(r.u);
            ru.aa = rb_neg(r.aa);
            ru.ab = rb_neg(r.ab);
            rb_limit_row(st, ru, j->limits.y - len, &j->impulse[RB_JI_UPPER], a, b);
        }
        break;
    }
    case RB_JK_CONE_TWIST: {
        // twist about the mean of the two x̂ (it turns neither x̂ off the other)
        rb_float3 t = rb_normalize_or(rb_add(g->xa, g->xb), g->xa);
        float twist = rb_joint_twist(g);
        rb_limit_row(st, rb_angular_row(t), twist + j->limits.x, &j->impulse[RB_JI_LOWER], a, b);
        rb_limit_row(st, rb_angular_row(rb_neg(t)), j->limits.x - twist, &j->impulse[RB_JI_UPPER], a, b);
        rb_float3 axb = rb_cross(g->xa, g->xb);
        float s = rb_len(axb);
        if (s > 1e-6f) {
            rb_float3 n = rb_scale(axb, 1.0f / s);
            float swing = rb_joint_atan2(s, rb_dot(g->xa, g->xb));
            rb_limit_row(st, rb_angular_row(rb_neg(n)), rb_cone_swing_limit(j, g, n) - swing,
                         &j->impulse[RB_JI_SWING], a, b);
        }
        break;
    }
    default:
        break;
    }
}

// ---- the passes ----

// The accumulated impulses applied again at the start of a substep (warm start), on the current poses.
RB_FN void rb_joint_warm_start(const rb_joint *j, const rb_joint_geometry *gp, rb_joint_body *a, rb_joint_body *b)
{
    rb_joint_geometry g = *gp;
    const float *im = j->impulse;
    rb_float3 p = rb_f3(im[RB_JI_POINT], im[RB_JI_POINT + 1], im[RB_JI_POINT + 2]);
    rb_float3 l = rb_f3(im[RB_JI_ANGLE], im[RB_JI_ANGLE + 1], im[RB_JI_ANGLE + 2]);
    if (j->type == RB_JK_DISTANCE || j->type == RB_JK_SPRING) {
        float len;
        rb_joint_row r = rb_distance_row(&g, &len);
        rb_row_apply(r, a, b, im[RB_JI_AXIAL] + im[RB_JI_LOWER] - im[RB_JI_UPPER]);
        return;
    }
    rb_point_apply(&g, j->type == RB_JK_SLIDER ? rb_add(g.ra, g.d) : g.ra, a, b, p);
    rb_angular_apply(a, b, l);
    float axial = im[RB_JI_MOTOR] + im[RB_JI_LOWER] - im[RB_JI_UPPER];
    if (j->type == RB_JK_HINGE)
        rb_row_apply(rb_angular_row(g.za), a, b, axial);
    else if (j->type == RB_JK_SLIDER)
        rb_row_apply(rb_slider_row(&g, g.xa), a, b, axial);
    else if (j->type == RB_JK_CONE_TWIST) {
        rb_float3 t = rb_normalize_or(rb_add(g.xa, g.xb), g.xa);
        rb_row_apply(rb_angular_row(t), a, b, im[RB_JI_LOWER] - im[RB_JI_UPPER]);
        rb_float3 axb = rb_cross(g.xa, g.xb);
        float s = rb_len(axb);
        if (s > 1e-6f)
            rb_row_apply(rb_angular_row(rb_scale(axb, -1.0f / s)), a, b, im[RB_JI_SWING]);
    }
}

// One pass over the joint's rows: the soft rows (spring, motor) and limits first, the hard rows last,
// so they hold best (Box2D's order).
// kinv: the point rows' rb_point_mass_inverse (types without them: unused).
RB_FN void rb_joint_solve(const rb_joint_settings *st, rb_joint *j, const rb_joint_geometry *gp, const rb_mat3 *kinv,
                          rb_joint_body *a, rb_joint_body *b)
{
    rb_joint_geometry g = *gp;
    rb_solve_axial(st, j, &g, a, b);
    switch (j->type) {
    case RB_JK_BALL:
    case RB_JK_CONE_TWIST:
        rb_solve_point(st, &g, kinv, &j->impulse[RB_JI_POINT], a, b, 0);
        break;
    case RB_JK_HINGE:
        rb_solve_angular_lock(st, &g, &j->impulse[RB_JI_ANGLE], a, b, 1);
        rb_solve_point(st, &g, kinv, &j->impulse[RB_JI_POINT], a, b, 0);
        break;
    case RB_JK_FIXED:
        rb_solve_angular_lock(st, &g, &j->impulse[RB_JI_ANGLE], a, b, 0);
        rb_solve_point(st, &g, kinv, &j->impulse[RB_JI_POINT], a, b, 0);
        break;
    case RB_JK_SLIDER:
        rb_solve_angular_lock(st, &g, &j->impulse[RB_JI_ANGLE], a, b, 0);
        rb_solve_point(st, &g, kinv, &j->impulse[RB_JI_POINT], a, b, 1);
        break;
    default:
        break;
    }
}

// The force and torque on B in the last substep (for the application, and breaking). Returns 1 when
// the joint breaks: a force or torque beyond its breaking limits.
RB_FN int rb_joint_store_reaction(rb_joint *j, float inv_h, const rb_joint_body *a, const rb_joint_body *b)
{
    rb_joint_geometry g = rb_joint_geometry_of(j, a, b);
    const float *im = j->impulse;
    rb_float3 p = rb_f3(im[RB_JI_POINT], im[RB_JI_POINT + 1], im[RB_JI_POINT + 2]);
    rb_float3 l = rb_f3(im[RB_JI_ANGLE], im[RB_JI_ANGLE + 1], im[RB_JI_ANGLE + 2]);
    float axial = im[RB_JI_MOTOR] + im[RB_JI_LOWER] - im[RB_JI_UPPER];
    if (j->type == RB_JK_DISTANCE || j->type == RB_JK_SPRING) {
        float len;
        rb_joint_row r = rb_distance_row(&g, &len);
        p = rb_scale(r.u, im[RB_JI_AXIAL] + im[RB_JI_LOWER] - im[RB_JI_UPPER]);
    } else if (j->type == RB_JK_HINGE) {
        l = rb_mad(l, axial, g.za);
    } else if (j->type == RB_JK_SLIDER) {
        p = rb_mad(p, axial, g.xa);
    } else if (j->type == RB_JK_CONE_TWIST) {
        rb_float3 t = rb_normalize_or(rb_add(g.xa, g.xb), g.xa);
        l = rb_mad(l, im[RB_JI_LOWER] - im[RB_JI_UPPER], t);
        rb_float3 axb = rb_cross(g.xa, g.xb);
        float s = rb_len(axb);
        if (s > 1e-6f)
            l = rb_mad(l, -im[RB_JI_SWING] / s, axb);
    }
    rb_float3 force = rb_scale(p, inv_h), torque = rb_scale(l, inv_h);
    j->reaction = rb_f4_from3(force, 0.0f);
    j->reaction_torque = rb_f4_from3(torque, 0.0f);
    return (j->breaking.x > 0.0f && rb_len(force) > j->breaking.x) ||
           (j->breaking.y > 0.0f && rb_len(torque) > j->breaking.y);
}

// ---- the per-joint glue every backend calls ----

#define RB_JOINT_OP_WARM 0
#define RB_JOINT_OP_SOLVE 1

// What a backend keeps of a joint between passes at the same poses (and the same bodies' masses and
// flags): its anchors and axes in the world (six rotations), the inverse of its point rows' mass matrix
// and, where the backend keeps no current inertia per body, the bodies' world inverse inertia.
typedef struct rb_joint_kept {
    rb_joint_geometry g;
    rb_mat3 point_kinv;
    rb_mat3 inv_i_a, inv_i_b;
} rb_joint_kept;

// Whether the joint type has the point rows (rb_solve_point).
RB_FN int rb_joint_has_point(int type)
{
    return type == RB_JK_BALL || type == RB_JK_CONE_TWIST || type == RB_JK_HINGE || type == RB_JK_FIXED ||
           type == RB_JK_SLIDER;
}

// Joint j against the bodies' arrays: load both bodies, warm start (with the settings of the pass that
// follows: a rigid pass warm starts at RB_JOINT_RIGID_WARM) or solve, store the velocities of the
// bodies that take impulses. A joint whose bodies do not move (asleep, frozen, static) is skipped. The
// rows work on a private copy of the joint (the device's private memory); its impulses go back.
// cur_diag / cur_off: the world inverse inertia of the current poses where the backend keeps it, or 0.
// kept: where the backend keeps rb_joint_kept; fresh: compute it (and keep it there), else read it.
// It depends on the poses and masses alone, so a kept one is the computed one, bit for bit.
RB_FN void rb_joint_op(RB_GLOBAL rb_joint *jg, int op, const rb_joint_settings *st,
                       RB_GLOBAL const unsigned int *flags, RB_GLOBAL const rb_float4 *pos,
                       RB_GLOBAL const rb_float4 *rot, RB_GLOBAL rb_float4 *lin_vel, RB_GLOBAL rb_float4 *ang_vel,
                       RB_GLOBAL const rb_float4 *inv_diag, RB_GLOBAL const rb_float4 *inv_off,
                       RB_GLOBAL const rb_float4 *cur_diag, RB_GLOBAL const rb_float4 *cur_off,
                       RB_GLOBAL rb_joint_kept *kept, int fresh)
{
    int a = jg->body_a, b = jg->body_b;
    int moves_a = a >= 0 && rb_integrates_velocity(flags[a]), moves_b = rb_integrates_velocity(flags[b]);
    if (!moves_a && !moves_b)
        return;
    rb_joint j = *jg;
    int position = st->pass == RB_JOINT_PASS_POSITION;
    if (op == RB_JOINT_OP_WARM && st->pass == RB_JOINT_PASS_RIGID)
        for (int r = 0; r < RB_JI_COUNT; ++r)
            j.impulse[r] *= RB_JOINT_RIGID_WARM;
    if (position)
        for (int r = 0; r < RB_JI_COUNT; ++r)
            j.impulse[r] = 0.0f;
    rb_joint_body ba = rb_joint_load_motion(a, flags, pos, rot, lin_vel, ang_vel, inv_diag);
    rb_joint_body bb = rb_joint_load_motion(b, flags, pos, rot, lin_vel, ang_vel, inv_diag);
    // the position pass has nothing to do where neither body is being pushed (most joints, most of the
    // time): without bias and from zero impulses, no row takes an impulse while both bodies are at rest
    if (position && rb_len_sq(ba.v) + rb_len_sq(ba.w) + rb_len_sq(bb.v) + rb_len_sq(bb.w) == 0.0f)
        return;
    // the inertia is kept only where the backend does not keep it per body already (reading that is cheaper)
    int keep_inertia = cur_diag == 0;
    if (fresh || !keep_inertia) {
        ba.inv_i = rb_joint_inv_inertia(a, &ba, flags, inv_diag, inv_off, cur_diag, cur_off);
        bb.inv_i = rb_joint_inv_inertia(b, &bb, flags, inv_diag, inv_off, cur_diag, cur_off);
    } else {
        ba.inv_i = kept->inv_i_a;
        bb.inv_i = kept->inv_i_b;
    }
    rb_joint_geometry g;
    rb_mat3 kinv = rb_mat3_zero();
    if (!fresh) {
        g = kept->g;
        kinv = kept->point_kinv;
    } else {
        if (keep_inertia) {
            kept->inv_i_a = ba.inv_i;
            kept->inv_i_b = bb.inv_i;
        }
        g = rb_joint_geometry_of(&j, &ba, &bb);
        kept->g = g;
        if (rb_joint_has_point(j.type)) {
            kinv = rb_point_mass_inverse(&g, &ba, &bb, j.type == RB_JK_SLIDER);
            kept->point_kinv = kinv;
        }
    }
    if (op == RB_JOINT_OP_WARM)
        rb_joint_warm_start(&j, &g, &ba, &bb);
    else
        rb_joint_solve(st, &j, &g, &kinv, &ba, &bb);
    if (!position)
        for (int r = 0; r < RB_JI_COUNT; ++r)
            jg->impulse[r] = j.impulse[r];
    if (moves_a) {
        lin_vel[a] = rb_f4_from3(ba.v, lin_vel[a].w);
        ang_vel[a] = rb_f4_from3(ba.w, ang_vel[a].w);
    }
    if (moves_b) {
        lin_vel[b] = rb_f4_from3(bb.v, lin_vel[b].w);
        ang_vel[b] = rb_f4_from3(bb.w, ang_vel[b].w);
    }
}

// After the last substep: the joint's reaction; returns 1 when it breaks (then switched off, impulses
// cleared). Joints whose bodies do not move keep their last reaction.
RB_FN int rb_joint_finish(RB_GLOBAL rb_joint *jg, float inv_h, RB_GLOBAL const unsigned int *flags,
                          RB_GLOBAL const rb_float4 *pos, RB_GLOBAL const rb_float4 *rot,
                          RB_GLOBAL const rb_float4 *lin_vel, RB_GLOBAL const rb_float4 *ang_vel,
                          RB_GLOBAL const rb_float4 *inv_diag, RB_GLOBAL const rb_float4 *inv_off)
{
    int a = jg->body_a, b = jg->body_b;
    if (!(a >= 0 && rb_integrates_velocity(flags[a])) && !rb_integrates_velocity(flags[b]))
        return 0;
    rb_joint j = *jg;
    rb_joint_body ba = rb_joint_load_body(a, flags, pos, rot, lin_vel, ang_vel, inv_diag, inv_off);
    rb_joint_body bb = rb_joint_load_body(b, flags, pos, rot, lin_vel, ang_vel, inv_diag, inv_off);
    int broke = rb_joint_store_reaction(&j, inv_h, &ba, &bb);
    jg->reaction = j.reaction;
    jg->reaction_torque = j.reaction_torque;
    if (!broke)
        return 0;
    jg->flags |= RB_JF_BROKEN;
    for (int r = 0; r < RB_JI_COUNT; ++r)
        jg->impulse[r] = 0.0f;
    return 1;
}

// ---- joined bodies that do not collide: sorted keys (lower body << 32 | higher body) ----

#if defined(RB_OPENCL)
typedef ulong rb_joint_key;
#else
typedef unsigned long long rb_joint_key;
#endif

RB_FN rb_joint_key rb_joint_pair_key(int a, int b)
{
    unsigned int lo = (unsigned int)(a < b ? a : b), hi = (unsigned int)(a < b ? b : a);
    return ((rb_joint_key)lo << 32) | (rb_joint_key)hi;
}

// Whether bodies a and b are joined by a joint that keeps them from colliding (binary search).
RB_FN int rb_joined_no_collide(RB_GLOBAL const rb_joint_key *keys, int n, int a, int b)
{
    rb_joint_key key = rb_joint_pair_key(a, b);
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && keys[lo] == key;
}

#endif
