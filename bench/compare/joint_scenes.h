// The jointed standard scenes `chain` and `ragdolls` of docs/bench-scenes.md ("Jointed scenes"),
// as engine-independent data, and their quality fields. Header only, no engine types; compiles as
// C99, C11 and C++. Used by bench_common.h (the ODE and Bullet drivers); meant to be used as it is by
// any other program that runs these scenes (rubble's own bench).
//
//   scn_scene s;
//   scn_make("ragdolls", &s);                  // or scn_make_chain / scn_make_ragdolls
//   if (s.ground) ...the static plane y = 0...
//   for each s.bodies[i]: create the body      // shape, mass, inertia, pose, damping
//   for each s.joints[k]: create the joint     // type, bodies (or SCN_WORLD), anchors, frame, limits;
//                                              // the two bodies of a joint do not collide
//   ...step, then read every body's pose into scn_pose[]...
//   scn_quality q;
//   scn_measure(&s, poses, &q);                // after each step for the chain's *_run fields
//   scn_report(&s, &q, &run, emit, ctx);       // the scene's JSON fields, in order
//   scn_free(&s);
//
// Conventions (bench-scenes.md): SI units, y up; quaternions (w, x, y, z); a capsule's axis is the
// body's local y and `length` is the distance between its hemisphere centres (Bullet's
// btCapsuleShape(r, L)); positions are centres of mass. A joint's frame is a triad (x̂, ŷ, ẑ) given in
// world space at creation: the hinge axis is ẑ; for a cone-twist the twist axis is x̂, swing 1 turns
// about ẑ and swing 2 about ŷ (Bullet's conventions). The anchors p_A and p_B need not coincide.
#ifndef JOINT_SCENES_H
#define JOINT_SCENES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct scn_vec3 {
    double x, y, z;
} scn_vec3;

typedef struct scn_quat {
    double w, x, y, z; // unit quaternion, w first
} scn_quat;

// ---- small vector and quaternion helpers ---------------------------------------------------------
static inline scn_vec3 scn_v3(double x, double y, double z)
{
    scn_vec3 v;
    v.x = x, v.y = y, v.z = z;
    return v;
}

static inline scn_quat scn_q(double w, double x, double y, double z)
{
    scn_quat q;
    q.w = w, q.x = x, q.y = y, q.z = z;
    return q;
}

