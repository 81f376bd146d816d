/// rubble — rigid body dynamics runtime. The whole public API.
///
/// Units are SI (m, kg, s, rad); y is up; floats are 32-bit.
/// Every function that can fail returns rb_status; rb_last_error() gives a sentence that names the
/// argument, the rule and the value. A failed call leaves the world as it was.
/// Ids are small values with a generation, so a stale id is detected instead of dereferenced.
#ifndef RUBBLE_H
#define RUBBLE_H

#include <stdbool.h>
#include <stdint.h>

#if defined(_WIN32) && defined(RUBBLE_BUILDING_DLL)
#define RB_API __declspec(dllexport)
#elif defined(__GNUC__)
#define RB_API __attribute__((visibility("default")))
#else
#define RB_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define RB_VERSION_MAJOR 0
#define RB_VERSION_MINOR 1
#define RB_VERSION_PATCH 0

/// "major.minor.patch" of the library that is linked (may differ from the header's macros).
RB_API const char *rb_version_string(void);

// ---------------------------------------------------------------------------------------------
// Math values
// ---------------------------------------------------------------------------------------------

typedef struct rb_vec3 {
    float x, y, z;
} rb_vec3;

/// Unit quaternion, scalar last; identity is (0, 0, 0, 1).
typedef struct rb_quat {
    float x, y, z, w;
} rb_quat;

typedef struct rb_transform {
    rb_vec3 p; ///< position, m
    rb_quat q; ///< rotation
} rb_transform;

/// Rotation of `angle` rad about `axis` (normalised here; a zero axis gives the identity).
RB_API rb_quat rb_quat_from_axis_angle(rb_vec3 axis, float angle);

// ---------------------------------------------------------------------------------------------
// Status and errors
// ---------------------------------------------------------------------------------------------

typedef enum rb_status {
    RB_OK = 0,
    RB_ERR_INVALID_ARGUMENT,    ///< NaN, negative size, out-of-range value, wrong body type...
    RB_ERR_STALE_ID,            ///< id of a destroyed (or never created) world, body or shape
    RB_ERR_OUT_OF_MEMORY,       ///< host or device allocation failed
    RB_ERR_CAPACITY,            ///< a fixed limit was reached (worlds, bodies, generator counts)
    RB_ERR_BACKEND_UNAVAILABLE, ///< backend not built, module not found, or no device to run on
    RB_ERR_BACKEND_FAILED,      ///< backend started but failed (kernel build, device lost)
    RB_ERR_UNSUPPORTED,         ///< valid request this backend or solver does not provide
    RB_ERR_PARSE,               ///< malformed scene file (message has file:line:column)
    RB_ERR_IO,                  ///< file could not be opened or read
    RB_ERR_NUMERIC,             ///< a body's state became non-finite during a step (it was frozen)
} rb_status;

/// Short fixed name of a status ("invalid argument", ...). Never NULL.
RB_API const char *rb_status_string(rb_status status);

// ---------------------------------------------------------------------------------------------
// Ids. Zero-initialised ids are null. Compare with the rb_*_equal() functions.
// ---------------------------------------------------------------------------------------------

typedef struct rb_world_id {
    uint16_t index1; ///< slot + 1; 0 is null
    uint16_t generation;
} rb_world_id;

typedef struct rb_body_id {
    int32_t index1; ///< slot + 1; 0 is null
    uint16_t world0;
    uint16_t generation;
} rb_body_id;

typedef struct rb_shape_id {
    int32_t index1; ///< slot + 1; 0 is null
    uint16_t world0;
    uint16_t generation;
} rb_shape_id;

static const rb_world_id rb_null_world_id = {0, 0};
static const rb_body_id rb_null_body_id = {0, 0, 0};
static const rb_shape_id rb_null_shape_id = {0, 0, 0};

RB_API bool rb_world_is_valid(rb_world_id id);
RB_API bool rb_body_is_valid(rb_body_id id);
RB_API bool rb_shape_is_valid(rb_shape_id id);
RB_API bool rb_body_equal(rb_body_id a, rb_body_id b);
RB_API bool rb_shape_equal(rb_shape_id a, rb_shape_id b);

