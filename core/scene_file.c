// Scene files (docs/scene-format.md): rb_load_scene and rb_load_scene_text.
//
// A load has two phases. The whole document is read and checked into a plan (no world change): joints
// find their bodies by name, convex shapes their hulls, and their values are checked here, so that they
// point at the key that is wrong. Then the plan is applied through the public API and the generators of
// scene_generators.h: the hulls first (a cloud that spans no solid fails there, at its points), then the
// bodies. If anything fails, every joint, body and hull added is destroyed and the world settings are
// put back, so the world is exactly as before. Every error message starts with FILE:LINE:COLUMN of the
// node it is about.
#define _POSIX_C_SOURCE 200809L // strnlen

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_file_yaml.h"
#include "scene_generators.h"
#include "world.h"

#define SF_VERSION 1
#define SF_MAX_FILE_BYTES ((size_t)64 << 20)      // 64 MiB
#define SF_MAX_BODIES RB_MAX_GENERATED_BODIES     // per file, listed and generated together
#define SF_MAX_LISTED_BODIES 1000000              // entries under `bodies` (aliases can multiply them)
#define SF_MAX_LISTED_SHAPES 2000000
#define SF_MAX_LISTED_JOINTS 1000000              // entries under `joints`
#define SF_MAX_HULL_POINTS 100000                 // per hull, as rb_compute_hull
#define SF_MAX_FILE_HULL_POINTS (1 << 24)         // per file: listed (hulls, convex) and drawn (rocks) together
#define SF_MAX_FILE_HULLS (1 << 20)               // per file, listed and generated (a world holds at most as many)

typedef struct sf_material {
    const char *name;
    const yaml_node_t *at;
    float friction, restitution, density, static_friction;
} sf_material;

typedef struct plan_shape {
    rb_gen_shape g;       // geometry of a sphere, capsule, box or convex, and the shape def
    rb_plane plane;       // when g.type == RB_SHAPE_PLANE
    int hull;             // when g.type == RB_SHAPE_CONVEX: its hull, an index into plan.hulls; else -1
    const yaml_node_t *at;
} plan_shape;

// A hull to build: an entry of `hulls` (named), or the points of a `convex` shape (inline). The points
// are plan.points[first_point .. + point_count).
typedef struct plan_hull {
    const char *name;          // NULL: inline
    const yaml_node_t *at;     // the points (where the messages of building it point)
    const yaml_node_t *node;   // the mapping it was read from: an inline one reached again (an alias) is the same hull
    int first_point, point_count;
    float weld_distance;
    int max_vertices;
    int users;                 // the shapes and generators that name it: a hull no one names is checked, not kept
} plan_hull;

typedef struct plan_body {
    rb_body_def def;
    int first_shape, shape_count;
    const char *name;
    const yaml_node_t *at;
} plan_body;

// An entry of `joints`: the def without its bodies, which exist only when the plan is applied.
typedef struct plan_joint {
    rb_joint_def def;
    int body_a, body_b; // indices into plan.bodies; body_a -1: the static world
    const yaml_node_t *at;
} plan_joint;

// A named listed body, for joints to find by name (sorted by name, then index).
typedef struct body_name {
    const char *name;
    int index;
} body_name;

// The first 12 of `count` names for a message ("a, b, c, ..."), each cut at 40 characters. The names
// are the `const char *` at `first`, `stride` bytes apart (a field of an array of structs).
static void name_list(char *list, size_t size, const char *const *first, size_t stride, int count)
{
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < count && i < 12 && used < size; ++i) {
        const char *name = *(const char *const *)((const char *)first + (size_t)i * stride);
        used += (size_t)snprintf(list + used, size - used, "%s%.40s", i ? ", " : "", name);
    }
    if (count > 12 && used < size)
        snprintf(list + used, size - used, ", ...");
}

typedef enum plan_generator_kind {
    GEN_GRID, GEN_PYRAMID, GEN_PEN, GEN_GROUND, GEN_RAGDOLL, GEN_CHAIN, GEN_ROCKS
} plan_generator_kind;

typedef struct plan_generator {
    plan_generator_kind kind;
    const yaml_node_t *at;
    int hull; // a grid of convex shapes: its hull, an index into plan.hulls; else -1
    union {
        rb_grid_spec grid;
        rb_rocks_spec rocks;
        rb_pyramid_spec pyramid;
        rb_pen_spec pen;
        rb_ragdoll_spec ragdoll;
        rb_chain_spec chain;
        struct {
            float height;
            rb_shape_def def;
        } ground;
    } u;
} plan_generator;

// The keys of world.sequential: the fields of rb_sequential_def (docs/solver-sequential.md).
typedef enum seq_kind { SEQ_FLOAT, SEQ_INT, SEQ_BOOL } seq_kind;
typedef struct seq_field {
    const char *key;
    size_t offset;
    seq_kind kind;
} seq_field;
#define SEQ_FIELD(name, kind) {#name, offsetof(rb_sequential_def, name), kind}
static const seq_field SEQ_FIELDS[] = {
    SEQ_FIELD(penetration_threshold, SEQ_FLOAT), SEQ_FIELD(remaining_penetration, SEQ_FLOAT),
    SEQ_FIELD(resolution_threshold, SEQ_FLOAT),
    SEQ_FIELD(sleep_threshold, SEQ_FLOAT), SEQ_FIELD(sleep_bias, SEQ_FLOAT),
    SEQ_FIELD(sleep_motion_max, SEQ_FLOAT), SEQ_FIELD(gravity_damping, SEQ_FLOAT),
    SEQ_FIELD(gravity_damping_threshold, SEQ_FLOAT), SEQ_FIELD(max_iterations, SEQ_FLOAT),
    SEQ_FIELD(shock_iterations, SEQ_FLOAT), SEQ_FIELD(shock_propagation, SEQ_BOOL),
    SEQ_FIELD(settle_iterations, SEQ_FLOAT), SEQ_FIELD(heap_threshold, SEQ_INT),
    SEQ_FIELD(large_batch, SEQ_INT), SEQ_FIELD(split_contacts, SEQ_INT), SEQ_FIELD(warm_start, SEQ_BOOL),
};
#undef SEQ_FIELD
#define SEQ_FIELD_COUNT ((int)(sizeof SEQ_FIELDS / sizeof SEQ_FIELDS[0]))
static const char *const SEQUENTIAL_KEYS[] = {
    "penetration_threshold", "remaining_penetration", "resolution_threshold",
    "sleep_threshold", "sleep_bias", "sleep_motion_max", "gravity_damping", "gravity_damping_threshold",
    "max_iterations", "shock_iterations", "shock_propagation", "settle_iterations", "heap_threshold",
    "large_batch", "split_contacts", "warm_start", NULL};

typedef struct plan {
    // world settings; a NULL node means "not in the file"
    const yaml_node_t *gravity_at, *time_step_at, *substeps_at, *iterations_at, *position_iterations_at, *solver_at, *sleep_at;
    const yaml_node_t *sequential_at, *restitution_threshold_at;
    float restitution_threshold;
    rb_sequential_def sequential;              // the fields given under world.sequential ...
    bool sequential_given[SEQ_FIELD_COUNT];    // ... and which ones those are
    rb_vec3 gravity;
    float time_step;
    int substeps, iterations, position_iterations;
    rb_solver solver;
    bool sleep;

    uint64_t seed;
    sf_material *materials; // sorted by name
    int material_count;
    plan_body *bodies;
    int body_count;
    plan_shape *shapes;
    int shape_count, shape_capacity;
    plan_generator *generators;
    int generator_count;
    plan_joint *joints;
    int joint_count;
    body_name *names; // the named listed bodies, when there are joints
    int name_count;
    plan_hull *hulls; // the named ones in file order, then the inline ones as the shapes name them
    int hull_count, hull_capacity;
    body_name *hull_names; // the named hulls, sorted by name
    int hull_name_count;
    rb_vec3 *points; // of all hulls
    int point_count, point_capacity;
    const yaml_node_t **inline_nodes; // open addressing: the mappings of the inline hulls read so far ...
    int *inline_hulls;                // ... and their hulls
    int inline_capacity;              // a power of 2 (0: none yet)
    long long total_hulls, total_hull_points; // listed and generated, for the per-file limits
    rb_hull_id *hull_ids; // when the plan is applied: the hulls built, in p->hulls order
    long long total_bodies;
    rb_world_event *events; // time relative to the load; in file order
    int event_count;
    const yaml_node_t *events_at;
} plan;

static void plan_free(plan *p)
{
    free(p->materials);
    free(p->bodies);
    free(p->shapes);
    free(p->generators);
    free(p->joints);
    free(p->names);
    free(p->hulls);
    free(p->hull_names);
    free(p->points);
    free(p->inline_nodes);
    free(p->inline_hulls);
    free(p->hull_ids);
    free(p->events);
}

static bool out_of_memory(sf_reader *r, const yaml_node_t *at, const char *what)
{
    return sf_fail(r, RB_ERR_OUT_OF_MEMORY, at, "out of memory reading %s", what);
}

// ---- small readers built on the YAML layer ----

static const char *const MATERIAL_KEYS[] = {"friction", "static_friction", "restitution", "density", NULL};
static const char *const ROTATION_KEYS[] = {"axis", "angle", "degrees", "quaternion", NULL};
static const char *const SPHERE_KEYS[] = {"radius", NULL};
static const char *const CAPSULE_KEYS[] = {"radius", "half_length", NULL};
static const char *const BOX_KEYS[] = {"half_extents", NULL};
static const char *const PLANE_KEYS[] = {"normal", "offset", NULL};
static const char *const HULL_KEYS[] = {"points", "weld_distance", "max_vertices", NULL};
static const char *const CONVEX_KEYS[] = {"points", "hull", "radius", "weld_distance", "max_vertices", NULL};
static const char *const SHAPE_KEYS[] = {"sphere", "capsule", "box", "plane", "convex", "material", "friction",
                                         "static_friction", "restitution", "density", "position", "rotation",
                                         "category_bits", "mask_bits", NULL};
static const char *const DAMPING_KEYS[] = {"linear", "angular", NULL};
static const char *const BODY_KEYS[] = {"name", "type", "position", "rotation", "velocity", "angular_velocity",
                                        "mass", "damping", "gravity_scale", "sleep", "awake", "bullet", "shapes", NULL};
static const char *const GENERATOR_KEYS[] = {"grid", "pyramid", "pen", "ground", "ragdoll", "chain", "rocks", NULL};
static const char *const GRID_KEYS[] = {"shape", "count", "spacing", "center", "jitter", "velocity_jitter",
                                        "random_rotation", "type",
                                        "mass", NULL};
static const char *const PYRAMID_KEYS[] = {"shape", "base", "center", "type", "mass", NULL};
static const char *const PEN_KEYS[] = {"half_width", "height", "thickness", "floor", "material", "friction",
                                       "static_friction", "restitution", "density", NULL};
static const char *const GROUND_KEYS[] = {"height", "material", "friction", "static_friction", "restitution",
                                          "density", NULL};
// no density: the parts' masses are given
static const char *const RAGDOLL_KEYS[] = {"position", "rotation", "scale", "count", "spacing", "mass", "damping",
                                           "material", "friction", "static_friction", "restitution", NULL};
static const char *const ROCKS_KEYS[] = {"count", "spacing", "center", "points", "extents", "radius",
                                         "random_rotation", "type", "mass", "material", "friction",
                                         "static_friction", "restitution", "density", NULL};
static const char *const CHAIN_KEYS[] = {"anchor", "direction", "links", "link_length", "link_radius", "link_mass",
                                         "end_radius", "end_mass", "material", "friction", "static_friction",
                                         "restitution", "density", NULL};
// The keys of a joint by type, in rb_joint_type order; every type takes the common ones.
#define JOINT_COMMON_KEYS "type", "body_a", "body_b", "anchor", "anchor_b", "collide_connected", "break_force", \
                          "break_torque"
static const char *const BALL_JOINT_KEYS[] = {JOINT_COMMON_KEYS, NULL};
static const char *const HINGE_JOINT_KEYS[] = {JOINT_COMMON_KEYS, "axis", "reference_axis", "lower", "upper",
                                               "limits", "motor_speed", "max_motor_force", NULL};
