// Fuzz target: sequences of public API calls, driven by the input's bytes.
//
// The bytes choose calls (create and destroy worlds, bodies and shapes of every type; set and get
// transforms, velocities, forces, impulses, mass data, sleep, body types, world settings; steps; bulk
// access with odd ranges; ray casts; contacts and pairs; stale and forged ids; NULL outputs) and
// their arguments, with NaN, infinities, negative, huge and tiny values among them. The target keeps
// its own model of what exists and checks, after every call, what the API promises (api/rubble.h):
//  - a failing call returns a non-OK rb_status, leaves a fresh message in rb_last_error (not the one
//    planted before the call) and leaves the world as it was;
//  - a call that the documented rules forbid (a NaN, a negative size, a stale id, a NULL output...)
//    fails; a getter with a live id and an output succeeds;
//  - ids of destroyed objects are invalid; the counters count what the model created;
//  - what was set reads back; dynamic bodies keep a finite mass > 0; positions stay finite.
// Each input is bounded: at most 200 calls, 256 bodies, 512 shapes and 6 steps.
#include <float.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz_check.h"

#define MAX_OPS 200
#define MAX_BODIES 256
#define MAX_SHAPES 512
#define MAX_STEPS 6
#define NWORLDS 2
#define BUF 512 // bulk buffers: more than any world's body slots (MAX_BODIES)

// ---- the input ----

typedef struct input {
    const uint8_t *p;
    size_t n;
} input;

static uint8_t u8(input *in)
{
    if (in->n == 0)
        return 0;
    --in->n;
    return *in->p++;
}

static uint32_t u32(input *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v = v << 8 | u8(in);
    return v;
}

static bool flag(input *in) { return u8(in) & 1; }

// One in 16 calls gets a NULL where a pointer is asked for (not on 0, which an exhausted input reads).
static bool rarely(input *in) { return (u8(in) & 15) == 15; }

static const float k_floats[32] = {
    0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 10.0f, 100.0f, 1e3f, 1e6f, 1.0001e6f, 1e-6f, 1e-30f, 1e-45f, FLT_MIN, FLT_MAX,
    -FLT_MAX, 1e30f, -1e30f, INFINITY, -INFINITY, NAN, -NAN, 0.1f, 0.25f, 3.14159265f, -0.5f, 9.81f, -9.81f, 1e38f,
    0.999f, 1.0001f,
};

// Mostly ordinary numbers (-12 to 12 in steps of 1/8), often the edges above, sometimes any bits.
static float fnum(input *in)
{
    uint8_t s = u8(in);
    if (s < 32)
        return k_floats[s];
    if (s < 224)
        return (float)((int)s - 128) * 0.125f;
    uint32_t bits = u32(in);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static const int k_ints[16] = {0, 1, -1, 2, 3, 7, 64, 65, 1000, 1001, INT_MAX, INT_MIN, -2, 255, 256, 100000};

static int inum(input *in)
{
    uint8_t s = u8(in);
    if (s < 16)
        return k_ints[s];
    if (s < 240)
        return s - 16 - 8; // -8 .. 215
    return (int)u32(in);
}

static rb_vec3 vec(input *in)
{
    rb_vec3 v;
    v.x = fnum(in);
    v.y = fnum(in);
    v.z = fnum(in);
    return v;
}

static rb_quat quat(input *in)
{
    switch (u8(in) % 4) {
    case 0: return (rb_quat){0.0f, 0.0f, 0.0f, 1.0f};
    case 1: {
        rb_vec3 axis = vec(in);
        return rb_quat_from_axis_angle(axis, fnum(in));
    }
    case 2: return (rb_quat){0.0f, 0.70710678f, 0.0f, 0.70710678f};
    default: {
        rb_quat q;
        q.x = fnum(in);
        q.y = fnum(in);
        q.z = fnum(in);
        q.w = fnum(in);
        return q;
    }
    }
}

// Equal values (0 and -0 alike: a stored value may pass through an addition of 0).
static bool same3(rb_vec3 a, rb_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static float max_abs3(rb_vec3 v) { return fmaxf(fabsf(v.x), fmaxf(fabsf(v.y), fabsf(v.z))); }

// ---- the model ----

typedef struct fz_world {
    rb_world_id id;
    bool live;
    bool had_body; // a body was created in it (see op_step)
} fz_world;

typedef struct fz_body {
    rb_body_id id;
    int world;
    bool live;
    rb_body_type type;
    int shapes, planes;
    bool fixed_mass; // rb_body_set_mass_data succeeded and no shape came or went since
} fz_body;

typedef struct fz_shape {
    rb_shape_id id;
    int body;
    bool live;
    rb_shape_type type;
} fz_shape;

typedef struct state {
    fz_world worlds[NWORLDS];
    fz_body bodies[MAX_BODIES];
    int nb;
    fz_shape shapes[MAX_SHAPES];
    int ns;
    int steps;
    int op;
    bool mutated; // the op's call changed the world (so the world may differ from before it)
    bool sentinel_gravity; // the op passes the planted gravity, whose message is the world sentinel
    bool trace;            // RUBBLE_FUZZ_TRACE: print the calls
    const char *op_name;
    char sentinel[1024], world_sentinel[1024];
    rb_transform xf[BUF];
    rb_vec3 v[BUF], w[BUF];
    bool awake[BUF];
} state;

#define CHECK(st, cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "op %d (%s): ", (st)->op, (st)->op_name);                              \
            FZ_CHECK(cond, __VA_ARGS__);                                                           \
        }                                                                                          \
    } while (0)

static int live_bodies(const state *st, int world)
{
    int n = 0;
    for (int i = 0; i < st->nb; ++i)
        n += st->bodies[i].live && st->bodies[i].world == world;
    return n;
}

static int live_shapes(const state *st, int world)
{
    int n = 0;
    for (int i = 0; i < st->ns; ++i)
        n += st->shapes[i].live && st->bodies[st->shapes[i].body].world == world;
    return n;
}

// The model's body in `slot` of `world`, or -1.
static int body_in_slot(const state *st, int world, int slot)
{
    for (int i = 0; i < st->nb; ++i)
        if (st->bodies[i].live && st->bodies[i].world == world && st->bodies[i].id.index1 - 1 == slot)
            return i;
    return -1;
}

// The model's world whose live library world sits in slot `world0`, or -1.
static int world_of_slot(const state *st, int world0)
{
    for (int k = 0; k < NWORLDS; ++k)
        if (st->worlds[k].live && st->worlds[k].id.index1 - 1 == world0)
            return k;
    return -1;
}

static rb_world_id error_world(const state *st, int k) { return k >= 0 ? st->worlds[k].id : rb_null_world_id; }

// A body to call with: one the model knows (live or destroyed), or a null or forged id.
// *index is the model's record or -1.
static rb_body_id pick_body(state *st, input *in, int *index)
{
    uint8_t s = u8(in);
    *index = -1;
    if (st->nb > 0 && s < 240) {
        *index = s % st->nb;
        return st->bodies[*index].id;
    }
    if (s % 2 == 0)
        return rb_null_body_id;
    rb_body_id id;
    id.index1 = inum(in);
    id.world0 = (uint16_t)u8(in);
    id.generation = (uint16_t)u8(in);
    for (int i = 0; i < st->nb; ++i)
        if (rb_body_equal(id, st->bodies[i].id))
            *index = i;
    return id;
}

static rb_shape_id pick_shape(state *st, input *in, int *index)
{
    uint8_t s = u8(in);
    *index = -1;
    if (st->ns > 0 && s < 240) {
        *index = s % st->ns;
        return st->shapes[*index].id;
    }
    if (s % 2 == 0)
        return rb_null_shape_id;
    rb_shape_id id;
    id.index1 = inum(in);
    id.world0 = (uint16_t)u8(in);
    id.generation = (uint16_t)u8(in);
    for (int i = 0; i < st->ns; ++i)
        if (rb_shape_equal(id, st->shapes[i].id))
            *index = i;
    return id;
}

static bool body_live(const state *st, int i) { return i >= 0 && st->bodies[i].live; }
static bool shape_live(const state *st, int i) { return i >= 0 && st->shapes[i].live; }

// The world whose rb_last_error tells about a call on this body (a forged id may name no world).
static rb_world_id body_error_world(const state *st, rb_body_id id)
{
    return error_world(st, world_of_slot(st, id.world0));
}

static rb_world_id shape_error_world(const state *st, rb_shape_id id)
{
    return error_world(st, world_of_slot(st, id.world0));
}

// ---- what must hold after a call ----

// Plants known messages in every live world and in this thread before a call: a failing call must
// replace them with its own. Neither is a message an op's calls can produce.
static bool is_sentinel_gravity(rb_vec3 g) { return g.x == INFINITY && isnan(g.y) && g.z == -INFINITY; }

static void plant_sentinel(state *st)
{
    st->sentinel_gravity = false;
    rb_vec3 bad = {INFINITY, NAN, -INFINITY};
    st->world_sentinel[0] = '\0';
    for (int k = 0; k < NWORLDS; ++k) {
        if (st->worlds[k].live) {
            FZ_CHECK(rb_world_set_gravity(st->worlds[k].id, bad) == RB_ERR_INVALID_ARGUMENT, "non-finite gravity accepted");
            snprintf(st->world_sentinel, sizeof st->world_sentinel, "%s", rb_last_error(st->worlds[k].id));
        }
    }
    rb_body_id malformed = {-123456789, 0, 0};
    rb_body_type unused;
    FZ_CHECK(rb_body_get_type(malformed, &unused) == RB_ERR_STALE_ID, "a malformed body id was accepted");
    snprintf(st->sentinel, sizeof st->sentinel, "%s", rb_last_error(rb_null_world_id));
    FZ_CHECK(st->sentinel[0] != '\0', "no message after a failed call");
}

// A call's status: a valid rb_status; a failure says so in rb_last_error(err) with a fresh message.
static rb_status result(state *st, rb_status s, rb_world_id err)
{
    CHECK(st, fz_status_valid(s), "status %d is not an rb_status", (int)s);
    if (s != RB_OK) {
        const char *msg = rb_last_error(err);
        CHECK(st, msg && msg[0] != '\0', "failed with %s and no message", rb_status_string(s));
        CHECK(st, strcmp(msg, st->sentinel) != 0 && (strcmp(msg, st->world_sentinel) != 0 || st->sentinel_gravity),
              "failed with %s but rb_last_error still says '%s' from before the call", rb_status_string(s), msg);
    }
    return s;
}

static void must_fail(state *st, bool forbidden, rb_status s, const char *rule)
{
    CHECK(st, !forbidden || s != RB_OK, "accepted what the API forbids: %s", rule);
}