/// Message of the last failed call on this world. With a null or stale world id: the message of the
/// last failed call made by this thread (for rb_create_world and other calls that have no world yet).
/// Returns "" when nothing has failed. The text stays valid until the next failing call.
RB_API const char *rb_last_error(rb_world_id world);

// ---------------------------------------------------------------------------------------------
// World
// ---------------------------------------------------------------------------------------------

typedef enum rb_backend {
    RB_BACKEND_AUTO = 0, ///< RUBBLE_BACKEND if set (cpu, opencl, cuda, auto), else best available
    RB_BACKEND_CPU,
    RB_BACKEND_OPENCL,
    RB_BACKEND_CUDA,
} rb_backend;

typedef enum rb_solver {
    RB_SOLVER_DEFAULT = 0, ///< the backend's default (CPU: soft; OpenCL, CUDA: batched)
    RB_SOLVER_BATCHED,     ///< projected Gauss-Seidel over graph-coloured batches, warm started
    RB_SOLVER_SEQUENTIAL,  ///< pe (seed 001): penetration correction, sequential impulses largest-closing-first,
                           ///< shock propagation, per-body sleeping with gravity damping (CPU)
    RB_SOLVER_SPLIT,       ///< projected Jacobi with mass splitting (Tonge et al. 2012), warm started
    RB_SOLVER_SOFT,        ///< soft step (Box2D v3): substeps with soft contacts and relax iterations over
                           ///< graph-coloured batches, static friction, impacts resolved largest-closing-first (CPU)
} rb_solver;

/// Tunables of the `sequential` solver (docs/solver-sequential.md). A value of 0 means "automatic":
/// the high-performance setting of seed 001 §5.1 scaled to the substep h and gravity |g|.
typedef struct rb_sequential_def {
    float penetration_threshold;   ///< m, contacts deeper than this are corrected; 0: 10 |g| h^2 (1.74 mm at 240 Hz)
    float remaining_penetration;   ///< fraction of the threshold left in place on purpose, in (0, 1); default 0.5
    float resolution_threshold;    ///< m/s, contacts closing faster than this are resolved; 0: |g| h / 500
    float sleep_threshold;         ///< m/s, bound on a body's surface speed to sleep; 0: |g| h / 5 (must be < |g| h)
    float sleep_bias;              ///< weight of the past in the recency-weighted motion average, [0, 1); default 0.5
    float sleep_motion_max;        ///< m/s, clamp of that average (rwa_max); 0: 4 x sleep_threshold
    float gravity_damping;         ///< fraction of gravity withheld from slow bodies, [0, 1]; default 0.7
    float gravity_damping_threshold; ///< m/s, a body slower than this is "slow"; 0: 2 |g| h
    float max_iterations;          ///< cap on resolutions per batch, times its contact count; default 2
    float shock_iterations;        ///< cap per shock-propagation level, times its contact count; default 6
    bool shock_propagation;        ///< default true
    float settle_iterations;       ///< after shock propagation, a last global pass with all masses restored,
                                   ///< capped at this times the contacts; default 1 (0: none)
    int heap_threshold;            ///< batches with more contacts keep the closing contacts in a heap; default 64
    int large_batch;               ///< batches with at least this many contacts are scheduled first; default 8
    int split_contacts;            ///< batches with more contacts are solved in spatial parts in parallel; default 0 (never;
                                   ///< docs/solver-sequential.md measures why)
    bool warm_start;               ///< start each contact from its last impulse (rubble's addition; default true)
} rb_sequential_def;