static const char *const CONE_JOINT_KEYS[] = {JOINT_COMMON_KEYS, "axis", "reference_axis", "swing_span1",
                                              "swing_span2", "twist_span", NULL};
static const char *const DISTANCE_JOINT_KEYS[] = {JOINT_COMMON_KEYS, "length", "lower", "upper", "limits", "hertz",
                                                  "damping_ratio", "stiffness", "damping", NULL};
static const char *const SPRING_JOINT_KEYS[] = {JOINT_COMMON_KEYS, "length", "hertz", "damping_ratio", "stiffness",
                                                "damping", NULL};
#undef JOINT_COMMON_KEYS
static const char *const JOINT_TYPE_NAMES[] = {"ball", "hinge", "cone_twist", "fixed", "distance", "spring", "slider"};
// (a fixed joint takes the ball's keys, a slider the hinge's)
static const char *const *const JOINT_KEYS[] = {BALL_JOINT_KEYS,     HINGE_JOINT_KEYS,  CONE_JOINT_KEYS, BALL_JOINT_KEYS,
                                                DISTANCE_JOINT_KEYS, SPRING_JOINT_KEYS, HINGE_JOINT_KEYS};
#define JOINT_TYPE_COUNT ((int)(sizeof JOINT_TYPE_NAMES / sizeof JOINT_TYPE_NAMES[0]))
static const char *const WORLD_KEYS[] = {"gravity", "time_step", "substeps", "iterations", "position_iterations",
                                         "solver", "sleep", "restitution_threshold", "sequential", NULL};
static const char *const TOP_KEYS[] = {"rubble-scene", "description", "seed", "world", "materials", "hulls",
                                       "bodies", "joints", "generators", "events", NULL};
static const char *const EVENT_KEYS[] = {"time", "gravity", NULL};

// A value that must be > 0 when given (a body mass; 0 would silently mean "from densities").
static bool opt_positive(sf_reader *r, const yaml_node_t *map, const char *key, const char *context, float *out,
                         const char *hint)
{
    yaml_node_t *v = sf_get(r, map, key);
    char what[128];
    if (!v)
        return true;
    if (!sf_float(r, v, sf_what(what, sizeof what, context, key), out))
        return false;
    if (!(*out > 0.0f))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, v, "%s must be > 0, got %g%s", what, *out, hint);
    return true;
}

static bool body_type(sf_reader *r, const yaml_node_t *map, const char *context, rb_body_type *out)
{
    yaml_node_t *v = sf_get(r, map, "type");
    char what[128];
    const char *s;
    if (!v)
        return true;
    if (!sf_string(r, v, sf_what(what, sizeof what, context, "type"), &s))
        return false;
    if (strcmp(s, "static") == 0)
        *out = RB_BODY_STATIC;
    else if (strcmp(s, "kinematic") == 0)
        *out = RB_BODY_KINEMATIC;
    else if (strcmp(s, "dynamic") == 0)
        *out = RB_BODY_DYNAMIC;
    else
        return sf_fail(r, RB_ERR_PARSE, v, "%s: expected static, kinematic or dynamic, got '%.60s'", what, s);
    return true;
}

// rotation: {quaternion: [x, y, z, w]} or {axis: [x, y, z], angle: rad} or {axis: [...], degrees: deg}
static bool read_rotation(sf_reader *r, const yaml_node_t *node, const char *context, rb_quat *out)
{
    char what[128];
    sf_what(what, sizeof what, context, "rotation");
    if (!sf_mapping(r, node, what, ROTATION_KEYS))
        return false;
    yaml_node_t *axis = sf_get(r, node, "axis"), *angle = sf_get(r, node, "angle");
    yaml_node_t *degrees = sf_get(r, node, "degrees"), *quat = sf_get(r, node, "quaternion");
    if (quat) {
        if (axis || angle || degrees)
            return sf_fail(r, RB_ERR_PARSE, node,
                           "%s: expected either 'quaternion' or 'axis' with 'angle' (or 'degrees'), not both", what);
        float q[4];
        char qwhat[160];
        if (!sf_vec4(r, quat, sf_what(qwhat, sizeof qwhat, what, "quaternion"), q))
            return false;
        *out = (rb_quat){q[0], q[1], q[2], q[3]};
        return true;
    }
    if (!axis)
        return sf_fail(r, RB_ERR_PARSE, node, "%s: expected 'axis' with 'angle' (or 'degrees'), or 'quaternion'", what);
    if ((angle != NULL) == (degrees != NULL))
        return sf_fail(r, RB_ERR_PARSE, node, "%s: expected exactly one of 'angle' (radians) and 'degrees'", what);
    rb_vec3 a;
    float value;
    char vwhat[160];
    if (!sf_vec3(r, axis, sf_what(vwhat, sizeof vwhat, what, "axis"), &a))
        return false;
    if (!(a.x * a.x + a.y * a.y + a.z * a.z > 0.0f))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, axis, "%s must be a non-zero vector, got [%g, %g, %g]", vwhat, a.x,
                       a.y, a.z);
    if (!sf_float(r, angle ? angle : degrees, sf_what(vwhat, sizeof vwhat, what, angle ? "angle" : "degrees"), &value))
        return false;
    if (degrees)
        value = (float)(value * (3.14159265358979323846 / 180.0));
    *out = rb_quat_from_axis_angle(a, value);
    return true;
}

static int material_cmp(const void *a, const void *b)
{
    return strcmp(((const sf_material *)a)->name, ((const sf_material *)b)->name);
}

// materials: {NAME: {friction, restitution, density}, ...}
static bool read_materials(sf_reader *r, const yaml_node_t *node, plan *p)
{
    if (node->type != YAML_MAPPING_NODE) {
        char got[96];
        sf_describe(node, got, sizeof got);
        return sf_fail(r, RB_ERR_PARSE, node, "materials: expected a mapping of names to {friction, restitution, "
                       "density}, got %s", got);
    }
    int n = sf_mapping_size(node);
    if (n == 0)
        return true;
    p->materials = calloc((size_t)n, sizeof *p->materials);
    if (!p->materials)
        return out_of_memory(r, node, "materials");
    rb_shape_def defaults = rb_default_shape_def();
    for (int i = 0; i < n; ++i) {
        sf_material *m = &p->materials[i];
        yaml_node_t *key = sf_mapping_key(r, node, i), *value = sf_mapping_value(r, node, i);
        if (!sf_string(r, key, "material name", &m->name))
            return false;
        char what[128];
        rb_format(what, sizeof what, "material '%.60s'", m->name);
        m->at = key;
        m->friction = defaults.friction;
        m->restitution = defaults.restitution;
        m->density = defaults.density;
        m->static_friction = defaults.static_friction;
        if (!sf_mapping(r, value, what, MATERIAL_KEYS) || !sf_opt_float(r, value, "friction", what, &m->friction) ||
            !sf_opt_float(r, value, "static_friction", what, &m->static_friction) ||
            !sf_opt_float(r, value, "restitution", what, &m->restitution) ||
            !sf_opt_float(r, value, "density", what, &m->density))
            return false;
    }
    p->material_count = n;
    qsort(p->materials, (size_t)n, sizeof *p->materials, material_cmp);
    for (int i = 1; i < n; ++i) {
        if (strcmp(p->materials[i - 1].name, p->materials[i].name) == 0) {
            const yaml_node_t *a = p->materials[i - 1].at, *b = p->materials[i].at;
            const yaml_node_t *later = a->start_mark.index > b->start_mark.index ? a : b;
            return sf_fail(r, RB_ERR_PARSE, later, "duplicate material '%s'; each name may be defined only once",
                           p->materials[i].name);
        }
    }
    return true;
}

// The material keys of a shape, pen or ground: `material: NAME`, then friction, restitution and
// density, each of which overrides the named material's value.
static bool read_material_keys(sf_reader *r, const plan *p, const yaml_node_t *map, const char *context,
                               rb_shape_def *def)
{
    yaml_node_t *ref = sf_get(r, map, "material");
    if (ref) {
        const char *name;
        char what[128];
        if (!sf_string(r, ref, sf_what(what, sizeof what, context, "material"), &name))
            return false;
        sf_material key = {.name = name};
        const sf_material *m = p->material_count
                                   ? bsearch(&key, p->materials, (size_t)p->material_count, sizeof key, material_cmp)
                                   : NULL;
        if (!m) {
            char list[400];
            name_list(list, sizeof list, p->material_count ? &p->materials[0].name : NULL, sizeof p->materials[0],
                      p->material_count);
            return sf_fail(r, RB_ERR_PARSE, ref, "unknown material '%.60s'; expected one of the names under "
                           "'materials'%s%s", name, p->material_count ? ": " : " (there are none)", list);
        }
        def->friction = m->friction;
        def->restitution = m->restitution;
        def->density = m->density;
        def->static_friction = m->static_friction;
    }
    return sf_opt_float(r, map, "friction", context, &def->friction) &&
           sf_opt_float(r, map, "static_friction", context, &def->static_friction) &&
           sf_opt_float(r, map, "restitution", context, &def->restitution) &&
           sf_opt_float(r, map, "density", context, &def->density);
}

// ---- hulls ----

