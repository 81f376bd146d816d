// Scene files (docs/scene-format.md): rb_load_scene and rb_load_scene_text.
//
// A load has two phases. The whole document is read and checked into a plan (no world change);
// then the plan is applied through the public API and the generators of scene_generators.h. If
// anything fails, every body added is destroyed and the world settings are put back, so the world is
// exactly as before. Every error message starts with FILE:LINE:COLUMN of the node it is about.
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

typedef struct sf_material {
    const char *name;
    const yaml_node_t *at;
    float friction, restitution, density, static_friction;
} sf_material;

typedef struct plan_shape {
    rb_gen_shape g;       // geometry of a sphere, capsule or box, and the shape def
    rb_plane plane;       // when g.type == RB_SHAPE_PLANE
    const yaml_node_t *at;
} plan_shape;

typedef struct plan_body {
    rb_body_def def;
    int first_shape, shape_count;
    const char *name;
    const yaml_node_t *at;
} plan_body;

typedef enum plan_generator_kind { GEN_GRID, GEN_PYRAMID, GEN_PEN, GEN_GROUND } plan_generator_kind;

typedef struct plan_generator {
    plan_generator_kind kind;
    const yaml_node_t *at;
    union {
        rb_grid_spec grid;
        rb_pyramid_spec pyramid;
        rb_pen_spec pen;
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
static const char *const SHAPE_KEYS[] = {"sphere", "capsule", "box", "plane", "material", "friction",
                                         "static_friction", "restitution", "density", "position", "rotation",
                                         "category_bits", "mask_bits", NULL};
static const char *const DAMPING_KEYS[] = {"linear", "angular", NULL};
static const char *const BODY_KEYS[] = {"name", "type", "position", "rotation", "velocity", "angular_velocity",
                                        "mass", "damping", "gravity_scale", "sleep", "awake", "bullet", "shapes", NULL};
static const char *const GENERATOR_KEYS[] = {"grid", "pyramid", "pen", "ground", NULL};
static const char *const GRID_KEYS[] = {"shape", "count", "spacing", "center", "jitter", "velocity_jitter",
                                        "random_rotation", "type",
                                        "mass", NULL};
static const char *const PYRAMID_KEYS[] = {"shape", "base", "center", "type", "mass", NULL};
static const char *const PEN_KEYS[] = {"half_width", "height", "thickness", "floor", "material", "friction",
                                       "static_friction", "restitution", "density", NULL};
static const char *const GROUND_KEYS[] = {"height", "material", "friction", "static_friction", "restitution",
                                          "density", NULL};
static const char *const WORLD_KEYS[] = {"gravity", "time_step", "substeps", "iterations", "position_iterations",
                                         "solver", "sleep", "restitution_threshold", "sequential", NULL};
static const char *const TOP_KEYS[] = {"rubble-scene", "description", "seed", "world", "materials", "bodies",
                                       "generators", "events", NULL};
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
            char list[400] = "";
            size_t used = 0;
            for (int i = 0; i < p->material_count && i < 12 && used < sizeof list; ++i)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", p->materials[i].name);
            if (p->material_count > 12 && used < sizeof list)
                snprintf(list + used, sizeof list - used, ", ...");
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

// One entry of a body's `shapes`, or a generator's `shape`.
static bool read_shape(sf_reader *r, const plan *p, const yaml_node_t *node, bool allow_plane, plan_shape *out)
{
    if (!sf_mapping(r, node, "shape", SHAPE_KEYS))
        return false;
    memset(out, 0, sizeof *out);
    out->at = node;
    out->g.def = rb_default_shape_def();
    static const char *const geometry[] = {"sphere", "capsule", "box", "plane"};
    const yaml_node_t *geom = NULL;
    int kind = -1;
    for (int i = 0; i < 4; ++i) {
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
        return sf_fail(r, RB_ERR_PARSE, node, "shape has no geometry; expected one of: sphere, capsule, box%s",
                       allow_plane ? ", plane" : "");
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
    default:
        if (!allow_plane)
            return sf_fail(r, RB_ERR_PARSE, geom, "a generated body cannot be a plane; expected sphere, capsule or box");
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

static bool read_grid(sf_reader *r, plan *p, const yaml_node_t *node, rb_grid_spec *g)
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
                       shape.g.type == RB_SHAPE_SPHERE ? "sphere" : "capsule");
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

static bool read_generator(sf_reader *r, plan *p, const yaml_node_t *node, plan_generator *gen)
{
    if (!sf_mapping(r, node, "generator", GENERATOR_KEYS))
        return false;
    if (sf_mapping_size(node) != 1)
        return sf_fail(r, RB_ERR_PARSE, node, "generator: expected exactly one of grid, pyramid, pen, ground, got %d "
                       "keys", sf_mapping_size(node));
    const char *kind = (const char *)sf_mapping_key(r, node, 0)->data.scalar.value;
    yaml_node_t *v = sf_mapping_value(r, node, 0);
    gen->at = v;
    if (strcmp(kind, "grid") == 0) {
        gen->kind = GEN_GRID;
        return read_grid(r, p, v, &gen->u.grid);
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
    if ((v = sf_get(r, root, "world")) && !read_world(r, p, v))
        return false;
    if ((v = sf_get(r, root, "bodies")) && !read_bodies(r, p, v))
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

static rb_status add_shape(rb_body_id body, const plan_shape *s)
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
        if ((s = add_shape(id, shape)) != RB_OK)
            return api_failed(r, s, shape->at, prefix);
    }
    return true;
}

static bool run_generator(sf_reader *r, rb_world_id wid, const plan_generator *g, rb_lcg *rng, rb_body_list *created)
{
    rb_status s = RB_OK;
    switch (g->kind) {
    case GEN_GRID: s = rb_generate_grid(wid, &g->u.grid, rng, created); break;
    case GEN_PYRAMID: s = rb_generate_pyramid(wid, &g->u.pyramid, created); break;
    case GEN_PEN: s = rb_generate_pen(wid, &g->u.pen, created); break;
    case GEN_GROUND: s = rb_generate_ground(wid, g->u.ground.height, &g->u.ground.def, created); break;
    }
    static const char *const names[] = {"grid: ", "pyramid: ", "pen: ", "ground: "};
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

static bool apply_plan(sf_reader *r, rb_world *w, rb_world_id wid, const plan *p, rb_body_list *created)
{
    if (!apply_world(r, w, wid, p))
        return false;
    for (int i = 0; i < p->body_count; ++i)
        if (!create_body(r, wid, p, &p->bodies[i], created))
            return false;
    rb_lcg rng = {p->seed}; // one stream for all generators, in file order
    for (int i = 0; i < p->generator_count; ++i)
        if (!run_generator(r, wid, &p->generators[i], &rng, created))
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
        int body_slots = w->scene.body_slots, shape_slots = w->scene.shape_slots;
        rb_body_list created = {0};
        if (apply_plan(&r, w, wid, &p, &created)) {
            rb_body_list_free(&created);
        } else {
            rb_body_list_destroy_all(&created);
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