typedef struct rb_world_def {
    rb_vec3 gravity;            ///< m/s², default (0, -9.81, 0)
    float time_step;            ///< s per rb_world_step(), default 1/60
    int substeps;               ///< equal substeps per step; 0 (default) = the solver's choice (batched 1,
                                ///< sequential 3, soft 4)
    int iterations;             ///< velocity iterations per substep, default 10 (batched, split)
    int position_iterations;    ///< split-impulse position iterations per substep, default 4 (batched, split)
    rb_solver solver;           ///< default RB_SOLVER_DEFAULT: CPU soft, OpenCL and CUDA batched
    rb_sequential_def sequential; ///< tunables of the sequential solver
    rb_backend backend;         ///< default RB_BACKEND_AUTO (reads RUBBLE_BACKEND)
    int threads;                ///< CPU threads; 0 = RUBBLE_THREADS, else OMP_NUM_THREADS, else all cores
    bool enable_sleep;          ///< bodies at rest fall asleep, default true
    float position_correction;  ///< fraction of the penetration removed per substep, default 0.2 (batched, split)
    float max_push_velocity;    ///< m/s, cap on the speed that resolves penetration, default 3 (batched, split)
    float contact_margin;       ///< m, contacts are made up to this separation (speculative), default 0.02
    float linear_slop;          ///< m, penetration left alone (absorbs rounding), default 0.0005
    float restitution_threshold;///< m/s, slower impacts do not bounce (both solvers); 0 (default): the solver's
                                ///< choice, batched and split 1 m/s, sequential 1.1 |g| h (6 cm/s at 180 Hz)
    float linear_sleep_tolerance;  ///< m/s, default 0.05 (island sleeping: soft, batched, split): a body rests
                                   ///< while |v| + r |w| (r its bounding radius) stays below it, or |v| and |w|
                                   ///< below both tolerances, and is not gaining speed (5 mm/s above its
                                   ///< lowest since it came to rest); sequential sleeps body by body, see
                                   ///< rb_sequential_def.sleep_threshold
    float angular_sleep_tolerance; ///< rad/s, default 2°/s = 0.0349 (soft, batched, split)
    float time_to_sleep;        ///< s at rest before an island sleeps, default 0.5 (batched, split, soft)
    float contact_hertz;        ///< soft: contact stiffness, Hz; 0 (default): min(30, substep rate / 4);
                                ///< contacts with a static body take twice this (docs/solver.md)
    float contact_damping_ratio;///< soft: damping ratio of the contact's position correction, default 10
    int body_capacity;          ///< initial capacity hint, default 0
    int shape_capacity;         ///< initial capacity hint, default 0
    int max_pairs;              ///< budget of broad-phase candidate pairs (and so of contact manifolds) per step;
                                ///< 0 (default): 32 per shape + 65,536. A step that would exceed it fails with
                                ///< RB_ERR_CAPACITY and the count in the message, the world left as before it
                                ///< (docs/limits.md)
    uint32_t internal_value;    ///< set by rb_default_world_def(); do not touch
} rb_world_def;

RB_API rb_world_def rb_default_world_def(void);

/// Create a world. Returns RB_OK and writes the id, or an error status (see rb_last_error with a
/// null id). Asking for a backend by name that cannot start is an error, never a silent fallback.
RB_API rb_status rb_create_world(const rb_world_def *def, rb_world_id *out);
RB_API rb_status rb_destroy_world(rb_world_id world);

/// Advance by the world's time step (rb_world_set_time_step), in its number of substeps.
/// RB_ERR_NUMERIC if a body's state became non-finite: that body is restored to its state before the
/// step and frozen (its neighbours are unaffected); the step itself completed. A frozen body stays out
/// of the simulation until the application sets its state: rb_body_set_awake(true), set_transform,
/// set_linear_velocity / set_angular_velocity, or a force or impulse with wake = true returns it.
RB_API rb_status rb_world_step(rb_world_id world);

typedef struct rb_world_info {
    const char *backend;     ///< "cpu", "opencl", "cuda"
    const char *device;      ///< device description
    const char *solver;      ///< "batched", ...
    const char *selection;   ///< how the backend was chosen, e.g. "auto: no GPU backend built; using cpu"
    int threads;             ///< CPU threads in use
} rb_world_info;

/// Strings stay valid while the world exists.
RB_API rb_status rb_world_get_info(rb_world_id world, rb_world_info *out);
RB_API const char *rb_world_backend_name(rb_world_id world);

