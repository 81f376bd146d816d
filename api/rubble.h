/// @file rubble.h
/// @brief rubble — rigid body dynamics runtime. The whole public API.
///
/// Units are SI (m, kg, s, rad); y is up; floats are 32-bit.
/// Every function that can fail returns rb_status; rb_last_error() gives a sentence that names the
/// argument, the rule and the value. A failed call leaves the world as it was.
/// Ids are small values with a generation, so a stale id is detected instead of dereferenced.
///
/// Threads: one world may be used by one thread at a time (calls on the same world, or on its
/// bodies and shapes, must not overlap); different worlds may be created, stepped and destroyed
/// from different threads at once. Functions that take no world, body or shape id
/// (rb_version_string(), rb_status_string(), rb_default_*_def(), rb_quat_from_axis_angle(), the
/// name functions) may be called from any thread; rb_create_world() takes a lock. On the CPU backend a step's
/// results are bit-identical for any thread count.
///
/// The reference is grouped by area: @ref math, @ref errors, @ref ids, @ref worlds, @ref bodies,
/// @ref shapes, @ref contacts, @ref queries, @ref scenes, @ref backends. The guide with a complete
/// program is docs/api.md.
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

/// @defgroup math Version and math values
/// @brief The library version, vectors, quaternions and transforms.
/// @{

/// Major version of the header (the library that is linked may differ: rb_version_string()).
#define RB_VERSION_MAJOR 0
/// Minor version of the header.
#define RB_VERSION_MINOR 1
/// Patch version of the header.
#define RB_VERSION_PATCH 0

/// Version of the library that is linked (may differ from the header's RB_VERSION_* macros).
/// @return "major.minor.patch", a static string; never NULL, never to be freed.
RB_API const char *rb_version_string(void);

// ---------------------------------------------------------------------------------------------
// Math values
// ---------------------------------------------------------------------------------------------

/// A 3-vector: a position (m), a velocity (m/s), a force (N)... in the world frame unless said otherwise.
typedef struct rb_vec3 {
    float x, y, z; ///< z component
} rb_vec3;
/// @var rb_vec3::x
/// x component
/// @var rb_vec3::y
/// y component (up)

/// Unit quaternion, scalar last; identity is (0, 0, 0, 1).
/// Functions that take a rotation accept a quaternion whose length is strictly between 0.9 and 1.1
/// and normalise it; anything else (or a non-finite component) is RB_ERR_INVALID_ARGUMENT.
typedef struct rb_quat {
    float x, y, z, w;
} rb_quat;
/// @var rb_quat::x
/// x of the vector part (axis · sin(angle / 2))
/// @var rb_quat::y
/// y of the vector part
/// @var rb_quat::z
/// z of the vector part
/// @var rb_quat::w
/// scalar part (cos(angle / 2))

/// A rigid transform: rotation `q`, then translation `p`.
typedef struct rb_transform {
    rb_vec3 p; ///< position, m
    rb_quat q; ///< rotation
} rb_transform;

/// Rotation of `angle` rad about `axis` (normalised here; a zero axis gives the identity).
/// @param axis rotation axis, any length > 0 (right-hand rule)
/// @param angle rad
/// @return the unit quaternion (0, 0, 0, 1) for a zero axis.
RB_API rb_quat rb_quat_from_axis_angle(rb_vec3 axis, float angle);

/// @}

// ---------------------------------------------------------------------------------------------
// Status and errors
// ---------------------------------------------------------------------------------------------

/// @defgroup errors Status and errors
/// @brief rb_status, its names and the last error's message.
///
/// Every function that can fail returns an rb_status. Unless a function says otherwise:
/// - an id that names no live world, body or shape (null, destroyed, or of a destroyed world) is
///   RB_ERR_STALE_ID;
/// - a NULL output pointer is RB_ERR_INVALID_ARGUMENT (every getter refuses one), and so is a
///   non-finite float argument;
/// - on a GPU backend, a call that reads or edits bodies or shapes first copies the scene back from
///   the device once after each step; if that copy fails, the call returns the backend's status
///   (RB_ERR_BACKEND_FAILED, RB_ERR_OUT_OF_MEMORY) and changes nothing.
///
/// A failed call changes nothing (docs/limits.md lists every rule). rb_last_error() gives the sentence.
/// @{

