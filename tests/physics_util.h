// Small helpers for the physics tests: a world with a ground plane, a body with one shape, stepping,
// and the mechanical quantities the tests compare (momentum, angular momentum, kinetic energy).
// Only the public API (rubble.h) is used. Include after <cmocka.h>.
#ifndef RUBBLE_TESTS_PHYSICS_UTIL_H
#define RUBBLE_TESTS_PHYSICS_UTIL_H

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rubble.h"

#define PU_G 9.81f        // m/s², the default gravity's magnitude
#define PU_H (1.0f / 60.0f) // s, the default time step
#define PU_PI 3.14159265358979323846

// Fails the test with the library's sentence if a call does not return RB_OK.
#define RB_CHECK(call)                                                                                            \
    do {                                                                                                          \
        rb_status rb_check_s_ = (call);                                                                           \
        if (rb_check_s_ != RB_OK)                                                                                 \
            fail_msg("%s returned %s: %s", #call, rb_status_string(rb_check_s_), rb_last_error(rb_null_world_id)); \
    } while (0)

// ---- vectors and rotations --------------------------------------------------------------------

static inline rb_vec3 v3(float x, float y, float z) { return (rb_vec3){x, y, z}; }
static inline rb_vec3 v3_add(rb_vec3 a, rb_vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline rb_vec3 v3_sub(rb_vec3 a, rb_vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline rb_vec3 v3_scale(rb_vec3 a, float s) { return v3(a.x * s, a.y * s, a.z * s); }
static inline float v3_dot(rb_vec3 a, rb_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline rb_vec3 v3_cross(rb_vec3 a, rb_vec3 b)
{
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float v3_len(rb_vec3 a) { return sqrtf(v3_dot(a, a)); }
static inline float v3_dist(rb_vec3 a, rb_vec3 b) { return v3_len(v3_sub(a, b)); }

static inline rb_quat quat_identity(void) { return (rb_quat){0.0f, 0.0f, 0.0f, 1.0f}; }

// Rotation matrix of a unit quaternion, rows r[0..2].
typedef struct pu_mat3 {
    double m[3][3];
} pu_mat3;

static inline pu_mat3 quat_to_mat3(rb_quat q)
{
    double x = q.x, y = q.y, z = q.z, w = q.w;
    pu_mat3 r = {{{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                  {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                  {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}}};
    return r;
}

static inline rb_vec3 mat3_mul_vec(const pu_mat3 *a, rb_vec3 v)
{
    double r[3];
    for (int i = 0; i < 3; ++i)
        r[i] = a->m[i][0] * v.x + a->m[i][1] * v.y + a->m[i][2] * v.z;
    return v3((float)r[0], (float)r[1], (float)r[2]);
}

static inline rb_vec3 quat_rotate(rb_quat q, rb_vec3 v)
{
    pu_mat3 r = quat_to_mat3(q);
    return mat3_mul_vec(&r, v);
}

// Angle (rad) of the rotation that takes q0 to q1, in [0, π].
static inline double quat_angle_between(rb_quat q0, rb_quat q1)
{
    // relative rotation conj(q0) q1; its angle is 2 atan2(|vector part|, |scalar part|)
    double w = (double)q0.w * q1.w + (double)q0.x * q1.x + (double)q0.y * q1.y + (double)q0.z * q1.z;
    double x = (double)q0.w * q1.x - (double)q0.x * q1.w - (double)q0.y * q1.z + (double)q0.z * q1.y;
    double y = (double)q0.w * q1.y - (double)q0.y * q1.w - (double)q0.z * q1.x + (double)q0.x * q1.z;
    double z = (double)q0.w * q1.z - (double)q0.z * q1.w - (double)q0.x * q1.y + (double)q0.y * q1.x;
    return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}

// ---- worlds and bodies ------------------------------------------------------------------------

// Default world settings, one thread (the tests measure physics, not speed), optional sleep. The
// backend is the CPU, or OpenCL / CUDA with RUBBLE_TEST_BACKEND=opencl / cuda (tests/meson.build runs
// the physics tests that way too, in the opencl and cuda suites); the solver is the backend's default
// (CPU: sequential), or the one RUBBLE_TEST_SOLVER names (batched, split, sequential, soft; the cpu_batched suite).
static inline rb_world_def pu_world_def(bool sleep)
{
    rb_world_def d = rb_default_world_def();
    const char *backend = getenv("RUBBLE_TEST_BACKEND");
    const char *solver = getenv("RUBBLE_TEST_SOLVER");
    d.backend = RB_BACKEND_CPU;
    if (backend && strcmp(backend, "opencl") == 0)
        d.backend = RB_BACKEND_OPENCL;
    else if (backend && strcmp(backend, "cuda") == 0)
        d.backend = RB_BACKEND_CUDA;
    if (solver && *solver && rb_solver_from_name(solver, &d.solver) != RB_OK)
        fail_msg("RUBBLE_TEST_SOLVER=%s: %s", solver, rb_last_error(rb_null_world_id));
    d.threads = 1;
    d.enable_sleep = sleep;
    return d;
}

static inline rb_world_id pu_make_world_from(const rb_world_def *def)
{
    rb_world_id w = rb_null_world_id;
    RB_CHECK(rb_create_world(def, &w));
    return w;
}

// The solver a world resolved to. The closed forms of the tests depend on its integration order:
// batched and split change velocities first (semi-implicit Euler, v += h a; x += h v), sequential
// moves positions first with the last substep's velocity (x += h v; v += h a, Schornbaum 2010 Alg. 6).
static inline rb_solver pu_solver(rb_world_id w)
{
    rb_world_def d;
    RB_CHECK(rb_world_get_def(w, &d));
    return d.solver;
}

static inline bool pu_moves_first(rb_world_id w) { return pu_solver(w) == RB_SOLVER_SEQUENTIAL; }

// Substeps per rb_world_step (the solver's choice unless set).
static inline int pu_substeps(rb_world_id w)
{
    rb_world_def d;
    RB_CHECK(rb_world_get_def(w, &d));
    return d.substeps;
}

// A world whose contact impulses carry the full weight of what rests on them: the sequential solver's
// gravity damping (Schornbaum 2010 §3.8, default 0.7) withholds that fraction of gravity from slow supported
// bodies, and their contacts then carry only the rest (docs/solver-sequential.md).
static inline rb_world_id pu_make_world_undamped(bool sleep)
{
    rb_world_def d = pu_world_def(sleep);
    d.sequential.gravity_damping = 0.0f;
    return pu_make_world_from(&d);
}

// The deepest penetration a resting contact keeps: the batched solver's linear_slop (0.5 mm) or the
// sequential solver's penetration threshold 10 |g| h_s² (3.0 mm at h_s = 1/180 s).
static inline float pu_resting_depth(rb_world_id w)
{
    rb_world_def d;
    RB_CHECK(rb_world_get_def(w, &d));
    float hs = d.time_step / (float)d.substeps;
    return d.solver == RB_SOLVER_SEQUENTIAL ? 10.0f * PU_G * hs * hs : d.linear_slop;
}

// World with default gravity, sleeping as asked.
static inline rb_world_id pu_make_world(bool sleep)
{
    rb_world_def d = pu_world_def(sleep);
    return pu_make_world_from(&d);
}

// World without gravity (collisions measured in free space).
static inline rb_world_id pu_make_world_zero_g(void)
{
    rb_world_def d = pu_world_def(false);
    d.gravity = v3(0.0f, 0.0f, 0.0f);
    return pu_make_world_from(&d);
}

static inline rb_shape_def pu_material(float friction, float restitution)
{
    rb_shape_def s = rb_default_shape_def();
    s.friction = friction;
    s.restitution = restitution;
    return s;
}

// Static half-space { x : dot(normal, x) <= offset }; its surface faces +normal.
static inline rb_body_id pu_add_plane(rb_world_id w, rb_vec3 normal, float offset, float friction, float restitution)
{
    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_STATIC;
    rb_body_id b;
    RB_CHECK(rb_create_body(w, &bd, &b));
    rb_shape_def sd = pu_material(friction, restitution);
    rb_plane p = {normal, offset};
    rb_shape_id sh;
    RB_CHECK(rb_create_plane_shape(b, &sd, &p, &sh));
    return b;
}

// The ground: the static half-space y <= 0.
static inline rb_body_id pu_add_ground(rb_world_id w, float friction, float restitution)
{
    return pu_add_plane(w, v3(0.0f, 1.0f, 0.0f), 0.0f, friction, restitution);
}

// Body definition; `mass` in kg for dynamic bodies (0 = from the shapes' density, 1000 kg/m³ by default).
static inline rb_body_def pu_body_def(rb_body_type type, rb_vec3 position, rb_quat rotation, float mass)
{
    rb_body_def bd = rb_default_body_def();
    bd.type = type;
    bd.position = position;
    bd.rotation = rotation;
    bd.mass = type == RB_BODY_DYNAMIC ? mass : 0.0f;
    return bd;
}

// A body from `bd` with one shape (sphere, box, capsule) of material `sd` at its origin.
static inline rb_body_id pu_add_sphere_body(rb_world_id w, const rb_body_def *bd, float radius, const rb_shape_def *sd)
{
    rb_body_id b;
    RB_CHECK(rb_create_body(w, bd, &b));
    rb_sphere s = {radius};
    rb_shape_id sh;
    RB_CHECK(rb_create_sphere_shape(b, sd, &s, &sh));
    return b;
}

static inline rb_body_id pu_add_box_body(rb_world_id w, const rb_body_def *bd, rb_vec3 half, const rb_shape_def *sd)
{
    rb_body_id b;
    RB_CHECK(rb_create_body(w, bd, &b));
    rb_box box = {half};
    rb_shape_id sh;
    RB_CHECK(rb_create_box_shape(b, sd, &box, &sh));
    return b;
}

static inline rb_body_id pu_add_capsule_body(rb_world_id w, const rb_body_def *bd, float half_length, float radius,
                                             const rb_shape_def *sd)
{
    rb_body_id b;
    RB_CHECK(rb_create_body(w, bd, &b));
    rb_capsule c = {half_length, radius};
    rb_shape_id sh;
    RB_CHECK(rb_create_capsule_shape(b, sd, &c, &sh));
    return b;
}

// Shorthands: a dynamic body at `p` with one shape, given mass and material.
static inline rb_body_id pu_sphere(rb_world_id w, rb_vec3 p, float radius, float mass, float friction,
                                   float restitution)
{
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, p, quat_identity(), mass);
    rb_shape_def sd = pu_material(friction, restitution);
    return pu_add_sphere_body(w, &bd, radius, &sd);
}

static inline rb_body_id pu_box(rb_world_id w, rb_vec3 p, rb_quat q, rb_vec3 half, float mass, float friction,
                                float restitution)
{
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, p, q, mass);
    rb_shape_def sd = pu_material(friction, restitution);
    return pu_add_box_body(w, &bd, half, &sd);
}

static inline rb_body_id pu_capsule(rb_world_id w, rb_vec3 p, rb_quat q, float half_length, float radius, float mass,
                                    float friction, float restitution)
{
    rb_body_def bd = pu_body_def(RB_BODY_DYNAMIC, p, q, mass);
    rb_shape_def sd = pu_material(friction, restitution);
    return pu_add_capsule_body(w, &bd, half_length, radius, &sd);
}

static inline void pu_step(rb_world_id w, int n)
{
    for (int i = 0; i < n; ++i)
        RB_CHECK(rb_world_step(w));
}

// ---- reading state ----------------------------------------------------------------------------

static inline rb_vec3 pu_position(rb_body_id b)
{
    rb_vec3 p;
    RB_CHECK(rb_body_get_position(b, &p));
    return p;
}

static inline rb_vec3 pu_center(rb_body_id b)
{
    rb_vec3 p;
    RB_CHECK(rb_body_get_world_center(b, &p));
    return p;
}

static inline rb_quat pu_rotation(rb_body_id b)
{
    rb_quat q;
    RB_CHECK(rb_body_get_rotation(b, &q));
    return q;
}

static inline rb_vec3 pu_velocity(rb_body_id b)
{
    rb_vec3 v;
    RB_CHECK(rb_body_get_linear_velocity(b, &v));
    return v;
}

static inline rb_vec3 pu_angular_velocity(rb_body_id b)
{
    rb_vec3 v;
    RB_CHECK(rb_body_get_angular_velocity(b, &v));
    return v;
}

static inline float pu_mass(rb_body_id b)
{
    float m;
    RB_CHECK(rb_body_get_mass(b, &m));
    return m;
}

static inline bool pu_awake(rb_body_id b)
{
    bool a;
    RB_CHECK(rb_body_is_awake(b, &a));
    return a;
}

// World inertia tensor R I Rᵀ about the centre of mass (body-frame tensor from rb_body_get_mass_data).
static inline pu_mat3 pu_world_inertia(rb_body_id b)
{
    rb_mass_data md;
    RB_CHECK(rb_body_get_mass_data(b, &md));
    double ib[3][3] = {{md.inertia.x, md.inertia_products.x, md.inertia_products.y},
                       {md.inertia_products.x, md.inertia.y, md.inertia_products.z},
                       {md.inertia_products.y, md.inertia_products.z, md.inertia.z}};
    pu_mat3 r = quat_to_mat3(pu_rotation(b));
    pu_mat3 out;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double s = 0.0;
            for (int k = 0; k < 3; ++k)
                for (int l = 0; l < 3; ++l)
                    s += r.m[i][k] * ib[k][l] * r.m[j][l];
            out.m[i][j] = s;
        }
    return out;
}

// Spin angular momentum about the centre of mass: L = R I Rᵀ ω.
static inline rb_vec3 pu_spin_momentum(rb_body_id b)
{
    pu_mat3 iw = pu_world_inertia(b);
    return mat3_mul_vec(&iw, pu_angular_velocity(b));
}

// Angular momentum about the world origin: m c × v + R I Rᵀ ω.
static inline rb_vec3 pu_angular_momentum(rb_body_id b)
{
    rb_vec3 orbital = v3_scale(v3_cross(pu_center(b), pu_velocity(b)), pu_mass(b));
    return v3_add(orbital, pu_spin_momentum(b));
}

static inline rb_vec3 pu_linear_momentum(rb_body_id b) { return v3_scale(pu_velocity(b), pu_mass(b)); }

// Rotational kinetic energy ½ ωᵀ (R I Rᵀ) ω, in double.
static inline double pu_rotational_energy(rb_body_id b)
{
    pu_mat3 iw = pu_world_inertia(b);
    rb_vec3 w = pu_angular_velocity(b);
    double wv[3] = {w.x, w.y, w.z}, e = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            e += wv[i] * iw.m[i][j] * wv[j];
    return 0.5 * e;
}

// Total kinetic energy ½ m v² + ½ ωᵀ I ω.
static inline double pu_kinetic_energy(rb_body_id b)
{
    rb_vec3 v = pu_velocity(b);
    return 0.5 * pu_mass(b) * ((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z) + pu_rotational_energy(b);
}

static inline int pu_body_slots(rb_world_id w)
{
    rb_counters c;
    RB_CHECK(rb_world_get_counters(w, &c));
    return c.body_slots;
}

static inline int pu_contact_count(rb_world_id w)
{
    int n;
    RB_CHECK(rb_world_get_contact_count(w, &n));
    return n;
}

// All contacts of the last step; the caller frees. *count receives how many.
static inline rb_contact *pu_contacts(rb_world_id w, int *count)
{
    *count = pu_contact_count(w);
    rb_contact *c = calloc((size_t)(*count > 0 ? *count : 1), sizeof *c);
    assert_non_null(c);
    RB_CHECK(rb_world_get_contacts(w, 0, *count, c));
    return c;
}

// Deepest penetration among the last step's contacts (0 when none penetrate).
static inline float pu_max_contact_depth(rb_world_id w)
{
    int n;
    rb_contact *c = pu_contacts(w, &n);
    float d = 0.0f;
    for (int i = 0; i < n; ++i)
        if (c[i].depth > d)
            d = c[i].depth;
    free(c);
    return d;
}

// Slots of the dynamic bodies, in slot order; the caller frees.
static inline int *pu_dynamic_slots(rb_world_id w, int *count)
{
    int n = pu_body_slots(w);
    int *out = calloc((size_t)(n > 0 ? n : 1), sizeof *out);
    assert_non_null(out);
    *count = 0;
    for (int i = 0; i < n; ++i) {
        rb_body_id b;
        if (rb_world_get_body_id(w, i, &b) != RB_OK)
            continue;
        rb_body_type t;
        RB_CHECK(rb_body_get_type(b, &t));
        if (t == RB_BODY_DYNAMIC)
            out[(*count)++] = i;
    }
    return out;
}

// Relative error |a - b| / |b|.
static inline double pu_rel_err(double a, double b) { return fabs(a - b) / fabs(b); }

#endif