// Everything a call may have changed, to compare after a failure.
typedef struct digest {
    rb_counters counters[NWORLDS];
    rb_world_def def[NWORLDS];
    uint64_t bodies; // hash of every live body's transform, velocities, type, awake flag, mass and shapes
} digest;

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void take_digest(const state *st, digest *d)
{
    memset(d, 0, sizeof *d);
    uint64_t h = 14695981039346656037ull;
    for (int k = 0; k < NWORLDS; ++k) {
        if (!st->worlds[k].live)
            continue;
        FZ_CHECK(rb_world_get_counters(st->worlds[k].id, &d->counters[k]) == RB_OK, "counters");
        FZ_CHECK(rb_world_get_def(st->worlds[k].id, &d->def[k]) == RB_OK, "def");
    }
    for (int i = 0; i < st->nb; ++i) {
        const fz_body *b = &st->bodies[i];
        if (!b->live)
            continue;
        rb_transform t;
        rb_vec3 v, w;
        rb_body_type type;
        bool awake, bullet;
        rb_mass_data m;
        int shapes;
        float damping[3];
        FZ_CHECK(rb_body_get_transform(b->id, &t) == RB_OK && rb_body_get_linear_velocity(b->id, &v) == RB_OK &&
                     rb_body_get_angular_velocity(b->id, &w) == RB_OK && rb_body_get_type(b->id, &type) == RB_OK &&
                     rb_body_is_awake(b->id, &awake) == RB_OK && rb_body_is_bullet(b->id, &bullet) == RB_OK &&
                     rb_body_get_mass_data(b->id, &m) == RB_OK && rb_body_get_shape_count(b->id, &shapes) == RB_OK &&
                     rb_body_get_linear_damping(b->id, &damping[0]) == RB_OK &&
                     rb_body_get_angular_damping(b->id, &damping[1]) == RB_OK &&
                     rb_body_get_gravity_scale(b->id, &damping[2]) == RB_OK,
                 "a getter failed on live body %d", b->id.index1);
        h = mix(h, &t, sizeof t);
        h = mix(h, &v, sizeof v);
        h = mix(h, &w, sizeof w);
        h = mix(h, &type, sizeof type);
        h = mix(h, &awake, sizeof awake);
        h = mix(h, &bullet, sizeof bullet);
        h = mix(h, &m, sizeof m);
        h = mix(h, &shapes, sizeof shapes);
        h = mix(h, damping, sizeof damping);
    }
    for (int i = 0; i < st->ns; ++i) {
        const fz_shape *s = &st->shapes[i];
        if (!s->live)
            continue;
        float mat[4];
        rb_transform t;
        FZ_CHECK(rb_shape_get_friction(s->id, &mat[0]) == RB_OK && rb_shape_get_restitution(s->id, &mat[1]) == RB_OK &&
                     rb_shape_get_density(s->id, &mat[2]) == RB_OK &&
                     rb_shape_get_static_friction(s->id, &mat[3]) == RB_OK &&
                     rb_shape_get_local_transform(s->id, &t) == RB_OK,
                 "a getter failed on live shape %d", s->id.index1);
        h = mix(h, mat, sizeof mat);
        h = mix(h, &t, sizeof t);
    }
    d->bodies = h;
}

static bool same_def(const rb_world_def *a, const rb_world_def *b)
{
    const rb_sequential_def *p = &a->sequential, *q = &b->sequential;
    return memcmp(&a->gravity, &b->gravity, sizeof a->gravity) == 0 && a->time_step == b->time_step &&
           a->substeps == b->substeps && a->iterations == b->iterations &&
           a->position_iterations == b->position_iterations && a->solver == b->solver &&
           a->enable_sleep == b->enable_sleep && a->restitution_threshold == b->restitution_threshold &&
           p->penetration_threshold == q->penetration_threshold && p->remaining_penetration == q->remaining_penetration &&
           p->resolution_threshold == q->resolution_threshold && p->sleep_threshold == q->sleep_threshold &&
           p->sleep_bias == q->sleep_bias && p->sleep_motion_max == q->sleep_motion_max &&
           p->gravity_damping == q->gravity_damping && p->gravity_damping_threshold == q->gravity_damping_threshold &&
           p->max_iterations == q->max_iterations && p->shock_iterations == q->shock_iterations &&
           p->shock_propagation == q->shock_propagation && p->settle_iterations == q->settle_iterations &&
           p->heap_threshold == q->heap_threshold && p->large_batch == q->large_batch &&
           p->split_contacts == q->split_contacts && p->warm_start == q->warm_start;
}

static void check_unchanged(state *st, const digest *before)
{
    digest now;
    take_digest(st, &now);
    for (int k = 0; k < NWORLDS; ++k) {
        if (!st->worlds[k].live)
            continue;
        const rb_counters *a = &before->counters[k], *b = &now.counters[k];
        CHECK(st, a->bodies == b->bodies && a->shapes == b->shapes && a->awake_bodies == b->awake_bodies &&
                      a->body_slots == b->body_slots,
              "a failed call changed world %d's counters: %d bodies %d shapes %d awake -> %d, %d, %d", k, a->bodies,
              a->shapes, a->awake_bodies, b->bodies, b->shapes, b->awake_bodies);
        CHECK(st, same_def(&before->def[k], &now.def[k]), "a failed call changed world %d's settings", k);
    }
    CHECK(st, before->bodies == now.bodies, "a failed call changed a body or a shape");
}

// The model and the library agree on what exists.
static void check_model(state *st)
{
    for (int k = 0; k < NWORLDS; ++k) {
        CHECK(st, rb_world_is_valid(st->worlds[k].id) == st->worlds[k].live, "world %d: valid %d, model %d", k,
              rb_world_is_valid(st->worlds[k].id), st->worlds[k].live);
        if (!st->worlds[k].live)
            continue;
        rb_counters c;
        CHECK(st, rb_world_get_counters(st->worlds[k].id, &c) == RB_OK, "counters");
        CHECK(st, c.bodies == live_bodies(st, k) && c.shapes == live_shapes(st, k),
              "world %d counts %d bodies and %d shapes; %d and %d were created and not destroyed", k, c.bodies, c.shapes,
              live_bodies(st, k), live_shapes(st, k));
        // the counts of the world as it is now, not as the last step left it (bodies destroyed, woken,
        // put to sleep or unfrozen since)
        CHECK(st, c.awake_bodies >= 0 && c.awake_bodies <= c.bodies && c.frozen_bodies >= 0 &&
                      c.frozen_bodies <= c.bodies && c.body_slots >= c.bodies,
              "world %d: %d awake of %d bodies in %d slots", k, c.awake_bodies, c.bodies, c.body_slots);
    }
    for (int i = 0; i < st->nb; ++i) {
        const fz_body *b = &st->bodies[i];
        CHECK(st, rb_body_is_valid(b->id) == b->live, "body record %d (id %d, world %d, generation %u): valid %d, model %d",
              i, b->id.index1, b->id.world0, b->id.generation, rb_body_is_valid(b->id), b->live);
    }
    for (int i = 0; i < st->ns; ++i) {
        const fz_shape *s = &st->shapes[i];
        CHECK(st, rb_shape_is_valid(s->id) == s->live, "shape record %d (id %d): valid %d, model %d", i, s->id.index1,
              rb_shape_is_valid(s->id), s->live);
    }
}

// A live body reads back as the model has it; a dynamic one has a finite mass > 0 and inertia.
static void check_body(state *st, int i)
{
    if (!body_live(st, i))
        return;
    const fz_body *b = &st->bodies[i];
    rb_body_type type;
    int shapes;
    rb_mass_data m;
    rb_transform t;
    CHECK(st, rb_body_get_type(b->id, &type) == RB_OK && type == b->type, "body %d: type %d, model %d", i, type, b->type);
    CHECK(st, rb_body_get_shape_count(b->id, &shapes) == RB_OK && shapes == b->shapes, "body %d: %d shapes, model %d",
          i, shapes, b->shapes);
    CHECK(st, rb_body_get_transform(b->id, &t) == RB_OK && fz_finite3(t.p) && fz_unit_quat(t.q),
          "body %d at (%g, %g, %g) turned by (%g, %g, %g, %g)", i, t.p.x, t.p.y, t.p.z, t.q.x, t.q.y, t.q.z, t.q.w);
    CHECK(st, rb_body_get_mass_data(b->id, &m) == RB_OK, "mass data");
    // mass data the application set survives a static or kinematic spell
    if (b->type == RB_BODY_DYNAMIC)
        CHECK(st, isfinite(m.mass) && m.mass > 0.0f && fz_finite3(m.center) && fz_finite3(m.inertia) &&
                      m.inertia.x > 0.0f && m.inertia.y > 0.0f && m.inertia.z > 0.0f && fz_finite3(m.inertia_products),
              "dynamic body %d: mass %g, centre (%g, %g, %g), inertia (%g, %g, %g)", i, m.mass, m.center.x, m.center.y,
              m.center.z, m.inertia.x, m.inertia.y, m.inertia.z);
    else
        CHECK(st, m.mass == 0.0f, "%s body %d has mass %g", b->type == RB_BODY_STATIC ? "static" : "kinematic", i, m.mass);
}

static void kill_shapes_of(state *st, int body)
{
    for (int i = 0; i < st->ns; ++i)
        if (st->shapes[i].body == body)
            st->shapes[i].live = false;
}

// ---- the calls ----

static rb_world_def world_def(rb_solver solver)
{
    rb_world_def d = rb_default_world_def();
    d.backend = RB_BACKEND_CPU;
    d.threads = 1;
    d.solver = solver;
    d.max_pairs = 8192; // a step's cost is bounded by its pairs: 256 overlapping bodies would have 32,640
    return d;
}