static int hull_name_cmp(const void *a, const void *b)
{
    const body_name *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

// The hull named `name` under `hulls` (an index into p->hulls), or -1.
static int find_hull(const plan *p, const char *name)
{
    int lo = 0, hi = p->hull_name_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(p->hull_names[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->hull_name_count && strcmp(p->hull_names[lo].name, name) == 0 ? p->hull_names[lo].index : -1;
}

static bool push_hull(sf_reader *r, plan *p, const yaml_node_t *at, plan_hull **out)
{
    if (p->total_hulls >= SF_MAX_FILE_HULLS)
        return sf_fail(r, RB_ERR_CAPACITY, at, "more than %d hulls in one scene file (named, inline and drawn by "
                       "'rocks' together)", SF_MAX_FILE_HULLS);
    if (p->hull_count == p->hull_capacity) {
        int cap = p->hull_capacity ? 2 * p->hull_capacity : 16;
        plan_hull *h = realloc(p->hulls, (size_t)cap * sizeof *h);
        if (!h)
            return out_of_memory(r, at, "hulls");
        p->hulls = h;
        p->hull_capacity = cap;
    }
    *out = &p->hulls[p->hull_count++];
    memset(*out, 0, sizeof **out);
    ++p->total_hulls;
    return true;
}

// Adds n hull points to the file's total; refuses before anything is read or drawn.
static bool count_hull_points(sf_reader *r, plan *p, const yaml_node_t *at, const char *what, double n)
{
    if (n > (double)SF_MAX_FILE_HULL_POINTS - (double)p->total_hull_points)
        return sf_fail(r, RB_ERR_CAPACITY, at, "%s would bring the scene to %.0f hull points, more than the limit of "
                       "%d per scene file", what, n + (double)p->total_hull_points, SF_MAX_FILE_HULL_POINTS);
    p->total_hull_points += (long long)n;
    return true;
}

// `points: [[x, y, z], ...]` of a hull (`context`: "hull 'rock'" or "convex"): 4 .. 100,000 points,
// appended to p->points. Whether they span a solid is found when the hull is built.
static bool read_points(sf_reader *r, plan *p, const yaml_node_t *node, const char *context, plan_hull *h)
{
    char what[128];
    sf_what(what, sizeof what, context, "points");
    if (node->type != YAML_SEQUENCE_NODE) {
        char got[96];
        sf_describe(node, got, sizeof got);
        return sf_fail(r, RB_ERR_PARSE, node, "%s: expected a sequence of at least 4 points [[x, y, z], ...], got %s",
                       what, got);
    }
    int n = sf_sequence(r, node, what);
    if (n < 0)
        return false;
    if (n < 4)
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, node, "%s: a hull needs at least 4 points [x, y, z] that span a "
                       "solid, got %d", what, n);
    if (n > SF_MAX_HULL_POINTS)
        return sf_fail(r, RB_ERR_CAPACITY, node, "%s: %d points, more than the limit of %d per hull", what, n,
                       SF_MAX_HULL_POINTS);
    if (!count_hull_points(r, p, node, what, n))
        return false;
    if (p->point_count + n > p->point_capacity) {
        int cap = p->point_capacity ? p->point_capacity : 256;
        while (cap < p->point_count + n)
            cap *= 2;
        rb_vec3 *pts = realloc(p->points, (size_t)cap * sizeof *pts);
        if (!pts)
            return out_of_memory(r, node, "hull points");
        p->points = pts;
        p->point_capacity = cap;
    }
    h->first_point = p->point_count;
    for (int i = 0; i < n; ++i) {
        char item[160];
        rb_format(item, sizeof item, "%s point %d", context, i + 1);
        if (!sf_vec3(r, sf_item(r, node, i), item, &p->points[p->point_count + i]))
            return false;
    }
    p->point_count += n;
    h->point_count = n;
    h->at = node;
    return true;
}

// A hull's `weld_distance` and `max_vertices` (rb_hull_def), checked as rb_compute_hull checks them.
static bool read_hull_settings(sf_reader *r, const yaml_node_t *map, const char *context, plan_hull *h)
{
    rb_hull_def d = rb_default_hull_def();
    h->weld_distance = d.weld_distance;
    h->max_vertices = d.max_vertices;
    yaml_node_t *v;
    char what[128];
    if ((v = sf_get(r, map, "weld_distance"))) {
        if (!sf_float(r, v, sf_what(what, sizeof what, context, "weld_distance"), &h->weld_distance))
            return false;
        if (!(h->weld_distance >= 0.0f && h->weld_distance <= 1.0f))
            return sf_fail(r, RB_ERR_INVALID_ARGUMENT, v, "%s must be in [0, 1] m, got %g", what, h->weld_distance);
    }
    if ((v = sf_get(r, map, "max_vertices"))) {
        long long n;
        if (!sf_int(r, v, sf_what(what, sizeof what, context, "max_vertices"), 4, d.max_vertices, RB_OK, &n))
            return false;
        h->max_vertices = (int)n;
    }
    return true;
}

// hulls: {NAME: {points: [[x, y, z], ...], weld_distance, max_vertices}, ...}
static bool read_hulls(sf_reader *r, plan *p, const yaml_node_t *node)
{
    if (node->type != YAML_MAPPING_NODE) {
        char got[96];
        sf_describe(node, got, sizeof got);
        return sf_fail(r, RB_ERR_PARSE, node, "hulls: expected a mapping of names to {points: [[x, y, z], ...]}, got "
                       "%s", got);
    }
    int n = sf_mapping_size(node);
    if (n == 0)
        return true;
    if (n > SF_MAX_FILE_HULLS)
        return sf_fail(r, RB_ERR_CAPACITY, node, "%d hulls under 'hulls', more than the limit of %d per scene file", n,
                       SF_MAX_FILE_HULLS);
    if (!(p->hull_names = malloc((size_t)n * sizeof *p->hull_names)))
        return out_of_memory(r, node, "hulls");
    for (int i = 0; i < n; ++i) {
        yaml_node_t *key = sf_mapping_key(r, node, i), *value = sf_mapping_value(r, node, i);
        const char *name;
        if (!sf_string(r, key, "hull name", &name))
            return false;
        char context[96];
        rb_format(context, sizeof context, "hull '%.60s'", name);
        plan_hull *h;
        yaml_node_t *pts;
        if (!sf_mapping(r, value, context, HULL_KEYS) || !push_hull(r, p, key, &h))
            return false;
        h->name = name;
        h->node = key; // where a second definition of the name is reported
        if (!(pts = sf_require(r, value, "points", context)) || !read_points(r, p, pts, context, h) ||
            !read_hull_settings(r, value, context, h))
            return false;
        p->hull_names[i] = (body_name){name, p->hull_count - 1};
    }
    p->hull_name_count = n;
    qsort(p->hull_names, (size_t)n, sizeof *p->hull_names, hull_name_cmp);
    for (int i = 1; i < n; ++i)
        if (strcmp(p->hull_names[i - 1].name, p->hull_names[i].name) == 0) {
            const plan_hull *first = &p->hulls[p->hull_names[i - 1].index], *again = &p->hulls[p->hull_names[i].index];
            return sf_fail(r, RB_ERR_PARSE, again->node, "duplicate hull '%.60s' (first defined at line %d); each name "
                           "may be defined only once", again->name, (int)first->node->start_mark.line + 1);
        }
    return true;
}

// The inline hulls read so far, by the mapping they were read from (an alias reaches the same node).
static size_t node_slot(const yaml_node_t *n, int capacity)
{
    uint64_t x = (uint64_t)(uintptr_t)n;
    x ^= x >> 29;
    x *= 0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 32) & (size_t)(capacity - 1);
}

static int find_inline_hull(const plan *p, const yaml_node_t *n)
{
    if (p->inline_capacity == 0)
        return -1;
    size_t mask = (size_t)(p->inline_capacity - 1);
    for (size_t i = node_slot(n, p->inline_capacity); p->inline_nodes[i]; i = (i + 1) & mask)
        if (p->inline_nodes[i] == n)
            return p->inline_hulls[i];
    return -1;
}

static bool add_inline_hull(sf_reader *r, plan *p, const yaml_node_t *n, int hull)
{
    int count = p->hull_count - p->hull_name_count; // the inline hulls, this one included
    if (2 * count > p->inline_capacity) {
        int cap = p->inline_capacity ? 2 * p->inline_capacity : 64;
        const yaml_node_t **nodes = calloc((size_t)cap, sizeof *nodes);
        int *hulls = malloc((size_t)cap * sizeof *hulls);
        if (!nodes || !hulls) {
            free(nodes);
            free(hulls);
            return out_of_memory(r, n, "hulls");
        }
        for (int i = 0; i < p->inline_capacity; ++i)
            if (p->inline_nodes[i]) {
                size_t k = node_slot(p->inline_nodes[i], cap);
                while (nodes[k])
                    k = (k + 1) & (size_t)(cap - 1);
                nodes[k] = p->inline_nodes[i];
                hulls[k] = p->inline_hulls[i];
            }
        free(p->inline_nodes);
        free(p->inline_hulls);
        p->inline_nodes = nodes;
        p->inline_hulls = hulls;
        p->inline_capacity = cap;
    }
    size_t k = node_slot(n, p->inline_capacity);
    while (p->inline_nodes[k])
        k = (k + 1) & (size_t)(p->inline_capacity - 1);
    p->inline_nodes[k] = n;
    p->inline_hulls[k] = hull;
    return true;
}

// convex: {points: [...], radius} (a hull of its own) or {hull: NAME, radius} (one of `hulls`).
static bool read_convex(sf_reader *r, plan *p, const yaml_node_t *geom, plan_shape *out)
{
    out->g.type = RB_SHAPE_CONVEX;
    if (!sf_mapping(r, geom, "convex", CONVEX_KEYS))
        return false;
    yaml_node_t *pts = sf_get(r, geom, "points"), *ref = sf_get(r, geom, "hull");
    if (pts && ref)
        return sf_fail(r, RB_ERR_PARSE, ref, "convex: expected either 'points' (a hull of its own) or 'hull' (the name "
                       "of one under 'hulls'), not both");
    if (!pts && !ref)
        return sf_fail(r, RB_ERR_PARSE, geom, "convex: expected 'points: [[x, y, z], ...]' (at least 4) or 'hull: "
                       "NAME' (one of the hulls under 'hulls')");
    if (!sf_opt_float(r, geom, "radius", "convex", &out->g.convex.radius))
        return false;
    if (!(out->g.convex.radius >= 0.0f))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, sf_get(r, geom, "radius"), "convex radius must be >= 0 m (0: sharp "
                       "edges), got %g", out->g.convex.radius);
    int hull;
    if (ref) {
        yaml_node_t *weld = sf_get(r, geom, "weld_distance"), *most = sf_get(r, geom, "max_vertices");
        if (weld || most)
            return sf_fail(r, RB_ERR_PARSE, weld ? weld : most, "convex: '%s' belongs to the hull's own entry under "
                           "'hulls', not to a shape that names it", weld ? "weld_distance" : "max_vertices");
        const char *name;
        if (!sf_string(r, ref, "convex hull", &name))
            return false;
        if ((hull = find_hull(p, name)) < 0) {
            char list[400];
            name_list(list, sizeof list, p->hull_name_count ? &p->hull_names[0].name : NULL, sizeof p->hull_names[0],
                      p->hull_name_count);
            return sf_fail(r, RB_ERR_PARSE, ref, "unknown hull '%.60s'; expected one of the names under 'hulls'%s%s",
                           name, p->hull_name_count ? ": " : " (there are none)", list);
        }
    } else if ((hull = find_inline_hull(p, geom)) < 0) {
        plan_hull *h;
        if (!push_hull(r, p, geom, &h))
            return false;
        h->node = geom;
        hull = p->hull_count - 1;
        if (!read_points(r, p, pts, "convex", h) || !read_hull_settings(r, geom, "convex", h) ||
            !add_inline_hull(r, p, geom, hull))
            return false;
    }
    out->hull = hull;
    p->hulls[hull].users++;
    return true;
}

// One entry of a body's `shapes`, or a generator's `shape`.
static bool read_shape(sf_reader *r, plan *p, const yaml_node_t *node, bool allow_plane, plan_shape *out)
{
    if (!sf_mapping(r, node, "shape", SHAPE_KEYS))
        return false;
    memset(out, 0, sizeof *out);
    out->at = node;
    out->hull = -1;
    out->g.def = rb_default_shape_def();
    static const char *const geometry[] = {"sphere", "capsule", "box", "plane", "convex"};
    yaml_node_t *geom = NULL;
    int kind = -1;
    for (int i = 0; i < 5; ++i) {
        yaml_node_t *v = sf_get(r, node, geometry[i]);
        if (v && geom)
            return sf_fail(r, RB_ERR_PARSE, v, "shape has both '%s' and '%s'; expected exactly one geometry",
                           geometry[kind], geometry[i]);
        if (v) {
            geom = v;
            kind = i;
        }
    }
    if (!geom)
        return sf_fail(r, RB_ERR_PARSE, node, "shape has no geometry; expected one of: sphere, capsule, box, "
                       "convex%s", allow_plane ? ", plane" : "");
    switch (kind) {
    case 0:
        out->g.type = RB_SHAPE_SPHERE;
        if (!sf_mapping(r, geom, "sphere", SPHERE_KEYS) || !sf_req_float(r, geom, "radius", "sphere", &out->g.radius))
            return false;
        break;
    case 1:
        out->g.type = RB_SHAPE_CAPSULE;
        if (!sf_mapping(r, geom, "capsule", CAPSULE_KEYS) ||
            !sf_req_float(r, geom, "radius", "capsule", &out->g.radius) ||
            !sf_req_float(r, geom, "half_length", "capsule", &out->g.half_length))
            return false;
        break;
    case 2: {
        out->g.type = RB_SHAPE_BOX;
        yaml_node_t *h;
        if (!sf_mapping(r, geom, "box", BOX_KEYS) || !(h = sf_require(r, geom, "half_extents", "box")) ||
            !sf_vec3(r, h, "box half_extents", &out->g.half_extents))
            return false;
        break;
    }
    case 4:
        if (!read_convex(r, p, geom, out))
            return false;
        break;
    default:
        if (!allow_plane)
            return sf_fail(r, RB_ERR_PARSE, geom, "a generated body cannot be a plane; expected sphere, capsule, box "
                           "or convex");
        out->g.type = RB_SHAPE_PLANE;
        out->plane = (rb_plane){{0.0f, 1.0f, 0.0f}, 0.0f};
        if (!sf_mapping(r, geom, "plane", PLANE_KEYS) || !sf_opt_vec3(r, geom, "normal", "plane", &out->plane.normal) ||
            !sf_opt_float(r, geom, "offset", "plane", &out->plane.offset))
            return false;
        break;
    }
    rb_shape_def *def = &out->g.def;
    if (!read_material_keys(r, p, node, "shape", def) || !sf_opt_vec3(r, node, "position", "shape", &def->local_position))
        return false;
    yaml_node_t *rot = sf_get(r, node, "rotation");
    if (rot && !read_rotation(r, rot, "shape", &def->local_rotation))
        return false;
    long long bits;
    yaml_node_t *v;
    if ((v = sf_get(r, node, "category_bits"))) {
        if (!sf_int(r, v, "shape category_bits", 0, 0xffffffffll, RB_OK, &bits))
            return false;
        def->category_bits = (uint32_t)bits;
    }
    if ((v = sf_get(r, node, "mask_bits"))) {
        if (!sf_int(r, v, "shape mask_bits", 0, 0xffffffffll, RB_OK, &bits))
            return false;
        def->mask_bits = (uint32_t)bits;
    }
    return true;
}

