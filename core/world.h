// The world object behind rb_world_id, and the helpers the API files share.
#ifndef RB_CORE_WORLD_H
#define RB_CORE_WORLD_H

#include <stdarg.h>
#include <stdbool.h>

#include "../api/rubble.h"
#include "backend.h"
#include "id_pool.h"
#include "scene.h"

#define RB_MAX_WORLDS 128
#define RB_MAX_BODIES (1 << 28)
#define RB_MAX_SHAPES (1 << 28)
#define RB_ERROR_SIZE 1024

// Values of rb_*_def.internal_value: proves the def came from rb_default_*_def().
#define RB_DEF_COOKIE 0x52424c45u

// A change of gravity that a scene file scheduled (`events:`, docs/scene-format.md): the first step that
// starts at or after `time` (half a step's rounding allowed) runs under the new gravity.
typedef struct rb_world_event {
    double time;             // s of simulated time since the world was created
    rb_vec3 gravity;
} rb_world_event;

// Double sums over one body's shapes, in the order they were added (core/mass.c). They are kept for the
// body whose mass changed last, so that adding n shapes to a body one after another costs O(n), not O(n²).
typedef struct rb_mass_sums {
    int body;                // slot + 1 of the body they belong to, 0: none
    uint16_t generation;     // of that body
    int head, count;         // its shape list when summed: first shape, number of shapes
    int finite_shapes;       // shapes other than planes
    double mass, c[3], i[6]; // density-weighted: mass, first moment, inertia about the origin (xx yy zz xy xz yz)
    double vol, vc[3], vi[6];// the same with density 1: a body whose densities are all 0 spreads its mass by volume
} rb_mass_sums;

typedef struct rb_world {
    bool in_use;
    uint16_t generation;
    // Body and shape slots new to this world start at this generation; the next world in the slot starts
    // above every generation this one issued (rb_destroy_world), so an id kept from an earlier world in
    // the slot names nothing in this one (until 65,536 generations have passed, as within a world).
    uint16_t id_generation_base;
    int index; // slot in the world table

    rb_world_def settings;   // as given, with the backend/solver choice resolved
    int threads;
    rb_scene scene;

    // host-only per-body data
    rb_id_pool body_ids;     // generations and free slots (id_pool.h)
    void **body_user_data;
    int *body_first_shape;   // head of the body's shape list, -1 = none
    int *body_shape_count;
    int body_count;          // live bodies
    float *body_target_mass; // mass asked for in rb_body_def (0 = from densities)
    // The mass data the application set (bodies with RB_BODY_FIXED_MASS), kept while the body is static
    // or kinematic too; allocated with the first rb_body_set_mass_data, NULL until then.
    rb_mass_data *body_mass_data;
    rb_mass_sums mass_sums;  // of the body that last gained a shape (core/mass.c)
    int bound_pending;       // slot + 1 of a body whose bounding radius is still an upper bound, 0: none
    uint16_t bound_pending_generation;

    // host-only per-shape data
    rb_id_pool shape_ids;
    void **shape_user_data;
    int *shape_next;         // next shape of the same body, -1 = end
    int shape_count;

    // host-only per-hull data (core/hull.c); the records are in scene.hull_pool
    struct rb_hull_slot *hulls;
    int hull_slots, hull_capacity;
    int hull_count;

    // host-only per-joint data (core/joint.c)
    rb_id_pool joint_ids;
    void **joint_user_data;
    int joint_count;

    const rb_backend_ops *ops;
    rb_backend_ctx *backend;
    void *module_handle;     // dlopen handle of a backend module, NULL for the CPU backend
    char backend_selection[256];
    char device_name[256];

    bool host_stale;         // a device backend holds newer state than the scene (download before use)
    bool contacts_stale;     // a body or shape was destroyed, or a step failed, since the last completed step:
                             // no pairs or contacts are reported

    double time;             // s simulated so far (sum of the time steps taken)
    rb_world_event *events;  // pending, in time order
    int event_count;

    rb_profile profile;
    rb_counters counters;
    char last_error[RB_ERROR_SIZE];
    uint64_t last_error_seq; // order of that failure among all failures (errors.c), 0: none since creation
    uint64_t created_seq;    // the failure count when the world was created
    // The bodies' state at the start of a step whose later substeps may still fail after earlier ones
    // moved the bodies (core/step.c): pos, rot, v, w, params per body, then the flags.
    void *step_backup;
    size_t step_backup_size;
} rb_world;