/// Result of every call that can fail.
typedef enum rb_status {
    RB_OK = 0,                  ///< success
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

/// Short fixed name of a status ("ok", "invalid argument", "stale id", ...).
/// @param status any value; one outside the enum gives "unknown status"
/// @return a static string; never NULL, never to be freed. Thread-safe.
RB_API const char *rb_status_string(rb_status status);

/// @}

// ---------------------------------------------------------------------------------------------
// Ids. Zero-initialised ids are null. Compare with the rb_*_equal() functions.
// ---------------------------------------------------------------------------------------------

/// @defgroup ids Ids
/// @brief Small value handles of worlds, bodies and shapes.
///
/// Ids are values, never pointers. Zero-initialised ids are null (rb_null_world_id, ...). Each id
/// carries a generation, so the id of a destroyed object stays stale even after its slot is reused
/// (also by a later world in the same world slot). Compare with rb_body_equal() / rb_shape_equal().
/// @{

/// Id of a world (rb_create_world()). Up to 128 worlds exist at once.
typedef struct rb_world_id {
    uint16_t index1; ///< slot + 1; 0 is null
    uint16_t generation; ///< generation of the slot; tells a reused slot from the world that was there
} rb_world_id;

/// Id of a body (rb_create_body()).
typedef struct rb_body_id {
    int32_t index1; ///< slot + 1; 0 is null. The slot is what the bulk functions index
    uint16_t world0; ///< slot of the world (0-based)
    uint16_t generation; ///< generation of the body slot
} rb_body_id;

/// Id of a shape (rb_create_sphere_shape(), ...).
typedef struct rb_shape_id {
    int32_t index1; ///< slot + 1; 0 is null
    uint16_t world0; ///< slot of the world (0-based)
    uint16_t generation; ///< generation of the shape slot
} rb_shape_id;

/// Id of a convex hull (rb_compute_hull()): geometry that many convex shapes of its world share.
typedef struct rb_hull_id {
    int32_t index1; ///< slot + 1; 0 is null
    uint16_t world0; ///< slot of the world (0-based)
    uint16_t generation; ///< generation of the hull slot
} rb_hull_id;

/// The null world id. Passed to rb_last_error(), it gives the calling thread's last failure.
static const rb_world_id rb_null_world_id = {0, 0};
/// The null body id (never valid).
static const rb_body_id rb_null_body_id = {0, 0, 0};
/// The null shape id (never valid).
static const rb_shape_id rb_null_shape_id = {0, 0, 0};
/// The null hull id (never valid).
static const rb_hull_id rb_null_hull_id = {0, 0, 0};

/// Whether `id` names a live world. Records no error.
/// @param id any world id, null included
/// @return true while the world exists.
RB_API bool rb_world_is_valid(rb_world_id id);
/// Whether `id` names a live body (of a live world). Records no error.
/// @param id any body id, null included
/// @return true while the body exists.
RB_API bool rb_body_is_valid(rb_body_id id);
/// Whether `id` names a live shape (of a live world). Records no error.
/// @param id any shape id, null included
/// @return true while the shape exists.
RB_API bool rb_shape_is_valid(rb_shape_id id);
/// Whether two body ids are the same id (slot, world and generation), live or not.
/// @param a first id
/// @param b second id
/// @return true when every field is equal.
RB_API bool rb_body_equal(rb_body_id a, rb_body_id b);
/// Whether two shape ids are the same id (slot, world and generation), live or not.
/// @param a first id
/// @param b second id
/// @return true when every field is equal.
RB_API bool rb_shape_equal(rb_shape_id a, rb_shape_id b);

/// @}

/// @addtogroup errors
/// @{

/// Message of the last failed call on this world. With a null or stale world id: the message of the
/// last failed call made by this thread (for rb_create_world and other calls that have no world yet).
/// A call that failed on an id naming no live world (a null or malformed body or shape id, one of a
/// destroyed world) after the world's own last failure is the one reported, so the message is
/// never an older one.
/// @param world the world asked about, or rb_null_world_id for the calling thread's last failure
/// @return "" when nothing has failed; never NULL, never to be freed. The text stays valid until the
///         next failing call on that world (or, for the thread's message, by that thread).
RB_API const char *rb_last_error(rb_world_id world);

/// @}

// ---------------------------------------------------------------------------------------------
// World
// ---------------------------------------------------------------------------------------------

/// @defgroup worlds Worlds
/// @brief Creating, stepping, configuring and inspecting a world.
/// @{

/// Which backend runs a world (docs/backends.md).
typedef enum rb_backend {
    RB_BACKEND_AUTO = 0, ///< RUBBLE_BACKEND if set (cpu, opencl, cuda, auto), else best available
    RB_BACKEND_CPU,      ///< the CPU backend, built into librubble (OpenMP threads)
    RB_BACKEND_OPENCL,   ///< the OpenCL module librubble-opencl.so
    RB_BACKEND_CUDA,     ///< the CUDA module librubble-cuda.so
} rb_backend;

/// Contact solver (docs/solver.md). The CPU backend has all four; OpenCL and CUDA have batched and split.
typedef enum rb_solver {
    RB_SOLVER_DEFAULT = 0, ///< the backend's default (CPU: soft; OpenCL, CUDA: batched)
    RB_SOLVER_BATCHED,     ///< projected Gauss-Seidel over graph-coloured batches, warm started
    RB_SOLVER_SEQUENTIAL,  ///< pe (Schornbaum 2010): penetration correction, sequential impulses largest-closing-first,
                           ///< shock propagation, per-body sleeping with gravity damping (CPU)
    RB_SOLVER_SPLIT,       ///< projected Jacobi with mass splitting (Tonge et al. 2012), warm started
    RB_SOLVER_SOFT,        ///< soft step (Box2D v3): substeps with soft contacts and relax iterations over
                           ///< graph-coloured batches, static friction, impacts resolved largest-closing-first (CPU)
} rb_solver;

/// Tunables of the `sequential` solver (docs/solver-sequential.md). A value of 0 means "automatic":
/// the high-performance setting of Schornbaum 2010 §5.1 scaled to the substep h and gravity |g|.
typedef struct rb_sequential_def {
    float penetration_threshold;   ///< m, contacts deeper than this are corrected; 0: 10 |g| h^2 (1.74 mm at 240 Hz)
    float remaining_penetration;   ///< fraction of the threshold left in place on purpose, in (0, 1); default 0.5
    float resolution_threshold;    ///< m/s, contacts closing faster than this are resolved; 0: |g| h / 500
    float sleep_threshold;         ///< m/s, bound on a body's surface speed to sleep; 0: |g| h / 5 (must be < |g| h)
    float sleep_bias;              ///< weight of the past in the recency-weighted motion average, [0, 1); default 0.5
    float sleep_motion_max;        ///< m/s, clamp of that average (rwa_max); 0: 4 x sleep_threshold
    float gravity_damping;         ///< fraction of gravity withheld from slow bodies, [0, 1]; default 0.7
    float gravity_damping_threshold; ///< m/s, a body slower than this is "slow"; 0: 2 |g| h
    float max_iterations;          ///< cap on resolutions per batch, times its contact count, (0, 1e6]; default 2
    float shock_iterations;        ///< cap per shock-propagation level, times its contact count, (0, 1e6]; default 6
    bool shock_propagation;        ///< default true
    float settle_iterations;       ///< after shock propagation, a last global pass with all masses restored,
                                   ///< capped at this times the contacts, [0, 1e6]; default 1 (0: none)
    int heap_threshold;            ///< batches with more contacts keep the closing contacts in a heap; default 64
    int large_batch;               ///< batches with at least this many contacts are scheduled first; default 8
    int split_contacts;            ///< batches with more contacts are solved in spatial parts in parallel; default 0 (never;
                                   ///< docs/solver-sequential.md measures why)
    bool warm_start;               ///< start each contact from its last impulse (rubble's addition; default true)
} rb_sequential_def;

/// Every setting of a world. Start from rb_default_world_def(): a def that did not come from it is
/// rejected. The ranges checked are in docs/api.md ("Worlds") and docs/limits.md.
typedef struct rb_world_def {
    rb_vec3 gravity;            ///< m/s², default (0, -9.81, 0)
    float time_step;            ///< s per rb_world_step(), > 0, default 1/60
    int substeps;               ///< equal substeps per step, [0, 64]; 0 (default) = the solver's choice (batched
                                ///< and split 1, sequential 3, soft 4)
    int iterations;             ///< velocity iterations per substep, [1, 1000], default 10 (batched, split)
    int position_iterations;    ///< split-impulse position iterations per substep, [0, 1000], default 4
                                ///< (batched, split)
    rb_solver solver;           ///< default RB_SOLVER_DEFAULT: CPU soft, OpenCL and CUDA batched
    rb_sequential_def sequential; ///< tunables of the sequential solver
    rb_backend backend;         ///< default RB_BACKEND_AUTO (reads RUBBLE_BACKEND)
    int threads;                ///< CPU threads, [0, 1024]; 0 = RUBBLE_THREADS, else OMP_NUM_THREADS, else all cores
    bool enable_sleep;          ///< bodies at rest fall asleep, default true
    float position_correction;  ///< fraction of the penetration removed per substep, [0, 1], default 0.2
                                ///< (batched, split)
    float max_push_velocity;    ///< m/s, cap on the speed that resolves penetration, default 3 (batched, split)
    float contact_margin;       ///< m, contacts are made up to this separation (speculative), default 0.02
    float linear_slop;          ///< m, penetration left alone (absorbs rounding), default 0.0005
    float restitution_threshold;///< m/s, slower impacts do not bounce (every solver); 0 (default): the solver's
                                ///< choice, batched, split and soft 1 m/s, sequential 1.1 |g| h (6 cm/s at 180 Hz)
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
    float joint_hertz;          ///< soft: stiffness of the joints' rows, Hz; 0 (default): a quarter of the substep
                                ///< rate, at least 60 (Box2D's) and at most half the rate: more substeps make
                                ///< stiffer joints (docs/joints.md)
    float joint_damping_ratio;  ///< soft: damping ratio of the joints' rows, default 2
    int body_capacity;          ///< initial capacity hint, default 0
    int shape_capacity;         ///< initial capacity hint, default 0
    int max_pairs;              ///< budget of broad-phase candidate pairs (and so of contact manifolds) per step;
                                ///< 0 (default): 32 per shape + 65,536. A step that would exceed it fails with
                                ///< RB_ERR_CAPACITY and the count in the message, the world left as before it
                                ///< (docs/limits.md)
    uint32_t internal_value;    ///< set by rb_default_world_def(); do not touch
} rb_world_def;

/// A world def with every default (see the fields of rb_world_def). Thread-safe.
/// @return the defaults, ready for rb_create_world().
RB_API rb_world_def rb_default_world_def(void);

/// Create a world. Returns RB_OK and writes the id, or an error status (see rb_last_error with a
/// null id). Asking for a backend by name that cannot start is an error, never a silent fallback.
/// Thread-safe (worlds are created under a lock).
/// @param def settings, from rb_default_world_def(); copied, so it may be freed after the call
/// @param[out] out receives the new world's id (untouched on failure)
/// @return RB_OK;
///   RB_ERR_INVALID_ARGUMENT for a NULL argument, a def not from rb_default_world_def(), a value out
///   of range, or a bad RUBBLE_BACKEND / RUBBLE_THREADS / OMP_NUM_THREADS;
///   RB_ERR_CAPACITY when 128 worlds exist already;
///   RB_ERR_BACKEND_UNAVAILABLE / RB_ERR_BACKEND_FAILED / RB_ERR_OUT_OF_MEMORY when the backend
///   cannot start (the message says why);
///   RB_ERR_UNSUPPORTED when the backend does not implement the requested solver.
RB_API rb_status rb_create_world(const rb_world_def *def, rb_world_id *out);
/// Destroy a world with its bodies and shapes, and release its backend. Every id of the world
/// becomes stale, and so do the strings it returned (rb_world_get_info(), rb_world_backend_name()).
/// @param world the world
/// @return RB_OK, or RB_ERR_STALE_ID.
RB_API rb_status rb_destroy_world(rb_world_id world);

/// Advance by the world's time step (rb_world_set_time_step), in its number of substeps.
/// Forces applied since the last step act during this one and are then cleared. Gravity changes
/// scheduled by a loaded scene file's events apply at the start of the step that reaches their time,
/// and wake every body.
/// RB_ERR_NUMERIC if a body's state became non-finite: that body is restored to its state before the
/// step and frozen (its neighbours are unaffected); the step itself completed. A frozen body stays out
/// of the simulation until the application sets its state: rb_body_set_awake(true), set_transform,
/// set_linear_velocity / set_angular_velocity, or a force or impulse with wake = true returns it.
/// @param world the world
/// @return RB_OK;
///   RB_ERR_NUMERIC as above (the step completed);
///   RB_ERR_STALE_ID;
///   RB_ERR_CAPACITY when the broad phase found more pairs than rb_world_def.max_pairs;
///   RB_ERR_OUT_OF_MEMORY, RB_ERR_BACKEND_FAILED when memory or the device fails.
///   After a failure other than RB_ERR_NUMERIC the bodies are as before the step (on GPU backends: for
///   multi-substep batched or split steps, as the failing substep found them) and no pairs or
///   contacts are reported until a step completes (docs/limits.md).
RB_API rb_status rb_world_step(rb_world_id world);

/// What runs a world (rb_world_get_info()). The strings belong to the world.
typedef struct rb_world_info {
    const char *backend;     ///< "cpu", "opencl", "cuda"
    const char *device;      ///< device description
    const char *solver;      ///< "batched", "split", "sequential" or "soft" (rb_solver_name())
    const char *selection;   ///< how the backend was chosen, e.g. "auto: no GPU backend built; using cpu"
    int threads;             ///< CPU threads in use
} rb_world_info;

/// Which backend, device, solver and thread count the world uses, and how the backend was chosen.
/// Strings stay valid while the world exists.
/// @param world the world
/// @param[out] out receives the info; its strings belong to the world (do not free them)
/// @return RB_OK, RB_ERR_STALE_ID, or RB_ERR_INVALID_ARGUMENT when `out` is NULL.
RB_API rb_status rb_world_get_info(rb_world_id world, rb_world_info *out);
/// Name of the world's backend.
/// @param world the world
/// @return "cpu", "opencl" or "cuda", valid while the world exists; "" for a null or stale id
///         (which also records RB_ERR_STALE_ID for rb_last_error()). Never NULL.
RB_API const char *rb_world_backend_name(rb_world_id world);

/// The world's current settings (as created, with every rb_world_set_* applied since, and the
/// backend and solver resolved: never RB_BACKEND_AUTO / RB_SOLVER_DEFAULT; `substeps` is the number
/// in use, never 0).
/// @param world the world
/// @param[out] out receives the settings
/// @return RB_OK, RB_ERR_STALE_ID, or RB_ERR_INVALID_ARGUMENT when `out` is NULL.
RB_API rb_status rb_world_get_def(rb_world_id world, rb_world_def *out);
/// Set gravity; it applies from the next step. Sleeping bodies are not woken.
/// @param world the world
/// @param gravity m/s², finite
/// @return RB_OK, RB_ERR_STALE_ID, or RB_ERR_INVALID_ARGUMENT for a non-finite value or one that
///         breaks sequential.sleep_threshold < |g| h.
RB_API rb_status rb_world_set_gravity(rb_world_id world, rb_vec3 gravity);
/// Read gravity.
/// @param world the world
/// @param[out] out receives gravity, m/s²
/// @return RB_OK, RB_ERR_STALE_ID, or RB_ERR_INVALID_ARGUMENT when `out` is NULL.
RB_API rb_status rb_world_get_gravity(rb_world_id world, rb_vec3 *out);
/// Set the time advanced by each rb_world_step() and its substeps.
/// @param world the world
/// @param time_step s, finite and > 0
/// @param substeps equal substeps per step, [0, 64]; 0: the solver's choice
/// @return RB_OK, RB_ERR_STALE_ID, or RB_ERR_INVALID_ARGUMENT for a value out of range or one that
///         breaks sequential.sleep_threshold < |g| h.
RB_API rb_status rb_world_set_time_step(rb_world_id world, float time_step, int substeps);
/// Read the time step and the number of substeps in use (the solver's choice resolved, never 0).
/// @param world the world
/// @param[out] time_step receives s per step; may be NULL
/// @param[out] substeps receives the substeps per step; may be NULL (not both)
/// @return RB_OK, RB_ERR_STALE_ID, or RB_ERR_INVALID_ARGUMENT when both outputs are NULL.
RB_API rb_status rb_world_get_time_step(rb_world_id world, float *time_step, int *substeps);
/// Set the iteration counts of the batched and split solvers (the others ignore them).
/// @param world the world
/// @param iterations velocity iterations per substep, [1, 1000]
/// @param position_iterations split-impulse position iterations per substep, [0, 1000]
/// @return RB_OK, RB_ERR_STALE_ID, or RB_ERR_INVALID_ARGUMENT for a value out of range.
RB_API rb_status rb_world_set_iterations(rb_world_id world, int iterations, int position_iterations);
/// Switch the contact solver; it applies from the next step.
/// @param world the world
/// @param solver RB_SOLVER_DEFAULT picks the backend's default
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT for a value outside rb_solver,
///         RB_ERR_UNSUPPORTED when the world's backend does not implement it (GPU: soft, sequential).
RB_API rb_status rb_world_set_solver(rb_world_id world, rb_solver solver);
/// Replaces the sequential solver's tunables (all checked first; nothing changes on an error). Start from
/// rb_world_get_def(world, &d).sequential to change one field.
/// @param world the world
/// @param def the new tunables (copied)
/// @return RB_OK, RB_ERR_STALE_ID, or RB_ERR_INVALID_ARGUMENT for NULL or a field out of its range
///         (see rb_sequential_def).
RB_API rb_status rb_world_set_sequential(rb_world_id world, const rb_sequential_def *def);
/// Allow or forbid sleeping in the whole world. Forbidding it wakes every sleeping body.
/// @param world the world
/// @param enable true: bodies at rest fall asleep (the default)
/// @return RB_OK, RB_ERR_STALE_ID, or a backend status (a GPU backend could not copy the scene back).
RB_API rb_status rb_world_enable_sleep(rb_world_id world, bool enable);
/// Impacts slower than this (m/s) do not bounce; 0: the solver's choice (rb_world_def.restitution_threshold).
/// @param world the world
/// @param threshold m/s, finite and >= 0
/// @return RB_OK, RB_ERR_STALE_ID, or RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_world_set_restitution_threshold(rb_world_id world, float threshold);

/// Per-phase wall time of the last rb_world_step(), in milliseconds (substeps summed).
typedef struct rb_profile {
    float step;       ///< the whole step
    float integrate;  ///< velocity and position integration
    float bounds;     ///< bounding boxes
    float broad;      ///< broad phase: candidate pairs
    float narrow;     ///< narrow phase: contact manifolds (and the bullets' sweeps)
    float batches;    ///< colouring / islands / batches
    float correct;    ///< penetration correction (solvers that have it)
    float solve;      ///< contact solver
    float sleep;      ///< sleep test and islands
    float transfer;   ///< host <-> device copies (GPU backends)
} rb_profile;

/// Wall time of each phase of the last completed step (zeros before the first).
/// @param world the world
/// @param[out] out receives the times, ms
/// @return RB_OK, RB_ERR_STALE_ID, or RB_ERR_INVALID_ARGUMENT when `out` is NULL.
RB_API rb_status rb_world_get_profile(rb_world_id world, rb_profile *out);

/// Counts of what is in a world and what the last step did (rb_world_get_counters()).
typedef struct rb_counters {
    int bodies;        ///< live bodies (all types)
    int awake_bodies;  ///< awake dynamic and kinematic bodies, now (after the calls since the last step)
    int shapes;        ///< live shapes
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

/// Body and shape counts as they are now, and the pair, contact and solver counts of the last
/// completed step (a failed step keeps the previous one's).
/// @param world the world
/// @param[out] out receives the counters
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT when `out` is NULL, or a backend status
///         when a GPU backend cannot copy the scene back.
RB_API rb_status rb_world_get_counters(rb_world_id world, rb_counters *out);

/// Large worlds (PhysX's shiftOrigin): moves the world's origin to `new_origin`, i.e. subtracts it from
/// every body's position, bound and contact point, so that the simulation near `new_origin` gets the
/// float precision it has near the origin. Velocities, contacts' impulses and sleep states are kept;
/// the application shifts its own world coordinates likewise. `new_origin` must be finite. Each coordinate
/// is rounded once (x - new_origin in float). Costs one pass over the bodies and contacts; on a device
/// backend, one read and two writes. docs/large-worlds.md says when to shift.
/// @param world the world
/// @param new_origin m, in the current coordinates: the point that becomes (0, 0, 0); zero does nothing
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT for a non-finite value or a shift that would
///         put a body beyond 1e18 m from the origin on an axis (nothing moves), or a backend status
///         when the device cannot move its copy.
RB_API rb_status rb_world_shift_origin(rb_world_id world, rb_vec3 new_origin);

/// @}

// ---------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------

/// @defgroup bodies Bodies
/// @brief Creating bodies, their state, forces, mass, sleeping, and bulk access by slot.
///
/// The body functions return RB_ERR_STALE_ID for an id that names no live body; see @ref errors for
/// the rules every call shares.
/// @{

/// How a body moves.
typedef enum rb_body_type {
    RB_BODY_STATIC = 0, ///< never moves; infinite mass
    RB_BODY_KINEMATIC,  ///< moves with its velocity; infinite mass; pushes dynamic bodies
    RB_BODY_DYNAMIC,    ///< moved by forces and contacts
} rb_body_type;

/// Settings of a new body. Start from rb_default_body_def(): a def that did not come from it is rejected.
typedef struct rb_body_def {
    rb_body_type type;        ///< default RB_BODY_STATIC
    rb_vec3 position;         ///< m, world position of the body origin, within 1e18 m on each axis
    rb_quat rotation;         ///< default identity
    rb_vec3 linear_velocity;  ///< m/s, of the body origin (shapes added later keep the motion rigid); ignored for
                              ///< static bodies
    rb_vec3 angular_velocity; ///< rad/s, world frame; ignored for static bodies
    float linear_damping;     ///< 1/s, >= 0, default 0
    float angular_damping;    ///< 1/s, >= 0, default 0
    float gravity_scale;      ///< default 1
    float mass;               ///< kg; 0 (default) = from shape densities; > 0 scales them to this total.
                              ///< A dynamic body without shapes has this mass (or 1 kg) and the
                              ///< inertia of a solid sphere of radius 0.5 m. Dynamic bodies only;
                              ///< 0 or in [1e-30, 1e30]
    bool is_awake;            ///< default true
    bool enable_sleep;        ///< default true
    bool is_bullet;           ///< fast body (Box2D's "bullet"): its motion is swept against static and kinematic
                              ///< shapes each step (continuous collision), so it cannot pass through them
                              ///< at any speed; default false (docs/limits.md)
    void *user_data;          ///< the application's pointer (rb_body_get_user_data()); rubble never reads it
    uint32_t internal_value;  ///< set by rb_default_body_def(); do not touch
} rb_body_def;

/// A body def with every default (see the fields of rb_body_def). Thread-safe.
/// @return the defaults: a static body at the origin.
RB_API rb_body_def rb_default_body_def(void);

/// Create a body (without shapes: add them with rb_create_sphere_shape() and the like).
/// Body slots are handed out in creation order (0, 1, 2, ...); a destroyed body's slot is reused.
/// @param world the world
/// @param def settings, from rb_default_body_def() (copied)
/// @param[out] out receives the new body's id
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL argument, def not from
///         rb_default_body_def(), a value out of range, a mass on a static or kinematic body),
///         RB_ERR_CAPACITY (2^28 body slots), RB_ERR_OUT_OF_MEMORY.
RB_API rb_status rb_create_body(rb_world_id world, const rb_body_def *def, rb_body_id *out);
/// Destroys the body and its shapes. Bodies it touched are woken; the contact and pair lists are
/// empty until the next step.
/// @param body the body
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_destroy_body(rb_body_id body);

/// Id of the live body in slot `slot` (0-based), for use with the bulk functions.
/// @param world the world
/// @param slot body slot, [0, rb_counters.body_slots)
/// @param[out] out receives the id
/// @return RB_OK, RB_ERR_STALE_ID for a stale world or a slot that holds no live body,
///         RB_ERR_INVALID_ARGUMENT when `out` is NULL.
RB_API rb_status rb_world_get_body_id(rb_world_id world, int slot, rb_body_id *out);

/// Read a body's type.
/// @param body the body
/// @param[out] out receives the type
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_type(rb_body_id body, rb_body_type *out);
/// Change a body's type; its mass is recomputed. A body that becomes static stops and sleeps, and
/// the bodies touching it wake; one that becomes kinematic or dynamic is awake.
/// @param body the body
/// @param type the new type
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (a value outside rb_body_type, a body with
///         a plane that would stop being static, a dynamic body whose shapes give no mass).
RB_API rb_status rb_body_set_type(rb_body_id body, rb_body_type type);
/// Pose of the body origin.
/// @param body the body
/// @param[out] out receives position (m) and rotation of the body origin
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_transform(rb_body_id body, rb_transform *out);
/// Place the body origin (a teleport: velocities are kept). Wakes the body and returns a frozen one
/// to the simulation.
/// @param body the body
/// @param position m, finite and within 1e18 m of the origin on each axis
/// @param rotation unit quaternion (normalised here)
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_body_set_transform(rb_body_id body, rb_vec3 position, rb_quat rotation);
/// World position of the body origin.
/// @param body the body
/// @param[out] out receives the position, m
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_position(rb_body_id body, rb_vec3 *out);
/// Rotation of the body.
/// @param body the body
/// @param[out] out receives the unit quaternion
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_rotation(rb_body_id body, rb_quat *out);
/// World position of the centre of mass.
/// @param body the body
/// @param[out] out receives the position, m
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_world_center(rb_body_id body, rb_vec3 *out);
/// Velocity of the centre of mass.
/// @param body the body
/// @param[out] out receives the velocity, m/s
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_linear_velocity(rb_body_id body, rb_vec3 *out);
/// Set the velocity of the centre of mass. A non-zero velocity wakes the body; any value returns a
/// frozen body to the simulation.
/// @param body a kinematic or dynamic body
/// @param v m/s, finite
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (non-finite, or a static body).
RB_API rb_status rb_body_set_linear_velocity(rb_body_id body, rb_vec3 v);
/// Angular velocity, world frame.
/// @param body the body
/// @param[out] out receives the angular velocity, rad/s
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_angular_velocity(rb_body_id body, rb_vec3 *out);
/// Set the angular velocity (world frame). A non-zero value wakes the body; any value returns a
/// frozen body to the simulation.
/// @param body a kinematic or dynamic body
/// @param w rad/s, finite
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (non-finite, or a static body).
RB_API rb_status rb_body_set_angular_velocity(rb_body_id body, rb_vec3 w);

/// Apply a force at a world point. Forces and torques accumulate until the end of the next step.
/// `point` is in world coordinates.
/// Forces, torques and impulses act on dynamic bodies only: on a static or kinematic body the call
/// does nothing and returns RB_OK. On a sleeping (or frozen) body they are dropped unless `wake` is
/// true, which wakes it (and returns a frozen body to the simulation).
/// @param body the body
/// @param force N, world frame
/// @param point m, world point where the force acts (off the centre of mass it adds a torque)
/// @param wake wake a sleeping body; false drops the force on one
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (non-finite force or point).
RB_API rb_status rb_body_apply_force(rb_body_id body, rb_vec3 force, rb_vec3 point, bool wake);
/// A force at the centre of mass (no torque); as rb_body_apply_force().
/// @param body the body
/// @param force N, world frame
/// @param wake wake a sleeping body; false drops the force on one
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (non-finite force).
RB_API rb_status rb_body_apply_force_to_center(rb_body_id body, rb_vec3 force, bool wake);
/// A torque, accumulated until the end of the next step; as rb_body_apply_force().
/// @param body the body
/// @param torque N·m, world frame
/// @param wake wake a sleeping body; false drops the torque on one
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (non-finite torque).
RB_API rb_status rb_body_apply_torque(rb_body_id body, rb_vec3 torque, bool wake);
/// Apply an impulse at a world point. Impulses change the velocity at once (N·s, N·m·s). Dynamic
/// bodies only, and dropped on a sleeping body unless `wake` (as rb_body_apply_force()).
/// @param body the body
/// @param impulse N·s, world frame
/// @param point m, world point where it acts (off the centre of mass it also turns the body)
/// @param wake wake a sleeping body; false drops the impulse on one
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (non-finite impulse or point).
RB_API rb_status rb_body_apply_linear_impulse(rb_body_id body, rb_vec3 impulse, rb_vec3 point, bool wake);
/// A linear impulse at the centre of mass; as rb_body_apply_linear_impulse().
/// @param body the body
/// @param impulse N·s, world frame
/// @param wake wake a sleeping body; false drops the impulse on one
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (non-finite impulse).
RB_API rb_status rb_body_apply_linear_impulse_to_center(rb_body_id body, rb_vec3 impulse, bool wake);
/// An angular impulse; changes the angular velocity at once (as rb_body_apply_linear_impulse()).
/// @param body the body
/// @param impulse N·m·s, world frame
/// @param wake wake a sleeping body; false drops the impulse on one
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (non-finite impulse).
RB_API rb_status rb_body_apply_angular_impulse(rb_body_id body, rb_vec3 impulse, bool wake);

/// Set the linear damping: velocities are scaled by 1/(1 + h·damping) each substep.
/// @param body the body
/// @param damping 1/s, finite and >= 0
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_body_set_linear_damping(rb_body_id body, float damping);
/// Set the angular damping (as rb_body_set_linear_damping(), for the angular velocity).
/// @param body the body
/// @param damping 1/s, finite and >= 0
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_body_set_angular_damping(rb_body_id body, float damping);
/// Set the factor on the world's gravity for this body (0: no gravity; negative: it falls up).
/// @param body the body
/// @param scale finite
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_body_set_gravity_scale(rb_body_id body, float scale);
/// Read the linear damping.
/// @param body the body
/// @param[out] out receives the damping, 1/s
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_linear_damping(rb_body_id body, float *out);
/// Read the angular damping.
/// @param body the body
/// @param[out] out receives the damping, 1/s
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_angular_damping(rb_body_id body, float *out);
/// Read the gravity scale.
/// @param body the body
/// @param[out] out receives the scale
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_gravity_scale(rb_body_id body, float *out);

/// Mass properties. `inertia` is about the centre of mass, in the body frame.
typedef struct rb_mass_data {
    float mass;               ///< kg
    rb_vec3 center;           ///< centre of mass in the body frame, m
    rb_vec3 inertia;          ///< (Ixx, Iyy, Izz), kg·m²
    rb_vec3 inertia_products; ///< (Ixy, Ixz, Iyz), kg·m²
} rb_mass_data;

/// Mass, centre of mass and inertia in use (static and kinematic bodies read mass and inertia 0).
/// @param body the body
/// @param[out] out receives the mass data
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_mass_data(rb_body_id body, rb_mass_data *out);
/// Overrides the mass from shapes until the next shape is added or removed. Dynamic bodies only;
/// mass must be > 0 and the inertia tensor positive definite. Kept while the body is static or
/// kinematic (whose mass reads 0) and in force again when it turns dynamic.
/// @param body a dynamic body
/// @param data mass in [1e-30, 1e30] kg, centre within 1e6 m of the body origin, finite positive
///        definite inertia (copied)
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL, not dynamic, a value out of range),
///         RB_ERR_OUT_OF_MEMORY.
RB_API rb_status rb_body_set_mass_data(rb_body_id body, const rb_mass_data *data);
/// Mass in use.
/// @param body the body
/// @param[out] out receives the mass, kg (0 for static and kinematic bodies)
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_mass(rb_body_id body, float *out);

/// Whether the body is awake (static bodies: false; frozen bodies: false).
/// @param body the body
/// @param[out] out receives the flag
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_is_awake(rb_body_id body, bool *out);
/// Wake a body (also returns a frozen one to the simulation), or put it to sleep at once, its
/// velocities zeroed. Putting a static body to sleep does nothing.
/// @param body the body
/// @param awake true to wake, false to sleep
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (waking a static body; putting a body to
///         sleep in a world with sleeping disabled).
RB_API rb_status rb_body_set_awake(rb_body_id body, bool awake);
/// Allow or forbid this body to sleep; forbidding wakes it and keeps it awake (batched: and its island).
/// @param body the body
/// @param enable true: it may sleep (the default)
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_body_enable_sleep(rb_body_id body, bool enable);
/// Continuous collision against static and kinematic shapes (rb_body_def.is_bullet).
/// @param body the body
/// @param bullet true: sweep it each step
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_body_set_bullet(rb_body_id body, bool bullet);
/// Whether the body is a bullet.
/// @param body the body
/// @param[out] out receives the flag
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_is_bullet(rb_body_id body, bool *out);
/// The application's pointer given in rb_body_def.user_data or rb_body_set_user_data().
/// @param body the body
/// @return the pointer; NULL for a stale id (which records RB_ERR_STALE_ID for rb_last_error()).
RB_API void *rb_body_get_user_data(rb_body_id body);
/// Store an application pointer with the body; rubble never reads it.
/// @param body the body
/// @param user_data any pointer, NULL included
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_body_set_user_data(rb_body_id body, void *user_data);
/// Number of shapes on the body.
/// @param body the body
/// @param[out] out receives the count
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_body_get_shape_count(rb_body_id body, int *out);
/// The body's shapes. Writes up to `capacity` shape ids; `count` (optional) receives how many the body has.
/// The ids are in creation order; with a smaller `capacity` the first `capacity` are written.
/// @param body the body
/// @param[out] out array of `capacity` ids; may be NULL when `capacity` is 0
/// @param capacity length of `out`, >= 0
/// @param[out] count receives the body's shape count; may be NULL
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (negative capacity, or NULL `out` with a
///         positive one).
RB_API rb_status rb_body_get_shapes(rb_body_id body, rb_shape_id *out, int capacity, int *count);

/// @}

// ---------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------

/// @defgroup shapes Shapes
/// @brief Geometry and material attached to a body.
///
/// A shape belongs to one body; its mass joins the body's. Shapes of the same body never collide
/// with each other. The shape functions return RB_ERR_STALE_ID for an id that names no live shape.
/// @{

/// Geometry of a shape.
typedef enum rb_shape_type {
    RB_SHAPE_SPHERE = 0, ///< rb_sphere
    RB_SHAPE_CAPSULE,    ///< rb_capsule
    RB_SHAPE_BOX,        ///< rb_box
    RB_SHAPE_PLANE, ///< infinite half-space, static bodies only
    RB_SHAPE_CONVEX, ///< rb_convex: a convex polyhedron (rb_compute_hull()), optionally rounded
} rb_shape_type;

/// Contact material of a pair: friction = sqrt(f_a · f_b) (geometric mean, so a frictionless shape
/// slides on anything), likewise the static friction, restitution = max(e_a, e_b) (so a bouncy ball
/// bounces on any floor). Every solver holds a contact that does not slip within the static cone and
/// slides with the kinetic one.
/// Start from rb_default_shape_def(): a def that did not come from it is rejected.
typedef struct rb_shape_def {
    rb_vec3 local_position;  ///< m, in the body frame, within 1e6 m of the body origin
    rb_quat local_rotation;  ///< default identity
    float density;           ///< kg/m³, >= 0, default 1000
    float friction;          ///< Coulomb coefficient (kinetic), >= 0, default 0.6
    float static_friction;   ///< static coefficient mu_s >= friction; 0 (default) = equal to friction
    float restitution;       ///< 0 (default) to 1
    uint32_t category_bits;  ///< default 1
    uint32_t mask_bits;      ///< default all; two shapes collide iff each one's category is in the other's mask
    void *user_data;         ///< the application's pointer (rb_shape_get_user_data()); rubble never reads it
    uint32_t internal_value; ///< set by rb_default_shape_def(); do not touch
} rb_shape_def;

/// A shape def with every default (see the fields of rb_shape_def). Thread-safe.
/// @return the defaults: density 1000 kg/m³, friction 0.6, restitution 0, collides with everything.
RB_API rb_shape_def rb_default_shape_def(void);

/// A sphere around the shape's local position.
typedef struct rb_sphere {
    float radius; ///< m, > 0
} rb_sphere;

/// Segment along the shape's local y axis from -half_length to +half_length, swept by radius.
typedef struct rb_capsule {
    float half_length; ///< m, >= 0
    float radius;      ///< m, > 0
} rb_capsule;

/// A box centred on the shape's local position, along its local axes.
typedef struct rb_box {
    rb_vec3 half_extents; ///< m, each > 0
} rb_box;

/// Solid half-space { x : dot(normal, x) <= offset } in the body frame; the surface faces +normal.
typedef struct rb_plane {
    rb_vec3 normal; ///< non-zero; normalised on creation
    float offset;   ///< m
} rb_plane;

/// Add a sphere to a body; the body's mass is recomputed and it wakes. Sizes must be finite and in
/// [1e-6, 1e6] m, and the shape's mass and inertia must fit a 32-bit float (docs/limits.md).
/// @param body the body that gets the shape
/// @param def material and local pose, from rb_default_shape_def() (copied)
/// @param sphere the geometry (copied)
/// @param[out] out receives the new shape's id
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL argument, def not from
///         rb_default_shape_def(), a size or material out of range, a dynamic body left without
///         mass), RB_ERR_CAPACITY (2^28 shape slots), RB_ERR_OUT_OF_MEMORY.
RB_API rb_status rb_create_sphere_shape(rb_body_id body, const rb_shape_def *def, const rb_sphere *sphere, rb_shape_id *out);
/// Add a capsule to a body; as rb_create_sphere_shape() (its half length may be 0).
/// @param body the body that gets the shape
/// @param def material and local pose, from rb_default_shape_def() (copied)
/// @param capsule the geometry (copied)
/// @param[out] out receives the new shape's id
/// @return as rb_create_sphere_shape().
RB_API rb_status rb_create_capsule_shape(rb_body_id body, const rb_shape_def *def, const rb_capsule *capsule, rb_shape_id *out);
/// Add a box to a body; as rb_create_sphere_shape().
/// @param body the body that gets the shape
/// @param def material and local pose, from rb_default_shape_def() (copied)
/// @param box the geometry (copied)
/// @param[out] out receives the new shape's id
/// @return as rb_create_sphere_shape().
RB_API rb_status rb_create_box_shape(rb_body_id body, const rb_shape_def *def, const rb_box *box, rb_shape_id *out);
/// Add a plane (a solid half-space) to a body. Planes only on static bodies (RB_ERR_INVALID_ARGUMENT otherwise).
/// The normal is normalised, and the offset scaled with it, so the plane is the same set of points.
/// @param body a static body
/// @param def material, from rb_default_shape_def() (copied); its local pose is applied to the plane
/// @param plane the half-space in the body frame: finite, non-zero normal, |offset / |normal|| <= 1e18 m
/// @param[out] out receives the new shape's id
/// @return as rb_create_sphere_shape(); also RB_ERR_INVALID_ARGUMENT on a body that is not static.
RB_API rb_status rb_create_plane_shape(rb_body_id body, const rb_shape_def *def, const rb_plane *plane, rb_shape_id *out);

/// How rb_compute_hull() builds a hull from a point cloud. Start from rb_default_hull_def().
typedef struct rb_hull_def {
    const rb_vec3 *points; ///< m, the cloud in the hull's frame; finite, within 1e6 m of its origin
    int count;             ///< number of points, 4 .. 100,000
    float weld_distance;   ///< m, points closer than this count as one and faces within it of a common
                           ///< plane merge into one face; default 1e-4 m (scaled down for hulls smaller than
                           ///< 1 cm across: at most 1/100 of the cloud's extent)
    int max_vertices;      ///< 4 .. 64 (RB_HULL_MAX_VERTICES), default 64: a cloud whose hull has more
                           ///< vertices is reduced to this many, keeping the ones that span it best
    uint32_t internal_value; ///< set by rb_default_hull_def(); do not touch
} rb_hull_def;

/// A hull def with every default (no points yet). Thread-safe.
/// @return weld distance 1e-4 m, at most 64 vertices.
RB_API rb_hull_def rb_default_hull_def(void);

/// The convex hull of a point cloud (quickhull), as a half-edge mesh kept by the world: vertices,
/// edges and planar faces (coplanar triangles merged). Convex shapes of the world refer to it
/// (rb_convex.hull); many shapes share one hull. Mass properties are exact for the solid polyhedron.
/// @param world the world that keeps the hull
/// @param def the cloud and the build settings, from rb_default_hull_def() (the points are read, not kept)
/// @param[out] out receives the hull's id
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL argument, def not from
///         rb_default_hull_def(), a non-finite or far point, fewer than 4 points, a cloud that is flat,
///         a line or a point within the weld distance, settings out of range), RB_ERR_OUT_OF_MEMORY.
RB_API rb_status rb_compute_hull(rb_world_id world, const rb_hull_def *def, rb_hull_id *out);
/// Destroy a hull. Refused (RB_ERR_INVALID_ARGUMENT) while a shape uses it.
/// @param hull the hull
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_destroy_hull(rb_hull_id hull);
/// Whether `id` names a live hull (of a live world). Records no error.
/// @param id any hull id, null included
/// @return true while the hull exists.
RB_API bool rb_hull_is_valid(rb_hull_id id);

/// What a hull is made of, and its solid's mass properties per unit density, in the hull frame.
typedef struct rb_hull_info {
    int vertex_count;  ///< 4 .. 64
    int edge_count;    ///< edges (each is two half-edges)
    int face_count;    ///< planar faces (polygons of 3 or more vertices)
    float volume;      ///< m³
    rb_vec3 centroid;  ///< m, centre of volume
    rb_vec3 inertia_diag;    ///< m², inertia per unit mass about the centroid: (Ixx, Iyy, Izz)
    rb_vec3 inertia_offdiag; ///< m², (Ixy, Ixz, Iyz), products of inertia with their sign (tensor entries)
    float bounding_radius;   ///< m, largest distance from the hull origin to a vertex
} rb_hull_info;

/// Counts and mass properties of a hull.
/// @param hull the hull
/// @param[out] out receives the description
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_hull_get_info(rb_hull_id hull, rb_hull_info *out);
/// Number of live hulls in the world.
/// @param world the world
/// @param[out] out receives the count
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_world_get_hull_count(rb_world_id world, int *out);
/// The hull's vertices, hull frame. Writes up to `capacity`; `count` (optional) receives how many it has.
/// @param hull the hull
/// @param[out] out receives the vertices; may be NULL when capacity is 0
/// @param capacity room in `out`
/// @param[out] count receives the vertex count; may be NULL
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (negative capacity, NULL `out` with room).
RB_API rb_status rb_hull_get_vertices(rb_hull_id hull, rb_vec3 *out, int capacity, int *count);
/// One face of a hull: its outward plane and its vertices (indices into rb_hull_get_vertices()),
/// counter-clockwise seen from outside.
/// @param hull the hull
/// @param face 0 .. face_count - 1
/// @param[out] plane receives the face's plane (unit outward normal, offset); may be NULL
/// @param[out] vertices receives up to `capacity` vertex indices; may be NULL when capacity is 0
/// @param capacity room in `vertices`
/// @param[out] count receives the face's vertex count; may be NULL
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (face out of range, negative capacity).
RB_API rb_status rb_hull_get_face(rb_hull_id hull, int face, rb_plane *plane, int *vertices, int capacity, int *count);

/// A convex polyhedron: a hull of the shape's world placed at the shape's local pose, grown by
/// `radius` on every side (a rounded hull; 0 for sharp edges).
typedef struct rb_convex {
    rb_hull_id hull; ///< from rb_compute_hull() in the same world
    float radius;    ///< m, >= 0 (default 0), at most 1e6 m
} rb_convex;

/// Add a convex polyhedron to a body; as rb_create_sphere_shape(). Its mass and inertia are those of
/// the solid hull (with a radius: of the rounded solid, volume exact, inertia as the hull's scaled to
/// the rounded mass, docs/convex.md).
/// @param body the body that gets the shape
/// @param def material and local pose, from rb_default_shape_def() (copied)
/// @param convex the hull and rounding radius (copied; the hull is shared, not copied)
/// @param[out] out receives the new shape's id
/// @return as rb_create_sphere_shape(); RB_ERR_STALE_ID also for a hull that is not live, and
///         RB_ERR_INVALID_ARGUMENT for a hull of another world.
RB_API rb_status rb_create_convex_shape(rb_body_id body, const rb_shape_def *def, const rb_convex *convex, rb_shape_id *out);
/// Remove a shape from its body; the body's mass is recomputed (a fixed mass set with
/// rb_body_set_mass_data() is dropped), the body and the bodies it touched wake, and the contact and
/// pair lists are empty until the next step.
/// @param shape the shape
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT when the body is dynamic, has no body mass
///         (rb_body_def.mass) and every shape it would keep has density 0 (the shape stays). Removing a
///         body's last shape is allowed.
RB_API rb_status rb_destroy_shape(rb_shape_id shape);

/// Read the shape's geometry type.
/// @param shape the shape
/// @param[out] out receives the type
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_shape_get_type(rb_shape_id shape, rb_shape_type *out);
/// The body the shape belongs to.
/// @param shape the shape
/// @param[out] out receives the body's id
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_shape_get_body(rb_shape_id shape, rb_body_id *out);
/// Geometry of a sphere shape.
/// @param shape a sphere shape
/// @param[out] out receives the geometry
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`, or a shape of another type).
RB_API rb_status rb_shape_get_sphere(rb_shape_id shape, rb_sphere *out);
/// Geometry of a capsule shape.
/// @param shape a capsule shape
/// @param[out] out receives the geometry
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`, or a shape of another type).
RB_API rb_status rb_shape_get_capsule(rb_shape_id shape, rb_capsule *out);
/// Geometry of a box shape.
/// @param shape a box shape
/// @param[out] out receives the geometry
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`, or a shape of another type).
RB_API rb_status rb_shape_get_box(rb_shape_id shape, rb_box *out);
/// Geometry of a plane shape (unit normal, offset scaled with it).
/// @param shape a plane shape
/// @param[out] out receives the geometry
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`, or a shape of another type).
RB_API rb_status rb_shape_get_plane(rb_shape_id shape, rb_plane *out);
/// Geometry of a convex shape: its hull and rounding radius.
/// @param shape a convex shape
/// @param[out] out receives the geometry
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`, or a shape of another type).
RB_API rb_status rb_shape_get_convex(rb_shape_id shape, rb_convex *out);
/// Pose of the shape in its body's frame (rb_shape_def.local_position, local_rotation).
/// @param shape the shape
/// @param[out] out receives the local transform
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_shape_get_local_transform(rb_shape_id shape, rb_transform *out);
/// Set the kinetic friction coefficient; it applies from the next step.
/// @param shape the shape
/// @param friction finite, >= 0, and not above a non-zero static friction
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_shape_set_friction(rb_shape_id shape, float friction);
/// Set the static friction coefficient mu_s; 0 = equal to the kinetic friction.
/// @param shape the shape
/// @param static_friction 0, or finite and >= the shape's friction
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_shape_set_static_friction(rb_shape_id shape, float static_friction);
/// Read the static friction coefficient as set (0 means: equal to the kinetic friction).
/// @param shape the shape
/// @param[out] out receives mu_s
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_shape_get_static_friction(rb_shape_id shape, float *out);
/// Read the kinetic friction coefficient.
/// @param shape the shape
/// @param[out] out receives the coefficient
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_shape_get_friction(rb_shape_id shape, float *out);
/// Set the restitution (bounciness); it applies from the next step.
/// @param shape the shape
/// @param restitution in [0, 1]
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_shape_set_restitution(rb_shape_id shape, float restitution);
/// Read the restitution.
/// @param shape the shape
/// @param[out] out receives the restitution
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_shape_get_restitution(rb_shape_id shape, float *out);
/// Set the density. Changing it recomputes the body's mass (unless the body has a fixed mass).
/// @param shape the shape
/// @param density kg/m³, finite and >= 0
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (out of range, or a dynamic body that would
///         be left without mass or with one a float cannot hold).
RB_API rb_status rb_shape_set_density(rb_shape_id shape, float density);
/// Read the density.
/// @param shape the shape
/// @param[out] out receives the density, kg/m³
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_shape_get_density(rb_shape_id shape, float *out);
/// World-space bounding box of the shape at its body's current pose (that of the last step, or of
/// later edits such as rb_body_set_transform()), without the contact margin. Planes: RB_ERR_UNSUPPORTED.
/// @param shape the shape
/// @param[out] lower receives the minimum corner, m
/// @param[out] upper receives the maximum corner, m
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (a NULL output), RB_ERR_UNSUPPORTED (a plane).
RB_API rb_status rb_shape_get_aabb(rb_shape_id shape, rb_vec3 *lower, rb_vec3 *upper);
/// The application's pointer given in rb_shape_def.user_data or rb_shape_set_user_data().
/// @param shape the shape
/// @return the pointer; NULL for a stale id (which records RB_ERR_STALE_ID for rb_last_error()).
RB_API void *rb_shape_get_user_data(rb_shape_id shape);
/// Store an application pointer with the shape; rubble never reads it.
/// @param shape the shape
/// @param user_data any pointer, NULL included
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_shape_set_user_data(rb_shape_id shape, void *user_data);

/// @}

// ---------------------------------------------------------------------------------------------
// Bulk access: body slots [first, first + count); every slot in the range must hold a live body.
// ---------------------------------------------------------------------------------------------

/// @addtogroup bodies
/// @{

/// @name Bulk access
/// Body slots [first, first + count); every slot in the range must hold a live body.
/// rb_counters.body_slots is the number of slots; rb_world_get_body_id() gives the id in a slot.
/// Each function returns RB_ERR_INVALID_ARGUMENT for a range outside [0, body_slots) or a NULL
/// buffer when `count` > 0, and RB_ERR_STALE_ID for a stale world or a slot in the range that holds
/// no live body. A setter checks the whole range before it changes anything.
/// @{

/// Read the poses of the body origins of a range of slots.
/// @param world the world
/// @param first first slot
/// @param count number of slots, >= 0
/// @param[out] out array of `count` transforms
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_world_get_transforms(rb_world_id world, int first, int count, rb_transform *out);
/// Place the body origins of a range of slots (velocities kept); every sleeping body in the range
/// wakes and a frozen one returns to the simulation, as with rb_body_set_transform().
/// @param world the world
/// @param first first slot
/// @param count number of slots, >= 0
/// @param in array of `count` transforms: positions within 1e18 m of the origin on each axis
///        (docs/limits.md), unit rotations (normalised here)
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_world_set_transforms(rb_world_id world, int first, int count, const rb_transform *in);
/// Read the velocities of a range of slots. Either output may be NULL.
/// Linear velocities are those of the centres of mass (m/s); angular ones are in the world frame (rad/s).
/// @param world the world
/// @param first first slot
/// @param count number of slots, >= 0
/// @param[out] linear array of `count` linear velocities, or NULL
/// @param[out] angular array of `count` angular velocities, or NULL (not both when `count` > 0)
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_world_get_velocities(rb_world_id world, int first, int count, rb_vec3 *linear, rb_vec3 *angular);
/// Set the velocities of a range of slots. Either input may be NULL (left unchanged). Sleeping
/// bodies given a non-zero velocity wake up; a frozen body returns to the simulation (even with a
/// zero velocity), as with rb_body_set_linear_velocity().
/// @param world the world
/// @param first first slot
/// @param count number of slots, >= 0; none of them may hold a static body
/// @param linear array of `count` finite linear velocities (m/s), or NULL
/// @param angular array of `count` finite angular velocities (rad/s, world frame), or NULL (not both
///        when `count` > 0)
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (also for a non-finite value or a static body).
RB_API rb_status rb_world_set_velocities(rb_world_id world, int first, int count, const rb_vec3 *linear, const rb_vec3 *angular);
/// Awake flags of a range of slots (static and frozen bodies read false).
/// @param world the world
/// @param first first slot
/// @param count number of slots, >= 0
/// @param[out] out array of `count` flags
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_world_get_awake(rb_world_id world, int first, int count, bool *out);

/// @}
/// @}

// ---------------------------------------------------------------------------------------------
// Joints
// ---------------------------------------------------------------------------------------------

/// @defgroup joints Joints
/// @brief Constraints between two bodies, or a body and the static world (docs/joints.md).
///
/// A joint is made from a def that one of the rb_default_*_joint_def() functions returns. Its anchors
/// and axes are given in world space at creation and kept in the bodies' frames from then on. By
/// default the two bodies of a joint do not collide with each other. Joints run on every backend and
/// solver: the CPU's soft, batched, split and sequential, and OpenCL's and CUDA's batched and split.
/// @{

/// Id of a joint (rb_create_joint()).
typedef struct rb_joint_id {
    int32_t index1; ///< slot + 1; 0 is null
    uint16_t world0; ///< slot of the world (0-based)
    uint16_t generation; ///< generation of the joint slot
} rb_joint_id;

/// The null joint id (never valid).
static const rb_joint_id rb_null_joint_id = {0, 0, 0};

/// Joint types. The joint frame has axes x̂, ŷ, ẑ; `axis` of rb_joint_def is ẑ of a hinge and x̂ of a
/// cone-twist and a slider.
typedef enum rb_joint_type {
    RB_JOINT_BALL = 0,   ///< ball-and-socket: the anchors coincide, rotation is free
    RB_JOINT_HINGE,      ///< revolute: a ball whose bodies turn only about `axis`; angle limits and a motor
    RB_JOINT_CONE_TWIST, ///< a ball whose `axis` (x̂) stays within a cone of B relative to A, and whose twist
                         ///< about it stays within ±twist_span (a ragdoll's shoulder, hip or neck)
    RB_JOINT_FIXED,      ///< weld: the bodies move as one
    RB_JOINT_DISTANCE,   ///< the anchors keep their distance (a rigid rod), or stay within [lower, upper]
                         ///< (a rope: lower 0), optionally with a spring
    RB_JOINT_SPRING,     ///< a spring and damper between the anchors, rest length `length`
    RB_JOINT_SLIDER      ///< prismatic: B slides along `axis` relative to A without turning; limits and a motor
} rb_joint_type;

/// Settings of a new joint. Make it with one of the rb_default_*_joint_def() functions, which sets
/// `type`, then set the bodies, the anchor, and what the type uses.
typedef struct rb_joint_def {
    rb_joint_type type;       ///< set by the rb_default_*_joint_def() that made the def
    rb_body_id body_a;        ///< first body, or rb_null_body_id (default) for the static world
    rb_body_id body_b;        ///< second body (required); one of the two must be dynamic
    rb_vec3 anchor;           ///< m, world point where the joint holds the bodies together, at creation
    rb_vec3 anchor_b;         ///< m, B's own anchor when `separate_anchor_b` is set (A's is `anchor`); the
                              ///< joint pulls the two together from the first step
    bool separate_anchor_b;   ///< default false: both anchors at `anchor`
    rb_vec3 axis;             ///< hinge axis, slider axis or cone-twist axis, world, any length > 0;
                              ///< default (0, 0, 1). Ball, fixed, distance and spring ignore it
    rb_vec3 reference_axis;   ///< optional direction across `axis` that sets the frame's ŷ (a cone's swing 2
                              ///< turns about ŷ, swing 1 about ẑ); default (0, 0, 0): any perpendicular
    bool enable_limit;        ///< hinge, slider, distance: enforce [lower, upper]; default false
    float lower;              ///< hinge: rad in [-π, π], of B relative to A about `axis`, 0 at creation;
                              ///< slider: m along `axis` from the creation pose; distance: m >= 0
    float upper;              ///< the same, >= lower
    float swing_span1;        ///< cone-twist: half-angle of the cone about ẑ, rad in (0, π); default π/4
    float swing_span2;        ///< cone-twist: half-angle about ŷ, rad in (0, π); default π/4
    float twist_span;         ///< cone-twist: largest |twist| about the axis, rad in [0, π] (0 locks it);
                              ///< default π/4
    bool enable_motor;        ///< hinge, slider: drive at `motor_speed`; default false
    float motor_speed;        ///< rad/s (hinge) or m/s (slider), of B relative to A
    float max_motor_force;    ///< N m (hinge) or N (slider), >= 0: the most the motor exerts
    float length;             ///< distance: the rod's length; spring: the rest length; m. 0 (default): the
                              ///< anchors' distance at creation. A rod needs at least 1 mm
    bool enable_spring;       ///< distance: a spring instead of the rigid rod (a spring joint always has one)
    float hertz;              ///< spring frequency, Hz >= 0; > 0 takes the place of stiffness and damping
    float damping_ratio;      ///< with hertz: the spring's damping ratio, >= 0 (1 = critical)
    float stiffness;          ///< N/m >= 0, when hertz is 0
    float damping;            ///< N s/m >= 0, when hertz is 0
    float break_force;        ///< N: the joint breaks (switches itself off) when its force exceeds this; 0 = never
    float break_torque;       ///< N m: the same for its torque; 0 = never
    bool collide_connected;   ///< the two bodies collide with each other; default false
    void *user_data;          ///< the application's pointer; rubble never reads it
    uint32_t internal_value;  ///< set by rb_default_*_joint_def(); do not touch
} rb_joint_def;

/// A ball-and-socket joint def: every default of rb_joint_def, type RB_JOINT_BALL. Thread-safe.
/// @return the def.
RB_API rb_joint_def rb_default_ball_joint_def(void);
/// A hinge joint def (axis (0, 0, 1), no limit, no motor). Thread-safe.
/// @return the def.
RB_API rb_joint_def rb_default_hinge_joint_def(void);
/// A cone-twist joint def (axis (0, 0, 1), cone and twist half-angles π/4). Thread-safe.
/// @return the def.
RB_API rb_joint_def rb_default_cone_twist_joint_def(void);
/// A fixed (weld) joint def. Thread-safe.
/// @return the def.
RB_API rb_joint_def rb_default_fixed_joint_def(void);
/// A distance joint def: a rigid rod of the anchors' distance at creation. Thread-safe.
/// @return the def.
RB_API rb_joint_def rb_default_distance_joint_def(void);
/// A spring joint def: 1 Hz, damping ratio 0.1, rest length the anchors' distance at creation. Thread-safe.
/// @return the def.
RB_API rb_joint_def rb_default_spring_joint_def(void);
/// A slider (prismatic) joint def (axis (0, 0, 1), no limit, no motor). Thread-safe.
/// @return the def.
RB_API rb_joint_def rb_default_slider_joint_def(void);

/// Create a joint. Both bodies wake.
/// @param world the world the bodies belong to
/// @param def settings, from an rb_default_*_joint_def() (copied)
/// @param[out] out receives the new joint's id
/// @return RB_OK, RB_ERR_STALE_ID (world or body), RB_ERR_INVALID_ARGUMENT (NULL argument, a def not
///         from rb_default_*_joint_def(), no dynamic body, a body joined to itself, a body of another
///         world, a non-finite or out-of-range value, a zero axis, lower > upper), RB_ERR_CAPACITY,
///         RB_ERR_OUT_OF_MEMORY. On failure nothing changes.
RB_API rb_status rb_create_joint(rb_world_id world, const rb_joint_def *def, rb_joint_id *out);
/// Destroy a joint; its bodies wake. Destroying a body destroys its joints.
/// @param joint the joint
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_destroy_joint(rb_joint_id joint);
/// Whether `id` names a live joint (of a live world). Records no error.
/// @param id any joint id, null included
/// @return true while the joint exists.
RB_API bool rb_joint_is_valid(rb_joint_id id);
/// Whether two joint ids are the same id (slot, world and generation), live or not.
/// @param a first id
/// @param b second id
/// @return true when every field is equal.
RB_API bool rb_joint_equal(rb_joint_id a, rb_joint_id b);

/// The number of live joints of a world.
/// @param world the world
/// @param[out] out receives the count
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_world_get_joint_count(rb_world_id world, int *out);
/// The ids of the live joints, in slot order.
/// @param world the world
/// @param[out] out array of `capacity` ids; may be NULL when `capacity` is 0
/// @param capacity entries `out` holds, >= 0
/// @param[out] count receives the number of live joints (also when it exceeds `capacity`: only the
///        first `capacity` are written)
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `count`, negative capacity, NULL `out`
///         with a capacity).
RB_API rb_status rb_world_get_joints(rb_world_id world, rb_joint_id *out, int capacity, int *count);

/// A joint's type.
/// @param joint the joint
/// @param[out] out receives the type
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_joint_get_type(rb_joint_id joint, rb_joint_type *out);
/// A joint's bodies.
/// @param joint the joint
/// @param[out] body_a receives body A (rb_null_body_id for the static world); may be NULL
/// @param[out] body_b receives body B; may be NULL
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_joint_get_bodies(rb_joint_id joint, rb_body_id *body_a, rb_body_id *body_b);
/// The joint's coordinate now: a hinge's angle (rad, B relative to A about the axis, 0 at creation), a
/// slider's offset along its axis (m, 0 at creation), a distance or spring joint's length (m), a
/// cone-twist's twist (rad).
/// @param joint the joint
/// @param[out] out receives the value
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`; a ball or fixed joint, which have none).
RB_API rb_status rb_joint_get_coordinate(rb_joint_id joint, float *out);
/// Where the joint's two anchors are now (world): A's and B's copies; they coincide while the joint holds.
/// @param joint the joint
/// @param[out] anchor_a receives A's anchor (the world point itself for a joint to the world); may be NULL
/// @param[out] anchor_b receives B's anchor; may be NULL
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_joint_get_anchors(rb_joint_id joint, rb_vec3 *anchor_a, rb_vec3 *anchor_b);
/// The orientation now (world) of the joint frame's copy in A and in B: x̂, ŷ, ẑ of the frame are the
/// quaternion's rotated x, y and z axes. A hinge turns about ẑ; a cone-twist and a slider have their axis on x̂.
/// @param joint the joint
/// @param[out] frame_a receives A's copy; may be NULL
/// @param[out] frame_b receives B's copy; may be NULL
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_joint_get_frames(rb_joint_id joint, rb_quat *frame_a, rb_quat *frame_b);
/// A joint's [lower, upper] range (hinge: rad; slider, distance: m) and whether it is on; a cone-twist's
/// spans come from rb_joint_get_cone_limits().
/// @param joint the joint
/// @param[out] enabled receives whether the range is enforced; may be NULL
/// @param[out] lower receives the lower end; may be NULL
/// @param[out] upper receives the upper end; may be NULL
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (a type without a range).
RB_API rb_status rb_joint_get_limits(rb_joint_id joint, bool *enabled, float *lower, float *upper);
/// A cone-twist joint's spans (rad).
/// @param joint the joint
/// @param[out] swing_span1 receives the half-angle about ẑ; may be NULL
/// @param[out] swing_span2 receives the half-angle about ŷ; may be NULL
/// @param[out] twist_span receives the largest |twist|; may be NULL
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (not a cone-twist joint).
RB_API rb_status rb_joint_get_cone_limits(rb_joint_id joint, float *swing_span1, float *swing_span2, float *twist_span);
/// The force and torque the joint put on body B in the last substep of the last step (on A: the opposite,
/// the torque taken about B's anchor).
/// @param joint the joint
/// @param[out] force receives N, world; may be NULL
/// @param[out] torque receives N m, world; may be NULL
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_joint_get_reaction(rb_joint_id joint, rb_vec3 *force, rb_vec3 *torque);

/// Set the [lower, upper] range of a hinge (rad), slider (m) or distance joint (m) and switch it on or off.
/// @param joint the joint
/// @param enable whether the range is enforced
/// @param lower as rb_joint_def::lower
/// @param upper as rb_joint_def::upper, >= lower
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (another type; non-finite or out of range).
RB_API rb_status rb_joint_set_limits(rb_joint_id joint, bool enable, float lower, float upper);
/// Set a cone-twist joint's spans.
/// @param joint the joint
/// @param swing_span1 as rb_joint_def::swing_span1
/// @param swing_span2 as rb_joint_def::swing_span2
/// @param twist_span as rb_joint_def::twist_span
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (another type; out of range).
RB_API rb_status rb_joint_set_cone_limits(rb_joint_id joint, float swing_span1, float swing_span2, float twist_span);
/// Set a hinge's or slider's motor. The bodies wake.
/// @param joint the joint
/// @param enable whether the motor drives
/// @param speed rad/s or m/s, finite
/// @param max_force N m or N, finite and >= 0
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (another type; a bad value).
RB_API rb_status rb_joint_set_motor(rb_joint_id joint, bool enable, float speed, float max_force);
/// Set the spring of a spring joint, or of a distance joint (switching it on or off). Either `hertz` > 0
/// (with `damping_ratio`) or `stiffness` (with `damping`) describes it.
/// @param joint the joint
/// @param enable distance joint: spring instead of the rod (a spring joint must keep it: true)
/// @param hertz Hz >= 0
/// @param damping_ratio >= 0
/// @param stiffness N/m >= 0
/// @param damping N s/m >= 0
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (another type; a bad value; a spring joint
///         left without stiffness).
RB_API rb_status rb_joint_set_spring(rb_joint_id joint, bool enable, float hertz, float damping_ratio, float stiffness,
                                     float damping);
/// Set a distance joint's length or a spring joint's rest length.
/// @param joint the joint
/// @param length m, finite; >= 1 mm for a rigid rod, >= 0 for a spring
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_joint_set_length(rb_joint_id joint, float length);
/// Set the force and torque beyond which the joint breaks (0 = never).
/// @param joint the joint
/// @param force N >= 0
/// @param torque N m >= 0
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT.
RB_API rb_status rb_joint_set_breaking(rb_joint_id joint, float force, float torque);
/// Whether the joint broke (a step found its force or torque beyond its breaking limits; it has been
/// switched off since).
/// @param joint the joint
/// @param[out] out receives the answer
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_joint_is_broken(rb_joint_id joint, bool *out);
/// Switch a joint on or off. Switching on a broken joint mends it. The bodies wake.
/// @param joint the joint
/// @param enabled whether the joint acts
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_joint_set_enabled(rb_joint_id joint, bool enabled);
/// Whether a joint acts (switched on and not broken).
/// @param joint the joint
/// @param[out] out receives the answer
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_joint_is_enabled(rb_joint_id joint, bool *out);
/// The application's pointer of the joint (rb_joint_def::user_data).
/// @param joint the joint
/// @param[out] out receives the pointer
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`).
RB_API rb_status rb_joint_get_user_data(rb_joint_id joint, void **out);
/// Set the application's pointer of the joint.
/// @param joint the joint
/// @param user_data any pointer; rubble never reads it
/// @return RB_OK or RB_ERR_STALE_ID.
RB_API rb_status rb_joint_set_user_data(rb_joint_id joint, void *user_data);

/// @}

// ---------------------------------------------------------------------------------------------
// Contacts of the last step, one entry per contact point, ordered by shape pair then point.
// ---------------------------------------------------------------------------------------------

/// @defgroup contacts Contacts
/// @brief The contact points and candidate pairs of the last step.
///
/// One entry per contact point, ordered by shape pair then point. After a body or shape is destroyed,
/// or a step failed, the lists are empty until a step completes.
/// @{

/// One contact point of the last step.
typedef struct rb_contact {
    rb_body_id body_a, body_b; ///< body of shape_b
    rb_shape_id shape_a, shape_b; ///< shape B (the normal points from A to B)
    rb_vec3 point;            ///< world, midway between the two surfaces
    rb_vec3 normal;           ///< unit, points from A to B
    float depth;              ///< m, > 0 when penetrating; negative for a speculative (not yet touching) point
    float normal_impulse;     ///< N·s applied along the normal in the last substep (sequential solver: a slow
                              ///< resting body carries 1 - gravity_damping of its weight, docs/solver-sequential.md)
    rb_vec3 friction_impulse; ///< N·s of friction applied to B in the last step (A got the opposite), world frame
} rb_contact;
/// @var rb_contact::body_a
/// body of shape_a
/// @var rb_contact::shape_a
/// shape A

/// Number of contact points of the last step (rb_world_get_contacts() reads them).
/// @param world the world
/// @param[out] out receives the count (0 before the first step, after a failed step, or after a
///        body or shape was destroyed)
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`), or a backend status.
RB_API rb_status rb_world_get_contact_count(rb_world_id world, int *out);
/// Copy contact points [first, first + count) of the last step.
/// @param world the world
/// @param first index of the first point, from 0
/// @param count number of points; first + count <= rb_world_get_contact_count()
/// @param[out] out array of `count` contacts; may be NULL when `count` is 0
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (range outside the points, NULL `out`),
///         or a backend status.
RB_API rb_status rb_world_get_contacts(rb_world_id world, int first, int count, rb_contact *out);

/// A candidate pair of the broad phase (bounding boxes overlap); shape_a has the lower slot.
typedef struct rb_shape_pair {
    rb_shape_id shape_a, shape_b; ///< the shape in the higher slot
} rb_shape_pair;
/// @var rb_shape_pair::shape_a
/// the shape in the lower slot

/// Number of candidate pairs of the last step's broad phase (rb_world_get_pairs() reads them).
/// The list is sorted by (shape_a, shape_b) slot, the same on every backend (what `rubble check`
/// compares). Pairs of destroyed shapes are not reported.
/// @param world the world
/// @param[out] out receives the number of pairs (0 before the first step, after a failed step, or
///        after a body or shape was destroyed)
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`), or a backend status.
RB_API rb_status rb_world_get_pair_count(rb_world_id world, int *out);
/// Copy candidate pairs [first, first + count) of the last step's broad phase (as rb_world_get_pair_count()).
/// @param world the world
/// @param first index of the first pair, from 0
/// @param count number of pairs; first + count <= rb_world_get_pair_count()
/// @param[out] out array of `count` pairs; may be NULL when `count` is 0
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (range outside the pairs, NULL `out`),
///         or a backend status.
RB_API rb_status rb_world_get_pairs(rb_world_id world, int first, int count, rb_shape_pair *out);

/// @}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

/// @defgroup queries Queries
/// @brief Ray casts against the world's shapes.
/// @{

/// Result of rb_world_cast_ray().
typedef struct rb_ray_hit {
    bool hit;            ///< false: nothing on the segment (the other fields are zero)
    rb_body_id body;     ///< body of the shape hit
    rb_shape_id shape;   ///< shape hit (of two at the same fraction, the one in the lower slot)
    rb_vec3 point;       ///< world, on the shape's surface
    rb_vec3 normal;      ///< unit, the surface normal at the point (pointing out of the shape)
    float fraction;      ///< point = origin + fraction * translation, in [0, 1]
} rb_ray_hit;

/// The first shape hit by the segment from `origin` to `origin + translation` (positions of the
/// last step or later edits). A segment that starts inside a shape hits it at fraction 0 with the
/// normal -translation/|translation|. Shapes whose category is not in `mask_bits` are ignored
/// (pass 0xffffffff for all). RB_OK also when nothing is hit (out->hit = false).
/// Cost: a loop over all shapes (about 30 ns per shape); fine for picking, not for thousands of rays
/// per step.
/// @param world the world
/// @param origin m, world start of the segment, finite
/// @param translation m, segment from the origin, finite, non-zero, with a finite length
/// @param mask_bits shapes whose rb_shape_def.category_bits share no bit with it are skipped
/// @param[out] out receives the hit
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL `out`, a non-finite or zero
///         translation, a non-finite origin), or a backend status.
RB_API rb_status rb_world_cast_ray(rb_world_id world, rb_vec3 origin, rb_vec3 translation, uint32_t mask_bits,
                                   rb_ray_hit *out);

/// @}

// ---------------------------------------------------------------------------------------------
// Scenes
// ---------------------------------------------------------------------------------------------

/// @defgroup scenes Scenes
/// @brief Loading scene files and building the standard benchmark scenes.
/// @{

/// Load a scene file (docs/scene-format.md) into the world: its bodies are added and its world
/// settings applied. On any error (RB_ERR_IO, RB_ERR_PARSE with file:line:column and what was
/// expected, or a rejected value) nothing is loaded and the world is unchanged.
/// @param world the world
/// @param path file name (read whole; at most the size limit of docs/scene-format.md)
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_IO, RB_ERR_PARSE, RB_ERR_INVALID_ARGUMENT (NULL `path`, or
///         a value out of range), RB_ERR_CAPACITY (a file or a count over the limits),
///         RB_ERR_OUT_OF_MEMORY.
RB_API rb_status rb_load_scene(rb_world_id world, const char *path);
/// As rb_load_scene, from text in memory; `name` is used in messages.
/// @param world the world
/// @param text NUL-terminated YAML text
/// @param name name for messages; NULL gives "<text>"
/// @return as rb_load_scene() (without RB_ERR_IO).
RB_API rb_status rb_load_scene_text(rb_world_id world, const char *text, const char *name);

/// Build a standard scene of docs/bench-scenes.md in code: "pyramid", "stack", "pile", "pile:S" (S x S x 20
/// spheres), "boxes", and the jointed "chain" (40 capsule links and a 20 kg sphere on 41 ball joints, no
/// ground) and "ragdolls" (136 ragdolls of 11 capsules and 10 hinge and cone-twist joints, on the ground;
/// their damping is converted for the world's substeps as they are when the scene is built). `seed`
/// feeds the jitter and rotations (the standard is 1). Adds the ground and pen where the scene has
/// them, and sets gravity (0, -9.81, 0). On failure nothing is added.
/// @param world the world
/// @param name scene name; "pile:S" takes S in 1..1000 ("pile" is "pile:20")
/// @param seed random seed
/// @return RB_OK, RB_ERR_STALE_ID, RB_ERR_INVALID_ARGUMENT (NULL or unknown name), or the status of
///         the body or shape creation that failed (RB_ERR_OUT_OF_MEMORY, RB_ERR_CAPACITY).
RB_API rb_status rb_build_standard_scene(rb_world_id world, const char *name, uint64_t seed);

/// @}

// ---------------------------------------------------------------------------------------------
// Backends
// ---------------------------------------------------------------------------------------------

/// @defgroup backends Backends
/// @brief Probing the backends, and the names of backends and solvers.
/// @{

/// What rb_backend_probe() found out about a backend.
typedef struct rb_backend_info {
    rb_backend backend; ///< the backend probed
    const char *name;   ///< "cpu", "opencl", "cuda" (a static string)
    bool built;         ///< compiled into this installation (CPU) or its module file was found
    bool available;     ///< can start on this machine
    char device[256];   ///< device it would run on, when available
    char message[512];  ///< why not available, or notes (module path, thread count)
} rb_backend_info;

/// Probe a backend without creating a world (loads its module if there is one).
/// A backend that is not built or cannot start is still RB_OK, with `built` / `available` false and
/// the reason in `message`.
/// @param backend RB_BACKEND_CPU, RB_BACKEND_OPENCL or RB_BACKEND_CUDA (not AUTO)
/// @param[out] out receives the findings
/// @return RB_OK, or RB_ERR_INVALID_ARGUMENT (NULL `out`, RB_BACKEND_AUTO or a value outside rb_backend).
RB_API rb_status rb_backend_probe(rb_backend backend, rb_backend_info *out);
/// Name of a backend: "cpu", "opencl", "cuda", "auto".
/// @param backend any value
/// @return a static string; "unknown" for a value outside rb_backend. Never NULL.
RB_API const char *rb_backend_name(rb_backend backend);
/// Parse a backend name (case-insensitive); RB_ERR_INVALID_ARGUMENT for anything else.
/// @param name "cpu", "opencl", "cuda" or "auto"
/// @param[out] out receives the backend
/// @return RB_OK, or RB_ERR_INVALID_ARGUMENT (NULL argument, unknown name); the message is the
///         thread's (rb_last_error(rb_null_world_id)).
RB_API rb_status rb_backend_from_name(const char *name, rb_backend *out);
/// Name of a solver: "default", "batched", "sequential", "split", "soft".
/// @param solver any value
/// @return a static string; "unknown" for a value outside rb_solver. Never NULL.
RB_API const char *rb_solver_name(rb_solver solver);
/// Parse a solver name (case-insensitive): "batched", "split", "sequential", "soft" or "default".
/// @param name the name
/// @param[out] out receives the solver
/// @return RB_OK, or RB_ERR_INVALID_ARGUMENT (NULL argument, unknown name); the message is the
///         thread's (rb_last_error(rb_null_world_id)).
RB_API rb_status rb_solver_from_name(const char *name, rb_solver *out);

/// @}

#ifdef __cplusplus
}
#endif

#endif // RUBBLE_H