static bool push_shape(sf_reader *r, plan *p, const yaml_node_t *at, plan_shape **out)
{
    if (p->shape_count >= SF_MAX_LISTED_SHAPES)
        return sf_fail(r, RB_ERR_CAPACITY, at, "more than %d shapes listed under 'bodies'; use a generator for large "
                       "scenes", SF_MAX_LISTED_SHAPES);
    if (p->shape_count == p->shape_capacity) {
        int cap = p->shape_capacity ? 2 * p->shape_capacity : 64;
        plan_shape *s = realloc(p->shapes, (size_t)cap * sizeof *s);
        if (!s)
            return out_of_memory(r, at, "shapes");
        p->shapes = s;
        p->shape_capacity = cap;
    }
    *out = &p->shapes[p->shape_count++];
    return true;
}

static bool read_body(sf_reader *r, plan *p, const yaml_node_t *node, plan_body *b)
{
    if (!sf_mapping(r, node, "body", BODY_KEYS))
        return false;
    b->at = node;
    b->name = NULL;
    b->def = rb_default_body_def();
    b->def.type = RB_BODY_DYNAMIC; // the file's default: most bodies in a scene move
    rb_body_def *d = &b->def;
    yaml_node_t *v;
    if ((v = sf_get(r, node, "name")) && !sf_string(r, v, "body name", &b->name))
        return false;
    if (!body_type(r, node, "body", &d->type) || !sf_opt_vec3(r, node, "position", "body", &d->position) ||
        !sf_opt_vec3(r, node, "velocity", "body", &d->linear_velocity) ||
        !sf_opt_vec3(r, node, "angular_velocity", "body", &d->angular_velocity) ||
        !opt_positive(r, node, "mass", "body", &d->mass, "; leave 'mass' out to take it from the shape densities") ||
        !sf_opt_float(r, node, "gravity_scale", "body", &d->gravity_scale) ||
        !sf_opt_bool(r, node, "sleep", "body", &d->enable_sleep) || !sf_opt_bool(r, node, "awake", "body", &d->is_awake) ||
        !sf_opt_bool(r, node, "bullet", "body", &d->is_bullet))
        return false;
    if ((v = sf_get(r, node, "rotation")) && !read_rotation(r, v, "body", &d->rotation))
        return false;
    if ((v = sf_get(r, node, "damping"))) {
        if (!sf_mapping(r, v, "body damping", DAMPING_KEYS) ||
            !sf_opt_float(r, v, "linear", "damping", &d->linear_damping) ||
            !sf_opt_float(r, v, "angular", "damping", &d->angular_damping))
            return false;
    }
    yaml_node_t *shapes = sf_require(r, node, "shapes", "body");
    int n = shapes ? sf_sequence(r, shapes, "body shapes") : -1;
    if (n < 0)
        return false;
    if (n == 0)
        return sf_fail(r, RB_ERR_PARSE, shapes, "body shapes: expected at least one shape, got an empty sequence");
    b->first_shape = p->shape_count;
    b->shape_count = n;
    for (int i = 0; i < n; ++i) {
        plan_shape *s = NULL;
        yaml_node_t *item = sf_item(r, shapes, i);
        if (!push_shape(r, p, item, &s) || !read_shape(r, p, item, true, s))
            return false;
    }
    return true;
}

static bool read_bodies(sf_reader *r, plan *p, const yaml_node_t *node)
{
    int n = sf_sequence(r, node, "bodies");
    if (n <= 0)
        return n == 0;
    if (n > SF_MAX_LISTED_BODIES)
        return sf_fail(r, RB_ERR_CAPACITY, node, "%d bodies listed under 'bodies', more than the limit of %d; use a "
                       "generator for large scenes", n, SF_MAX_LISTED_BODIES);
    p->bodies = calloc((size_t)n, sizeof *p->bodies);
    if (!p->bodies)
        return out_of_memory(r, node, "bodies");
    for (int i = 0; i < n; ++i)
        if (!read_body(r, p, sf_item(r, node, i), &p->bodies[i]))
            return false;
    p->body_count = n;
    p->total_bodies = n;
    return true;
}

// ---- joints ----

// A value that must be >= 0 when given (a spring's stiffness, a breaking force).
static bool opt_nonnegative(sf_reader *r, const yaml_node_t *map, const char *key, const char *context,
                            const char *unit, float *out)
{
    yaml_node_t *v = sf_get(r, map, key);
    char what[128];
    if (!v)
        return true;
    if (!sf_float(r, v, sf_what(what, sizeof what, context, key), out))
        return false;
    if (!(*out >= 0.0f))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, v, "%s must be >= 0%s, got %g", what, unit, *out);
    return true;
}

static int body_name_cmp(const void *a, const void *b)
{
    const body_name *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

// The named listed bodies, sorted, for the joints to look up.
static bool index_body_names(sf_reader *r, plan *p, const yaml_node_t *at)
{
    int n = 0;
    for (int i = 0; i < p->body_count; ++i)
        n += p->bodies[i].name != NULL;
    if (n == 0)
        return true;
    if (!(p->names = malloc(sizeof *p->names * (size_t)n)))
        return out_of_memory(r, at, "body names");
    for (int i = 0; i < p->body_count; ++i)
        if (p->bodies[i].name)
            p->names[p->name_count++] = (body_name){p->bodies[i].name, i};
    qsort(p->names, (size_t)n, sizeof *p->names, body_name_cmp);
    return true;
}

// The listed bodies named `name`: the first entry in p->names and how many there are.
static int find_body_name(const plan *p, const char *name, int *count)
{
    int lo = 0, hi = p->name_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(p->names[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    int end = lo;
    while (end < p->name_count && strcmp(p->names[end].name, name) == 0)
        ++end;
    *count = end - lo;
    return lo;
}

static int body_line(const plan *p, int index) { return (int)p->bodies[index].at->start_mark.line + 1; }

// body_a or body_b of a joint: the name of one listed body, or `world` (body_a only) for the static world.
static bool joint_body(sf_reader *r, const plan *p, const yaml_node_t *v, const char *context, const char *key,
                       int *out)
{
    char what[128];
    const char *name;
    if (!sf_string(r, v, sf_what(what, sizeof what, context, key), &name))
        return false;
    int count, first = find_body_name(p, name, &count);
    if (strcmp(name, "world") == 0) {
        if (count > 0)
            return sf_fail(r, RB_ERR_PARSE, v, "%s: %s 'world' is ambiguous: it means the static world, and the body "
                           "at line %d is named 'world' too; rename that body", context, key,
                           body_line(p, p->names[first].index));
        if (strcmp(key, "body_b") == 0)
            return sf_fail(r, RB_ERR_PARSE, v, "%s: body_b must name a body; the static world can only be body_a "
                           "(swap the two, or leave body_a out)", context);
        *out = -1;
        return true;
    }
    if (count == 0) {
        char list[400];
        name_list(list, sizeof list, &p->names[0].name, sizeof p->names[0], p->name_count);
        return sf_fail(r, RB_ERR_PARSE, v, "%s: %s '%.60s' names no body; expected the 'name' of a body under "
                       "'bodies'%s%s", context, key, name, p->name_count ? ": " : " (none has a name)", list);
    }
    if (count > 1)
        return sf_fail(r, RB_ERR_PARSE, v, "%s: %s '%.60s' names %d bodies (lines %d and %d%s); a body that a joint "
                       "names must have a name of its own", context, key, name, count,
                       body_line(p, p->names[first].index), body_line(p, p->names[first + 1].index),
                       count > 2 ? ", ..." : "");
    *out = p->names[first].index;
    return true;
}

// `limits: [lower, upper]`, or `lower` and `upper` together. *at: where they are; NULL when none is given.
static bool joint_limits(sf_reader *r, const yaml_node_t *node, const char *context, float *lower, float *upper,
                         const yaml_node_t **at)
{
    yaml_node_t *lim = sf_get(r, node, "limits"), *lo = sf_get(r, node, "lower"), *hi = sf_get(r, node, "upper");
    char what[128], item[160];
    *at = NULL;
    if (lim) {
        if (lo || hi)
            return sf_fail(r, RB_ERR_PARSE, lo ? lo : hi, "%s: expected either 'limits: [lower, upper]' or 'lower' "
                           "and 'upper', not both", context);
        sf_what(what, sizeof what, context, "limits");
        if (lim->type != YAML_SEQUENCE_NODE || sf_sequence(r, lim, what) != 2) {
            char got[96];
            if (lim->type == YAML_SEQUENCE_NODE)
                rb_format(got, sizeof got, "%d items", sf_sequence(r, lim, what));
            else
                sf_describe(lim, got, sizeof got);
            return sf_fail(r, RB_ERR_PARSE, lim, "%s: expected a sequence of 2 numbers [lower, upper], got %s", what,
                           got);
        }
        if (!sf_float(r, sf_item(r, lim, 0), sf_what(item, sizeof item, what, "lower"), lower) ||
            !sf_float(r, sf_item(r, lim, 1), sf_what(item, sizeof item, what, "upper"), upper))
            return false;
        *at = lim;
    } else if (lo || hi) {
        if (!lo || !hi)
            return sf_fail(r, RB_ERR_PARSE, lo ? lo : hi, "%s: '%s' without '%s'; expected both, or "
                           "'limits: [lower, upper]'", context, lo ? "lower" : "upper", lo ? "upper" : "lower");
        if (!sf_float(r, lo, sf_what(what, sizeof what, context, "lower"), lower) ||
            !sf_float(r, hi, sf_what(what, sizeof what, context, "upper"), upper))
            return false;
        *at = lo;
    } else {
        return true;
    }
    if (*lower > *upper)
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, *at, "%s limits: expected lower <= upper, got [%g, %g]", context,
                       *lower, *upper);
    return true;
}

// A spring: `hertz` (with `damping_ratio`), or `stiffness` and `damping`. *at: where; NULL when none is given.
static bool joint_spring(sf_reader *r, const yaml_node_t *node, const char *context, rb_joint_def *d,
                         const yaml_node_t **at)
{
    yaml_node_t *hz = sf_get(r, node, "hertz"), *ratio = sf_get(r, node, "damping_ratio");
    yaml_node_t *k = sf_get(r, node, "stiffness"), *c = sf_get(r, node, "damping");
    *at = hz ? hz : ratio ? ratio : k ? k : c;
    if (!*at)
        return true;
    if ((hz || ratio) && (k || c))
        return sf_fail(r, RB_ERR_PARSE, k ? k : c, "%s: a spring takes either 'hertz' (with 'damping_ratio') or "
                       "'stiffness' and 'damping', not both", context);
    if (ratio && !hz)
        return sf_fail(r, RB_ERR_PARSE, ratio, "%s: 'damping_ratio' without 'hertz'; expected both, or 'stiffness' "
                       "and 'damping'", context);
    if (k || c) // a spring joint's default is 1 Hz: stiffness and damping take its place
        d->hertz = d->damping_ratio = 0.0f;
    if (!opt_nonnegative(r, node, "hertz", context, " Hz", &d->hertz) ||
        !opt_nonnegative(r, node, "damping_ratio", context, "", &d->damping_ratio) ||
        !opt_nonnegative(r, node, "stiffness", context, " N/m", &d->stiffness) ||
        !opt_nonnegative(r, node, "damping", context, " N s/m", &d->damping))
        return false;
    if (d->hertz == 0.0f && d->stiffness == 0.0f && d->damping == 0.0f)
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, *at, "%s: a spring needs hertz > 0, or a stiffness or damping > 0",
                       context);
    return true;
}

// A cone-twist span: swing spans in (0, pi), the twist span in [0, pi] (0 locks the twist).
static bool joint_span(sf_reader *r, const yaml_node_t *node, const char *context, const char *key, bool open,
                       float *out)
{
    yaml_node_t *v = sf_get(r, node, key);
    char what[128];
    if (!v)
        return true;
    if (!sf_float(r, v, sf_what(what, sizeof what, context, key), out))
        return false;
    if (!(*out >= 0.0f && *out <= RB_PI) || (open && (*out == 0.0f || *out == RB_PI)))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, v, "%s must be in %s0, pi%s rad, got %g", what, open ? "(" : "[",
                       open ? ")" : "]", *out);
    return true;
}