static void op_world_life(state *st, input *in)
{
    int k = u8(in) % NWORLDS;
    fz_world *fw = &st->worlds[k];
    if (fw->live) {
        st->op_name = "rb_destroy_world";
        rb_status s = result(st, rb_destroy_world(fw->id), error_world(st, k));
        CHECK(st, s == RB_OK, "destroying a live world: %s", rb_status_string(s));
        fw->live = false;
        for (int i = 0; i < st->nb; ++i) {
            if (st->bodies[i].world == k) {
                st->bodies[i].live = false;
                kill_shapes_of(st, i);
            }
        }
        st->op_name = "rb_destroy_world twice";
        s = result(st, rb_destroy_world(fw->id), rb_null_world_id);
        CHECK(st, s == RB_ERR_STALE_ID, "destroying a destroyed world: %s", rb_status_string(s));
        return;
    }
    st->op_name = "rb_create_world";
    rb_world_def d = world_def((rb_solver)(u8(in) % 5));
    bool bad = false;
    switch (u8(in) % 12) {
    case 0:
        d.gravity = vec(in);
        bad = !fz_finite3(d.gravity);
        st->sentinel_gravity = is_sentinel_gravity(d.gravity);
        break;
    case 1: d.time_step = fnum(in); bad = !(d.time_step > 0.0f) || !isfinite(d.time_step); break;
    case 2: d.substeps = inum(in); bad = d.substeps < 0 || d.substeps > 64; break;
    case 3: d.iterations = inum(in); bad = d.iterations < 1 || d.iterations > 1000; break;
    case 4: d.threads = u8(in) % 2 ? -1 : 1025; bad = true; break;
    case 5: d.backend = (rb_backend)(u8(in) % 2 ? -1 : 9); bad = true; break;
    case 6: d.solver = (rb_solver)(u8(in) % 2 ? -1 : 17); bad = true; break;
    case 7: d.max_pairs = inum(in); bad = d.max_pairs < 0; break;
    case 8: d.body_capacity = u8(in) % 2 ? -1 : INT_MAX; bad = true; break;
    case 9: d.internal_value = 0; bad = true; break;
    case 10: d.contact_margin = fnum(in); bad = !(d.contact_margin >= 0.0f) || !isfinite(d.contact_margin); break;
    default: break;
    }
    rb_world_id id = rb_null_world_id;
    bool null_out = rarely(in);
    rb_status s = result(st, rb_create_world(rarely(in) ? NULL : &d, null_out ? NULL : &id), rb_null_world_id);
    must_fail(st, bad || null_out, s, "a bad world def or NULL output");
    if (s == RB_OK) {
        CHECK(st, rb_world_is_valid(id), "a new world's id is invalid");
        fw->id = id;
        fw->live = true;
        fw->had_body = false;
        rb_counters c;
        CHECK(st, rb_world_get_counters(id, &c) == RB_OK && c.bodies == 0 && c.shapes == 0, "a new world is not empty");
    }
}

static void op_create_body(state *st, input *in)
{
    st->op_name = "rb_create_body";
    if (st->nb == MAX_BODIES)
        return;
    int k = u8(in) % NWORLDS;
    rb_body_def d = rb_default_body_def();
    int type = u8(in) % 4;
    d.type = type == 3 ? (rb_body_type)(u8(in) % 2 ? -1 : 3) : (rb_body_type)type;
    bool bad = type == 3;
    uint8_t fields = u8(in);
    if (fields & 1)
        d.position = vec(in);
    if (fields & 2)
        d.rotation = quat(in);
    if (fields & 4)
        d.linear_velocity = vec(in);
    if (fields & 8)
        d.angular_velocity = vec(in);
    if (fields & 16) {
        d.linear_damping = fnum(in);
        d.angular_damping = fnum(in);
    }
    if (fields & 32)
        d.gravity_scale = fnum(in);
    if (fields & 64)
        d.mass = fnum(in);
    if (fields & 128) {
        d.is_awake = flag(in);
        d.enable_sleep = flag(in);
        d.is_bullet = flag(in);
    }
    bad |= !fz_finite3(d.position) || !fz_finite3(d.linear_velocity) || !fz_finite3(d.angular_velocity) ||
           !(d.linear_damping >= 0.0f) || !isfinite(d.linear_damping) || !(d.angular_damping >= 0.0f) ||
           !isfinite(d.angular_damping) || !isfinite(d.gravity_scale) || !(d.mass >= 0.0f) || !isfinite(d.mass) ||
           !isfinite(d.rotation.x + d.rotation.y + d.rotation.z + d.rotation.w) ||
           (d.mass != 0.0f && type != RB_BODY_DYNAMIC);
    if (rarely(in)) {
        d.internal_value = 0;
        bad = true;
    }
    bool null_def = rarely(in), null_out = rarely(in);
    bad |= null_def || null_out || !st->worlds[k].live;
    rb_body_id id = rb_null_body_id;
    rb_status s = result(st, rb_create_body(st->worlds[k].id, null_def ? NULL : &d, null_out ? NULL : &id),
                         error_world(st, st->worlds[k].live ? k : -1));
    must_fail(st, bad, s, "a body def with a NaN, a negative damping or mass, a mass on a non-dynamic body, a bad type, "
                          "a NULL pointer or a destroyed world");
    if (!st->worlds[k].live)
        CHECK(st, s == RB_ERR_STALE_ID, "creating a body in a destroyed world: %s", rb_status_string(s));
    if (s != RB_OK)
        return;
    st->mutated = true;
    st->worlds[k].had_body = true;
    if (st->trace)
        fprintf(stderr, "  body record %d: world %d, type %d, awake %d, sleep %d, bullet %d, mass %g\n", st->nb, k,
                d.type, d.is_awake, d.enable_sleep, d.is_bullet, d.mass);
    fz_body *b = &st->bodies[st->nb];
    *b = (fz_body){id, k, true, d.type, 0, 0, false};
    int i = st->nb++;
    CHECK(st, rb_body_is_valid(id) && id.world0 == st->worlds[k].id.index1 - 1, "the new body's id is invalid");
    check_body(st, i);
    // a body without shapes: its centre of mass is its origin, so what was given reads back exactly
    rb_transform t;
    rb_vec3 v;
    float damping;
    CHECK(st, rb_body_get_transform(id, &t) == RB_OK && same3(t.p, d.position),
          "created at (%g, %g, %g), reads (%g, %g, %g)", d.position.x, d.position.y, d.position.z, t.p.x, t.p.y, t.p.z);
    if (d.type != RB_BODY_STATIC) {
        CHECK(st, rb_body_get_linear_velocity(id, &v) == RB_OK && same3(v, d.linear_velocity),
              "created moving at (%g, %g, %g), reads (%g, %g, %g)", d.linear_velocity.x, d.linear_velocity.y,
              d.linear_velocity.z, v.x, v.y, v.z);
    }
    CHECK(st, rb_body_get_linear_damping(id, &damping) == RB_OK && damping == d.linear_damping, "linear damping");
    if (d.type == RB_BODY_DYNAMIC) {
        float mass;
        CHECK(st, rb_body_get_mass(id, &mass) == RB_OK && mass == (d.mass > 0.0f ? d.mass : 1.0f),
              "a dynamic body without shapes and mass %g weighs %g (the def's mass or 1 kg)", d.mass, mass);
    }
}

static void op_destroy_body(state *st, input *in)
{
    st->op_name = "rb_destroy_body";
    int i;
    rb_body_id id = pick_body(st, in, &i);
    rb_status s = result(st, rb_destroy_body(id), body_error_world(st, id));
    if (body_live(st, i)) {
        CHECK(st, s == RB_OK, "destroying a live body: %s", rb_status_string(s));
        st->mutated = true;
        int k = st->bodies[i].world;
        st->bodies[i].live = false;
        kill_shapes_of(st, i);
        CHECK(st, !rb_body_is_valid(id), "a destroyed body's id is valid");
        int slot;
        rb_body_id got;
        slot = id.index1 - 1;
        rb_status g = result(st, rb_world_get_body_id(st->worlds[k].id, slot, &got), st->worlds[k].id);
        CHECK(st, g == RB_ERR_STALE_ID, "rb_world_get_body_id of a destroyed body's slot: %s", rb_status_string(g));
    } else {
        CHECK(st, s == RB_ERR_STALE_ID, "destroying a stale body id: %s", rb_status_string(s));
    }
}

static bool bad_size(float v, bool allow_zero)
{
    return !isfinite(v) || (allow_zero ? !(v >= 0.0f) : !(v > 0.0f)) || v > 1e6f;
}

static void op_create_shape(state *st, input *in)
{
    st->op_name = "rb_create_*_shape";
    if (st->ns == MAX_SHAPES)
        return;
    int i;
    rb_body_id body = pick_body(st, in, &i);
    rb_shape_def d = rb_default_shape_def();
    uint8_t fields = u8(in);
    if (fields & 1)
        d.local_position = vec(in);
    if (fields & 2)
        d.local_rotation = quat(in);
    if (fields & 4)
        d.density = fnum(in);
    if (fields & 8)
        d.friction = fnum(in);
    if (fields & 16)
        d.static_friction = fnum(in);
    if (fields & 32)
        d.restitution = fnum(in);
    if (fields & 64) {
        d.category_bits = u32(in);
        d.mask_bits = u32(in);
    }
    bool bad = !fz_finite3(d.local_position) || fabsf(d.local_position.x) > 1e6f || fabsf(d.local_position.y) > 1e6f ||
               fabsf(d.local_position.z) > 1e6f || !(d.density >= 0.0f) || !isfinite(d.density) ||
               !(d.friction >= 0.0f) || !isfinite(d.friction) || !(d.restitution >= 0.0f && d.restitution <= 1.0f) ||
               !(d.static_friction == 0.0f || (d.static_friction >= d.friction && isfinite(d.static_friction)));
    if ((fields & 128) && rarely(in)) {
        d.internal_value = 0;
        bad = true;
    }
    bool null_def = rarely(in), null_geom = rarely(in), null_out = rarely(in);
    bad |= null_def || null_geom || null_out || !body_live(st, i);
    rb_shape_type type = (rb_shape_type)(u8(in) % 4);
    rb_shape_id id = rb_null_shape_id;
    rb_status s;
    const rb_shape_def *dp = null_def ? NULL : &d;
    rb_shape_id *out = null_out ? NULL : &id;
    rb_sphere sphere;
    rb_capsule capsule;
    rb_box box;
    rb_plane plane;
    memset(&sphere, 0, sizeof sphere);
    memset(&capsule, 0, sizeof capsule);
    memset(&box, 0, sizeof box);
    memset(&plane, 0, sizeof plane);
    switch (type) {
    case RB_SHAPE_SPHERE:
        st->op_name = "rb_create_sphere_shape";
        sphere.radius = fnum(in);
        bad |= bad_size(sphere.radius, false);
        s = rb_create_sphere_shape(body, dp, null_geom ? NULL : &sphere, out);
        break;
    case RB_SHAPE_CAPSULE:
        st->op_name = "rb_create_capsule_shape";
        capsule.radius = fnum(in);
        capsule.half_length = fnum(in);
        bad |= bad_size(capsule.radius, false) || bad_size(capsule.half_length, true);
        s = rb_create_capsule_shape(body, dp, null_geom ? NULL : &capsule, out);
        break;
    case RB_SHAPE_BOX:
        st->op_name = "rb_create_box_shape";
        box.half_extents = vec(in);
        bad |= bad_size(box.half_extents.x, false) || bad_size(box.half_extents.y, false) ||
               bad_size(box.half_extents.z, false);
        s = rb_create_box_shape(body, dp, null_geom ? NULL : &box, out);
        break;
    default:
        st->op_name = "rb_create_plane_shape";
        plane.normal = vec(in);
        plane.offset = fnum(in);
        bad |= !fz_finite3(plane.normal) || (plane.normal.x == 0.0f && plane.normal.y == 0.0f && plane.normal.z == 0.0f) ||
               !isfinite(plane.offset) || (body_live(st, i) && st->bodies[i].type != RB_BODY_STATIC);
        s = rb_create_plane_shape(body, dp, null_geom ? NULL : &plane, out);
        break;
    }
    s = result(st, s, body_error_world(st, body));
    must_fail(st, bad, s, "a shape with a NaN, a size <= 0 or > 1e6 m, a bad material, a plane on a moving body, "
                          "a NULL pointer or a stale body");
    if (!body_live(st, i) && i >= 0)
        CHECK(st, s == RB_ERR_STALE_ID, "a shape on a destroyed body: %s", rb_status_string(s));
    if (s != RB_OK)
        return;
    st->mutated = true;
    fz_shape *sh = &st->shapes[st->ns++];
    *sh = (fz_shape){id, i, true, type};
    st->bodies[i].shapes++;
    st->bodies[i].fixed_mass = false;
    st->bodies[i].planes += type == RB_SHAPE_PLANE;
    rb_shape_type got_type;
    rb_body_id got_body;
    CHECK(st, rb_shape_is_valid(id) && rb_shape_get_type(id, &got_type) == RB_OK && got_type == type &&
                  rb_shape_get_body(id, &got_body) == RB_OK && rb_body_equal(got_body, body),
          "the new shape reads back as type %d on body %d", got_type, got_body.index1);
    switch (type) {
    case RB_SHAPE_SPHERE: {
        rb_sphere g;
        CHECK(st, rb_shape_get_sphere(id, &g) == RB_OK && g.radius == sphere.radius, "sphere radius");
        break;
    }
    case RB_SHAPE_CAPSULE: {
        rb_capsule g;
        CHECK(st, rb_shape_get_capsule(id, &g) == RB_OK && g.radius == capsule.radius &&
                      g.half_length == capsule.half_length,
              "capsule");
        break;
    }
    case RB_SHAPE_BOX: {
        rb_box g;
        CHECK(st, rb_shape_get_box(id, &g) == RB_OK && memcmp(&g, &box, sizeof g) == 0, "box");
        break;
    }
    default: {
        rb_plane g;
        CHECK(st, rb_shape_get_plane(id, &g) == RB_OK && fz_unit3(g.normal) && isfinite(g.offset),
              "plane normal (%g, %g, %g) given (%g, %g, %g) is not normalised", g.normal.x, g.normal.y, g.normal.z,
              plane.normal.x, plane.normal.y, plane.normal.z);
        break;
    }
    }
    check_body(st, i);
}