static inline scn_vec3 scn_add(scn_vec3 a, scn_vec3 b) { return scn_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline scn_vec3 scn_sub(scn_vec3 a, scn_vec3 b) { return scn_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline double scn_dot(scn_vec3 a, scn_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double scn_length(scn_vec3 a) { return sqrt(scn_dot(a, a)); }

static inline scn_vec3 scn_cross(scn_vec3 a, scn_vec3 b)
{
    return scn_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

// angle between two vectors, in [0, pi]; robust near 0 and pi
static inline double scn_angle_between(scn_vec3 a, scn_vec3 b)
{
    return atan2(scn_length(scn_cross(a, b)), scn_dot(a, b));
}

static inline scn_quat scn_qmul(scn_quat a, scn_quat b)
{
    return scn_q(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}

static inline scn_quat scn_qconj(scn_quat q) { return scn_q(q.w, -q.x, -q.y, -q.z); }

static inline scn_quat scn_qnormalize(scn_quat q)
{
    double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    return n > 0.0 ? scn_q(q.w / n, q.x / n, q.y / n, q.z / n) : scn_q(1.0, 0.0, 0.0, 0.0);
}

// R(q) v, with the diagonal in the homogeneous form w² + x² - y² - z² (not 1 - 2(y² + z²)): a term
// that is 0 in the exact rotation then comes out exactly 0 here too. For example the frame +90 deg
// about y, q = (√½, 0, √½, 0), gives ẑ = (1, 0, 0) and not (1, 0, -2.2e-16), which would tilt a hinge
// axis out of the ragdolls' plane of symmetry and seed a symmetry break in an engine.
static inline scn_vec3 scn_rotate(scn_quat q, scn_vec3 v)
{
    double ww = q.w * q.w, xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z, wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    return scn_v3((ww + xx - yy - zz) * v.x + 2.0 * (xy - wz) * v.y + 2.0 * (xz + wy) * v.z,
                  2.0 * (xy + wz) * v.x + (ww - xx + yy - zz) * v.y + 2.0 * (yz - wx) * v.z,
                  2.0 * (xz - wy) * v.x + 2.0 * (yz + wx) * v.y + (ww - xx - yy + zz) * v.z);
}

// axis 0, 1 or 2 (x̂, ŷ, ẑ) of the triad that q turns the world axes into
static inline scn_vec3 scn_axis(scn_quat q, int axis)
{
    return scn_rotate(q, scn_v3(axis == 0, axis == 1, axis == 2));
}

// ---- the scene description -----------------------------------------------------------------------
typedef enum scn_shape { SCN_CAPSULE, SCN_SPHERE } scn_shape;

typedef struct scn_body {
    scn_shape shape;
    double radius;          // m
    double length;          // m, capsule only: between the hemisphere centres, along local y (overall L + 2r)
    double mass;            // kg
    scn_vec3 inertia;       // kg m², about the centre, principal moments about local x, y, z (the solid shape)
    scn_vec3 position;      // m, centre of mass at creation
    scn_quat orientation;   // at creation
    double linear_damping;  // Bullet's convention: before the solve, v <- v (1 - d)^dt each step; 0 = none
    double angular_damping; // likewise for the angular velocity
} scn_body;

typedef enum scn_joint_type { SCN_BALL, SCN_HINGE, SCN_CONE_TWIST } scn_joint_type;

enum { SCN_WORLD = -1 }; // body_a of a joint to the static world

typedef struct scn_joint {
    scn_joint_type type;
    int body_a;        // index into scn_scene.bodies, or SCN_WORLD
    int body_b;        // index into scn_scene.bodies
    scn_vec3 anchor_a; // p_A: world position at creation of the anchor fixed in A
    scn_vec3 anchor_b; // p_B: the same for B; need not equal p_A (the engine must not snap them together)
    scn_quat frame;    // the joint frame in world space at creation (the same for A and B)
    double lo, hi;     // hinge: lo <= theta <= hi (rad), theta = the angle of B relative to A about ẑ
    double swing;      // cone-twist: swing half-angle (rad), the same for swing 1 and swing 2 (circular cone)
    double twist;      // cone-twist: |twist| <= this (rad); 0 locks the twist
    // fixed in each body, from the bodies' poses at creation (the world's are world quantities):
    scn_vec3 local_anchor_a; // r_A = R_A^-1 (p_A - c_A)
    scn_vec3 local_anchor_b; // r_B = R_B^-1 (p_B - c_B)
    scn_quat local_frame_a;  // Q_A^-1 frame: the frame in A's own axes
    scn_quat local_frame_b;  // Q_B^-1 frame
} scn_joint;

enum { SCN_SCENE_CHAIN, SCN_SCENE_RAGDOLLS };

typedef struct scn_scene {
    int kind;   // SCN_SCENE_CHAIN or SCN_SCENE_RAGDOLLS
    int ground; // 1: the static plane y = 0 is in the world (ragdolls); 0: nothing but the bodies (chain)
    int body_count, joint_count;
    scn_body *bodies;   // create in index order
    scn_joint *joints;  // then these, in index order
} scn_scene;

// Solid capsule of mass m, radius r, L between the hemisphere centres, axis local y (ODE's
// dMassSetCapsule): m_c = m L / (L + 4r/3) in the cylinder, m_s = m - m_c in the two caps.
static inline scn_vec3 scn_capsule_inertia(double m, double r, double L)
{
    double mc = m * L / (L + 4.0 * r / 3.0), ms = m - mc;
    double axial = mc * r * r / 2.0 + 0.4 * ms * r * r;
    double cross = mc * (r * r / 4.0 + L * L / 12.0) + ms * (0.4 * r * r + 0.375 * r * L + 0.25 * L * L);
    return scn_v3(cross, axial, cross);
}

static inline void scn_alloc(scn_scene *s, int kind, int ground, int bodies, int joints)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->ground = ground;
    s->bodies = (scn_body *)calloc((size_t)bodies, sizeof *s->bodies);
    s->joints = (scn_joint *)calloc((size_t)joints, sizeof *s->joints);
}

static inline void scn_free(scn_scene *s)
{
    free(s->bodies);
    free(s->joints);
    memset(s, 0, sizeof *s);
}

static inline int scn_add_capsule(scn_scene *s, double r, double L, double m, scn_vec3 p, scn_quat q, double lin,
                                  double ang)
{
    scn_body *b = &s->bodies[s->body_count];
    b->shape = SCN_CAPSULE;
    b->radius = r, b->length = L, b->mass = m;
    b->inertia = scn_capsule_inertia(m, r, L);
    b->position = p, b->orientation = q;
    b->linear_damping = lin, b->angular_damping = ang;
    return s->body_count++;
}

static inline int scn_add_sphere(scn_scene *s, double r, double m, scn_vec3 p)
{
    scn_body *b = &s->bodies[s->body_count];
    double I = 0.4 * m * r * r;
    b->shape = SCN_SPHERE;
    b->radius = r, b->length = 0.0, b->mass = m;
    b->inertia = scn_v3(I, I, I);
    b->position = p, b->orientation = scn_q(1.0, 0.0, 0.0, 0.0);
    return s->body_count++;
}

// Adds a joint and derives its body-local anchors and frames from the bodies' poses at creation.
static inline scn_joint *scn_add_joint(scn_scene *s, scn_joint_type type, int a, int b, scn_vec3 pa, scn_vec3 pb,
                                       scn_quat frame)
{
    scn_joint *j = &s->joints[s->joint_count++];
    const scn_body *B = &s->bodies[b];
    j->type = type;
    j->body_a = a, j->body_b = b;
    j->anchor_a = pa, j->anchor_b = pb;
    j->frame = frame;
    if (a == SCN_WORLD) {
        j->local_anchor_a = pa;
        j->local_frame_a = frame;
    } else {
        const scn_body *A = &s->bodies[a];
        j->local_anchor_a = scn_rotate(scn_qconj(A->orientation), scn_sub(pa, A->position));
        j->local_frame_a = scn_qmul(scn_qconj(A->orientation), frame);
    }
    j->local_anchor_b = scn_rotate(scn_qconj(B->orientation), scn_sub(pb, B->position));
    j->local_frame_b = scn_qmul(scn_qconj(B->orientation), frame);
    return j;
}

// chain: 40 capsule links (r 0.1, L 0.5, 1 kg) along +x from (0, 30, 0), a 20 kg sphere (r 0.5) at the
// end, 41 ball joints (the first to the world); no ground.
static inline void scn_make_chain(scn_scene *s)
{
    const double h = sqrt(0.5);
    const scn_quat link_q = scn_q(h, 0.0, 0.0, -h); // -90 deg about z: local y along world +x
    const scn_quat identity = scn_q(1.0, 0.0, 0.0, 0.0);
    scn_alloc(s, SCN_SCENE_CHAIN, 0, 41, 41);
    for (int k = 0; k < 40; ++k)
        scn_add_capsule(s, 0.1, 0.5, 1.0, scn_v3(0.35 + 0.7 * k, 30.0, 0.0), link_q, 0.0, 0.0);
    scn_add_sphere(s, 0.5, 20.0, scn_v3(28.5, 30.0, 0.0));
    for (int k = 0; k <= 40; ++k) { // joint k: link k-1 (the world for k = 0) to body k, at (0.7k, 30, 0)
        scn_vec3 p = scn_v3(0.7 * k, 30.0, 0.0);
        scn_add_joint(s, SCN_BALL, k == 0 ? SCN_WORLD : k - 1, k, p, p, identity);
    }
}

// ragdolls: Bullet's BenchmarkDemo test 3 at scale 3.5: 16 rows, row r has 16 - r ragdolls at
// o = (-3n + 6i, 1 + 7r, -2r); 11 capsules (1 kg) and 10 joints each; damped; ground y = 0.
enum { SCN_RAGDOLL_PARTS = 11, SCN_RAGDOLL_JOINTS = 10 };

static inline void scn_make_ragdolls(scn_scene *s)
{
    const double h = sqrt(0.5), pi = 3.14159265358979323846;
    const double c8 = cos(3.0 * pi / 8.0), s8 = sin(3.0 * pi / 8.0); // half-angles of 135 and 45 deg
    // the demo's damping (Bullet's convention)
    const double lin = 0.05, ang = 0.85;
    static const struct {
        double r, L, x, y; // radius, length, offset from o (z = 0)
        int turn;          // 0: identity, +1: +90 deg about z, -1: -90 deg about z
    } part[SCN_RAGDOLL_PARTS] = {
        {0.525, 0.7, 0.0, 3.5, 0},        // 0 pelvis
        {0.525, 0.98, 0.0, 4.2, 0},       // 1 spine
        {0.35, 0.175, 0.0, 5.6, 0},       // 2 head
        {0.245, 1.575, -0.63, 2.275, 0},  // 3 left upper leg
        {0.175, 1.295, -0.63, 0.7, 0},    // 4 left lower leg
        {0.245, 1.575, 0.63, 2.275, 0},   // 5 right upper leg
        {0.175, 1.295, 0.63, 0.7, 0},     // 6 right lower leg
        {0.175, 1.155, -1.225, 5.075, 1}, // 7 left upper arm
        {0.14, 0.875, -2.45, 5.075, 1},   // 8 left lower arm
        {0.175, 1.155, 1.225, 5.075, -1}, // 9 right upper arm
        {0.14, 0.875, 2.45, 5.075, -1},   // 10 right lower arm
    };
    enum { Y90, Z90, Z135, Z45, Z180, ID, ELBOW_L, ELBOW_R }; // the joint frames in world space
    const scn_quat frames[] = {
        scn_q(h, 0.0, h, 0.0),      // +90 deg about y: x̂ = (0,0,-1), ŷ = (0,1,0), ẑ = (1,0,0)
        scn_q(h, 0.0, 0.0, h),      // +90 deg about z: x̂ = (0,1,0), ŷ = (-1,0,0)
        scn_q(c8, 0.0, 0.0, s8),    // +135 deg about z (the demo's -5pi/4): x̂ = (-√½, √½, 0)
        scn_q(s8, 0.0, 0.0, c8),    // +45 deg about z: x̂ = (√½, √½, 0)
        scn_q(0.0, 0.0, 0.0, 1.0),  // 180 deg about z: x̂ = (-1,0,0), ŷ = (0,-1,0)
        scn_q(1.0, 0.0, 0.0, 0.0),  // identity
        scn_q(0.5, -0.5, 0.5, 0.5), // x̂ = (0,0,-1), ŷ = (-1,0,0), ẑ = (0,1,0)
        scn_q(0.5, 0.5, 0.5, -0.5), // x̂ = (0,0,-1), ŷ = (1,0,0), ẑ = (0,-1,0)
    };
    static const struct {
        scn_joint_type type;
        int a, b;              // parts
        double ax, ay, bx, by; // p_A - o and p_B - o (z = 0)
        int frame;             // index into frames
        double lo, hi;         // hinge: theta limits in units of pi/4; cone: swing, twist in units of pi/4
    } joint[SCN_RAGDOLL_JOINTS] = {
        {SCN_HINGE, 0, 1, 0.0, 4.025, 0.0, 3.675, Y90, -2, 1},          // 0 pelvis-spine
        {SCN_CONE_TWIST, 1, 2, 0.0, 5.25, 0.0, 5.11, Z90, 1, 2},        // 1 neck
        {SCN_CONE_TWIST, 0, 3, -0.63, 3.15, -0.63, 3.0625, Z135, 1, 0}, // 2 left hip
        {SCN_HINGE, 3, 4, -0.63, 1.4875, -0.63, 1.3475, Y90, -2, 0},    // 3 left knee
        {SCN_CONE_TWIST, 0, 5, 0.63, 3.15, 0.63, 3.0625, Z45, 1, 0},    // 4 right hip
        {SCN_HINGE, 5, 6, 0.63, 1.4875, 0.63, 1.3475, Y90, -2, 0},      // 5 right knee
        {SCN_CONE_TWIST, 1, 7, -0.7, 4.725, -0.595, 5.075, Z180, 2, 0}, // 6 left shoulder
        {SCN_HINGE, 7, 8, -1.855, 5.075, -1.96, 5.075, ELBOW_L, 0, 2},  // 7 left elbow
        {SCN_CONE_TWIST, 1, 9, 0.7, 4.725, 0.595, 5.075, ID, 2, 0},     // 8 right shoulder
        {SCN_HINGE, 9, 10, 1.855, 5.075, 1.96, 5.075, ELBOW_R, 0, 2},   // 9 right elbow
    };
    const scn_quat turns[3] = {scn_q(h, 0.0, 0.0, -h), scn_q(1.0, 0.0, 0.0, 0.0), scn_q(h, 0.0, 0.0, h)};
    int count = 0;
    for (int r = 0; r < 16; ++r)
        count += 16 - r;
    scn_alloc(s, SCN_SCENE_RAGDOLLS, 1, count * SCN_RAGDOLL_PARTS, count * SCN_RAGDOLL_JOINTS);
    for (int r = 0; r < 16; ++r) {
        int n = 16 - r;
        for (int i = 0; i < n; ++i) {
            scn_vec3 o = scn_v3(-3.0 * n + 6.0 * i, 1.0 + 7.0 * r, -2.0 * r);
            int first = s->body_count;
            for (int p = 0; p < SCN_RAGDOLL_PARTS; ++p)
                scn_add_capsule(s, part[p].r, part[p].L, 1.0, scn_add(o, scn_v3(part[p].x, part[p].y, 0.0)),
                                turns[part[p].turn + 1], lin, ang);
            for (int k = 0; k < SCN_RAGDOLL_JOINTS; ++k) {
                scn_joint *j = scn_add_joint(s, joint[k].type, first + joint[k].a, first + joint[k].b,
                                             scn_add(o, scn_v3(joint[k].ax, joint[k].ay, 0.0)),
                                             scn_add(o, scn_v3(joint[k].bx, joint[k].by, 0.0)), frames[joint[k].frame]);
                if (j->type == SCN_HINGE)
                    j->lo = joint[k].lo * pi / 4.0, j->hi = joint[k].hi * pi / 4.0;
                else
                    j->swing = joint[k].lo * pi / 4.0, j->twist = joint[k].hi * pi / 4.0;
            }
        }
    }
}

// 1 and the scene if name is "chain" or "ragdolls", else 0
static inline int scn_make(const char *name, scn_scene *s)
{
    if (strcmp(name, "chain") == 0)
        scn_make_chain(s);
    else if (strcmp(name, "ragdolls") == 0)
        scn_make_ragdolls(s);
    else
        return 0;
    return 1;
}

// ---- joint angles, from the two copies Q_A, Q_B of a joint frame in world space ------------------
// hinge angle of B relative to A about ẑ, right-handed: atan2((ŷ_A x ŷ_B) . ẑ_A, ŷ_A . ŷ_B)
static inline double scn_hinge_angle(scn_quat qa, scn_quat qb)
{
    scn_vec3 ya = scn_axis(qa, 1), yb = scn_axis(qb, 1), za = scn_axis(qa, 2);
    return atan2(scn_dot(scn_cross(ya, yb), za), scn_dot(ya, yb));
}

// swing of a cone-twist: the angle between x̂_A and x̂_B
static inline double scn_swing_angle(scn_quat qa, scn_quat qb)
{
    return scn_angle_between(scn_axis(qa, 0), scn_axis(qb, 0));
}

// twist of a cone-twist: 2 atan2(q_x, q_w), q = Q_A^-1 Q_B with q_w >= 0
static inline double scn_twist_angle(scn_quat qa, scn_quat qb)
{
    scn_quat q = scn_qmul(scn_qconj(qa), qb);
    if (q.w < 0.0)
        q = scn_q(-q.w, -q.x, -q.y, -q.z);
    return 2.0 * atan2(q.x, q.w);
}

// ---- quality ------------------------------------------------------------------------------------
typedef struct scn_pose {
    scn_vec3 position;    // centre of mass
    scn_quat orientation; // (w, x, y, z)
    scn_vec3 velocity;    // linear, of the centre of mass
} scn_pose;

// NaN (a non-finite pose) wins, so that a broken run cannot report a clean figure
static inline double scn_max(double a, double b)
{
    return (a != a || b != b) ? (double)NAN : (a > b ? a : b);
}

typedef struct scn_quality {
    double max_joint_error;      // m, largest distance between the two copies of a joint's anchor
    double max_hinge_violation;  // rad, theta beyond [lo, hi]
    double max_swing_violation;  // rad, swing beyond the cone's half-angle
    double max_twist_violation;  // rad, |twist| beyond the half-range
    double max_limit_violation;  // rad, the largest of the three
    double max_hinge_axis_error; // rad, largest angle between ẑ_A and ẑ_B of a hinge
    double max_abs_hinge_angle;  // rad, largest |theta| (0 in an exactly planar ragdolls run)
    double max_abs_twist;        // rad, largest |twist| of a cone-twist (0 when planar)
    int escaped;                 // non-finite position, |x| > 60, |z| > 60 or y < -1
    double min_y;                // m, lowest centre
    double max_speed;            // m/s, fastest body
    double stretch;              // chain: |c_40 - (0, 30, 0)| / 28.5 - 1 (negative while bent)
    double sphere_speed;         // chain: the sphere's speed
} scn_quality;

// The quality of one state of the scene, from the bodies' poses (in body index order) and the
// body-local anchors and frames; independent of how an engine models its joints.
static inline void scn_measure(const scn_scene *s, const scn_pose *pose, scn_quality *q)
{
    memset(q, 0, sizeof *q);
    q->min_y = (double)INFINITY;
    for (int i = 0; i < s->body_count; ++i) {
        scn_vec3 p = pose[i].position;
        double speed = scn_length(pose[i].velocity);
        q->max_speed = scn_max(q->max_speed, isfinite(speed) ? speed : (double)NAN);
        if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z)) {
            ++q->escaped;
            q->min_y = (double)NAN;
            continue;
        }
        if (fabs(p.x) > 60.0 || fabs(p.z) > 60.0 || p.y < -1.0)
            ++q->escaped;
        if (p.y < q->min_y)
            q->min_y = p.y;
    }
    for (int k = 0; k < s->joint_count; ++k) {
        const scn_joint *j = &s->joints[k];
        scn_vec3 ca = scn_v3(0.0, 0.0, 0.0);
        scn_quat ra = scn_q(1.0, 0.0, 0.0, 0.0);
        if (j->body_a != SCN_WORLD)
            ca = pose[j->body_a].position, ra = scn_qnormalize(pose[j->body_a].orientation);
        scn_vec3 cb = pose[j->body_b].position;
        scn_quat rb = scn_qnormalize(pose[j->body_b].orientation);
        scn_vec3 pa = scn_add(ca, scn_rotate(ra, j->local_anchor_a));
        scn_vec3 pb = scn_add(cb, scn_rotate(rb, j->local_anchor_b));
        q->max_joint_error = scn_max(q->max_joint_error, scn_length(scn_sub(pa, pb)));
        scn_quat fa = scn_qmul(ra, j->local_frame_a), fb = scn_qmul(rb, j->local_frame_b);
        if (j->type == SCN_HINGE) {
            double theta = scn_hinge_angle(fa, fb);
            q->max_hinge_violation = scn_max(q->max_hinge_violation, scn_max(theta - j->hi, j->lo - theta));
            q->max_abs_hinge_angle = scn_max(q->max_abs_hinge_angle, fabs(theta));
            double axis_error = scn_angle_between(scn_axis(fa, 2), scn_axis(fb, 2));
            q->max_hinge_axis_error = scn_max(q->max_hinge_axis_error, axis_error);
        } else if (j->type == SCN_CONE_TWIST) {
            double twist = scn_twist_angle(fa, fb);
            q->max_swing_violation = scn_max(q->max_swing_violation, scn_swing_angle(fa, fb) - j->swing);
            q->max_twist_violation = scn_max(q->max_twist_violation, fabs(twist) - j->twist);
            q->max_abs_twist = scn_max(q->max_abs_twist, fabs(twist));
        }
    }
    q->max_limit_violation = scn_max(q->max_hinge_violation, scn_max(q->max_swing_violation, q->max_twist_violation));
    if (s->kind == SCN_SCENE_CHAIN) {
        const scn_pose *sphere = &pose[s->body_count - 1];
        q->stretch = scn_length(scn_sub(sphere->position, scn_v3(0.0, 30.0, 0.0))) / 28.5 - 1.0;
        q->sphere_speed = scn_length(sphere->velocity);
    }
}

// The chain's maxima over all steps: scn_run_add after every step (outside the timing).
typedef struct scn_run {
    double max_joint_error; // m
    double max_stretch;     // stretch
} scn_run;

static inline void scn_run_init(scn_run *r)
{
    r->max_joint_error = 0.0;
    r->max_stretch = -(double)INFINITY;
}

static inline void scn_run_add(scn_run *r, const scn_quality *q)
{
    r->max_joint_error = scn_max(r->max_joint_error, q->max_joint_error);
    r->max_stretch = scn_max(r->max_stretch, q->stretch);
}

// The scene's quality fields of the JSON line, in the order of bench-scenes.md, as (key, value)
// calls; `max_speed_final`, common to every scene, is left to the caller. run may be NULL (ragdolls).
typedef void (*scn_emit_fn)(void *ctx, const char *key, double value);

static inline void scn_report(const scn_scene *s, const scn_quality *q, const scn_run *run, scn_emit_fn emit,
                              void *ctx)
{
    emit(ctx, "max_joint_error", q->max_joint_error);
    if (s->kind == SCN_SCENE_CHAIN) {
        emit(ctx, "max_joint_error_run", run ? run->max_joint_error : (double)NAN);
        emit(ctx, "stretch", q->stretch);
        emit(ctx, "max_stretch_run", run ? run->max_stretch : (double)NAN);
        emit(ctx, "sphere_speed_final", q->sphere_speed);
    } else {
        emit(ctx, "max_limit_violation", q->max_limit_violation);
        emit(ctx, "max_hinge_violation", q->max_hinge_violation);
        emit(ctx, "max_swing_violation", q->max_swing_violation);
        emit(ctx, "max_twist_violation", q->max_twist_violation);
        emit(ctx, "max_hinge_axis_error", q->max_hinge_axis_error);
        emit(ctx, "max_abs_hinge_angle", q->max_abs_hinge_angle);
        emit(ctx, "max_abs_twist", q->max_abs_twist);
        emit(ctx, "escaped", q->escaped);
        emit(ctx, "min_y", q->min_y);
    }
}

#endif