static bool read_joint(sf_reader *r, const plan *p, const yaml_node_t *node, int index, plan_joint *j)
{
    char context[48];
    rb_format(context, sizeof context, "joint %d", index + 1);
    if (node->type != YAML_MAPPING_NODE) // before sf_get, which reads a mapping
        return sf_mapping(r, node, context, BALL_JOINT_KEYS);
    j->at = node;
    const char *name;
    char what[128];
    yaml_node_t *v = sf_require(r, node, "type", context);
    if (!v || !sf_string(r, v, sf_what(what, sizeof what, context, "type"), &name))
        return false;
    int type = -1;
    for (int t = 0; t < JOINT_TYPE_COUNT && type < 0; ++t)
        if (strcmp(name, JOINT_TYPE_NAMES[t]) == 0)
            type = t;
    if (type < 0)
        return sf_fail(r, RB_ERR_PARSE, v, "%s: expected ball, hinge, cone_twist, fixed, distance, spring or slider, "
                       "got '%.60s'", what, name);
    char kind[96];
    rb_format(kind, sizeof kind, "%s (%s)", context, name);
    if (!sf_mapping(r, node, kind, JOINT_KEYS[type]))
        return false;
    static rb_joint_def (*const make_def[])(void) = {
        rb_default_ball_joint_def,     rb_default_hinge_joint_def,  rb_default_cone_twist_joint_def,
        rb_default_fixed_joint_def,    rb_default_distance_joint_def, rb_default_spring_joint_def,
        rb_default_slider_joint_def};
    rb_joint_def *d = &j->def;
    *d = make_def[type]();

    // the bodies: two different ones, and one of them dynamic
    j->body_a = -1;
    yaml_node_t *a = sf_get(r, node, "body_a"), *b = sf_require(r, node, "body_b", context);
    if (!b || (a && !joint_body(r, p, a, context, "body_a", &j->body_a)) ||
        !joint_body(r, p, b, context, "body_b", &j->body_b))
        return false;
    if (j->body_a == j->body_b)
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, b, "%s: body_a and body_b are both '%.60s'; a joint joins two "
                       "different bodies", context, p->bodies[j->body_b].name);
    rb_body_type ta = j->body_a >= 0 ? p->bodies[j->body_a].def.type : RB_BODY_STATIC;
    if (ta != RB_BODY_DYNAMIC && p->bodies[j->body_b].def.type != RB_BODY_DYNAMIC)
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, node, "%s: neither body is dynamic (body_a %s%.60s%s, body_b "
                       "'%.60s'); a joint needs a dynamic body", context, j->body_a >= 0 ? "'" : "",
                       j->body_a >= 0 ? p->bodies[j->body_a].name : "the static world", j->body_a >= 0 ? "'" : "",
                       p->bodies[j->body_b].name);

    // where, and along what
    v = sf_require(r, node, "anchor", context);
    if (!v || !sf_vec3(r, v, sf_what(what, sizeof what, context, "anchor"), &d->anchor))
        return false;
    if ((v = sf_get(r, node, "anchor_b"))) {
        if (!sf_vec3(r, v, sf_what(what, sizeof what, context, "anchor_b"), &d->anchor_b))
            return false;
        d->separate_anchor_b = true;
    }
    if ((v = sf_get(r, node, "axis"))) {
        rb_vec3 x;
        if (!sf_vec3(r, v, sf_what(what, sizeof what, context, "axis"), &x))
            return false;
        if (!(x.x * x.x + x.y * x.y + x.z * x.z > 0.0f))
            return sf_fail(r, RB_ERR_INVALID_ARGUMENT, v, "%s must be a non-zero vector, got [%g, %g, %g]", what, x.x,
                           x.y, x.z);
        d->axis = x;
    }
    if (!sf_opt_vec3(r, node, "reference_axis", context, &d->reference_axis))
        return false;

    // the type's own settings; angles in rad, like every angle of the format but `degrees`
    const yaml_node_t *at;
    if (!joint_limits(r, node, context, &d->lower, &d->upper, &at))
        return false;
    d->enable_limit = at != NULL;
    if (at && type == RB_JOINT_HINGE && (d->lower < -RB_PI || d->upper > RB_PI))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, at, "%s limits: a hinge's limits must lie in [-pi, pi] rad, got "
                       "[%g, %g]", context, d->lower, d->upper);
    if (at && type == RB_JOINT_DISTANCE && d->lower < 0.0f)
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, at, "%s limits: a distance joint's limits must be >= 0 m, got "
                       "[%g, %g]", context, d->lower, d->upper);
    if (!joint_span(r, node, context, "swing_span1", true, &d->swing_span1) ||
        !joint_span(r, node, context, "swing_span2", true, &d->swing_span2) ||
        !joint_span(r, node, context, "twist_span", false, &d->twist_span))
        return false;
    yaml_node_t *speed = sf_get(r, node, "motor_speed"), *force = sf_get(r, node, "max_motor_force");
    if (speed && !force)
        return sf_fail(r, RB_ERR_PARSE, speed, "%s: 'motor_speed' without 'max_motor_force', the most the motor "
                       "exerts (N m for a hinge, N for a slider)", context);
    d->enable_motor = force != NULL;
    if (!sf_opt_float(r, node, "motor_speed", context, &d->motor_speed) ||
        !opt_nonnegative(r, node, "max_motor_force", context, type == RB_JOINT_HINGE ? " N m" : " N",
                         &d->max_motor_force))
        return false;
    const yaml_node_t *spring;
    if (!joint_spring(r, node, context, d, &spring))
        return false;
    if (type == RB_JOINT_DISTANCE)
        d->enable_spring = spring != NULL;
    if (!opt_nonnegative(r, node, "length", context, " m", &d->length))
        return false;
    if ((v = sf_get(r, node, "length")) && type == RB_JOINT_DISTANCE && d->enable_limit && !d->enable_spring)
        return sf_fail(r, RB_ERR_PARSE, v, "%s: a distance joint with limits is a rope held within [lower, upper]; "
                       "'length' is a rod's or a spring's length, so it has no meaning here", context);
    return opt_nonnegative(r, node, "break_force", context, " N (0: never breaks)", &d->break_force) &&
           opt_nonnegative(r, node, "break_torque", context, " N m (0: never breaks)", &d->break_torque) &&
           sf_opt_bool(r, node, "collide_connected", context, &d->collide_connected);
}

// joints: a list of joints between the listed bodies, which they name (read after `bodies`).
static bool read_joints(sf_reader *r, plan *p, const yaml_node_t *node)
{
    int n = sf_sequence(r, node, "joints");
    if (n <= 0)
        return n == 0;
    if (n > SF_MAX_LISTED_JOINTS)
        return sf_fail(r, RB_ERR_CAPACITY, node, "%d joints listed under 'joints', more than the limit of %d", n,
                       SF_MAX_LISTED_JOINTS);
    p->joints = calloc((size_t)n, sizeof *p->joints);
    if (!p->joints)
        return out_of_memory(r, node, "joints");
    if (!index_body_names(r, p, node))
        return false;
    for (int i = 0; i < n; ++i)
        if (!read_joint(r, p, sf_item(r, node, i), i, &p->joints[i]))
            return false;
    p->joint_count = n;
    return true;
}

// events: a list of {time, gravity}: from `time` seconds after the load, gravity is `gravity`.
static bool read_events(sf_reader *r, plan *p, const yaml_node_t *node)
{
    int n = sf_sequence(r, node, "events");
    if (n <= 0)
        return n == 0;
    if (n > 10000)
        return sf_fail(r, RB_ERR_CAPACITY, node, "%d events, more than the limit of 10000", n);
    p->events = calloc((size_t)n, sizeof *p->events);
    if (!p->events)
        return out_of_memory(r, node, "events");
    for (int i = 0; i < n; ++i) {
        yaml_node_t *e = sf_item(r, node, i);
        float t;
        if (!sf_mapping(r, e, "an event", EVENT_KEYS) || !sf_req_float(r, e, "time", "event", &t))
            return false;
        if (!(t >= 0.0f && t <= 1e9f))
            return sf_fail(r, RB_ERR_INVALID_ARGUMENT, sf_get(r, e, "time"),
                           "event time must be in [0, 1e9] s after the load, got %g", t);
        yaml_node_t *g = sf_require(r, e, "gravity", "event");
        if (!g || !sf_vec3(r, g, "event gravity", &p->events[i].gravity))
            return false;
        p->events[i].time = t;
    }
    p->event_count = n;
    p->events_at = node;
    return true;
}

// Adds a generator's body count to the total; refuses before anything is created.
static bool count_bodies(sf_reader *r, plan *p, const yaml_node_t *at, const char *what, double n)
{
    if (n > (double)SF_MAX_BODIES - (double)p->total_bodies)
        return sf_fail(r, RB_ERR_CAPACITY, at, "%s would bring the scene to %.0f bodies, more than the limit of %d "
                       "per scene file", what, n + (double)p->total_bodies, SF_MAX_BODIES);
    p->total_bodies += (long long)n;
    return true;
}

// *hull: the hull of a grid of convex shapes (an index into p->hulls), else -1.
static bool read_grid(sf_reader *r, plan *p, const yaml_node_t *node, rb_grid_spec *g, int *hull)
{
    if (!sf_mapping(r, node, "grid", GRID_KEYS))
        return false;
    memset(g, 0, sizeof *g);
    g->body_type = RB_BODY_DYNAMIC;
    plan_shape shape;
    yaml_node_t *v = sf_require(r, node, "shape", "grid");
    if (!v || !read_shape(r, p, v, false, &shape))
        return false;
    g->shape = shape.g;
    *hull = shape.hull;
    yaml_node_t *count = sf_require(r, node, "count", "grid");
    if (!count)
        return false;
    if (count->type != YAML_SEQUENCE_NODE || sf_sequence(r, count, "grid count") != 3) {
        char got[96];
        if (count->type == YAML_SEQUENCE_NODE)
            rb_format(got, sizeof got, "%d items", sf_sequence(r, count, "grid count"));
        else
            sf_describe(count, got, sizeof got);
        return sf_fail(r, RB_ERR_PARSE, count, "grid count: expected a sequence of 3 integers [nx, ny, nz], got %s",
                       got);
    }
    double total = 1.0;
    for (int i = 0; i < 3; ++i) {
        long long c;
        yaml_node_t *item = sf_item(r, count, i);
        if (!sf_int(r, item, "grid count", LLONG_MIN, LLONG_MAX, RB_OK, &c))
            return false;
        if (c < 0)
            return sf_fail(r, RB_ERR_INVALID_ARGUMENT, item, "grid count must be >= 0, got %lld", c);
        if (c > SF_MAX_BODIES)
            return sf_fail(r, RB_ERR_CAPACITY, item, "grid count %lld is more than the limit of %d bodies per "
                           "scene file", c, SF_MAX_BODIES);
        g->count[i] = (int)c;
        total *= (double)c;
    }
    if (total > SF_MAX_BODIES)
        return sf_fail(r, RB_ERR_CAPACITY, count, "grid count %d x %d x %d = %.0f bodies is more than the limit of %d "
                       "per scene file", g->count[0], g->count[1], g->count[2], total, SF_MAX_BODIES);
    if (!count_bodies(r, p, count, "this grid", total))
        return false;
    if (total == 0.0 && shape.hull >= 0)
        p->hulls[shape.hull].users--; // no body will have it
    yaml_node_t *spacing = sf_require(r, node, "spacing", "grid");
    if (!spacing || !sf_vec3(r, spacing, "grid spacing", &g->spacing) ||
        !sf_opt_vec3(r, node, "center", "grid", &g->center) || !sf_opt_vec3(r, node, "jitter", "grid", &g->jitter) ||
        !sf_opt_vec3(r, node, "velocity_jitter", "grid", &g->velocity_jitter) ||
        !sf_opt_bool(r, node, "random_rotation", "grid", &g->random_rotation) ||
        !body_type(r, node, "grid", &g->body_type) ||
        !opt_positive(r, node, "mass", "grid", &g->mass, "; leave 'mass' out to take it from the shape density"))
        return false;
    if (!(g->jitter.x >= 0.0f && g->jitter.y >= 0.0f && g->jitter.z >= 0.0f))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, sf_get(r, node, "jitter"),
                       "grid jitter must be >= 0 in each axis, got [%g, %g, %g]", g->jitter.x, g->jitter.y,
                       g->jitter.z);
    rb_vec3 vj = g->velocity_jitter;
    if (!(vj.x >= 0.0f && vj.y >= 0.0f && vj.z >= 0.0f && vj.x <= 1e6f && vj.y <= 1e6f && vj.z <= 1e6f))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, sf_get(r, node, "velocity_jitter"),
                       "grid velocity_jitter must be in [0, 1e6] m/s in each axis, got [%g, %g, %g]", vj.x, vj.y, vj.z);
    return true;
}

