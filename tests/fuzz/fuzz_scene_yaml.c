// Fuzz target: the YAML scene loader (rb_load_scene_text), then a few steps of what it loaded.
//
// Every input is loaded into a CPU world (one thread) that already holds a ground plane and a box,
// so that "a failed load changes nothing" and "bodies that were there keep their slots and state"
// are checked against real bodies (docs/scene-format.md, "Errors"). A scene that loads is stepped at
// most three times and read back; each check below is a promise of the API or the format's page, and
// a broken one aborts (libFuzzer and tests/fuzz/replay.c report it with the input).
//
// Inputs whose cost is large by design, not by a defect, are skipped: a scene may legitimately
// generate 20 million bodies from 100 bytes (docs/scene-format.md, "Limits"), which takes seconds and
// gigabytes and would be reported as a timeout or an out-of-memory. scene_weight() bounds the bodies
// and nodes an input can create before the loader sees it. Nesting depth and alias expansion are not
// skipped: the loader must bound those itself (issue 18).
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "fuzz_check.h"

// Bodies and YAML nodes (after alias expansion) an input may create: 100,000 load in ~0.1 s in a
// release build, well under a second with ASan + UBSan.
#define FZ_MAX_WEIGHT 100000.0
// Steps only for scenes small enough that a step takes milliseconds whatever they hold (with the
// settings of limit_step_cost): the sequential solver resolves up to (2 + 6 + 1) x contacts per
// substep by design, 3 to 5 s per step for a resting pyramid of 819 boxes at 8 substeps.
#define FZ_STEP_MAX_BODIES 500
#define FZ_STEP_MAX_BODIES_SEQUENTIAL 200
#define FZ_STEP_MAX_SHAPES 1000
// The loader's own cap (RB_MAX_GENERATED_BODIES): a generator above it makes the whole load fail
// before anything is created, so it costs nothing.
#define FZ_LOADER_BODY_CAP 20000000.0
// Deeper than any valid scene (which nests about 8 levels): the load must fail, so nothing below
// this point can be created and the scan stops.
#define FZ_SCAN_DEPTH 40
#define FZ_MAX_ANCHORS 4096

// ---- the cost bound ----

typedef struct scan_frame {
    bool mapping;
    bool expect_key;  // mapping: the next scalar is a key
    char key[16];     // mapping: the key whose value is being read; sequence: the key it is the value of
    char *anchor;
    double weight;    // nodes and bodies under this node, aliases expanded
    double product;   // sequence: product of its numbers (a grid's `count`)
} scan_frame;

typedef struct scan_anchor {
    char *name;
    double weight, product, value;
} scan_anchor;

typedef struct scan {
    scan_frame frames[FZ_SCAN_DEPTH];
    int depth;
    scan_anchor anchors[FZ_MAX_ANCHORS];
    int anchor_count;
    double total;
} scan;

static double pyramid_bodies(double base)
{
    return base > 0.0 ? base * (base + 1.0) * (2.0 * base + 1.0) / 6.0 : 0.0;
}

static double scalar_number(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    return end != s && v == v && v > 0.0 ? v : 0.0;
}

static void remember_anchor(scan *sc, const char *name, double weight, double product, double value)
{
    if (!name)
        return;
    for (int i = 0; i < sc->anchor_count; ++i) {
        if (strcmp(sc->anchors[i].name, name) == 0) { // YAML lets an anchor be redefined: the last one counts
            sc->anchors[i].weight = weight;
            sc->anchors[i].product = product;
            sc->anchors[i].value = value;
            return;
        }
    }
    if (sc->anchor_count == FZ_MAX_ANCHORS) {
        sc->total = 1e300; // more anchors than the scan tracks: too costly to reason about, skip it
        return;
    }
    char *copy = strdup(name);
    if (!copy)
        abort();
    sc->anchors[sc->anchor_count++] = (scan_anchor){copy, weight, product, value};
}

// The key the node that starts now is the value of ("" in a sequence or at the top).
static const char *current_key(const scan *sc)
{
    if (sc->depth == 0)
        return "";
    const scan_frame *f = &sc->frames[sc->depth - 1];
    return f->mapping ? f->key : "";
}