static void op_destroy_shape(state *st, input *in)
{
    st->op_name = "rb_destroy_shape";
    int i;
    rb_shape_id id = pick_shape(st, in, &i);
    rb_status s = result(st, rb_destroy_shape(id), shape_error_world(st, id));
    if (shape_live(st, i)) {
        // removing a shape can leave a dynamic body without mass (the others have density 0): refused
        if (s != RB_OK) {
            CHECK(st, s == RB_ERR_INVALID_ARGUMENT, "destroying a live shape: %s", rb_status_string(s));
            return;
        }
        st->mutated = true;
        st->shapes[i].live = false;
        fz_body *b = &st->bodies[st->shapes[i].body];
        b->shapes--;
        b->fixed_mass = false;
        b->planes -= st->shapes[i].type == RB_SHAPE_PLANE;
        CHECK(st, !rb_shape_is_valid(id), "a destroyed shape's id is valid");
        check_body(st, st->shapes[i].body);
    } else {
        CHECK(st, s == RB_ERR_STALE_ID, "destroying a stale shape id: %s", rb_status_string(s));
    }
}


static void op_body_motion(state *st, input *in)
{
    int i;
    rb_body_id id = pick_body(st, in, &i);
    bool live = body_live(st, i);
    rb_body_type type = live ? st->bodies[i].type : RB_BODY_STATIC;
    rb_world_id err = body_error_world(st, id);
    rb_status s;
    switch (u8(in) % 10) {
    case 0: {
        st->op_name = "rb_body_set_transform";
        rb_vec3 p = vec(in);
        rb_quat q = quat(in);
        s = result(st, rb_body_set_transform(id, p, q), err);
        must_fail(st, !live || !fz_finite3(p) || !isfinite(q.x + q.y + q.z + q.w), s, "a NaN transform or a stale id");
        if (s == RB_OK) {
            rb_transform t;
            rb_mass_data m;
            CHECK(st, rb_body_get_transform(id, &t) == RB_OK && rb_body_get_mass_data(id, &m) == RB_OK, "getters");
            // the body stores its centre of mass, p + R c: the origin comes back to within rounding
            float tol = 4e-6f * (max_abs3(p) + max_abs3(m.center) + 1.0f);
            CHECK(st, fabsf(t.p.x - p.x) <= tol && fabsf(t.p.y - p.y) <= tol && fabsf(t.p.z - p.z) <= tol,
                  "set at (%g, %g, %g), reads (%g, %g, %g)", p.x, p.y, p.z, t.p.x, t.p.y, t.p.z);
            float l = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
            CHECK(st, fabsf(t.q.x - q.x / l) < 1e-5f && fabsf(t.q.y - q.y / l) < 1e-5f && fabsf(t.q.z - q.z / l) < 1e-5f &&
                          fabsf(t.q.w - q.w / l) < 1e-5f,
                  "set rotation (%g, %g, %g, %g), reads (%g, %g, %g, %g)", q.x, q.y, q.z, q.w, t.q.x, t.q.y, t.q.z, t.q.w);
        }
        break;
    }
    case 1:
    case 2: {
        bool angular = (u8(in) & 1) != 0;
        st->op_name = angular ? "rb_body_set_angular_velocity" : "rb_body_set_linear_velocity";
        rb_vec3 v = vec(in);
        s = result(st, angular ? rb_body_set_angular_velocity(id, v) : rb_body_set_linear_velocity(id, v), err);
        must_fail(st, !live || !fz_finite3(v) || type == RB_BODY_STATIC, s, "a NaN velocity, a static body or a stale id");
        if (s == RB_OK) {
            rb_vec3 got;
            CHECK(st, (angular ? rb_body_get_angular_velocity(id, &got) : rb_body_get_linear_velocity(id, &got)) == RB_OK &&
                          memcmp(&got, &v, sizeof v) == 0,
                  "set velocity (%g, %g, %g), reads (%g, %g, %g)", v.x, v.y, v.z, got.x, got.y, got.z);
        }
        break;
    }
    case 3:
    case 4: {
        rb_vec3 a = vec(in), p = {0.0f, 0.0f, 0.0f};
        bool wake = flag(in), at_point = false;
        switch (u8(in) % 6) {
        case 0: st->op_name = "rb_body_apply_force"; p = vec(in); at_point = true; s = rb_body_apply_force(id, a, p, wake); break;
        case 1: st->op_name = "rb_body_apply_force_to_center"; s = rb_body_apply_force_to_center(id, a, wake); break;
        case 2: st->op_name = "rb_body_apply_torque"; s = rb_body_apply_torque(id, a, wake); break;
        case 3:
            st->op_name = "rb_body_apply_linear_impulse";
            p = vec(in);
            at_point = true;
            s = rb_body_apply_linear_impulse(id, a, p, wake);
            break;
        case 4: st->op_name = "rb_body_apply_linear_impulse_to_center"; s = rb_body_apply_linear_impulse_to_center(id, a, wake); break;
        default: st->op_name = "rb_body_apply_angular_impulse"; s = rb_body_apply_angular_impulse(id, a, wake); break;
        }
        s = result(st, s, err);
        must_fail(st, !live || !fz_finite3(a) || (at_point && !fz_finite3(p)), s, "a NaN force, impulse or point, or a stale id");
        break;
    }
    case 5: {
        int which = u8(in) % 3;
        float v = fnum(in);
        const char *names[3] = {"rb_body_set_linear_damping", "rb_body_set_angular_damping", "rb_body_set_gravity_scale"};
        st->op_name = names[which];
        s = which == 0 ? rb_body_set_linear_damping(id, v)
                       : which == 1 ? rb_body_set_angular_damping(id, v) : rb_body_set_gravity_scale(id, v);
        s = result(st, s, err);
        must_fail(st, !live || !isfinite(v) || (which < 2 && !(v >= 0.0f)), s, "a NaN or negative damping, or a stale id");
        if (s == RB_OK) {
            float got = -1.0f;
            rb_status g = which == 0 ? rb_body_get_linear_damping(id, &got)
                                     : which == 1 ? rb_body_get_angular_damping(id, &got) : rb_body_get_gravity_scale(id, &got);
            CHECK(st, g == RB_OK && got == v, "set %g, reads %g", v, got);
        }
        break;
    }
    case 6: {
        st->op_name = "rb_body_set_mass_data";
        rb_mass_data m;
        m.mass = fnum(in);
        m.center = vec(in);
        m.inertia = vec(in);
        m.inertia_products = u8(in) % 2 ? vec(in) : (rb_vec3){0.0f, 0.0f, 0.0f};
        bool null_data = rarely(in);
        s = result(st, rb_body_set_mass_data(id, null_data ? NULL : &m), err);
        if (st->trace)
            fprintf(stderr, "  mass %g centre (%g, %g, %g) inertia (%g, %g, %g): %s\n", m.mass, m.center.x, m.center.y,
                    m.center.z, m.inertia.x, m.inertia.y, m.inertia.z, rb_status_string(s));
        must_fail(st, !live || null_data || type != RB_BODY_DYNAMIC || !(m.mass > 0.0f) || !isfinite(m.mass) ||
                          !fz_finite3(m.center) || !fz_finite3(m.inertia) || !fz_finite3(m.inertia_products) ||
                          !(m.inertia.x > 0.0f),
                  s, "mass data that is not positive and finite, on a body that is not dynamic, NULL, or a stale id");
        if (s == RB_OK) {
            st->bodies[i].fixed_mass = true;
            rb_mass_data got;
            CHECK(st, rb_body_get_mass_data(id, &got) == RB_OK && got.mass == m.mass &&
                          memcmp(&got.center, &m.center, sizeof got.center) == 0 &&
                          memcmp(&got.inertia, &m.inertia, sizeof got.inertia) == 0,
                  "set mass %g, reads %g", m.mass, got.mass);
        }
        break;
    }
    case 7: {
        int which = u8(in) % 3;
        bool on = flag(in);
        if (st->trace)
            fprintf(stderr, "  body record %d, %d\n", i, on);
        if (which == 0) {
            st->op_name = "rb_body_set_awake";
            bool was_awake = false;
            rb_body_is_awake(id, &was_awake);
            s = result(st, rb_body_set_awake(id, on), err);
            if (st->trace) {
                rb_world_def wd;
                rb_vec3 v = {0, 0, 0};
                memset(&wd, 0, sizeof wd);
                rb_world_get_def(error_world(st, live ? st->bodies[i].world : -1), &wd);
                rb_body_get_linear_velocity(id, &v);
                fprintf(stderr, "  set_awake(%d) on type %d: %s, was awake %d, world sleep %d, v (%g, %g, %g)\n", on,
                        type, rb_status_string(s), was_awake, wd.enable_sleep, v.x, v.y, v.z);
            }
            must_fail(st, !live || (on && type == RB_BODY_STATIC), s, "waking a static body or a stale id");
            bool awake;
            // also a body frozen after a non-finite state: waking it returns it to the simulation
            if (s == RB_OK)
                CHECK(st, rb_body_is_awake(id, &awake) == RB_OK && awake == (on && type != RB_BODY_STATIC),
                      "set_awake(%d), is_awake %d", on, awake);
        } else if (which == 1) {
            st->op_name = "rb_body_enable_sleep";
            s = result(st, rb_body_enable_sleep(id, on), err);
            must_fail(st, !live, s, "a stale id");
        } else {
            st->op_name = "rb_body_set_bullet";
            s = result(st, rb_body_set_bullet(id, on), err);
            must_fail(st, !live, s, "a stale id");
            bool bullet;
            if (s == RB_OK)
                CHECK(st, rb_body_is_bullet(id, &bullet) == RB_OK && bullet == on, "set_bullet(%d), is_bullet %d", on, bullet);
        }
        if (live)
            CHECK(st, s == RB_OK || (which == 0 && (type == RB_BODY_STATIC || !on)), "%s on a live body: %s",
                  st->op_name, rb_status_string(s));
        break;
    }
    case 8: {
        st->op_name = "rb_body_set_type";
        int t = u8(in) % 4;
        rb_body_type type_new = t == 3 ? (rb_body_type)(u8(in) % 2 ? -1 : 3) : (rb_body_type)t;
        s = result(st, rb_body_set_type(id, type_new), err);
        must_fail(st, !live || t == 3 || (type_new != RB_BODY_STATIC && st->bodies[i].planes > 0), s,
                  "a bad type, a moving body with a plane, or a stale id");
        if (s == RB_OK) {
            st->bodies[i].type = type_new;
            if (type_new == RB_BODY_STATIC) {
                rb_vec3 v;
                bool awake;
                CHECK(st, rb_body_get_linear_velocity(id, &v) == RB_OK && v.x == 0.0f && v.y == 0.0f && v.z == 0.0f &&
                              rb_body_is_awake(id, &awake) == RB_OK && !awake,
                      "a body made static still moves or is awake");
            }
        }
        break;
    }
    default: {
        st->op_name = "rb_body_set_user_data";
        void *p = (void *)(uintptr_t)(u32(in) | 1u);
        s = result(st, rb_body_set_user_data(id, p), err);
        must_fail(st, !live, s, "a stale id");
        CHECK(st, rb_body_get_user_data(id) == (s == RB_OK ? p : NULL), "user data");
        break;
    }
    }
    if (live) {
        st->mutated |= s == RB_OK;
        check_body(st, i);
    }
}