/// The world's current settings (as created, with every rb_world_set_* applied since, and the
/// backend and solver resolved: never RB_BACKEND_AUTO / RB_SOLVER_DEFAULT).
RB_API rb_status rb_world_get_def(rb_world_id world, rb_world_def *out);
RB_API rb_status rb_world_set_gravity(rb_world_id world, rb_vec3 gravity);
RB_API rb_status rb_world_get_gravity(rb_world_id world, rb_vec3 *out);
RB_API rb_status rb_world_set_time_step(rb_world_id world, float time_step, int substeps);
RB_API rb_status rb_world_get_time_step(rb_world_id world, float *time_step, int *substeps);
RB_API rb_status rb_world_set_iterations(rb_world_id world, int iterations, int position_iterations);
RB_API rb_status rb_world_set_solver(rb_world_id world, rb_solver solver);
/// Replaces the sequential solver's tunables (all checked first; nothing changes on an error). Start from
/// rb_world_get_def(world, &d).sequential to change one field.
RB_API rb_status rb_world_set_sequential(rb_world_id world, const rb_sequential_def *def);
RB_API rb_status rb_world_enable_sleep(rb_world_id world, bool enable);
/// Impacts slower than this (m/s) do not bounce; 0: the solver's choice (rb_world_def.restitution_threshold).
RB_API rb_status rb_world_set_restitution_threshold(rb_world_id world, float threshold);

/// Per-phase wall time of the last rb_world_step(), in milliseconds (substeps summed).
typedef struct rb_profile {
    float step;
    float integrate;  ///< velocity and position integration
    float bounds;     ///< bounding boxes
    float broad;      ///< broad phase: candidate pairs
    float narrow;     ///< narrow phase: contact manifolds
    float batches;    ///< colouring / islands / batches
    float correct;    ///< penetration correction (solvers that have it)
    float solve;      ///< contact solver
    float sleep;      ///< sleep test and islands
    float transfer;   ///< host <-> device copies (GPU backends)
} rb_profile;

RB_API rb_status rb_world_get_profile(rb_world_id world, rb_profile *out);

typedef struct rb_counters {
    int bodies;        ///< live bodies (all types)
    int awake_bodies;  ///< awake dynamic and kinematic bodies, now (after the calls since the last step)
    int shapes;
    int pairs;         ///< broad-phase candidate pairs, last step
    int manifolds;     ///< touching shape pairs, last step
    int contacts;      ///< contact points, last step
    int colors;        ///< solver colours (batched) or batches of touching bodies (sequential), last step
    int resolutions;   ///< sequential: single-contact resolutions in the last step (all substeps)
    int shock_batches; ///< sequential: batches that needed shock propagation in the last step
    int unresolved;    ///< sequential: contacts still closing after the last substep's resolution
    int uncorrected;   ///< sequential: contacts still deeper than penetration_threshold after the last substep's correction
    int frozen_bodies; ///< bodies frozen after a non-finite state, now (see rb_world_step)
    int body_slots;    ///< slots in use or freed; bulk functions index [0, body_slots)
    int imprecise_bodies; ///< awake bodies faster than linear_sleep_tolerance, so far from the origin that a
                          ///< float position cannot follow their motion: under 50 ulps of their largest
                          ///< coordinate per substep, i.e. possibly more than 1 % off (docs/large-worlds.md).
                          ///< Counted when asked, from the current state (see rb_world_shift_origin)
} rb_counters;

RB_API rb_status rb_world_get_counters(rb_world_id world, rb_counters *out);

/// Large worlds (PhysX's shiftOrigin): moves the world's origin to `new_origin`, i.e. subtracts it from
/// every body's position, bound and contact point, so that the simulation near `new_origin` gets the
/// float precision it has near the origin. Velocities, contacts' impulses and sleep states are kept;
/// the application shifts its own world coordinates likewise. `new_origin` must be finite. Each coordinate
/// is rounded once (x - new_origin in float). Costs one pass over the bodies and contacts; on a device
/// backend, one read and two writes. docs/large-worlds.md says when to shift.
RB_API rb_status rb_world_shift_origin(rb_world_id world, rb_vec3 new_origin);

// ---------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------

typedef enum rb_body_type {
    RB_BODY_STATIC = 0, ///< never moves; infinite mass
    RB_BODY_KINEMATIC,  ///< moves with its velocity; infinite mass; pushes dynamic bodies
    RB_BODY_DYNAMIC,    ///< moved by forces and contacts
} rb_body_type;