// A finished node of `weight`; `number` is its value if it is a number (for `count` and `base`).
static void add_to_parent(scan *sc, double weight, double number)
{
    if (sc->depth == 0) {
        sc->total += weight;
        return;
    }
    scan_frame *f = &sc->frames[sc->depth - 1];
    f->weight += weight;
    f->product *= number;
    if (f->mapping)
        f->expect_key = !f->expect_key;
}

static void push_frame(scan *sc, bool mapping, const unsigned char *anchor)
{
    scan_frame *f = &sc->frames[sc->depth];
    memset(f, 0, sizeof *f);
    f->mapping = mapping;
    f->expect_key = true;
    f->product = 1.0;
    snprintf(f->key, sizeof f->key, "%s", current_key(sc));
    if (anchor && !(f->anchor = strdup((const char *)anchor)))
        abort();
    ++sc->depth;
}

static void pop_frame(scan *sc)
{
    scan_frame *f = &sc->frames[--sc->depth];
    double weight = f->weight + 1.0;
    if (!f->mapping && strcmp(f->key, "count") == 0)
        weight += f->product <= FZ_LOADER_BODY_CAP ? f->product : 0.0; // above the cap: refused, free
    remember_anchor(sc, f->anchor, weight, f->product, 0.0);
    double product = f->product;
    free(f->anchor);
    f->anchor = NULL;
    add_to_parent(sc, weight, product);
}

static void scan_scalar(scan *sc, const yaml_event_t *e)
{
    const char *value = (const char *)e->data.scalar.value;
    double number = scalar_number(value);
    if (sc->depth > 0) {
        scan_frame *f = &sc->frames[sc->depth - 1];
        if (f->mapping && f->expect_key) {
            snprintf(f->key, sizeof f->key, "%s", value);
            f->expect_key = false;
            return;
        }
    }
    double weight = 1.0;
    if (strcmp(current_key(sc), "base") == 0 && pyramid_bodies(number) <= FZ_LOADER_BODY_CAP)
        weight += pyramid_bodies(number);
    remember_anchor(sc, (const char *)e->data.scalar.anchor, weight, 1.0, number);
    add_to_parent(sc, weight, number);
}

static void scan_alias(scan *sc, const yaml_event_t *e)
{
    const char *name = (const char *)e->data.alias.anchor;
    const scan_anchor *a = NULL;
    for (int i = 0; i < sc->anchor_count; ++i)
        if (strcmp(sc->anchors[i].name, name) == 0)
            a = &sc->anchors[i];
    if (sc->depth > 0 && sc->frames[sc->depth - 1].mapping && sc->frames[sc->depth - 1].expect_key) {
        sc->frames[sc->depth - 1].key[0] = '\0'; // an alias as a key: never a key the format knows
        sc->frames[sc->depth - 1].expect_key = false;
        return;
    }
    if (!a) {
        add_to_parent(sc, 1.0, 0.0); // an undefined alias: the load fails
        return;
    }
    double weight = a->weight;
    // a number or a sequence defined under another key counts for what it is used as here
    if (strcmp(current_key(sc), "base") == 0 && pyramid_bodies(a->value) <= FZ_LOADER_BODY_CAP)
        weight += pyramid_bodies(a->value);
    if (strcmp(current_key(sc), "count") == 0 && a->product <= FZ_LOADER_BODY_CAP)
        weight += a->product;
    add_to_parent(sc, weight, a->value > 0.0 ? a->value : 1.0);
}

// An upper bound of the bodies and nodes loading `text` can create. A YAML error or a nesting
// deeper than any valid scene ends the scan early: the load fails there, so only what came before
// can cost anything (a generator is checked whole before it creates a body).
static double scene_weight(const char *text)
{
    scan *sc = calloc(1, sizeof *sc);
    if (!sc)
        abort();
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        abort();
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    bool done = false;
    while (!done && sc->total < FZ_MAX_WEIGHT) {
        yaml_event_t e;
        if (!yaml_parser_parse(&parser, &e))
            break;
        switch (e.type) {
        case YAML_STREAM_END_EVENT: done = true; break;
        case YAML_SCALAR_EVENT: scan_scalar(sc, &e); break;
        case YAML_ALIAS_EVENT: scan_alias(sc, &e); break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (sc->depth == FZ_SCAN_DEPTH) {
                done = true;
                break;
            }
            push_frame(sc, e.type == YAML_MAPPING_START_EVENT,
                       e.type == YAML_MAPPING_START_EVENT ? e.data.mapping_start.anchor : e.data.sequence_start.anchor);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: pop_frame(sc); break;
        default: break;
        }
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&parser);
    double weight = sc->total;
    for (int i = 0; i < sc->depth; ++i) {
        weight += sc->frames[i].weight;
        free(sc->frames[i].anchor);
    }
    for (int i = 0; i < sc->anchor_count; ++i)
        free(sc->anchors[i].name);
    free(sc);
    return weight;
}