// Every getter, with a NULL or a real output: a live id and an output succeed, a NULL output or a
// stale id fail.
static void op_body_getters(state *st, input *in)
{
    int i;
    rb_body_id id = pick_body(st, in, &i);
    bool live = body_live(st, i), null_out = flag(in);
    rb_world_id err = body_error_world(st, id);
    union {
        rb_body_type type;
        rb_transform t;
        rb_vec3 v;
        rb_quat q;
        float f;
        rb_mass_data m;
        bool b;
        int n;
    } o;
    rb_status s;
    void *out = null_out ? NULL : &o;
    int which = u8(in) % 15;
    static const char *names[15] = {"rb_body_get_type", "rb_body_get_transform", "rb_body_get_position",
                                    "rb_body_get_rotation", "rb_body_get_world_center", "rb_body_get_linear_velocity",
                                    "rb_body_get_angular_velocity", "rb_body_get_linear_damping",
                                    "rb_body_get_angular_damping", "rb_body_get_gravity_scale", "rb_body_get_mass_data",
                                    "rb_body_get_mass", "rb_body_is_awake", "rb_body_is_bullet", "rb_body_get_shape_count"};
    st->op_name = names[which];
    switch (which) {
    case 0: s = rb_body_get_type(id, out); break;
    case 1: s = rb_body_get_transform(id, out); break;
    case 2: s = rb_body_get_position(id, out); break;
    case 3: s = rb_body_get_rotation(id, out); break;
    case 4: s = rb_body_get_world_center(id, out); break;
    case 5: s = rb_body_get_linear_velocity(id, out); break;
    case 6: s = rb_body_get_angular_velocity(id, out); break;
    case 7: s = rb_body_get_linear_damping(id, out); break;
    case 8: s = rb_body_get_angular_damping(id, out); break;
    case 9: s = rb_body_get_gravity_scale(id, out); break;
    case 10: s = rb_body_get_mass_data(id, out); break;
    case 11: s = rb_body_get_mass(id, out); break;
    case 12: s = rb_body_is_awake(id, out); break;
    case 13: s = rb_body_is_bullet(id, out); break;
    default: s = rb_body_get_shape_count(id, out); break;
    }
    s = result(st, s, err);
    if (!live)
        CHECK(st, s == RB_ERR_STALE_ID, "a stale body id: %s", rb_status_string(s));
    else if (null_out)
        CHECK(st, s == RB_ERR_INVALID_ARGUMENT, "a NULL output: %s", rb_status_string(s));
    else
        CHECK(st, s == RB_OK, "a live body and an output: %s (%s)", rb_status_string(s), rb_last_error(err));

    st->op_name = "rb_body_get_shapes";
    int cap = inum(in) % 80, count = -1;
    rb_shape_id ids[64];
    bool null_ids = rarely(in) || cap > 64;
    bool null_count = flag(in);
    s = result(st, rb_body_get_shapes(id, null_ids ? NULL : ids, cap, null_count ? NULL : &count), err);
    if (!live)
        CHECK(st, s == RB_ERR_STALE_ID, "a stale body id: %s", rb_status_string(s));
    else
        CHECK(st, (s == RB_OK) == (cap >= 0 && (cap == 0 || !null_ids)), "capacity %d, array %s: %s", cap,
              null_ids ? "NULL" : "given", rb_status_string(s));
    if (s == RB_OK) {
        if (!null_count)
            CHECK(st, count == st->bodies[i].shapes, "rb_body_get_shapes counts %d, model %d", count, st->bodies[i].shapes);
        // the body's live shapes, in creation order
        int n = 0;
        for (int k = 0; k < st->ns && n < cap && !null_ids; ++k) {
            if (!st->shapes[k].live || st->shapes[k].body != i)
                continue;
            CHECK(st, rb_shape_equal(ids[n], st->shapes[k].id), "shape %d of the body is %d, model %d", n,
                  ids[n].index1, st->shapes[k].id.index1);
            ++n;
        }
    }
}

static void op_shape_calls(state *st, input *in)
{
    int i;
    rb_shape_id id = pick_shape(st, in, &i);
    bool live = shape_live(st, i);
    rb_shape_type type = live ? st->shapes[i].type : RB_SHAPE_SPHERE;
    rb_world_id err = shape_error_world(st, id);
    rb_status s;
    int which = u8(in) % 6;
    if (which < 4) {
        static const char *names[4] = {"rb_shape_set_friction", "rb_shape_set_restitution", "rb_shape_set_density",
                                       "rb_shape_set_static_friction"};
        st->op_name = names[which];
        float v = fnum(in), mu = 0.0f, mu_s = 0.0f;
        if (live) {
            CHECK(st, rb_shape_get_friction(id, &mu) == RB_OK && rb_shape_get_static_friction(id, &mu_s) == RB_OK, "getters");
        }
        s = which == 0 ? rb_shape_set_friction(id, v)
            : which == 1 ? rb_shape_set_restitution(id, v)
            : which == 2 ? rb_shape_set_density(id, v) : rb_shape_set_static_friction(id, v);
        s = result(st, s, err);
        bool bad = !live || !isfinite(v) || !(v >= 0.0f) || (which == 1 && v > 1.0f) ||
                   (which == 0 && mu_s != 0.0f && v > mu_s) || (which == 3 && v != 0.0f && v < mu);
        must_fail(st, bad, s, "a NaN, negative or out-of-range material value, static friction below friction, or a stale id");
        if (s == RB_OK) {
            st->mutated = true;
            float got = -1.0f;
            rb_status g = which == 0 ? rb_shape_get_friction(id, &got)
                          : which == 1 ? rb_shape_get_restitution(id, &got)
                          : which == 2 ? rb_shape_get_density(id, &got) : rb_shape_get_static_friction(id, &got);
            CHECK(st, g == RB_OK && got == v, "set %g, reads %g", v, got);
            check_body(st, st->shapes[i].body);
        }
        return;
    }
    // the getters, with NULL or real outputs
    bool null_out = flag(in);
    int g = u8(in) % 9;
    static const char *names[9] = {"rb_shape_get_type", "rb_shape_get_body", "rb_shape_get_sphere",
                                   "rb_shape_get_capsule", "rb_shape_get_box", "rb_shape_get_plane",
                                   "rb_shape_get_local_transform", "rb_shape_get_aabb", "rb_shape_set_user_data"};
    st->op_name = names[g];
    union {
        rb_shape_type t;
        rb_body_id b;
        rb_sphere sp;
        rb_capsule ca;
        rb_box bx;
        rb_plane pl;
        rb_transform xf;
        rb_vec3 v;
    } o;
    rb_vec3 upper;
    void *out = null_out ? NULL : &o;
    bool wrong_type = false, unsupported = false;
    switch (g) {
    case 0: s = rb_shape_get_type(id, out); break;
    case 1: s = rb_shape_get_body(id, out); break;
    case 2: s = rb_shape_get_sphere(id, out); wrong_type = type != RB_SHAPE_SPHERE; break;
    case 3: s = rb_shape_get_capsule(id, out); wrong_type = type != RB_SHAPE_CAPSULE; break;
    case 4: s = rb_shape_get_box(id, out); wrong_type = type != RB_SHAPE_BOX; break;
    case 5: s = rb_shape_get_plane(id, out); wrong_type = type != RB_SHAPE_PLANE; break;
    case 6: s = rb_shape_get_local_transform(id, out); break;
    case 7: {
        bool upper_null = flag(in);
        s = rb_shape_get_aabb(id, out, upper_null ? NULL : &upper);
        null_out |= upper_null;
        unsupported = type == RB_SHAPE_PLANE;
        if (s == RB_OK)
            CHECK(st, fz_finite3(o.v) && fz_finite3(upper) && o.v.x <= upper.x && o.v.y <= upper.y && o.v.z <= upper.z,
                  "bounding box (%g, %g, %g) - (%g, %g, %g)", o.v.x, o.v.y, o.v.z, upper.x, upper.y, upper.z);
        break;
    }
    default: {
        void *p = (void *)(uintptr_t)(u32(in) | 1u);
        s = result(st, rb_shape_set_user_data(id, p), err);
        CHECK(st, (s == RB_OK) == live, "set_user_data: %s", rb_status_string(s));
        CHECK(st, rb_shape_get_user_data(id) == (live ? p : NULL), "user data");
        return;
    }
    }
    s = result(st, s, err);
    if (!live)
        CHECK(st, s == RB_ERR_STALE_ID, "a stale shape id: %s", rb_status_string(s));
    else if (null_out || wrong_type)
        CHECK(st, s == RB_ERR_INVALID_ARGUMENT, "a NULL output or the wrong geometry: %s", rb_status_string(s));
    else if (unsupported)
        CHECK(st, s == RB_ERR_UNSUPPORTED, "the bounding box of a plane: %s", rb_status_string(s));
    else
        CHECK(st, s == RB_OK, "a live shape and an output: %s (%s)", rb_status_string(s), rb_last_error(err));
}