typedef struct rb_body_def {
    rb_body_type type;        ///< default RB_BODY_STATIC
    rb_vec3 position;         ///< m, world position of the body origin
    rb_quat rotation;         ///< default identity
    rb_vec3 linear_velocity;  ///< m/s, of the body origin (shapes added later keep the motion rigid)
    rb_vec3 angular_velocity; ///< rad/s, world frame
    float linear_damping;     ///< 1/s, default 0
    float angular_damping;    ///< 1/s, default 0
    float gravity_scale;      ///< default 1
    float mass;               ///< kg; 0 (default) = from shape densities; > 0 scales them to this total.
                              ///< A dynamic body without shapes has this mass (or 1 kg) and the
                              ///< inertia of a solid sphere of radius 0.5 m.
    bool is_awake;            ///< default true
    bool enable_sleep;        ///< default true
    bool is_bullet;           ///< fast body (Box2D's "bullet"): its motion is swept against static and kinematic
                              ///< shapes each step (continuous collision), so it cannot pass through them
                              ///< at any speed; default false (docs/limits.md)
    void *user_data;
    uint32_t internal_value;  ///< set by rb_default_body_def(); do not touch
} rb_body_def;

RB_API rb_body_def rb_default_body_def(void);

/// Body slots are handed out in creation order (0, 1, 2, ...); a destroyed body's slot is reused.
RB_API rb_status rb_create_body(rb_world_id world, const rb_body_def *def, rb_body_id *out);
/// Destroys the body and its shapes.
RB_API rb_status rb_destroy_body(rb_body_id body);

/// Id of the live body in slot `slot` (0-based), for use with the bulk functions.
RB_API rb_status rb_world_get_body_id(rb_world_id world, int slot, rb_body_id *out);

RB_API rb_status rb_body_get_type(rb_body_id body, rb_body_type *out);
RB_API rb_status rb_body_set_type(rb_body_id body, rb_body_type type);
RB_API rb_status rb_body_get_transform(rb_body_id body, rb_transform *out);
RB_API rb_status rb_body_set_transform(rb_body_id body, rb_vec3 position, rb_quat rotation);
RB_API rb_status rb_body_get_position(rb_body_id body, rb_vec3 *out);
RB_API rb_status rb_body_get_rotation(rb_body_id body, rb_quat *out);
/// World position of the centre of mass.
RB_API rb_status rb_body_get_world_center(rb_body_id body, rb_vec3 *out);
/// Velocity of the centre of mass.
RB_API rb_status rb_body_get_linear_velocity(rb_body_id body, rb_vec3 *out);
RB_API rb_status rb_body_set_linear_velocity(rb_body_id body, rb_vec3 v);
RB_API rb_status rb_body_get_angular_velocity(rb_body_id body, rb_vec3 *out);
RB_API rb_status rb_body_set_angular_velocity(rb_body_id body, rb_vec3 w);

/// Forces and torques accumulate until the end of the next step. `point` is in world coordinates.
RB_API rb_status rb_body_apply_force(rb_body_id body, rb_vec3 force, rb_vec3 point, bool wake);
RB_API rb_status rb_body_apply_force_to_center(rb_body_id body, rb_vec3 force, bool wake);
RB_API rb_status rb_body_apply_torque(rb_body_id body, rb_vec3 torque, bool wake);
/// Impulses change the velocity at once (N·s, N·m·s).
RB_API rb_status rb_body_apply_linear_impulse(rb_body_id body, rb_vec3 impulse, rb_vec3 point, bool wake);
RB_API rb_status rb_body_apply_linear_impulse_to_center(rb_body_id body, rb_vec3 impulse, bool wake);
RB_API rb_status rb_body_apply_angular_impulse(rb_body_id body, rb_vec3 impulse, bool wake);

RB_API rb_status rb_body_set_linear_damping(rb_body_id body, float damping);
RB_API rb_status rb_body_set_angular_damping(rb_body_id body, float damping);
RB_API rb_status rb_body_set_gravity_scale(rb_body_id body, float scale);
RB_API rb_status rb_body_get_linear_damping(rb_body_id body, float *out);
RB_API rb_status rb_body_get_angular_damping(rb_body_id body, float *out);
RB_API rb_status rb_body_get_gravity_scale(rb_body_id body, float *out);