// ---- what the loader must leave alone ----

// The world's settings, field by field (a memcmp would compare padding).
static void check_same_def(const rb_world_def *a, const rb_world_def *b, const char *when)
{
    const rb_sequential_def *p = &a->sequential, *q = &b->sequential;
    FZ_CHECK(memcmp(&a->gravity, &b->gravity, sizeof a->gravity) == 0 && a->time_step == b->time_step &&
                 a->substeps == b->substeps && a->iterations == b->iterations &&
                 a->position_iterations == b->position_iterations && a->solver == b->solver &&
                 a->enable_sleep == b->enable_sleep && a->restitution_threshold == b->restitution_threshold,
             "%s changed the world settings: gravity (%g, %g, %g) -> (%g, %g, %g), time_step %g -> %g, substeps %d -> %d, "
             "iterations %d/%d -> %d/%d, solver %d -> %d, sleep %d -> %d",
             when, a->gravity.x, a->gravity.y, a->gravity.z, b->gravity.x, b->gravity.y, b->gravity.z, a->time_step,
             b->time_step, a->substeps, b->substeps, a->iterations, a->position_iterations, b->iterations,
             b->position_iterations, a->solver, b->solver, a->enable_sleep, b->enable_sleep);
    FZ_CHECK(p->penetration_threshold == q->penetration_threshold && p->remaining_penetration == q->remaining_penetration &&
                 p->resolution_threshold == q->resolution_threshold && p->sleep_threshold == q->sleep_threshold &&
                 p->sleep_bias == q->sleep_bias && p->sleep_motion_max == q->sleep_motion_max &&
                 p->gravity_damping == q->gravity_damping &&
                 p->gravity_damping_threshold == q->gravity_damping_threshold &&
                 p->max_iterations == q->max_iterations && p->shock_iterations == q->shock_iterations &&
                 p->shock_propagation == q->shock_propagation && p->settle_iterations == q->settle_iterations &&
                 p->heap_threshold == q->heap_threshold && p->large_batch == q->large_batch &&
                 p->split_contacts == q->split_contacts && p->warm_start == q->warm_start,
             "%s changed the sequential solver's settings", when);
}

// The two bodies the world holds before the load.
typedef struct prior {
    rb_body_id id[2];
    rb_transform xf[2];
    rb_vec3 v[2], w[2];
    rb_mass_data mass[2];
} prior;

static void read_prior(const prior *p, prior *out)
{
    *out = *p;
    for (int i = 0; i < 2; ++i) {
        FZ_CHECK(rb_body_is_valid(p->id[i]), "body %d that was there before the load is gone", i);
        FZ_CHECK(rb_body_get_transform(p->id[i], &out->xf[i]) == RB_OK, "transform of body %d", i);
        FZ_CHECK(rb_body_get_linear_velocity(p->id[i], &out->v[i]) == RB_OK, "velocity of body %d", i);
        FZ_CHECK(rb_body_get_angular_velocity(p->id[i], &out->w[i]) == RB_OK, "angular velocity of body %d", i);
        FZ_CHECK(rb_body_get_mass_data(p->id[i], &out->mass[i]) == RB_OK, "mass data of body %d", i);
    }
}

static void check_prior_unchanged(const prior *before, const char *when)
{
    prior now;
    read_prior(before, &now);
    for (int i = 0; i < 2; ++i) {
        FZ_CHECK(memcmp(&now.xf[i], &before->xf[i], sizeof now.xf[i]) == 0 &&
                     memcmp(&now.v[i], &before->v[i], sizeof now.v[i]) == 0 &&
                     memcmp(&now.w[i], &before->w[i], sizeof now.w[i]) == 0 &&
                     memcmp(&now.mass[i], &before->mass[i], sizeof now.mass[i]) == 0,
                 "%s changed body %d that was in the world before it: position (%g, %g, %g) -> (%g, %g, %g)", when, i,
                 before->xf[i].p.x, before->xf[i].p.y, before->xf[i].p.z, now.xf[i].p.x, now.xf[i].p.y, now.xf[i].p.z);
    }
}