static bool read_pyramid(sf_reader *r, plan *p, const yaml_node_t *node, rb_pyramid_spec *py)
{
    if (!sf_mapping(r, node, "pyramid", PYRAMID_KEYS))
        return false;
    memset(py, 0, sizeof *py);
    py->body_type = RB_BODY_DYNAMIC;
    plan_shape shape;
    yaml_node_t *v = sf_require(r, node, "shape", "pyramid");
    if (!v || !read_shape(r, p, v, false, &shape))
        return false;
    if (shape.g.type != RB_SHAPE_BOX)
        return sf_fail(r, RB_ERR_PARSE, v, "pyramid shape: expected a box, got a %s",
                       shape.g.type == RB_SHAPE_SPHERE    ? "sphere"
                       : shape.g.type == RB_SHAPE_CAPSULE ? "capsule"
                                                          : "convex");
    py->shape = shape.g;
    long long base;
    yaml_node_t *b = sf_require(r, node, "base", "pyramid");
    if (!b || !sf_int(r, b, "pyramid base", LLONG_MIN, LLONG_MAX, RB_OK, &base))
        return false;
    if (base < 1)
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, b, "pyramid base must be >= 1, got %lld", base);
    if (base > 100000)
        return sf_fail(r, RB_ERR_CAPACITY, b, "pyramid base must be at most 100000, got %lld", base);
    py->base = (int)base;
    double n = (double)base * (double)(base + 1) * (double)(2 * base + 1) / 6.0; // sum of k^2, k = 1 .. base
    return count_bodies(r, p, b, "this pyramid", n) && sf_opt_vec3(r, node, "center", "pyramid", &py->center) &&
           body_type(r, node, "pyramid", &py->body_type) &&
           opt_positive(r, node, "mass", "pyramid", &py->mass, "; leave 'mass' out to take it from the shape density");
}

// `count`: an integer n (n ragdolls along x) or [nx, ny, nz], each >= 0; *total: their product.
static bool read_count3(sf_reader *r, const yaml_node_t *v, const char *what, int out[3], double *total)
{
    bool one = v->type != YAML_SEQUENCE_NODE;
    if (!one && sf_sequence(r, v, what) != 3)
        return sf_fail(r, RB_ERR_PARSE, v, "%s: expected an integer or a sequence of 3 integers [nx, ny, nz], got %d "
                       "items", what, sf_sequence(r, v, what));
    out[0] = out[1] = out[2] = 1;
    *total = 1.0;
    for (int i = 0; i < (one ? 1 : 3); ++i) {
        const yaml_node_t *item = one ? v : sf_item(r, v, i);
        long long c;
        if (!sf_int(r, item, what, LLONG_MIN, LLONG_MAX, RB_OK, &c))
            return false;
        if (c < 0)
            return sf_fail(r, RB_ERR_INVALID_ARGUMENT, item, "%s must be >= 0, got %lld", what, c);
        if (c > SF_MAX_BODIES)
            return sf_fail(r, RB_ERR_CAPACITY, item, "%s %lld is more than the limit of %d bodies per scene file", what,
                           c, SF_MAX_BODIES);
        out[i] = (int)c;
        *total *= (double)c;
    }
    return true;
}

static bool read_ragdoll(sf_reader *r, plan *p, const yaml_node_t *node, rb_ragdoll_spec *g)
{
    if (!sf_mapping(r, node, "ragdoll", RAGDOLL_KEYS))
        return false;
    memset(g, 0, sizeof *g);
    g->rotation = (rb_quat){0.0f, 0.0f, 0.0f, 1.0f};
    g->scale = 1.0f;
    g->count[0] = g->count[1] = g->count[2] = 1;
    g->mass = 1.0f; // each part, as in the bench scene
    // the demo's damping, v <- v (1 - d)^t with d = 0.05 and 0.85, as rates: v' = -v ln(1 / (1 - d))
    g->linear_damping = (float)-log(1.0 - 0.05);
    g->angular_damping = (float)-log(1.0 - 0.85);
    g->def = rb_default_shape_def();
    yaml_node_t *v;
    if (!sf_opt_vec3(r, node, "position", "ragdoll", &g->position) ||
        ((v = sf_get(r, node, "rotation")) && !read_rotation(r, v, "ragdoll", &g->rotation)) ||
        !opt_positive(r, node, "scale", "ragdoll", &g->scale, "") ||
        !opt_positive(r, node, "mass", "ragdoll", &g->mass, " kg (each of the 11 parts)"))
        return false;
    double total = 1.0;
    yaml_node_t *count = sf_get(r, node, "count");
    if (count && !read_count3(r, count, "ragdoll count", g->count, &total))
        return false;
    if (!count_bodies(r, p, count ? count : node, "these ragdolls", total * RB_RAGDOLL_BODIES))
        return false;
    // neighbours 0.17, 0.24 and 0.3 m apart at scale 1
    g->spacing = (rb_vec3){1.9f * g->scale, 2.0f * g->scale, 0.6f * g->scale};
    if (!sf_opt_vec3(r, node, "spacing", "ragdoll", &g->spacing))
        return false;
    if ((v = sf_get(r, node, "damping"))) {
        if (!sf_mapping(r, v, "ragdoll damping", DAMPING_KEYS) ||
            !opt_nonnegative(r, v, "linear", "ragdoll damping", " 1/s", &g->linear_damping) ||
            !opt_nonnegative(r, v, "angular", "ragdoll damping", " 1/s", &g->angular_damping))
            return false;
    }
    return read_material_keys(r, p, node, "ragdoll", &g->def);
}

static bool read_chain(sf_reader *r, plan *p, const yaml_node_t *node, rb_chain_spec *c)
{
    if (!sf_mapping(r, node, "chain", CHAIN_KEYS))
        return false;
    memset(c, 0, sizeof *c);
    c->direction = (rb_vec3){1.0f, 0.0f, 0.0f};
    c->def = rb_default_shape_def();
    yaml_node_t *v = sf_require(r, node, "anchor", "chain");
    if (!v || !sf_vec3(r, v, "chain anchor", &c->anchor))
        return false;
    if ((v = sf_get(r, node, "direction"))) {
        if (!sf_vec3(r, v, "chain direction", &c->direction))
            return false;
        rb_vec3 d = c->direction;
        if (!(d.x * d.x + d.y * d.y + d.z * d.z > 0.0f))
            return sf_fail(r, RB_ERR_INVALID_ARGUMENT, v, "chain direction must be a non-zero vector, got [%g, %g, %g]",
                           d.x, d.y, d.z);
    }
    long long links;
    yaml_node_t *n = sf_require(r, node, "links", "chain");
    if (!n || !sf_int(r, n, "chain links", LLONG_MIN, LLONG_MAX, RB_OK, &links))
        return false;
    if (links < 1)
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, n, "chain links must be >= 1, got %lld", links);
    if (links > SF_MAX_BODIES)
        return sf_fail(r, RB_ERR_CAPACITY, n, "chain links %lld is more than the limit of %d bodies per scene file",
                       links, SF_MAX_BODIES);
    c->links = (int)links;
    if (!sf_req_float(r, node, "link_length", "chain", &c->link_length) ||
        !sf_req_float(r, node, "link_radius", "chain", &c->link_radius))
        return false;
    if (!(c->link_radius > 0.0f))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, sf_get(r, node, "link_radius"), "chain link_radius must be > 0, "
                       "got %g", c->link_radius);
    if (!(c->link_length >= 2.0f * c->link_radius))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, sf_get(r, node, "link_length"), "chain link_length must be at "
                       "least 2 link_radius = %g m (a link is a capsule that long overall, joint to joint), got %g",
                       2.0f * c->link_radius, c->link_length);
    if (!opt_positive(r, node, "link_mass", "chain", &c->link_mass, "; leave it out to take it from the density") ||
        !opt_positive(r, node, "end_radius", "chain", &c->end_radius, "; leave it out for a chain without a weight") ||
        !opt_positive(r, node, "end_mass", "chain", &c->end_mass, "; leave it out to take it from the density"))
        return false;
    if ((v = sf_get(r, node, "end_mass")) && !sf_get(r, node, "end_radius"))
        return sf_fail(r, RB_ERR_PARSE, v, "chain: 'end_mass' without 'end_radius', the size of the weight at the end");
    return read_material_keys(r, p, node, "chain", &c->def) &&
           count_bodies(r, p, n, "this chain", (double)links + (c->end_radius > 0.0f));
}

// rocks: a grid of bodies, each with a random hull of its own (scene_generators.h, rb_generate_rocks).
static bool read_rocks(sf_reader *r, plan *p, const yaml_node_t *node, rb_rocks_spec *g)
{
    if (!sf_mapping(r, node, "rocks", ROCKS_KEYS))
        return false;
    memset(g, 0, sizeof *g);
    g->spacing = (rb_vec3){1.0f, 1.0f, 1.0f};
    g->points = 12; // the bench scene's
    g->extents[0] = 0.25, g->extents[1] = 0.20, g->extents[2] = 0.15;
    g->random_rotation = true;
    g->body_type = RB_BODY_DYNAMIC;
    g->def = rb_default_shape_def();
    double total;
    yaml_node_t *count = sf_require(r, node, "count", "rocks"), *v;
    if (!count || !read_count3(r, count, "rocks count", g->count, &total) ||
        !count_bodies(r, p, count, "these rocks", total))
        return false;
    if (total > (double)SF_MAX_FILE_HULLS - (double)p->total_hulls)
        return sf_fail(r, RB_ERR_CAPACITY, count, "these rocks would bring the scene to %.0f hulls (one per rock), "
                       "more than the limit of %d per scene file", total + (double)p->total_hulls, SF_MAX_FILE_HULLS);
    p->total_hulls += (long long)total;
    if ((v = sf_get(r, node, "points"))) {
        long long n;
        if (!sf_int(r, v, "rocks points", RB_ROCK_MIN_POINTS, RB_ROCK_MAX_POINTS, RB_OK, &n))
            return false;
        if (n % 2 != 0)
            return sf_fail(r, RB_ERR_INVALID_ARGUMENT, v, "rocks points must be even (each drawn point p gives p and "
                           "-p), got %lld", n);
        g->points = (int)n;
    }
    if (!count_hull_points(r, p, v ? v : count, "these rocks", total * g->points))
        return false;
    if ((v = sf_get(r, node, "extents"))) {
        if (!sf_vec3d(r, v, "rocks extents", g->extents))
            return false;
        for (int i = 0; i < 3; ++i)
            if (!(g->extents[i] > 0.0 && g->extents[i] <= 1e6))
                return sf_fail(r, RB_ERR_INVALID_ARGUMENT, v, "rocks extents must be in (0, 1e6] m in each axis, got "
                               "[%g, %g, %g]", g->extents[0], g->extents[1], g->extents[2]);
    }
    if (!sf_opt_vec3(r, node, "spacing", "rocks", &g->spacing) ||
        !sf_opt_vec3(r, node, "center", "rocks", &g->center) || !sf_opt_float(r, node, "radius", "rocks", &g->radius) ||
        !sf_opt_bool(r, node, "random_rotation", "rocks", &g->random_rotation) ||
        !body_type(r, node, "rocks", &g->body_type) ||
        !opt_positive(r, node, "mass", "rocks", &g->mass, "; leave 'mass' out to take it from the density"))
        return false;
    if (!(g->radius >= 0.0f))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, sf_get(r, node, "radius"), "rocks radius must be >= 0 m (0: sharp "
                       "edges), got %g", g->radius);
    return read_material_keys(r, p, node, "rocks", &g->def);
}