static int pick_world(state *st, input *in, rb_world_id *id)
{
    uint8_t s = u8(in);
    if (s < 248) {
        int k = s % NWORLDS;
        *id = st->worlds[k].id;
        return st->worlds[k].live ? k : -1;
    }
    if (s % 2) {
        *id = rb_null_world_id;
        return -1;
    }
    id->index1 = (uint16_t)u32(in);
    id->generation = (uint16_t)u8(in);
    for (int k = 0; k < NWORLDS; ++k)
        if (st->worlds[k].live && st->worlds[k].id.index1 == id->index1 && st->worlds[k].id.generation == id->generation)
            return k;
    return -1;
}

static void op_world_settings(state *st, input *in)
{
    rb_world_id id;
    int k = pick_world(st, in, &id);
    bool live = k >= 0;
    rb_world_id err = error_world(st, k);
    rb_status s;
    rb_world_def before;
    memset(&before, 0, sizeof before);
    if (live)
        CHECK(st, rb_world_get_def(id, &before) == RB_OK, "rb_world_get_def");
    switch (u8(in) % 8) {
    case 0: {
        st->op_name = "rb_world_set_gravity";
        rb_vec3 g = vec(in);
        st->sentinel_gravity = is_sentinel_gravity(g);
        s = result(st, rb_world_set_gravity(id, g), err);
        must_fail(st, !live || !fz_finite3(g), s, "a NaN gravity or a stale world");
        rb_vec3 got;
        if (s == RB_OK)
            CHECK(st, rb_world_get_gravity(id, &got) == RB_OK && memcmp(&got, &g, sizeof g) == 0, "gravity");
        break;
    }
    case 1: {
        st->op_name = "rb_world_set_time_step";
        float h = u8(in) % 2 ? fnum(in) : 1.0f / 60.0f;
        int n = u8(in) % 2 ? inum(in) : (int)(u8(in) % 9);
        s = result(st, rb_world_set_time_step(id, h, n), err);
        must_fail(st, !live || !(h > 0.0f) || !isfinite(h) || n < 0 || n > 64, s, "a time step <= 0, substeps outside [0, 64]");
        float got_h = 0.0f;
        int got_n = -1;
        if (s == RB_OK)
            // substeps read back in effect: 0 (the solver's choice) reads as that choice
            CHECK(st, rb_world_get_time_step(id, &got_h, &got_n) == RB_OK && got_h == h &&
                          (n == 0 ? got_n >= 1 && got_n <= 64 : got_n == n),
                  "set time step %g, %d substeps; reads %g, %d", h, n, got_h, got_n);
        break;
    }
    case 2: {
        st->op_name = "rb_world_set_iterations";
        int a = u8(in) % 2 ? inum(in) : (int)(u8(in) % 12), b = u8(in) % 2 ? inum(in) : (int)(u8(in) % 6);
        s = result(st, rb_world_set_iterations(id, a, b), err);
        must_fail(st, !live || a < 1 || a > 1000 || b < 0 || b > 1000, s, "iterations outside [1, 1000] or [0, 1000]");
        rb_world_def d;
        if (s == RB_OK)
            CHECK(st, rb_world_get_def(id, &d) == RB_OK && d.iterations == a && d.position_iterations == b, "iterations");
        break;
    }
    case 3: {
        st->op_name = "rb_world_set_solver";
        int v = (int)(u8(in) % 7) - 1;
        s = result(st, rb_world_set_solver(id, (rb_solver)v), err);
        must_fail(st, !live || v < 0 || v > RB_SOLVER_SOFT, s, "an unknown solver");
        rb_world_def d;
        if (s == RB_OK)
            CHECK(st, rb_world_get_def(id, &d) == RB_OK && d.solver != RB_SOLVER_DEFAULT &&
                          (v == RB_SOLVER_DEFAULT || d.solver == (rb_solver)v),
                  "set solver %d, reads %d", v, d.solver);
        break;
    }
    case 4: {
        st->op_name = "rb_world_set_sequential";
        rb_sequential_def q;
        if (live)
            q = before.sequential;
        else
            q = rb_default_world_def().sequential;
        float f = fnum(in);
        int n = inum(in);
        bool bad = false;
        switch (u8(in) % 16) {
        case 0: q.penetration_threshold = f; bad = !(f >= 0.0f) || !isfinite(f); break;
        case 1: q.remaining_penetration = f; bad = !(f > 0.0f && f < 1.0f); break;
        case 2: q.resolution_threshold = f; bad = !(f >= 0.0f) || !isfinite(f); break;
        case 3: q.sleep_threshold = f; bad = !(f >= 0.0f) || !isfinite(f); break;
        case 4: q.sleep_bias = f; bad = !(f >= 0.0f && f < 1.0f); break;
        case 5: q.sleep_motion_max = f; bad = !(f >= 0.0f) || !isfinite(f); break;
        case 6: q.gravity_damping = f; bad = !(f >= 0.0f && f <= 1.0f); break;
        case 7: q.gravity_damping_threshold = f; bad = !(f >= 0.0f) || !isfinite(f); break;
        case 8: q.max_iterations = f; bad = !(f > 0.0f && f <= 1e6f); break;
        case 9: q.shock_iterations = f; bad = !(f > 0.0f && f <= 1e6f); break;
        case 10: q.settle_iterations = f; bad = !(f >= 0.0f && f <= 1e6f); break;
        case 11: q.heap_threshold = n; bad = n < 0; break;
        case 12: q.large_batch = n; bad = n < 0; break;
        case 13: q.split_contacts = n; bad = n < 0; break;
        case 14: q.shock_propagation = flag(in); q.warm_start = flag(in); break;
        default: break;
        }
        bool null_def = rarely(in);
        s = result(st, rb_world_set_sequential(id, null_def ? NULL : &q), err);
        must_fail(st, !live || null_def || bad, s, "a sequential setting outside its documented range");
        break;
    }
    case 5: {
        st->op_name = "rb_world_enable_sleep";
        bool on = flag(in);
        s = result(st, rb_world_enable_sleep(id, on), err);
        CHECK(st, (s == RB_OK) == live, "enable_sleep: %s", rb_status_string(s));
        break;
    }
    case 6: {
        st->op_name = "rb_world_set_restitution_threshold";
        float v = fnum(in);
        s = result(st, rb_world_set_restitution_threshold(id, v), err);
        must_fail(st, !live || !(v >= 0.0f) || !isfinite(v), s, "a NaN or negative restitution threshold");
        break;
    }
    default: {
        bool null_out = flag(in);
        int g = u8(in) % 5;
        static const char *names[5] = {"rb_world_get_def", "rb_world_get_info", "rb_world_get_profile",
                                       "rb_world_get_counters", "rb_world_get_gravity"};
        st->op_name = names[g];
        union {
            rb_world_def d;
            rb_world_info i;
            rb_profile p;
            rb_counters c;
            rb_vec3 g;
        } o;
        void *out = null_out ? NULL : &o;
        s = g == 0 ? rb_world_get_def(id, out)
            : g == 1 ? rb_world_get_info(id, out)
            : g == 2 ? rb_world_get_profile(id, out)
            : g == 3 ? rb_world_get_counters(id, out) : rb_world_get_gravity(id, out);
        s = result(st, s, err);
        if (!live)
            CHECK(st, s == RB_ERR_STALE_ID, "a stale world id: %s", rb_status_string(s));
        else
            CHECK(st, s == (null_out ? RB_ERR_INVALID_ARGUMENT : RB_OK), "a live world, output %s: %s",
                  null_out ? "NULL" : "given", rb_status_string(s));
        if (s == RB_OK && g == 1)
            CHECK(st, o.i.backend && strcmp(o.i.backend, "cpu") == 0 && o.i.threads == 1, "world info");
        const char *name = rb_world_backend_name(id);
        CHECK(st, !live || (name && strcmp(name, "cpu") == 0), "backend name");
        return;
    }
    }
    if (!live)
        CHECK(st, s == RB_ERR_STALE_ID, "a setter on a stale world: %s", rb_status_string(s));
    st->mutated |= s == RB_OK;
}