// ---- reading a world back ----

// Every body is where a float can say, turned by a unit quaternion, and moving at a finite speed:
// a body whose state became non-finite in a step is put back and frozen (rb_world_step).
static void check_bodies(rb_world_id world, const rb_counters *c, const char *when)
{
    int n = c->body_slots;
    if (n == 0)
        return;
    rb_transform *xf = malloc(sizeof *xf * (size_t)n);
    rb_vec3 *v = malloc(sizeof *v * (size_t)n), *w = malloc(sizeof *w * (size_t)n);
    if (!xf || !v || !w)
        abort();
    // the world only ever gained bodies, so every slot holds one
    rb_status s = rb_world_get_transforms(world, 0, n, xf);
    FZ_CHECK(s == RB_OK, "%s: rb_world_get_transforms(0, %d) = %s: %s", when, n, rb_status_string(s), rb_last_error(world));
    s = rb_world_get_velocities(world, 0, n, v, w);
    FZ_CHECK(s == RB_OK, "%s: rb_world_get_velocities(0, %d) = %s", when, n, rb_status_string(s));
    for (int i = 0; i < n; ++i) {
        FZ_CHECK(fz_finite3(xf[i].p) && fz_unit_quat(xf[i].q),
                 "%s: body %d at (%g, %g, %g) turned by (%g, %g, %g, %g)", when, i, xf[i].p.x, xf[i].p.y, xf[i].p.z,
                 xf[i].q.x, xf[i].q.y, xf[i].q.z, xf[i].q.w);
        FZ_CHECK(fz_finite3(v[i]) && fz_finite3(w[i]), "%s: body %d moves at (%g, %g, %g), (%g, %g, %g) rad/s", when,
                 i, v[i].x, v[i].y, v[i].z, w[i].x, w[i].y, w[i].z);
    }
    free(xf);
    free(v);
    free(w);
}

// Dynamic bodies have a finite mass > 0 and a positive inertia (what the solver divides by).
static void check_masses(rb_world_id world, int slots)
{
    for (int i = 0; i < slots; ++i) {
        rb_body_id id;
        rb_body_type type;
        rb_mass_data m;
        FZ_CHECK(rb_world_get_body_id(world, i, &id) == RB_OK, "slot %d holds no body", i);
        FZ_CHECK(rb_body_get_type(id, &type) == RB_OK && rb_body_get_mass_data(id, &m) == RB_OK, "body %d", i);
        if (type != RB_BODY_DYNAMIC)
            continue;
        FZ_CHECK(isfinite(m.mass) && m.mass > 0.0f && fz_finite3(m.center) && fz_finite3(m.inertia) &&
                     m.inertia.x > 0.0f && m.inertia.y > 0.0f && m.inertia.z > 0.0f && fz_finite3(m.inertia_products),
                 "dynamic body %d has mass %g, centre (%g, %g, %g), inertia (%g, %g, %g) products (%g, %g, %g)", i,
                 m.mass, m.center.x, m.center.y, m.center.z, m.inertia.x, m.inertia.y, m.inertia.z,
                 m.inertia_products.x, m.inertia_products.y, m.inertia_products.z);
    }
}