static bool read_generator(sf_reader *r, plan *p, const yaml_node_t *node, plan_generator *gen)
{
    if (!sf_mapping(r, node, "generator", GENERATOR_KEYS))
        return false;
    if (sf_mapping_size(node) != 1)
        return sf_fail(r, RB_ERR_PARSE, node, "generator: expected exactly one of grid, pyramid, pen, ground, "
                       "ragdoll, chain, rocks, got %d keys", sf_mapping_size(node));
    const char *kind = (const char *)sf_mapping_key(r, node, 0)->data.scalar.value;
    yaml_node_t *v = sf_mapping_value(r, node, 0);
    gen->at = v;
    gen->hull = -1;
    if (strcmp(kind, "grid") == 0) {
        gen->kind = GEN_GRID;
        return read_grid(r, p, v, &gen->u.grid, &gen->hull);
    }
    if (strcmp(kind, "rocks") == 0) {
        gen->kind = GEN_ROCKS;
        return read_rocks(r, p, v, &gen->u.rocks);
    }
    if (strcmp(kind, "pyramid") == 0) {
        gen->kind = GEN_PYRAMID;
        return read_pyramid(r, p, v, &gen->u.pyramid);
    }
    if (strcmp(kind, "pen") == 0) {
        gen->kind = GEN_PEN;
        rb_pen_spec *pen = &gen->u.pen;
        memset(pen, 0, sizeof *pen);
        pen->thickness = 1.0f;
        pen->def = rb_default_shape_def();
        return sf_mapping(r, v, "pen", PEN_KEYS) && sf_req_float(r, v, "half_width", "pen", &pen->half_width) &&
               sf_req_float(r, v, "height", "pen", &pen->height) &&
               sf_opt_float(r, v, "thickness", "pen", &pen->thickness) && sf_opt_float(r, v, "floor", "pen", &pen->floor) &&
               read_material_keys(r, p, v, "pen", &pen->def) && count_bodies(r, p, v, "this pen", 4.0);
    }
    if (strcmp(kind, "ragdoll") == 0) {
        gen->kind = GEN_RAGDOLL;
        return read_ragdoll(r, p, v, &gen->u.ragdoll);
    }
    if (strcmp(kind, "chain") == 0) {
        gen->kind = GEN_CHAIN;
        return read_chain(r, p, v, &gen->u.chain);
    }
    gen->kind = GEN_GROUND;
    gen->u.ground.height = 0.0f;
    gen->u.ground.def = rb_default_shape_def();
    return sf_mapping(r, v, "ground", GROUND_KEYS) && sf_opt_float(r, v, "height", "ground", &gen->u.ground.height) &&
           read_material_keys(r, p, v, "ground", &gen->u.ground.def) && count_bodies(r, p, v, "this ground", 1.0);
}

static bool read_generators(sf_reader *r, plan *p, const yaml_node_t *node)
{
    int n = sf_sequence(r, node, "generators");
    if (n <= 0)
        return n == 0;
    p->generators = calloc((size_t)n, sizeof *p->generators);
    if (!p->generators)
        return out_of_memory(r, node, "generators");
    for (int i = 0; i < n; ++i)
        if (!read_generator(r, p, sf_item(r, node, i), &p->generators[i]))
            return false;
    p->generator_count = n;
    return true;
}

static bool opt_int_setting(sf_reader *r, const yaml_node_t *map, const char *key, const yaml_node_t **at, int *out)
{
    yaml_node_t *v = sf_get(r, map, key);
    char what[128];
    long long value;
    if (!v)
        return true;
    if (!sf_int(r, v, sf_what(what, sizeof what, "world", key), -2147483647ll - 1, 2147483647ll, RB_OK, &value))
        return false;
    *at = v;
    *out = (int)value;
    return true;
}

// world.sequential: {key: value, ...}, any subset of SEQ_FIELDS; the rest keep the world's values.
static bool read_sequential(sf_reader *r, plan *p, const yaml_node_t *node)
{
    if (!sf_mapping(r, node, "world sequential", SEQUENTIAL_KEYS))
        return false;
    for (int i = 0; i < SEQ_FIELD_COUNT; ++i) {
        const seq_field *f = &SEQ_FIELDS[i];
        yaml_node_t *v = sf_get(r, node, f->key);
        if (!v)
            continue;
        char what[128];
        rb_format(what, sizeof what, "world sequential %s", f->key);
        char *field = (char *)&p->sequential + f->offset;
        long long n;
        bool ok = f->kind == SEQ_FLOAT  ? sf_float(r, v, what, (float *)(void *)field)
                  : f->kind == SEQ_BOOL ? sf_bool(r, v, what, (bool *)(void *)field)
                                        : sf_int(r, v, what, 0, 2147483647ll, RB_ERR_PARSE, &n);
        if (!ok)
            return false;
        if (f->kind == SEQ_INT)
            *(int *)(void *)field = (int)n;
        p->sequential_given[i] = true;
    }
    p->sequential_at = node;
    return true;
}

static bool read_world(sf_reader *r, plan *p, const yaml_node_t *node)
{
    if (!sf_mapping(r, node, "world", WORLD_KEYS))
        return false;
    yaml_node_t *v;
    if ((v = sf_get(r, node, "gravity"))) {
        if (!sf_vec3(r, v, "world gravity", &p->gravity))
            return false;
        p->gravity_at = v;
    }
    if ((v = sf_get(r, node, "time_step"))) {
        if (!sf_float(r, v, "world time_step", &p->time_step))
            return false;
        p->time_step_at = v;
    }
    if (!opt_int_setting(r, node, "substeps", &p->substeps_at, &p->substeps) ||
        !opt_int_setting(r, node, "iterations", &p->iterations_at, &p->iterations) ||
        !opt_int_setting(r, node, "position_iterations", &p->position_iterations_at, &p->position_iterations))
        return false;
    if ((v = sf_get(r, node, "solver"))) {
        const char *name;
        if (!sf_string(r, v, "world solver", &name))
            return false;
        if (rb_solver_from_name(name, &p->solver) != RB_OK)
            return sf_fail(r, RB_ERR_PARSE, v, "world solver: unknown solver '%.60s'; expected default, soft, batched, "
                           "split or sequential", name);
        p->solver_at = v;
    }
    if ((v = sf_get(r, node, "restitution_threshold"))) {
        if (!sf_float(r, v, "world restitution_threshold", &p->restitution_threshold))
            return false;
        p->restitution_threshold_at = v;
    }
    if ((v = sf_get(r, node, "sequential")) && !read_sequential(r, p, v))
        return false;
    if ((v = sf_get(r, node, "sleep"))) {
        if (!sf_bool(r, v, "world sleep", &p->sleep))
            return false;
        p->sleep_at = v;
    }
    return true;
}

static bool make_plan(sf_reader *r, plan *p)
{
    yaml_node_t *root = sf_root(r);
    if (!root)
        return sf_fail(r, RB_ERR_PARSE, NULL, "the scene file is empty; expected a mapping that starts with "
                       "'rubble-scene: %d'", SF_VERSION);
    if (root->type != YAML_MAPPING_NODE) {
        char got[96];
        sf_describe(root, got, sizeof got);
        return sf_fail(r, RB_ERR_PARSE, root, "expected a mapping that starts with 'rubble-scene: %d', got %s",
                       SF_VERSION, got);
    }
    // the header first: a YAML file of some other kind gets "not a scene file", not "unknown key"
    yaml_node_t *header = sf_get(r, root, "rubble-scene");
    if (!header)
        return sf_fail(r, RB_ERR_PARSE, root, "not a rubble scene file: there is no 'rubble-scene' key; expected "
                       "'rubble-scene: %d' as the first line", SF_VERSION);
    long long version;
    if (!sf_int(r, header, "rubble-scene (the format version)", 0, 1000000, RB_ERR_PARSE, &version))
        return false;
    if (version != SF_VERSION)
        return sf_fail(r, RB_ERR_PARSE, header, "scene format version %lld is not supported; expected "
                       "'rubble-scene: %d'", version, SF_VERSION);
    if (!sf_mapping(r, root, "the top level", TOP_KEYS))
        return false;
    yaml_node_t *v;
    const char *description;
    if ((v = sf_get(r, root, "description")) && !sf_string(r, v, "description", &description))
        return false;
    p->seed = 1;
    if ((v = sf_get(r, root, "seed")) && !sf_uint64(r, v, "seed", &p->seed))
        return false;
    // materials before the shapes that name them, wherever they are in the file
    if ((v = sf_get(r, root, "materials")) && !read_materials(r, v, p))
        return false;
    // and the named hulls before the shapes that name them
    if ((v = sf_get(r, root, "hulls")) && !read_hulls(r, p, v))
        return false;
    if ((v = sf_get(r, root, "world")) && !read_world(r, p, v))
        return false;
    if ((v = sf_get(r, root, "bodies")) && !read_bodies(r, p, v))
        return false;
    // joints after the bodies they name, wherever they are in the file
    if ((v = sf_get(r, root, "joints")) && !read_joints(r, p, v))
        return false;
    if ((v = sf_get(r, root, "generators")) && !read_generators(r, p, v))
        return false;
    if ((v = sf_get(r, root, "events")) && !read_events(r, p, v))
        return false;
    return true;
}

// ---- applying the plan ----

// A call of the public API failed: its message, prefixed with the location of the node it came from.
static bool api_failed(sf_reader *r, rb_status status, const yaml_node_t *at, const char *prefix)
{
    char msg[RB_ERROR_SIZE];
    rb_format(msg, sizeof msg, "%s", rb_last_error(rb_null_world_id)); // the thread's last error is always the newest
    return sf_fail(r, status, at, "%s%s", prefix, msg);
}

static rb_status add_shape(rb_body_id body, const plan_shape *s, const rb_hull_id *hulls)
{
    rb_shape_id id;
    switch (s->g.type) {
    case RB_SHAPE_SPHERE: {
        rb_sphere sphere = {s->g.radius};
        return rb_create_sphere_shape(body, &s->g.def, &sphere, &id);
    }
    case RB_SHAPE_CAPSULE: {
        rb_capsule capsule = {s->g.half_length, s->g.radius};
        return rb_create_capsule_shape(body, &s->g.def, &capsule, &id);
    }
    case RB_SHAPE_BOX: {
        rb_box box = {s->g.half_extents};
        return rb_create_box_shape(body, &s->g.def, &box, &id);
    }
    case RB_SHAPE_CONVEX: {
        rb_convex convex = {hulls[s->hull], s->g.convex.radius};
        return rb_create_convex_shape(body, &s->g.def, &convex, &id);
    }
    case RB_SHAPE_PLANE:
        break;
    }
    return rb_create_plane_shape(body, &s->g.def, &s->plane, &id);
}