// Bulk access over slot ranges: success exactly when the range lies in [0, body_slots), every slot
// in it holds a live body, the buffer is given and (for the setters) the values are valid.
static void op_bulk(state *st, input *in)
{
    rb_world_id id;
    int k = pick_world(st, in, &id);
    bool live = k >= 0;
    rb_world_id err = error_world(st, k);
    int slots = 0;
    if (live) {
        rb_counters c;
        CHECK(st, rb_world_get_counters(id, &c) == RB_OK, "counters");
        slots = c.body_slots;
    }
    int first = u8(in) % 4 ? (int)(u8(in) % 8) : inum(in);
    int count = u8(in) % 4 ? (int)(u8(in) % 16) : inum(in);
    if (u8(in) % 4 == 0 && live) { // the whole world, often what an application asks for
        first = 0;
        count = slots;
    }
    bool range = count >= 0 && first >= 0 && (int64_t)first + count <= slots;
    bool all_live = range;
    bool any_static = false;
    for (int s = first; range && s < first + count; ++s) {
        int b = body_in_slot(st, k, s);
        all_live &= b >= 0;
        any_static |= b >= 0 && st->bodies[b].type == RB_BODY_STATIC;
    }
    bool null_a = rarely(in), null_b = flag(in);
    rb_status s;
    int which = u8(in) % 5;
    bool expect_ok = live && range && all_live;
    switch (which) {
    case 0:
        st->op_name = "rb_world_get_transforms";
        s = rb_world_get_transforms(id, first, count, null_a ? NULL : st->xf);
        expect_ok &= count == 0 || !null_a;
        if (s == RB_OK)
            for (int j = 0; j < count; ++j)
                CHECK(st, fz_finite3(st->xf[j].p) && fz_unit_quat(st->xf[j].q), "transform %d", j);
        break;
    case 1: {
        st->op_name = "rb_world_set_transforms";
        bool poison = rarely(in);
        rb_status g = live && range && all_live ? rb_world_get_transforms(id, first, count, st->xf) : RB_ERR_STALE_ID;
        if (g != RB_OK) {
            for (int j = 0; j < (count > 0 && count <= BUF ? count : 0); ++j) {
                st->xf[j].p = vec(in);
                st->xf[j].q = quat(in);
            }
        }
        if (poison && count > 0 && count <= BUF)
            st->xf[u8(in) % count].p.y = NAN;
        bool valid = true;
        for (int j = 0; j < count && j < BUF && range; ++j) {
            rb_quat q = st->xf[j].q;
            float l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
            valid &= fz_finite3(st->xf[j].p) && isfinite(l2) && l2 > 0.81f && l2 < 1.21f;
        }
        s = rb_world_set_transforms(id, first, count, null_a ? NULL : st->xf);
        expect_ok &= (count == 0 || !null_a) && valid;
        break;
    }
    case 2:
        st->op_name = "rb_world_get_velocities";
        s = rb_world_get_velocities(id, first, count, null_a ? NULL : st->v, null_b ? NULL : st->w);
        expect_ok &= count == 0 || !null_a || !null_b;
        break;
    case 3: {
        st->op_name = "rb_world_set_velocities";
        for (int j = 0; j < BUF; ++j) {
            st->v[j] = (rb_vec3){0.0f, (float)j * 0.01f, 0.0f};
            st->w[j] = (rb_vec3){0.0f, 0.0f, 0.0f};
        }
        bool finite = true;
        if (count > 0 && count <= BUF && !flag(in)) {
            st->v[u8(in) % count] = vec(in);
            for (int j = 0; j < count; ++j)
                finite &= fz_finite3(st->v[j]);
        }
        s = rb_world_set_velocities(id, first, count, null_a ? NULL : st->v, null_b ? NULL : st->w);
        expect_ok &= (count == 0 || !null_a || !null_b) && (null_a || finite) && !any_static;
        break;
    }
    default:
        st->op_name = "rb_world_get_awake";
        s = rb_world_get_awake(id, first, count, null_a ? NULL : st->awake);
        expect_ok &= count == 0 || !null_a;
        break;
    }
    s = result(st, s, err);
    st->mutated |= s == RB_OK && (which == 1 || which == 3);
    CHECK(st, (s == RB_OK) == expect_ok, "[%d, %d + %d) of %d slots (all live: %d, static among them: %d): %s (%s)",
          first, first, count, slots, all_live, any_static, rb_status_string(s), s ? rb_last_error(err) : "");
    if (!live)
        CHECK(st, s == RB_ERR_STALE_ID, "a stale world id: %s", rb_status_string(s));
}

static void check_contacts(state *st, const rb_contact *k, int n)
{
    for (int i = 0; i < n; ++i) {
        rb_body_id ba, bb;
        CHECK(st, rb_shape_get_body(k[i].shape_a, &ba) == RB_OK && rb_body_equal(ba, k[i].body_a) &&
                      rb_shape_get_body(k[i].shape_b, &bb) == RB_OK && rb_body_equal(bb, k[i].body_b),
              "contact %d names shapes and bodies that do not belong together", i);
        rb_shape_type ta = RB_SHAPE_SPHERE, tb = RB_SHAPE_SPHERE;
        rb_transform xa, xb;
        memset(&xa, 0, sizeof xa);
        memset(&xb, 0, sizeof xb);
        rb_shape_get_type(k[i].shape_a, &ta);
        rb_shape_get_type(k[i].shape_b, &tb);
        rb_body_get_transform(k[i].body_a, &xa);
        rb_body_get_transform(k[i].body_b, &xb);
        // also far from the origin, against planes given huge normals, and after a step that froze bodies
        CHECK(st, fz_unit3(k[i].normal) && isfinite(k[i].depth) &&
                      isfinite(k[i].normal_impulse) && fz_finite3(k[i].friction_impulse),
              "contact %d between shape types %d and %d (bodies at (%g, %g, %g) and (%g, %g, %g)): point (%g, %g, %g), "
              "normal (%g, %g, %g), depth %g, impulse %g, friction impulse (%g, %g, %g)",
              i, ta, tb, xa.p.x, xa.p.y, xa.p.z, xb.p.x, xb.p.y, xb.p.z, k[i].point.x, k[i].point.y, k[i].point.z,
              k[i].normal.x, k[i].normal.y, k[i].normal.z, k[i].depth, k[i].normal_impulse, k[i].friction_impulse.x,
              k[i].friction_impulse.y, k[i].friction_impulse.z);
    }
}

static void op_contacts(state *st, input *in)
{
    rb_world_id id;
    int k = pick_world(st, in, &id);
    bool live = k >= 0;
    rb_world_id err = error_world(st, k);
    bool pairs = flag(in), null_out = rarely(in);
    int n = -1;
    st->op_name = pairs ? "rb_world_get_pair_count" : "rb_world_get_contact_count";
    rb_status s = result(st, pairs ? rb_world_get_pair_count(id, null_out ? NULL : &n)
                                   : rb_world_get_contact_count(id, null_out ? NULL : &n),
                         err);
    CHECK(st, s == (!live ? RB_ERR_STALE_ID : null_out ? RB_ERR_INVALID_ARGUMENT : RB_OK), "%s", rb_status_string(s));
    if (!live || null_out)
        return;
    CHECK(st, n >= 0, "count %d", n);
    int first = u8(in) % 4 ? 0 : inum(in);
    int count = u8(in) % 4 ? n : inum(in);
    if (u8(in) % 2 && n > 0) {
        first = u8(in) % n;
        count = u8(in) % (n - first + 1);
    }
    static rb_contact contacts[64];
    static rb_shape_pair pair_buf[64];
    bool null_buf = rarely(in) || count > 64;
    bool expect_ok = first >= 0 && count >= 0 && (int64_t)first + count <= n && !null_buf;
    if (pairs) {
        st->op_name = "rb_world_get_pairs";
        s = result(st, rb_world_get_pairs(id, first, count, null_buf ? NULL : pair_buf), err);
    } else {
        st->op_name = "rb_world_get_contacts";
        s = result(st, rb_world_get_contacts(id, first, count, null_buf ? NULL : contacts), err);
    }
    // a NULL buffer for no entries may go either way
    if (!(null_buf && count == 0))
        CHECK(st, (s == RB_OK) == expect_ok, "[%d, %d + %d) of %d, buffer %s: %s", first, first, count, n,
              null_buf ? "NULL" : "given", rb_status_string(s));
    if (s == RB_OK && !null_buf) {
        if (pairs) {
            for (int j = 0; j < count; ++j)
                CHECK(st, rb_shape_is_valid(pair_buf[j].shape_a) && rb_shape_is_valid(pair_buf[j].shape_b) &&
                              pair_buf[j].shape_a.index1 < pair_buf[j].shape_b.index1,
                      "pair %d: shapes %d, %d", first + j, pair_buf[j].shape_a.index1, pair_buf[j].shape_b.index1);
        } else {
            check_contacts(st, contacts, count);
        }
    }
}

static void op_ray(state *st, input *in)
{
    st->op_name = "rb_world_cast_ray";
    rb_world_id id;
    int k = pick_world(st, in, &id);
    bool live = k >= 0;
    rb_vec3 o = vec(in), d = vec(in);
    uint32_t mask = u8(in) % 2 ? 0xffffffffu : u32(in);
    bool null_out = rarely(in);
    rb_ray_hit hit;
    rb_status s = result(st, rb_world_cast_ray(id, o, d, mask, null_out ? NULL : &hit), error_world(st, k));
    must_fail(st, !live || null_out || !fz_finite3(o) || !fz_finite3(d), s, "a NaN ray, NULL output or stale world");
    if (s != RB_OK)
        return;
    if (!hit.hit) {
        CHECK(st, hit.fraction == 0.0f && hit.body.index1 == 0 && hit.shape.index1 == 0, "a miss with fields set");
        return;
    }
    rb_body_id b;
    CHECK(st, hit.fraction >= 0.0f && hit.fraction <= 1.0f && fz_finite3(hit.point) && fz_unit3(hit.normal),
          "hit at fraction %g, point (%g, %g, %g), normal (%g, %g, %g)", hit.fraction, hit.point.x, hit.point.y,
          hit.point.z, hit.normal.x, hit.normal.y, hit.normal.z);
    CHECK(st, rb_shape_get_body(hit.shape, &b) == RB_OK && rb_body_equal(b, hit.body),
          "the hit shape does not belong to the hit body");
}

static void op_body_id(state *st, input *in)
{
    st->op_name = "rb_world_get_body_id";
    rb_world_id id;
    int k = pick_world(st, in, &id);
    int slot = u8(in) % 2 ? (int)(u8(in) % 16) : inum(in);
    bool null_out = rarely(in);
    rb_body_id got = rb_null_body_id;
    rb_status s = result(st, rb_world_get_body_id(id, slot, null_out ? NULL : &got), error_world(st, k));
    int b = k >= 0 ? body_in_slot(st, k, slot) : -1;
    if (k < 0)
        CHECK(st, s == RB_ERR_STALE_ID, "a stale world: %s", rb_status_string(s));
    else if (!null_out)
        CHECK(st, (s == RB_OK) == (b >= 0), "slot %d (model body %d): %s", slot, b, rb_status_string(s));
    else
        CHECK(st, s != RB_OK, "a NULL output was accepted");
    if (s == RB_OK)
        CHECK(st, rb_body_equal(got, st->bodies[b].id), "slot %d gives body id %d, model %d", slot, got.index1,
              st->bodies[b].id.index1);
}