// Contacts and pairs of the last step name live bodies and shapes, and agree with the counters.
static void check_contacts(rb_world_id world, const rb_counters *c)
{
    int n = -1;
    FZ_CHECK(rb_world_get_contact_count(world, &n) == RB_OK && n >= 0, "contact count %d", n);
    FZ_CHECK(n == c->contacts, "rb_world_get_contact_count %d, counters.contacts %d", n, c->contacts);
    if (n > 0) {
        rb_contact *k = malloc(sizeof *k * (size_t)n);
        if (!k)
            abort();
        FZ_CHECK(rb_world_get_contacts(world, 0, n, k) == RB_OK, "rb_world_get_contacts(0, %d)", n);
        for (int i = 0; i < n; ++i) {
            rb_body_id ba, bb;
            FZ_CHECK(rb_shape_get_body(k[i].shape_a, &ba) == RB_OK && rb_body_equal(ba, k[i].body_a) &&
                         rb_shape_get_body(k[i].shape_b, &bb) == RB_OK && rb_body_equal(bb, k[i].body_b),
                     "contact %d names shapes %d, %d and bodies %d, %d that do not belong together", i,
                     k[i].shape_a.index1, k[i].shape_b.index1, k[i].body_a.index1, k[i].body_b.index1);
            // also after a step that froze bodies
            FZ_CHECK(fz_finite3(k[i].point) && fz_unit3(k[i].normal) && isfinite(k[i].depth) &&
                         isfinite(k[i].normal_impulse) && fz_finite3(k[i].friction_impulse),
                     "contact %d: point (%g, %g, %g), normal (%g, %g, %g), depth %g, impulse %g", i, k[i].point.x,
                     k[i].point.y, k[i].point.z, k[i].normal.x, k[i].normal.y, k[i].normal.z, k[i].depth,
                     k[i].normal_impulse);
        }
        free(k);
    }
    int p = -1;
    FZ_CHECK(rb_world_get_pair_count(world, &p) == RB_OK && p >= 0, "pair count %d", p);
    FZ_CHECK(p == c->pairs, "rb_world_get_pair_count %d, counters.pairs %d", p, c->pairs);
    if (p > 0) {
        rb_shape_pair *q = malloc(sizeof *q * (size_t)p);
        if (!q)
            abort();
        FZ_CHECK(rb_world_get_pairs(world, 0, p, q) == RB_OK, "rb_world_get_pairs(0, %d)", p);
        for (int i = 0; i < p; ++i) {
            FZ_CHECK(rb_shape_is_valid(q[i].shape_a) && rb_shape_is_valid(q[i].shape_b) &&
                         q[i].shape_a.index1 < q[i].shape_b.index1,
                     "pair %d: shapes %d, %d", i, q[i].shape_a.index1, q[i].shape_b.index1);
            FZ_CHECK(i == 0 || q[i - 1].shape_a.index1 < q[i].shape_a.index1 ||
                         (q[i - 1].shape_a.index1 == q[i].shape_a.index1 && q[i - 1].shape_b.index1 < q[i].shape_b.index1),
                     "pairs %d and %d are out of order", i - 1, i);
        }
        free(q);
    }
}

// The settings a file may give cost up to 64 substeps x 1000 iterations per step: by design, so
// they are brought down before stepping (through the setters, which are checked too).
static void limit_step_cost(rb_world_id world)
{
    rb_world_def d;
    FZ_CHECK(rb_world_get_def(world, &d) == RB_OK, "rb_world_get_def");
    if (d.substeps > 4)
        FZ_CHECK(rb_world_set_time_step(world, d.time_step, 4) == RB_OK, "set_time_step(%g, 4): %s", d.time_step,
                 rb_last_error(world));
    if (d.iterations > 10 || d.position_iterations > 10)
        FZ_CHECK(rb_world_set_iterations(world, d.iterations > 10 ? 10 : d.iterations,
                                         d.position_iterations > 10 ? 10 : d.position_iterations) == RB_OK,
                 "set_iterations: %s", rb_last_error(world));
    rb_sequential_def q = d.sequential;
    if (q.max_iterations > 2.0f || q.shock_iterations > 2.0f || q.settle_iterations > 1.0f) {
        q.max_iterations = q.max_iterations > 2.0f ? 2.0f : q.max_iterations;
        q.shock_iterations = q.shock_iterations > 2.0f ? 2.0f : q.shock_iterations;
        q.settle_iterations = q.settle_iterations > 1.0f ? 1.0f : q.settle_iterations;
        FZ_CHECK(rb_world_set_sequential(world, &q) == RB_OK, "set_sequential: %s", rb_last_error(world));
    }
}