static bool create_body(sf_reader *r, rb_world_id wid, const plan *p, const plan_body *b, rb_body_list *created)
{
    char prefix[96] = "";
    if (b->name)
        rb_format(prefix, sizeof prefix, "body '%.60s': ", b->name);
    rb_body_id id;
    rb_status s = rb_create_body(wid, &b->def, &id);
    if (s != RB_OK)
        return api_failed(r, s, b->at, prefix);
    if ((s = rb_body_list_push(created, id)) != RB_OK) {
        rb_destroy_body(id);
        return api_failed(r, s, b->at, prefix);
    }
    for (int i = 0; i < b->shape_count; ++i) {
        const plan_shape *shape = &p->shapes[b->first_shape + i];
        if ((s = add_shape(id, shape, p->hull_ids)) != RB_OK)
            return api_failed(r, s, shape->at, prefix);
    }
    return true;
}

static bool run_generator(sf_reader *r, rb_world_id wid, const plan *p, const plan_generator *g, rb_lcg *rng,
                          rb_body_list *created, rb_joint_list *joints, rb_hull_list *hulls)
{
    rb_status s = RB_OK;
    switch (g->kind) {
    case GEN_GRID: {
        rb_grid_spec grid = g->u.grid;
        if (g->hull >= 0)
            grid.shape.convex.hull = p->hull_ids[g->hull];
        s = rb_generate_grid(wid, &grid, rng, created);
        break;
    }
    case GEN_ROCKS: s = rb_generate_rocks(wid, &g->u.rocks, rng, created, hulls); break;
    case GEN_PYRAMID: s = rb_generate_pyramid(wid, &g->u.pyramid, created); break;
    case GEN_PEN: s = rb_generate_pen(wid, &g->u.pen, created); break;
    case GEN_GROUND: s = rb_generate_ground(wid, g->u.ground.height, &g->u.ground.def, created); break;
    case GEN_RAGDOLL: s = rb_generate_ragdolls(wid, &g->u.ragdoll, created, joints); break;
    case GEN_CHAIN: s = rb_generate_chain(wid, &g->u.chain, created, joints); break;
    }
    static const char *const names[] = {"grid: ", "pyramid: ", "pen: ", "ground: ", "ragdoll: ", "chain: ", "rocks: "};
    return s == RB_OK || api_failed(r, s, g->at, names[g->kind]);
}

// World settings through the setters, one value at a time so a failure points at its own key.
static bool apply_world(sf_reader *r, rb_world *w, rb_world_id wid, const plan *p)
{
    rb_status s;
    if (p->gravity_at && (s = rb_world_set_gravity(wid, p->gravity)) != RB_OK)
        return api_failed(r, s, p->gravity_at, "world gravity: ");
    if (p->time_step_at && (s = rb_world_set_time_step(wid, p->time_step, w->settings.substeps)) != RB_OK)
        return api_failed(r, s, p->time_step_at, "world time_step: ");
    if (p->substeps_at && (s = rb_world_set_time_step(wid, w->settings.time_step, p->substeps)) != RB_OK)
        return api_failed(r, s, p->substeps_at, "world substeps: ");
    if (p->iterations_at &&
        (s = rb_world_set_iterations(wid, p->iterations, w->settings.position_iterations)) != RB_OK)
        return api_failed(r, s, p->iterations_at, "world iterations: ");
    if (p->position_iterations_at && (s = rb_world_set_iterations(wid, w->settings.iterations, p->position_iterations)) != RB_OK)
        return api_failed(r, s, p->position_iterations_at, "world position_iterations: ");
    if (p->solver_at && (s = rb_world_set_solver(wid, p->solver)) != RB_OK)
        return api_failed(r, s, p->solver_at, "world solver: ");
    if (p->restitution_threshold_at &&
        (s = rb_world_set_restitution_threshold(wid, p->restitution_threshold)) != RB_OK)
        return api_failed(r, s, p->restitution_threshold_at, "world restitution_threshold: ");
    if (p->sequential_at) {
        rb_sequential_def q = w->settings.sequential;
        for (int i = 0; i < SEQ_FIELD_COUNT; ++i) {
            size_t size = SEQ_FIELDS[i].kind == SEQ_BOOL ? sizeof(bool) : 4;
            if (p->sequential_given[i])
                memcpy((char *)&q + SEQ_FIELDS[i].offset, (const char *)&p->sequential + SEQ_FIELDS[i].offset, size);
        }
        if ((s = rb_world_set_sequential(wid, &q)) != RB_OK)
            return api_failed(r, s, p->sequential_at, "world sequential: ");
    }
    return true;
}

typedef struct timed_event {
    rb_world_event e;
    int index; // in the file
} timed_event;

static int timed_event_cmp(const void *a, const void *b)
{
    const timed_event *x = a, *y = b;
    if (x->e.time != y->e.time)
        return x->e.time < y->e.time ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

// The listed joints, between the listed bodies (the first p->body_count of `bodies`, in order).
static bool create_joints(sf_reader *r, rb_world_id wid, const plan *p, const rb_body_list *bodies,
                          rb_joint_list *joints)
{
    for (int i = 0; i < p->joint_count; ++i) {
        const plan_joint *j = &p->joints[i];
        rb_joint_def d = j->def;
        d.body_a = j->body_a >= 0 ? bodies->ids[j->body_a] : rb_null_body_id;
        d.body_b = bodies->ids[j->body_b];
        rb_status s = rb_generate_joint(wid, &d, joints);
        if (s != RB_OK) {
            char prefix[48];
            rb_format(prefix, sizeof prefix, "joint %d: ", i + 1);
            return api_failed(r, s, j->at, prefix);
        }
    }
    return true;
}

// Every hull of the plan (named ones in file order, then the inline ones), into p->hull_ids.
static bool create_hulls(sf_reader *r, rb_world_id wid, plan *p, rb_hull_list *hulls)
{
    if (p->hull_count == 0)
        return true;
    if (!(p->hull_ids = calloc((size_t)p->hull_count, sizeof *p->hull_ids)))
        return out_of_memory(r, p->hulls[0].at, "hulls");
    for (int i = 0; i < p->hull_count; ++i) {
        const plan_hull *h = &p->hulls[i];
        rb_hull_def d = rb_default_hull_def();
        d.points = p->points + h->first_point;
        d.count = h->point_count;
        d.weld_distance = h->weld_distance;
        d.max_vertices = h->max_vertices;
        rb_status s = rb_generate_hull(wid, &d, hulls, &p->hull_ids[i]);
        if (s != RB_OK) {
            char prefix[96] = "convex: ";
            if (h->name)
                rb_format(prefix, sizeof prefix, "hull '%.60s': ", h->name);
            return api_failed(r, s, h->at, prefix);
        }
    }
    return true;
}

static bool apply_plan(sf_reader *r, rb_world *w, rb_world_id wid, plan *p, rb_body_list *created,
                       rb_joint_list *joints, rb_hull_list *hulls)
{
    if (!create_hulls(r, wid, p, hulls) || !apply_world(r, w, wid, p))
        return false;
    for (int i = 0; i < p->body_count; ++i)
        if (!create_body(r, wid, p, &p->bodies[i], created))
            return false;
    if (!create_joints(r, wid, p, created, joints))
        return false;
    rb_lcg rng = {p->seed}; // one stream for all generators, in file order
    for (int i = 0; i < p->generator_count; ++i)
        if (!run_generator(r, wid, p, &p->generators[i], &rng, created, joints, hulls))
            return false;
    // the events are scheduled before the last step that can fail, so that nothing needs undoing
    // after it; they go after the world's pending ones with the same time, in file order among
    // themselves: sorted by (time, place in the file), then merged (n log n, not an insertion per event)
    timed_event *sorted = NULL;
    if (p->event_count > 0) {
        rb_world_event *all = realloc(w->events, sizeof *all * (size_t)(w->event_count + p->event_count));
        if (!all)
            return out_of_memory(r, p->events_at, "events");
        w->events = all;
        if (!(sorted = malloc(sizeof *sorted * (size_t)p->event_count)))
            return out_of_memory(r, p->events_at, "events");
        for (int i = 0; i < p->event_count; ++i)
            sorted[i] = (timed_event){{w->time + p->events[i].time, p->events[i].gravity}, i};
        qsort(sorted, (size_t)p->event_count, sizeof *sorted, timed_event_cmp);
    }
    // last, because switching sleep off wakes every body and cannot be undone exactly
    rb_status s;
    if (p->sleep_at && (s = rb_world_enable_sleep(wid, p->sleep)) != RB_OK) {
        free(sorted);
        return api_failed(r, s, p->sleep_at, "world sleep: ");
    }
    int old = w->event_count, add = p->event_count;
    for (int k = old + add - 1, i = old - 1, j = add - 1; j >= 0; --k)
        w->events[k] = i >= 0 && w->events[i].time > sorted[j].e.time ? w->events[i--] : sorted[j--].e;
    w->event_count = old + add;
    free(sorted);
    return true;
}

// Gives back the joint slots at and above `slots`, all of them free (the joints a failed load created
// and destroyed again), as rb_trim_free_slots does for bodies and shapes: the next joint takes the slot
// it would have taken without the failed load.
static void trim_free_joint_slots(rb_world *w, int slots)
{
    rb_scene *sc = &w->scene;
    for (int j = slots; j < sc->joint_slots; ++j)
        if (sc->joints[j].type >= 0)
            return; // not all free: keep every slot (never happens for a load's own joints)
    rb_id_pool_trim(&w->joint_ids, slots);
    if (slots < sc->joint_slots)
        sc->joint_slots = slots;
}

static rb_status load_text(rb_world *w, rb_world_id wid, const char *text, size_t size, const char *name)
{
    if (size > SF_MAX_FILE_BYTES)
        return rb_fail(w, RB_ERR_CAPACITY, "%s: the scene is %zu bytes, more than the limit of %zu MiB", name, size,
                       SF_MAX_FILE_BYTES >> 20);
    sf_reader r;
    plan p;
    memset(&p, 0, sizeof p);
    if (sf_open(&r, name, text, size) == RB_OK && make_plan(&r, &p)) {
        rb_world_def saved_settings = w->settings;
        bool saved_contacts_stale = w->contacts_stale;
        int body_slots = w->scene.body_slots, shape_slots = w->scene.shape_slots, joint_slots = w->scene.joint_slots;
        rb_body_list created = {0};
        rb_joint_list joints = {0};
        rb_hull_list hulls = {0};
        if (apply_plan(&r, w, wid, &p, &created, &joints, &hulls)) {
            // a named hull that no shape names was built (so that a bad one is an error) but is not kept:
            // nothing could name it later
            for (int i = p.hull_count - 1; i >= 0; --i)
                if (p.hulls[i].users == 0)
                    rb_destroy_hull(p.hull_ids[i]);
            rb_body_list_free(&created);
            rb_joint_list_free(&joints);
            rb_hull_list_free(&hulls);
        } else {
            // the joints first, newest first, so their slots go back to the free list in order; the hulls
            // after the bodies, whose shapes use them
            rb_joint_list_destroy_all(&joints);
            rb_body_list_destroy_all(&created);
            rb_hull_list_destroy_all(&hulls);
            trim_free_joint_slots(w, joint_slots);
            rb_trim_free_slots(w, body_slots, shape_slots);
            w->settings = saved_settings;
            // the destroyed bodies were new, so the last step's contacts are as valid as before
            w->contacts_stale = saved_contacts_stale;
        }
    }
    rb_status status = r.status;
    if (status != RB_OK)
        rb_fail(w, status, "%s", r.message);
    plan_free(&p);
    sf_close(&r);
    return status;
}

rb_status rb_load_scene_text(rb_world_id wid, const char *text, const char *name)
{
    rb_status s;
    rb_world *w = rb_get_world(wid, &s);
    if (!w)
        return s;
    if (!text)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_load_scene_text: text must not be NULL");
    return load_text(w, wid, text, strnlen(text, SF_MAX_FILE_BYTES + 1), name ? name : "<text>");
}

rb_status rb_load_scene(rb_world_id wid, const char *path)
{
    rb_status s;
    rb_world *w = rb_get_world(wid, &s);
    if (!w)
        return s;
    if (!path)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_load_scene: path must not be NULL");
    char *buf;
    size_t size;
    if ((s = sf_read_file(w, path, SF_MAX_FILE_BYTES, &buf, &size)) != RB_OK)
        return s;
    s = load_text(w, wid, buf, size, path);
    free(buf);
    return s;
}