/// Mass properties. `inertia` is about the centre of mass, in the body frame.
typedef struct rb_mass_data {
    float mass;               ///< kg
    rb_vec3 center;           ///< centre of mass in the body frame, m
    rb_vec3 inertia;          ///< (Ixx, Iyy, Izz), kg·m²
    rb_vec3 inertia_products; ///< (Ixy, Ixz, Iyz), kg·m²
} rb_mass_data;

RB_API rb_status rb_body_get_mass_data(rb_body_id body, rb_mass_data *out);
/// Overrides the mass from shapes until the next shape is added or removed. Dynamic bodies only;
/// mass must be > 0 and the inertia tensor positive definite. Kept while the body is static or
/// kinematic (whose mass reads 0) and in force again when it turns dynamic.
RB_API rb_status rb_body_set_mass_data(rb_body_id body, const rb_mass_data *data);
RB_API rb_status rb_body_get_mass(rb_body_id body, float *out);

RB_API rb_status rb_body_is_awake(rb_body_id body, bool *out);
RB_API rb_status rb_body_set_awake(rb_body_id body, bool awake);
RB_API rb_status rb_body_enable_sleep(rb_body_id body, bool enable);
/// Continuous collision against static and kinematic shapes (rb_body_def.is_bullet).
RB_API rb_status rb_body_set_bullet(rb_body_id body, bool bullet);
RB_API rb_status rb_body_is_bullet(rb_body_id body, bool *out);
RB_API void *rb_body_get_user_data(rb_body_id body);
RB_API rb_status rb_body_set_user_data(rb_body_id body, void *user_data);
RB_API rb_status rb_body_get_shape_count(rb_body_id body, int *out);
/// Writes up to `capacity` shape ids; `count` (optional) receives how many the body has.
RB_API rb_status rb_body_get_shapes(rb_body_id body, rb_shape_id *out, int capacity, int *count);

// ---------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------

typedef enum rb_shape_type {
    RB_SHAPE_SPHERE = 0,
    RB_SHAPE_CAPSULE,
    RB_SHAPE_BOX,
    RB_SHAPE_PLANE, ///< infinite half-space, static bodies only
} rb_shape_type;

/// Contact material of a pair: friction = sqrt(f_a · f_b) (geometric mean, so a frictionless shape
/// slides on anything), likewise the static friction, restitution = max(e_a, e_b) (so a bouncy ball
/// bounces on any floor). Every solver holds a contact that does not slip within the static cone and
/// slides with the kinetic one.
typedef struct rb_shape_def {
    rb_vec3 local_position;  ///< m, in the body frame
    rb_quat local_rotation;  ///< default identity
    float density;           ///< kg/m³, default 1000
    float friction;          ///< Coulomb coefficient (kinetic), default 0.6
    float static_friction;   ///< static coefficient mu_s >= friction; 0 (default) = equal to friction
    float restitution;       ///< 0 (default) to 1
    uint32_t category_bits;  ///< default 1
    uint32_t mask_bits;      ///< default all; two shapes collide iff each one's category is in the other's mask
    void *user_data;
    uint32_t internal_value; ///< set by rb_default_shape_def(); do not touch
} rb_shape_def;

RB_API rb_shape_def rb_default_shape_def(void);

typedef struct rb_sphere {
    float radius; ///< m, > 0
} rb_sphere;

/// Segment along the shape's local y axis from -half_length to +half_length, swept by radius.
typedef struct rb_capsule {
    float half_length; ///< m, >= 0
    float radius;      ///< m, > 0
} rb_capsule;

typedef struct rb_box {
    rb_vec3 half_extents; ///< m, each > 0
} rb_box;

/// Solid half-space { x : dot(normal, x) <= offset } in the body frame; the surface faces +normal.
typedef struct rb_plane {
    rb_vec3 normal; ///< non-zero; normalised on creation
    float offset;   ///< m
} rb_plane;