static void step_and_read(rb_world_id world, const rb_counters *loaded, int steps)
{
    limit_step_cost(world);
    for (int i = 0; i < steps; ++i) {
        rb_status s = rb_world_step(world);
        // numeric: a body was frozen, the step completed; capacity: the pair budget (max_pairs);
        // out of memory: a clean refusal. Nothing else can go wrong with a CPU world.
        FZ_CHECK(s == RB_OK || s == RB_ERR_NUMERIC || s == RB_ERR_CAPACITY || s == RB_ERR_OUT_OF_MEMORY,
                 "step %d: %s: %s", i, rb_status_string(s), rb_last_error(world));
        if (s != RB_OK)
            FZ_CHECK(rb_last_error(world)[0] != '\0', "step %d failed (%s) with no message", i, rb_status_string(s));
        rb_counters c;
        FZ_CHECK(rb_world_get_counters(world, &c) == RB_OK, "counters");
        FZ_CHECK(c.bodies == loaded->bodies && c.shapes == loaded->shapes && c.body_slots == loaded->body_slots,
                 "step %d changed the counts: %d bodies %d shapes -> %d, %d", i, loaded->bodies, loaded->shapes,
                 c.bodies, c.shapes);
        FZ_CHECK(c.awake_bodies >= 0 && c.awake_bodies <= c.bodies && c.frozen_bodies >= 0 && c.frozen_bodies <= c.bodies,
                 "step %d: %d awake, %d frozen of %d bodies", i, c.awake_bodies, c.frozen_bodies, c.bodies);
        check_bodies(world, &c, "after a step");
        if (s == RB_OK || s == RB_ERR_NUMERIC) {
            check_contacts(world, &c);
        } else {
            // the pairs and contacts of a failed step are not reported (docs/limits.md)
            int pairs = -1, contacts = -1;
            FZ_CHECK(rb_world_get_pair_count(world, &pairs) == RB_OK && pairs == 0 &&
                         rb_world_get_contact_count(world, &contacts) == RB_OK && contacts == 0,
                     "a failed step (%s) reports %d pairs and %d contacts", rb_status_string(s), pairs, contacts);
        }
        if (s == RB_ERR_CAPACITY || s == RB_ERR_OUT_OF_MEMORY)
            break;
    }
}

// ---- the target ----

static rb_world_id make_world(prior *p)
{
    rb_world_def def = rb_default_world_def();
    def.backend = RB_BACKEND_CPU;
    def.threads = 1;
    // a pile of overlapping shapes costs by design what its pairs cost: 8192 pairs are more than a
    // resting scene of 500 bodies has; a step beyond them fails with RB_ERR_CAPACITY, checked below
    def.max_pairs = 8192;
    rb_world_id world;
    rb_status s = rb_create_world(&def, &world);
    FZ_CHECK(s == RB_OK, "rb_create_world: %s", rb_last_error(rb_null_world_id));

    rb_body_def ground = rb_default_body_def();
    rb_shape_def sd = rb_default_shape_def();
    FZ_CHECK(rb_create_body(world, &ground, &p->id[0]) == RB_OK, "ground: %s", rb_last_error(world));
    rb_plane plane = {{0.0f, 1.0f, 0.0f}, 0.0f};
    rb_shape_id shape;
    FZ_CHECK(rb_create_plane_shape(p->id[0], &sd, &plane, &shape) == RB_OK, "plane: %s", rb_last_error(world));
    rb_body_def box = rb_default_body_def();
    box.type = RB_BODY_DYNAMIC;
    box.position = (rb_vec3){-1000.0f, 0.5f, -1000.0f}; // resting on the ground, away from where scenes build
    box.linear_velocity = (rb_vec3){0.25f, 0.0f, 0.0f};
    FZ_CHECK(rb_create_body(world, &box, &p->id[1]) == RB_OK, "box: %s", rb_last_error(world));
    rb_box half = {{0.5f, 0.5f, 0.5f}};
    FZ_CHECK(rb_create_box_shape(p->id[1], &sd, &half, &shape) == RB_OK, "box shape: %s", rb_last_error(world));
    return world;
}