// Forged ids: a call succeeds exactly when rb_*_is_valid says the id is live.
static void op_forged(state *st, input *in)
{
    st->op_name = "forged ids";
    // one read per statement: the order of reads in an initializer list is unspecified
    rb_body_id b;
    b.index1 = inum(in);
    b.world0 = (uint16_t)(u8(in) % 4);
    b.generation = (uint16_t)(u8(in) % 4);
    rb_shape_id sh;
    sh.index1 = inum(in);
    sh.world0 = (uint16_t)(u8(in) % 4);
    sh.generation = (uint16_t)(u8(in) % 4);
    rb_world_id w;
    w.index1 = (uint16_t)(u8(in) % 4);
    w.generation = (uint16_t)(u8(in) % 4);
    rb_body_type t;
    rb_shape_type ts;
    rb_counters c;
    rb_status s = result(st, rb_body_get_type(b, &t), body_error_world(st, b));
    CHECK(st, (s == RB_OK) == rb_body_is_valid(b), "forged body id %d/%u/%u: %s", b.index1, b.world0, b.generation,
          rb_status_string(s));
    s = result(st, rb_shape_get_type(sh, &ts), shape_error_world(st, sh));
    CHECK(st, (s == RB_OK) == rb_shape_is_valid(sh), "forged shape id: %s", rb_status_string(s));
    s = result(st, rb_world_get_counters(w, &c), rb_null_world_id);
    CHECK(st, (s == RB_OK) == rb_world_is_valid(w), "forged world id %u/%u: %s", w.index1, w.generation,
          rb_status_string(s));
}

static void op_misc(state *st, input *in)
{
    st->op_name = "names and rotations";
    int v = inum(in);
    CHECK(st, rb_status_string((rb_status)v) != NULL && rb_backend_name((rb_backend)v) != NULL &&
                  rb_solver_name((rb_solver)v) != NULL && rb_version_string() != NULL,
          "a name function returned NULL for %d", v);
    char name[12];
    size_t len = u8(in) % sizeof name;
    for (size_t i = 0; i < len; ++i)
        name[i] = (char)(u8(in) % 2 ? "cpuautoopenclcudabatchedsoftsplitsequentialdefault"[u8(in) % 49] : (char)u8(in));
    name[len] = '\0';
    rb_backend backend;
    rb_solver solver;
    bool null_name = rarely(in), null_out = rarely(in);
    rb_status s = result(st, rb_backend_from_name(null_name ? NULL : name, null_out ? NULL : &backend), rb_null_world_id);
    must_fail(st, null_name || null_out, s, "a NULL name or output");
    if (s == RB_OK)
        CHECK(st, strcasecmp(rb_backend_name(backend), name) == 0, "'%s' parses as backend %d, named '%s'", name,
              (int)backend, rb_backend_name(backend));
    s = result(st, rb_solver_from_name(null_name ? NULL : name, null_out ? NULL : &solver), rb_null_world_id);
    must_fail(st, null_name || null_out, s, "a NULL name or output");
    if (s == RB_OK)
        CHECK(st, strcasecmp(rb_solver_name(solver), name) == 0, "'%s' parses as solver %d, named '%s'", name,
              (int)solver, rb_solver_name(solver));
    rb_vec3 axis = vec(in);
    float angle = fnum(in);
    rb_quat q = rb_quat_from_axis_angle(axis, angle);
    float l2 = axis.x * axis.x + axis.y * axis.y + axis.z * axis.z;
    // a finite, representable axis and angle give a unit rotation; a zero axis the identity
    if (fz_finite3(axis) && isfinite(angle) && isfinite(l2) && l2 > 1e-30f)
        CHECK(st, fz_unit_quat(q), "rb_quat_from_axis_angle((%g, %g, %g), %g) = (%g, %g, %g, %g)", axis.x, axis.y,
              axis.z, angle, q.x, q.y, q.z, q.w);
    if (axis.x == 0.0f && axis.y == 0.0f && axis.z == 0.0f)
        CHECK(st, q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 1.0f, "a zero axis does not give the identity");
}

static void op_shift_origin(state *st, input *in)
{
    st->op_name = "rb_world_shift_origin";
    rb_world_id id;
    int k = pick_world(st, in, &id);
    rb_vec3 o = vec(in);
    // where every body was: the shift moves each by -o (to within rounding)
    int n = 0;
    for (int i = 0; i < st->nb; ++i) {
        if (st->bodies[i].live && st->bodies[i].world == k && n < BUF) {
            CHECK(st, rb_body_get_transform(st->bodies[i].id, &st->xf[n]) == RB_OK, "transform");
            ++n;
        }
    }
    rb_status s = result(st, rb_world_shift_origin(id, o), error_world(st, k));
    must_fail(st, k < 0 || !fz_finite3(o), s, "a NaN origin or a stale world");
    if (s != RB_OK)
        return;
    st->mutated = true;
    n = 0;
    for (int i = 0; i < st->nb; ++i) {
        if (!st->bodies[i].live || st->bodies[i].world != k || n >= BUF)
            continue;
        rb_transform t;
        rb_mass_data m;
        CHECK(st, rb_body_get_transform(st->bodies[i].id, &t) == RB_OK && rb_body_get_mass_data(st->bodies[i].id, &m) == RB_OK,
              "getters");
        rb_vec3 p = st->xf[n++].p;
        float tol = 8e-6f * (max_abs3(p) + max_abs3(o) + max_abs3(m.center) + 1.0f);
        CHECK(st, fabsf(t.p.x - (p.x - o.x)) <= tol && fabsf(t.p.y - (p.y - o.y)) <= tol && fabsf(t.p.z - (p.z - o.z)) <= tol,
              "shifting the origin to (%g, %g, %g) moved body %d from (%g, %g, %g) to (%g, %g, %g)", o.x, o.y, o.z, i,
              p.x, p.y, p.z, t.p.x, t.p.y, t.p.z);
    }
}

// Steps, a few per input; settings that make a step expensive by design are brought down first.
static void op_step(state *st, input *in)
{
    st->op_name = "rb_world_step";
    rb_world_id id;
    int k = pick_world(st, in, &id);
    if (st->steps == MAX_STEPS)
        return;
    ++st->steps;
    if (k >= 0) {
        rb_world_def d;
        CHECK(st, rb_world_get_def(id, &d) == RB_OK, "get_def");
        if (d.substeps > 4 || d.iterations > 10 || d.position_iterations > 10) {
            st->op_name = "rb_world_set_time_step / set_iterations before a step";
            CHECK(st, rb_world_set_time_step(id, d.time_step, d.substeps > 4 ? 4 : d.substeps) == RB_OK &&
                          rb_world_set_iterations(id, d.iterations > 10 ? 10 : d.iterations,
                                                  d.position_iterations > 10 ? 10 : d.position_iterations) == RB_OK,
                      "valid settings refused: %s", rb_last_error(id));
        }
        rb_sequential_def q = d.sequential;
        if (q.max_iterations > 2.0f || q.shock_iterations > 2.0f || q.settle_iterations > 1.0f) {
            q.max_iterations = fminf(q.max_iterations, 2.0f);
            q.shock_iterations = fminf(q.shock_iterations, 2.0f);
            q.settle_iterations = fminf(q.settle_iterations, 1.0f);
            CHECK(st, rb_world_set_sequential(id, &q) == RB_OK, "valid settings refused: %s", rb_last_error(id));
        }
        st->op_name = "rb_world_step";
    }
    digest before;
    take_digest(st, &before);
    rb_status s = result(st, rb_world_step(id), error_world(st, k));
    if (st->trace)
        fprintf(stderr, "  step: %s %s\n", rb_status_string(s), s != RB_OK ? rb_last_error(error_world(st, k)) : "");
    if (k < 0) {
        CHECK(st, s == RB_ERR_STALE_ID, "stepping a stale world: %s", rb_status_string(s));
        return;
    }
    CHECK(st, s == RB_OK || s == RB_ERR_NUMERIC || s == RB_ERR_CAPACITY || s == RB_ERR_OUT_OF_MEMORY, "step: %s: %s",
          rb_status_string(s), rb_last_error(id));
    // a failed step leaves the bodies as they were (the pair budget, memory: docs/limits.md)
    if (s == RB_ERR_CAPACITY || s == RB_ERR_OUT_OF_MEMORY)
        check_unchanged(st, &before);
    // every position finite (a body that went non-finite was put back and frozen)
    for (int i = 0; i < st->nb; ++i)
        if (st->bodies[i].live && st->bodies[i].world == k)
            check_body(st, i);
}

typedef void (*op_fn)(state *, input *);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static state st_storage;
    state *st = &st_storage;
    memset(st, 0, sizeof *st);
    input in = {data, size};
    st->op_name = "setup";
    rb_world_def d = world_def((rb_solver)(u8(&in) % 5));
    FZ_CHECK(rb_create_world(&d, &st->worlds[0].id) == RB_OK, "rb_create_world: %s", rb_last_error(rb_null_world_id));
    st->worlds[0].live = true;

    static const struct {
        op_fn fn;
        bool compare; // unless the op says it changed something, the world is as it was before
    } ops[] = {
        {op_create_body, true}, {op_create_body, true}, {op_create_shape, true}, {op_create_shape, true},
        {op_destroy_body, true}, {op_destroy_shape, true}, {op_body_motion, true}, {op_body_motion, true},
        {op_body_getters, true}, {op_shape_calls, true}, {op_world_settings, true}, {op_bulk, true},
        {op_contacts, true}, {op_ray, true}, {op_body_id, true}, {op_forged, true},
        {op_misc, true}, {op_world_life, false}, {op_step, false}, {op_shift_origin, true},
    };
    const int nops = (int)(sizeof ops / sizeof ops[0]);
    // RUBBLE_FUZZ_TRACE=1 lists the calls an input makes (to read a reproducer)
    st->trace = getenv("RUBBLE_FUZZ_TRACE") != NULL;
    for (st->op = 0; st->op < MAX_OPS && in.n > 0; ++st->op) {
        int o = u8(&in) % nops;
        plant_sentinel(st);
        // the digest reads every body: for the larger worlds, only around every 8th call
        bool compare = ops[o].compare && (live_bodies(st, 0) + live_bodies(st, 1) <= 32 || st->op % 8 == 0);
        digest before;
        if (compare)
            take_digest(st, &before);
        st->mutated = false;
        st->op_name = "?";
        ops[o].fn(st, &in);
        if (st->trace) {
            fprintf(stderr, "op %d: %s%s; awake:", st->op, st->op_name, st->mutated ? " (changed the world)" : "");
            for (int i = 0; i < st->nb; ++i) {
                bool awake = false;
                if (st->bodies[i].live && rb_body_is_awake(st->bodies[i].id, &awake) == RB_OK)
                    fprintf(stderr, " %d", awake);
                else
                    fprintf(stderr, " -");
            }
            fprintf(stderr, "\n");
        }
        // getters change nothing; a setter or constructor that failed changed nothing either
        if (compare && !st->mutated)
            check_unchanged(st, &before);
        check_model(st);
    }
    for (int k = 0; k < NWORLDS; ++k)
        if (st->worlds[k].live)
            FZ_CHECK(rb_destroy_world(st->worlds[k].id) == RB_OK, "rb_destroy_world");
    return 0;
}