RB_API rb_status rb_create_sphere_shape(rb_body_id body, const rb_shape_def *def, const rb_sphere *sphere, rb_shape_id *out);
RB_API rb_status rb_create_capsule_shape(rb_body_id body, const rb_shape_def *def, const rb_capsule *capsule, rb_shape_id *out);
RB_API rb_status rb_create_box_shape(rb_body_id body, const rb_shape_def *def, const rb_box *box, rb_shape_id *out);
/// Planes only on static bodies (RB_ERR_INVALID_ARGUMENT otherwise).
RB_API rb_status rb_create_plane_shape(rb_body_id body, const rb_shape_def *def, const rb_plane *plane, rb_shape_id *out);
RB_API rb_status rb_destroy_shape(rb_shape_id shape);

RB_API rb_status rb_shape_get_type(rb_shape_id shape, rb_shape_type *out);
RB_API rb_status rb_shape_get_body(rb_shape_id shape, rb_body_id *out);
RB_API rb_status rb_shape_get_sphere(rb_shape_id shape, rb_sphere *out);
RB_API rb_status rb_shape_get_capsule(rb_shape_id shape, rb_capsule *out);
RB_API rb_status rb_shape_get_box(rb_shape_id shape, rb_box *out);
RB_API rb_status rb_shape_get_plane(rb_shape_id shape, rb_plane *out);
RB_API rb_status rb_shape_get_local_transform(rb_shape_id shape, rb_transform *out);
RB_API rb_status rb_shape_set_friction(rb_shape_id shape, float friction);
/// mu_s; 0 = equal to the kinetic friction.
RB_API rb_status rb_shape_set_static_friction(rb_shape_id shape, float static_friction);
RB_API rb_status rb_shape_get_static_friction(rb_shape_id shape, float *out);
RB_API rb_status rb_shape_get_friction(rb_shape_id shape, float *out);
RB_API rb_status rb_shape_set_restitution(rb_shape_id shape, float restitution);
RB_API rb_status rb_shape_get_restitution(rb_shape_id shape, float *out);
/// Changing the density recomputes the body's mass (unless the body has a fixed mass).
RB_API rb_status rb_shape_set_density(rb_shape_id shape, float density);
RB_API rb_status rb_shape_get_density(rb_shape_id shape, float *out);
/// World-space bounding box as of the last step (or creation). Planes: RB_ERR_UNSUPPORTED.
RB_API rb_status rb_shape_get_aabb(rb_shape_id shape, rb_vec3 *lower, rb_vec3 *upper);
RB_API void *rb_shape_get_user_data(rb_shape_id shape);
RB_API rb_status rb_shape_set_user_data(rb_shape_id shape, void *user_data);

// ---------------------------------------------------------------------------------------------
// Bulk access: body slots [first, first + count); every slot in the range must hold a live body.
// ---------------------------------------------------------------------------------------------

RB_API rb_status rb_world_get_transforms(rb_world_id world, int first, int count, rb_transform *out);
RB_API rb_status rb_world_set_transforms(rb_world_id world, int first, int count, const rb_transform *in);
/// Either output may be NULL.
RB_API rb_status rb_world_get_velocities(rb_world_id world, int first, int count, rb_vec3 *linear, rb_vec3 *angular);
/// Either input may be NULL (left unchanged). Sleeping bodies given a non-zero velocity wake up.
RB_API rb_status rb_world_set_velocities(rb_world_id world, int first, int count, const rb_vec3 *linear, const rb_vec3 *angular);
/// Awake flags of the bodies (static bodies read false).
RB_API rb_status rb_world_get_awake(rb_world_id world, int first, int count, bool *out);

// ---------------------------------------------------------------------------------------------
// Contacts of the last step, one entry per contact point, ordered by shape pair then point.
// ---------------------------------------------------------------------------------------------

typedef struct rb_contact {
    rb_body_id body_a, body_b;
    rb_shape_id shape_a, shape_b;
    rb_vec3 point;            ///< world, midway between the two surfaces
    rb_vec3 normal;           ///< unit, points from A to B
    float depth;              ///< m, > 0 when penetrating; negative for a speculative (not yet touching) point
    float normal_impulse;     ///< N·s applied along the normal in the last substep (sequential solver: a slow
                              ///< resting body carries 1 - gravity_damping of its weight, docs/solver-sequential.md)
    rb_vec3 friction_impulse; ///< N·s of friction applied to B in the last step (A got the opposite), world frame
} rb_contact;