// Every load message starts "NAME:LINE:COLUMN: " (docs/scene-format.md, "Errors").
static void check_message(const char *msg)
{
    int line = 0, column = 0, used = 0;
    FZ_CHECK(sscanf(msg, "fuzz:%d:%d: %n", &line, &column, &used) == 2 && used > 0 && line >= 1 && column >= 1 &&
                 msg[used] != '\0',
             "the load message does not start with fuzz:LINE:COLUMN: and a sentence: '%s'", msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return -1; // a megabyte is plenty for any structure; larger inputs only cost time
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    if (scene_weight(text) > FZ_MAX_WEIGHT) {
        free(text);
        return -1; // large by design (see the top of the file): not worth an iteration
    }

    prior p;
    rb_world_id world = make_world(&p);
    prior before;
    read_prior(&p, &before);
    rb_world_def def_before;
    FZ_CHECK(rb_world_get_def(world, &def_before) == RB_OK, "rb_world_get_def");

    rb_status s = rb_load_scene_text(world, text, "fuzz");
    FZ_CHECK(s == RB_OK || s == RB_ERR_PARSE || s == RB_ERR_INVALID_ARGUMENT || s == RB_ERR_CAPACITY ||
                 s == RB_ERR_OUT_OF_MEMORY,
             "rb_load_scene_text returned %d (%s), not a status its documentation lists: %s", (int)s,
             fz_status_valid(s) ? rb_status_string(s) : "not an rb_status", rb_last_error(world));
    rb_counters c;
    FZ_CHECK(rb_world_get_counters(world, &c) == RB_OK, "counters");

    if (s != RB_OK) {
        // nothing loaded, nothing changed, and a message that says where
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rb_last_error(world));
        check_message(msg);
        FZ_CHECK(c.bodies == 2 && c.shapes == 2 && c.body_slots == 2,
                 "a failed load (%s) left %d bodies, %d shapes, %d slots (2 before)", msg, c.bodies, c.shapes,
                 c.body_slots);
        rb_world_def def_after;
        FZ_CHECK(rb_world_get_def(world, &def_after) == RB_OK, "rb_world_get_def");
        check_same_def(&def_before, &def_after, "a failed load");
        check_prior_unchanged(&before, "a failed load");
        // the same text fails the same way: the failed load left nothing behind that it would see
        if (size <= 65536) {
            rb_status again = rb_load_scene_text(world, text, "fuzz");
            FZ_CHECK(again == s && strcmp(rb_last_error(world), msg) == 0,
                     "loading the text again gave %s '%s', the first time %s '%s'", rb_status_string(again),
                     rb_last_error(world), rb_status_string(s), msg);
        }
        // and scheduled no event: a step keeps the gravity the world had
        FZ_CHECK(rb_world_step(world) == RB_OK, "step after a failed load: %s", rb_last_error(world));
        rb_vec3 g;
        FZ_CHECK(rb_world_get_gravity(world, &g) == RB_OK && memcmp(&g, &def_before.gravity, sizeof g) == 0,
                 "a failed load scheduled a gravity change: (%g, %g, %g)", g.x, g.y, g.z);
    } else {
        FZ_CHECK(c.bodies >= 2 && c.body_slots == c.bodies && c.shapes >= 2,
                 "after a load: %d bodies in %d slots, %d shapes", c.bodies, c.body_slots, c.shapes);
        check_prior_unchanged(&before, "a successful load");
        rb_world_def d;
        FZ_CHECK(rb_world_get_def(world, &d) == RB_OK, "rb_world_get_def");
        FZ_CHECK(fz_finite3(d.gravity) && isfinite(d.time_step) && d.time_step > 0.0f && d.substeps >= 0 &&
                     d.substeps <= 64 && d.iterations >= 1 && d.iterations <= 1000 && d.position_iterations >= 0 &&
                     d.position_iterations <= 1000 && d.solver != RB_SOLVER_DEFAULT,
                 "a load left settings outside their rules: time_step %g, substeps %d, iterations %d/%d, solver %d",
                 d.time_step, d.substeps, d.iterations, d.position_iterations, d.solver);
        check_bodies(world, &c, "after the load");
        if (c.body_slots <= 5000)
            check_masses(world, c.body_slots);
        int max_bodies = d.solver == RB_SOLVER_SEQUENTIAL ? FZ_STEP_MAX_BODIES_SEQUENTIAL : FZ_STEP_MAX_BODIES;
        if (c.bodies <= max_bodies && c.shapes <= FZ_STEP_MAX_SHAPES)
            step_and_read(world, &c, c.bodies <= 100 ? 3 : 1);
    }
    FZ_CHECK(rb_destroy_world(world) == RB_OK, "rb_destroy_world: %s", rb_last_error(world));
    FZ_CHECK(!rb_world_is_valid(world) && !rb_body_is_valid(p.id[0]), "ids of a destroyed world are still valid");
    free(text);
    return 0;
}