// Sets the world's and the thread's last error and returns `status`.
rb_status rb_fail(rb_world *w, rb_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
rb_status rb_failv(rb_world *w, rb_status status, const char *fmt, va_list args);
// How many failures have been recorded so far (all threads): orders a world's message against a thread's.
uint64_t rb_error_seq(void);
// snprintf that truncates on purpose (messages); never warns about it.
void rb_format(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
// For failures without a world.
rb_status rb_fail_global(rb_status status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Resolve ids. On failure they record the error (thread-local, and on the world when it is known)
// and return NULL / -1; `*status` receives the status to return.
rb_world *rb_get_world(rb_world_id id, rb_status *status);
rb_world *rb_get_body(rb_body_id id, int *slot, rb_status *status);
rb_world *rb_get_shape(rb_shape_id id, int *slot, rb_status *status);

rb_body_id rb_make_body_id(const rb_world *w, int slot);
rb_shape_id rb_make_shape_id(const rb_world *w, int slot);

bool rb_finite_vec3(rb_vec3 v);
bool rb_finite_quat(rb_quat q);
// Normalises q; false if it is non-finite or far from unit length (|q| outside [0.9, 1.1]).
bool rb_check_quat(rb_quat *q);

// Recomputes a body's mass, centre and inertia from its shapes (unless it has a fixed mass) and
// keeps its origin in place. Returns RB_OK or an error for a dynamic body whose mass would be 0.
rb_status rb_update_body_mass(rb_world *w, int body, bool check_only);
// The same after `shape` was linked at the head of the body's list: O(1) when the body is the one whose
// sums are kept. Leaves the bounding radius an upper bound until rb_flush_body_bound.
rb_status rb_body_mass_add_shape(rb_world *w, int body, int shape, bool check_only);
// A shape's volume, centre (shape frame) and inertia per unit mass about it (shape frame, tensor entries
// xx yy zz xy xz yz), from its type and parameters.
void rb_shape_mass_model(const rb_world *w, int type, rb_float4 params, double *volume, double centre[3],
                         double inertia[6]);
// Computes the bounding radius that rb_body_mass_add_shape left pending; before anything reads it (a step).
void rb_flush_body_bound(rb_world *w);

// Bring the host scene up to date before the application reads or edits it (device backends).
rb_status rb_sync_from_backend(rb_world *w);
// rb_counters.imprecise_bodies (core/world_origin.c): awake moving bodies whose motion in one substep
// float positions cannot follow at their distance from the origin. Syncs the host scene first.
rb_status rb_count_imprecise_bodies(rb_world *w, int *out);
// rb_counters.awake_bodies and frozen_bodies from the host scene as it is now (any call since the last
// step may have woken, put to sleep, destroyed or unfrozen bodies). The host scene must be in sync.
void rb_count_body_states(const rb_world *w, int *awake, int *frozen);

// Grows host and scene arrays to hold `n` body / shape slots. RB_ERR_OUT_OF_MEMORY on failure.
rb_status rb_reserve_body_slots(rb_world *w, int n);
rb_status rb_reserve_shape_slots(rb_world *w, int n);

// Substeps per step: the world's setting, or the solver's choice when it is 0.
int rb_effective_substeps(const rb_world_def *d);

// Hulls (core/hull.c). rb_get_hull resolves an id as rb_get_shape does.
rb_world *rb_get_hull(rb_hull_id id, int *slot, rb_status *status);
rb_hull_id rb_make_hull_id(const rb_world *w, int slot);
// A convex shape begins or stops using hull slot `hull`.
void rb_hull_add_user(rb_world *w, int hull, int delta);
// Pool offset of a live hull's record, and the hull slot a record offset belongs to (-1: none).
int rb_hull_offset(const rb_world *w, int hull);
int rb_hull_slot_of_offset(const rb_world *w, int offset);
// Mass properties of a convex shape of hull slot `hull` grown by `radius`: volume, centroid (hull frame)
// and inertia per unit mass about the centroid (tensor entries xx yy zz xy xz yz).
void rb_hull_shape_mass(const rb_world *w, int hull, float radius, double *volume, double centroid[3],
                        double inertia[6]);
// The hull's vertices' bounding radius about its origin, and the largest ball about its origin inside it.
float rb_hull_slot_radius(const rb_world *w, int hull);
float rb_hull_slot_inradius(const rb_world *w, int hull);
// The hull slot of a convex shape (its record's header keeps it).
int rb_hull_of_shape(const rb_world *w, int shape);
// The largest hull generation issued, counted from `base` (rb_destroy_world: the next world's ids).
uint16_t rb_hull_generation_span(const rb_world *w, uint16_t base);
// Frees the world's hull table (the scene frees the pool).
void rb_free_hulls(rb_world *w);

// Wakes a dynamic or kinematic body (no-op for static ones and frozen ones).
void rb_wake_body(rb_world *w, int body);
// Destroys the joints of a body that is being destroyed (core/joint.c); their other bodies wake.
void rb_destroy_body_joints(rb_world *w, int body);
// Frees the world's host-only joint arrays (the scene frees the joints).
void rb_free_joints(rb_world *w);
// The application set a body's state (pose, velocity, awake, a force or impulse that wakes): a body
// frozen after a non-finite state returns to the simulation (its state is finite: the freeze put it
// back to its last finite pose, stopped), and is woken.
void rb_unfreeze_body(rb_world *w, int body);
// Gives back the body and shape slots at and above `body_slots` and `shape_slots`, all of them free (what
// a failed scene load or scene build created and destroyed again), so body_slots is as it was before.
void rb_trim_free_slots(rb_world *w, int body_slots, int shape_slots);
// Wakes every body touching `body` in the last step's contacts.
void rb_wake_touching(rb_world *w, int body);
// True if world slot `index` (0-based) holds a live world; gives its generation.
bool rb_world_slot_live(int index, uint16_t *generation);
// The live world an object id (a body's, shape's or joint's index1 and world0) names: the world's
// generation is not part of those ids, so the world is the live one in that slot. `kind` ("body",
// "shape", "joint") names the id in the message of a failure, which is recorded; NULL then. The
// slot's own liveness and generation are the caller's to check.
rb_world *rb_world_of_object(int32_t index1, uint16_t world0, const char *kind, rb_status *status);
// The same for the *_is_valid functions: records nothing.
rb_world *rb_world_of_object_quiet(int32_t index1, uint16_t world0);
// Moves a body so its origin is at (p, q).
void rb_body_place(rb_world *w, int body, rb_vec3 p, rb_quat q);
// World-frame inverse inertia tensor of a body.
rb_mat3 rb_body_inv_inertia_world(const rb_scene *sc, int body);


#endif