RB_API rb_status rb_world_get_contact_count(rb_world_id world, int *out);
RB_API rb_status rb_world_get_contacts(rb_world_id world, int first, int count, rb_contact *out);

/// A candidate pair of the broad phase (bounding boxes overlap); shape_a has the lower slot.
typedef struct rb_shape_pair {
    rb_shape_id shape_a, shape_b;
} rb_shape_pair;

/// Candidate pairs of the last step's broad phase, sorted by (shape_a, shape_b) slot, the same list
/// on every backend (what `rubble check` compares). Pairs of destroyed shapes are not reported.
RB_API rb_status rb_world_get_pair_count(rb_world_id world, int *out);
RB_API rb_status rb_world_get_pairs(rb_world_id world, int first, int count, rb_shape_pair *out);

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

typedef struct rb_ray_hit {
    bool hit;            ///< false: nothing on the segment (the other fields are zero)
    rb_body_id body;
    rb_shape_id shape;
    rb_vec3 point;       ///< world, on the shape's surface
    rb_vec3 normal;      ///< unit, the surface normal at the point (pointing out of the shape)
    float fraction;      ///< point = origin + fraction * translation, in [0, 1]
} rb_ray_hit;

/// The first shape hit by the segment from `origin` to `origin + translation` (positions of the
/// last step or later edits). A segment that starts inside a shape hits it at fraction 0 with the
/// normal -translation/|translation|. Shapes whose category is not in `mask_bits` are ignored
/// (pass 0xffffffff for all). RB_OK also when nothing is hit (out->hit = false).
RB_API rb_status rb_world_cast_ray(rb_world_id world, rb_vec3 origin, rb_vec3 translation, uint32_t mask_bits,
                                   rb_ray_hit *out);

// ---------------------------------------------------------------------------------------------
// Scenes
// ---------------------------------------------------------------------------------------------

/// Load a scene file (docs/scene-format.md) into the world: its bodies are added and its world
/// settings applied. On any error (RB_ERR_IO, RB_ERR_PARSE with file:line:column and what was
/// expected, or a rejected value) nothing is loaded and the world is unchanged.
RB_API rb_status rb_load_scene(rb_world_id world, const char *path);
/// As rb_load_scene, from text in memory; `name` is used in messages.
RB_API rb_status rb_load_scene_text(rb_world_id world, const char *text, const char *name);

/// Build a standard scene of BENCH-SCENES.md in code: "pyramid", "stack", "pile", "pile:S" (S x S x 20
/// spheres), "boxes". `seed` feeds the jitter and rotations (the standard is 1). Adds the ground
/// and pen, and sets gravity (0, -9.81, 0).
RB_API rb_status rb_build_standard_scene(rb_world_id world, const char *name, uint64_t seed);

// ---------------------------------------------------------------------------------------------
// Backends
// ---------------------------------------------------------------------------------------------

typedef struct rb_backend_info {
    rb_backend backend;
    const char *name;   ///< "cpu", "opencl", "cuda"
    bool built;         ///< compiled into this installation (CPU) or its module file was found
    bool available;     ///< can start on this machine
    char device[256];   ///< device it would run on, when available
    char message[512];  ///< why not available, or notes (module path, thread count)
} rb_backend_info;

/// Probe a backend without creating a world (loads its module if there is one).
RB_API rb_status rb_backend_probe(rb_backend backend, rb_backend_info *out);
/// "cpu", "opencl", "cuda", "auto".
RB_API const char *rb_backend_name(rb_backend backend);
/// Parse a backend name (case-insensitive); RB_ERR_INVALID_ARGUMENT for anything else.
RB_API rb_status rb_backend_from_name(const char *name, rb_backend *out);
RB_API const char *rb_solver_name(rb_solver solver);
RB_API rb_status rb_solver_from_name(const char *name, rb_solver *out);

#ifdef __cplusplus
}
#endif

#endif // RUBBLE_H
