// Generators of bodies: grids, pyramids, pens, rocks with hulls of their own, and the jointed ragdolls and
// chains (see scene_generators.h).
#include <math.h>
#include <stdlib.h>

#include "scene_generators.h"
#include "world.h"

double rb_lcg_next(rb_lcg *g)
{
    g->state = g->state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g->state >> 11) * (1.0 / 9007199254740992.0);
}

rb_status rb_body_list_push(rb_body_list *l, rb_body_id id)
{
    if (l->count == l->capacity) {
        int cap = l->capacity ? l->capacity * 2 : 256;
        rb_body_id *p = realloc(l->ids, (size_t)cap * sizeof *p);
        if (!p)
            return rb_fail_global(RB_ERR_OUT_OF_MEMORY, "out of memory recording created bodies");
        l->ids = p;
        l->capacity = cap;
    }
    l->ids[l->count++] = id;
    return RB_OK;
}

void rb_body_list_free(rb_body_list *l)
{
    free(l->ids);
    l->ids = NULL;
    l->count = l->capacity = 0;
}

void rb_body_list_destroy_all(rb_body_list *l)
{
    // newest first, so freed slots return to the free list in the order they were taken
    for (int i = l->count - 1; i >= 0; --i)
        rb_destroy_body(l->ids[i]);
    rb_body_list_free(l);
}

static rb_status joint_list_push(rb_joint_list *l, rb_joint_id id)
{
    if (l->count == l->capacity) {
        int cap = l->capacity ? l->capacity * 2 : 64;
        rb_joint_id *p = realloc(l->ids, (size_t)cap * sizeof *p);
        if (!p)
            return rb_fail_global(RB_ERR_OUT_OF_MEMORY, "out of memory recording created joints");
        l->ids = p;
        l->capacity = cap;
    }
    l->ids[l->count++] = id;
    return RB_OK;
}

void rb_joint_list_free(rb_joint_list *l)
{
    free(l->ids);
    l->ids = NULL;
    l->count = l->capacity = 0;
}

void rb_joint_list_destroy_all(rb_joint_list *l)
{
    for (int i = l->count - 1; i >= 0; --i)
        rb_destroy_joint(l->ids[i]);
    rb_joint_list_free(l);
}

rb_status rb_generate_joint(rb_world_id w, const rb_joint_def *def, rb_joint_list *created)
{
    rb_joint_id id;
    rb_status s = rb_create_joint(w, def, &id);
    if (s != RB_OK)
        return s;
    if ((s = joint_list_push(created, id)) != RB_OK)
        rb_destroy_joint(id);
    return s;
}

static rb_status add_shape(rb_body_id body, const rb_gen_shape *shape)
{
    rb_shape_id sid;
    switch (shape->type) {
    case RB_SHAPE_SPHERE: {
        rb_sphere s = {shape->radius};
        return rb_create_sphere_shape(body, &shape->def, &s, &sid);
    }
    case RB_SHAPE_CAPSULE: {
        rb_capsule c = {shape->half_length, shape->radius};
        return rb_create_capsule_shape(body, &shape->def, &c, &sid);
    }
    case RB_SHAPE_BOX: {
        rb_box b = {shape->half_extents};
        return rb_create_box_shape(body, &shape->def, &b, &sid);
    }
    case RB_SHAPE_CONVEX:
        return rb_create_convex_shape(body, &shape->def, &shape->convex, &sid);
    case RB_SHAPE_PLANE:
        break;
    }
    return rb_fail_global(RB_ERR_INVALID_ARGUMENT,
                          "generated bodies take a sphere, capsule, box or convex, got shape type %d",
                          (int)shape->type);
}

rb_status rb_generate_body(rb_world_id w, const rb_body_def *body, const rb_gen_shape *shape, rb_body_list *created)
{
    rb_body_id id;
    rb_status s = rb_create_body(w, body, &id);
    if (s != RB_OK)
        return s;
    if ((s = rb_body_list_push(created, id)) != RB_OK) {
        rb_destroy_body(id);
        return s;
    }
    return add_shape(id, shape);
}

static rb_status check_count(long long n, const char *what)
{
    if (n < 0 || n > RB_MAX_GENERATED_BODIES)
        return rb_fail_global(RB_ERR_CAPACITY, "%s would create %lld bodies; the limit per generator is %d", what, n,
                              RB_MAX_GENERATED_BODIES);
    return RB_OK;
}

// A random axis-angle turn, four draws: axis = normalize(2u - 1, 2u - 1, 2u - 1) (x, y, z), angle = pi u;
// the identity when the axis is 0.
static rb_quat draw_rotation(rb_lcg *rng)
{
    double ax = 2.0 * rb_lcg_next(rng) - 1.0;
    double ay = 2.0 * rb_lcg_next(rng) - 1.0;
    double az = 2.0 * rb_lcg_next(rng) - 1.0;
    double angle = 3.14159265358979323846 * rb_lcg_next(rng);
    double len = sqrt(ax * ax + ay * ay + az * az);
    if (!(len > 0.0))
        return (rb_quat){0.0f, 0.0f, 0.0f, 1.0f};
    double sn = sin(0.5 * angle) / len;
    return (rb_quat){(float)(ax * sn), (float)(ay * sn), (float)(az * sn), (float)cos(0.5 * angle)};
}

rb_status rb_generate_grid(rb_world_id w, const rb_grid_spec *g, rb_lcg *rng, rb_body_list *created)
{
    for (int i = 0; i < 3; ++i)
        if (g->count[i] < 0)
            return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "grid count must be >= 0, got %d", g->count[i]);
    if (!(g->jitter.x >= 0.0f && g->jitter.y >= 0.0f && g->jitter.z >= 0.0f))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "grid jitter must be >= 0, got (%g, %g, %g)", g->jitter.x,
                              g->jitter.y, g->jitter.z);
    rb_vec3 vj = g->velocity_jitter;
    if (!(vj.x >= 0.0f && vj.y >= 0.0f && vj.z >= 0.0f && vj.x <= 1e6f && vj.y <= 1e6f && vj.z <= 1e6f))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "grid velocity_jitter must be in [0, 1e6] m/s, got (%g, %g, %g)",
                              vj.x, vj.y, vj.z);
    rb_status s = check_count((long long)g->count[0] * g->count[1] * g->count[2], "grid");
    if (s != RB_OK)
        return s;
    rb_body_def def = rb_default_body_def();
    def.type = g->body_type;
    def.mass = g->mass;
    for (int iy = 0; iy < g->count[1]; ++iy) {
        for (int ix = 0; ix < g->count[0]; ++ix) {
            for (int iz = 0; iz < g->count[2]; ++iz) {
                double jx = 0.0, jy = 0.0, jz = 0.0;
                if (g->jitter.x > 0.0f)
                    jx = (2.0 * rb_lcg_next(rng) - 1.0) * g->jitter.x;
                if (g->jitter.y > 0.0f)
                    jy = (2.0 * rb_lcg_next(rng) - 1.0) * g->jitter.y;
                if (g->jitter.z > 0.0f)
                    jz = (2.0 * rb_lcg_next(rng) - 1.0) * g->jitter.z;
                def.position.x = (float)(g->center.x + (ix - 0.5 * (g->count[0] - 1)) * g->spacing.x + jx);
                def.position.y = (float)(g->center.y + iy * (double)g->spacing.y + jy);
                def.position.z = (float)(g->center.z + (iz - 0.5 * (g->count[2] - 1)) * g->spacing.z + jz);
                def.rotation = g->random_rotation ? draw_rotation(rng) : (rb_quat){0.0f, 0.0f, 0.0f, 1.0f};
                def.linear_velocity = (rb_vec3){0.0f, 0.0f, 0.0f};
                if (vj.x > 0.0f)
                    def.linear_velocity.x = (float)((2.0 * rb_lcg_next(rng) - 1.0) * vj.x);
                if (vj.y > 0.0f)
                    def.linear_velocity.y = (float)((2.0 * rb_lcg_next(rng) - 1.0) * vj.y);
                if (vj.z > 0.0f)
                    def.linear_velocity.z = (float)((2.0 * rb_lcg_next(rng) - 1.0) * vj.z);
                if ((s = rb_generate_body(w, &def, &g->shape, created)) != RB_OK)
                    return s;
            }
        }
    }
    return RB_OK;
}

rb_status rb_generate_pyramid(rb_world_id w, const rb_pyramid_spec *p, rb_body_list *created)
{
    if (p->shape.type != RB_SHAPE_BOX)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "a pyramid is built of boxes");
    if (p->base < 0 || p->base > 100000)
        return rb_fail_global(p->base < 0 ? RB_ERR_INVALID_ARGUMENT : RB_ERR_CAPACITY,
                              "pyramid base must be in [0, 100000], got %d", p->base);
    rb_status s = check_count((long long)p->base * p->base * p->base / 3 + p->base * p->base, "pyramid");
    if (s != RB_OK)
        return s;
    rb_vec3 h = p->shape.half_extents;
    rb_body_def def = rb_default_body_def();
    def.type = p->body_type;
    def.mass = p->mass;
    for (int k = 0; k < p->base; ++k) {
        int n = p->base - k;
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                def.position.x = (float)(p->center.x + (i - 0.5 * (n - 1)) * 2.0 * h.x);
                def.position.y = (float)(p->center.y + h.y + 2.0 * h.y * k);
                def.position.z = (float)(p->center.z + (j - 0.5 * (n - 1)) * 2.0 * h.z);
                if ((s = rb_generate_body(w, &def, &p->shape, created)) != RB_OK)
                    return s;
            }
        }
    }
    return RB_OK;
}

rb_status rb_generate_pen(rb_world_id w, const rb_pen_spec *p, rb_body_list *created)
{
    if (!(p->half_width > 0.0f) || !(p->height > 0.0f) || !(p->thickness > 0.0f) || !isfinite(p->floor))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT,
                              "pen half_width, height and thickness must be > 0, got %g, %g, %g", p->half_width,
                              p->height, p->thickness);
    float t = 0.5f * p->thickness, len = p->half_width + p->thickness, hy = 0.5f * p->height;
    rb_gen_shape shape = {.type = RB_SHAPE_BOX, .def = p->def};
    rb_body_def def = rb_default_body_def();
    def.type = RB_BODY_STATIC;
    for (int side = 0; side < 4; ++side) {
        float sign = (side & 1) ? 1.0f : -1.0f;
        float offset = p->half_width + t;
        if (side < 2) { // normal to x
            def.position = (rb_vec3){sign * offset, p->floor + hy, 0.0f};
            shape.half_extents = (rb_vec3){t, hy, len};
        } else {
            def.position = (rb_vec3){0.0f, p->floor + hy, sign * offset};
            shape.half_extents = (rb_vec3){len, hy, t};
        }
        rb_status s = rb_generate_body(w, &def, &shape, created);
        if (s != RB_OK)
            return s;
    }
    return RB_OK;
}

rb_status rb_generate_ground(rb_world_id w, float height, const rb_shape_def *def, rb_body_list *created)
{
    rb_body_def bd = rb_default_body_def();
    rb_body_id id;
    rb_status s = rb_create_body(w, &bd, &id);
    if (s != RB_OK)
        return s;
    if ((s = rb_body_list_push(created, id)) != RB_OK) {
        rb_destroy_body(id);
        return s;
    }
    rb_plane plane = {{0.0f, 1.0f, 0.0f}, height};
    rb_shape_id sid;
    return rb_create_plane_shape(id, def, &plane, &sid);
}

// ---- hulls and rocks ----

static rb_status hull_list_push(rb_hull_list *l, rb_hull_id id)
{
    if (l->count == l->capacity) {
        int cap = l->capacity ? l->capacity * 2 : 64;
        rb_hull_id *p = realloc(l->ids, (size_t)cap * sizeof *p);
        if (!p)
            return rb_fail_global(RB_ERR_OUT_OF_MEMORY, "out of memory recording created hulls");
        l->ids = p;
        l->capacity = cap;
    }
    l->ids[l->count++] = id;
    return RB_OK;
}

void rb_hull_list_free(rb_hull_list *l)
{
    free(l->ids);
    l->ids = NULL;
    l->count = l->capacity = 0;
}

void rb_hull_list_destroy_all(rb_hull_list *l)
{
    // newest first: the pool closes each gap at its end, and the slots go back in the order they were taken
    for (int i = l->count - 1; i >= 0; --i)
        rb_destroy_hull(l->ids[i]);
    rb_hull_list_free(l);
}

rb_status rb_generate_hull(rb_world_id w, const rb_hull_def *def, rb_hull_list *created, rb_hull_id *out)
{
    rb_hull_id id;
    rb_status s = rb_compute_hull(w, def, &id);
    if (s != RB_OK)
        return s;
    if ((s = hull_list_push(created, id)) != RB_OK) {
        rb_destroy_hull(id);
        return s;
    }
    *out = id;
    return RB_OK;
}

void rb_draw_rock_points(rb_lcg *rng, int points, const double extents[3], rb_vec3 *out)
{
    // the arithmetic of bench/compare/rocks_scene.h's rocks_draw_body, in the same order (the project
    // builds with -ffp-contract=off, so no product is fused into a multiply-add there either)
    int half = points / 2;
    for (int j = 0; j < half; ++j) {
        double u1 = rb_lcg_next(rng);
        double u2 = rb_lcg_next(rng);
        double c = 2.0 * u1 - 1.0, s = sqrt(1.0 - c * c), phi = 2.0 * 3.14159265358979323846 * u2;
        double d[3] = {s * cos(phi), s * sin(phi), c};
        rb_vec3 p = {(float)(extents[0] * d[0]), (float)(extents[1] * d[1]), (float)(extents[2] * d[2])};
        out[j] = p;
        out[half + j] = (rb_vec3){-p.x, -p.y, -p.z};
    }
}

rb_status rb_generate_rocks(rb_world_id w, const rb_rocks_spec *g, rb_lcg *rng, rb_body_list *bodies,
                            rb_hull_list *hulls)
{
    for (int i = 0; i < 3; ++i)
        if (g->count[i] < 0)
            return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "rocks count must be >= 0, got %d", g->count[i]);
    if (g->points < RB_ROCK_MIN_POINTS || g->points > RB_ROCK_MAX_POINTS || g->points % 2 != 0)
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "rocks points must be an even number in [%d, %d], got %d",
                              RB_ROCK_MIN_POINTS, RB_ROCK_MAX_POINTS, g->points);
    for (int i = 0; i < 3; ++i)
        if (!(g->extents[i] > 0.0 && g->extents[i] <= 1e6))
            return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "rocks extents must be in (0, 1e6] m, got (%g, %g, %g)",
                                  g->extents[0], g->extents[1], g->extents[2]);
    rb_status s = check_count((long long)g->count[0] * g->count[1] * g->count[2], "rocks");
    if (s != RB_OK)
        return s;
    rb_body_def def = rb_default_body_def();
    def.type = g->body_type;
    def.mass = g->mass;
    rb_gen_shape shape = {.type = RB_SHAPE_CONVEX, .convex = {.radius = g->radius}, .def = g->def};
    rb_vec3 pts[RB_ROCK_MAX_POINTS];
    rb_hull_def hd = rb_default_hull_def();
    hd.points = pts;
    hd.count = g->points;
    // no welding: each rock is the exact hull of its drawn points (bench-scenes.md asks for the exact
    // solid's inertia; with the default 0.1 mm, 213 of the 4096 standard rocks merged near-coplanar faces)
    hd.weld_distance = 0.0f;
    for (int iy = 0; iy < g->count[1]; ++iy) {
        for (int ix = 0; ix < g->count[0]; ++ix) {
            for (int iz = 0; iz < g->count[2]; ++iz) {
                rb_draw_rock_points(rng, g->points, g->extents, pts);
                def.position.x = (float)(g->center.x + (ix - 0.5 * (g->count[0] - 1)) * g->spacing.x);
                def.position.y = (float)(g->center.y + iy * (double)g->spacing.y);
                def.position.z = (float)(g->center.z + (iz - 0.5 * (g->count[2] - 1)) * g->spacing.z);
                def.rotation = g->random_rotation ? draw_rotation(rng) : (rb_quat){0.0f, 0.0f, 0.0f, 1.0f};
                if ((s = rb_generate_hull(w, &hd, hulls, &shape.convex.hull)) != RB_OK ||
                    (s = rb_generate_body(w, &def, &shape, bodies)) != RB_OK)
                    return s;
            }
        }
    }
    return RB_OK;
}

// ---- jointed generators ----

// Small double-precision vectors and quaternions (x, y, z, w) for placing parts: the default pose
// (identity rotation) then gives exactly the positions of bench/compare/joint_scenes.h.
typedef struct gvec {
    double x, y, z;
} gvec;

typedef struct gquat {
    double x, y, z, w;
} gquat;

static gvec gv(double x, double y, double z) { return (gvec){x, y, z}; }
static gvec gv_of(rb_vec3 v) { return (gvec){v.x, v.y, v.z}; }
static rb_vec3 gv_out(gvec v) { return (rb_vec3){(float)v.x, (float)v.y, (float)v.z}; }
static gvec gv_add(gvec a, gvec b) { return gv(a.x + b.x, a.y + b.y, a.z + b.z); }
static gvec gv_scale(gvec a, double s) { return gv(a.x * s, a.y * s, a.z * s); }
static gvec gv_cross(gvec a, gvec b) { return gv(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }

static gquat gq_normalize(gquat q)
{
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return n > 0.0 ? (gquat){q.x / n, q.y / n, q.z / n, q.w / n} : (gquat){0.0, 0.0, 0.0, 1.0};
}

static gquat gq_mul(gquat a, gquat b)
{
    return (gquat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

// R(q) v with the diagonal as w² + x² - y² - z² (joint_scenes.h's scn_rotate): a term that is 0 in
// the exact rotation comes out exactly 0, so a turned ragdoll's hinge axes stay in their plane.
static gvec gq_rotate(gquat q, gvec v)
{
    double ww = q.w * q.w, xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z, wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    return gv((ww + xx - yy - zz) * v.x + 2.0 * (xy - wz) * v.y + 2.0 * (xz + wy) * v.z,
              2.0 * (xy + wz) * v.x + (ww - xx + yy - zz) * v.y + 2.0 * (yz - wx) * v.z,
              2.0 * (xz - wy) * v.x + 2.0 * (yz + wx) * v.y + (ww - xx - yy + zz) * v.z);
}

static rb_quat gq_out(gquat q) { return (rb_quat){(float)q.x, (float)q.y, (float)q.z, (float)q.w}; }

static bool finite_vec(rb_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

// Bullet's BenchmarkDemo ragdoll (class RagDoll) at scale 1, the demo's own numbers; docs/bench-scenes.md
// lists them times 3.5, and bench/compare/joint_scenes.h holds them for the peer engines (the tests
// compare the two). Offsets from the ragdoll's origin, z = 0.
static const struct {
    double radius, length, x, y; // length: between the hemisphere centres (twice the half_length)
    int turn;                    // 0: upright; +1: +90 deg about z (left arm); -1: -90 deg about z (right arm)
} RAGDOLL_PARTS[RB_RAGDOLL_BODIES] = {
    {0.15, 0.20, 0.0, 1.0, 0},    // 0 pelvis
    {0.15, 0.28, 0.0, 1.2, 0},    // 1 spine
    {0.10, 0.05, 0.0, 1.6, 0},    // 2 head
    {0.07, 0.45, -0.18, 0.65, 0}, // 3 left upper leg
    {0.05, 0.37, -0.18, 0.2, 0},  // 4 left lower leg
    {0.07, 0.45, 0.18, 0.65, 0},  // 5 right upper leg
    {0.05, 0.37, 0.18, 0.2, 0},   // 6 right lower leg
    {0.05, 0.33, -0.35, 1.45, 1}, // 7 left upper arm
    {0.04, 0.25, -0.7, 1.45, 1},  // 8 left lower arm
    {0.05, 0.33, 0.35, 1.45, -1}, // 9 right upper arm
    {0.04, 0.25, 0.7, 1.45, -1},  // 10 right lower arm
};

// The joint frames as rb_joint_def takes them: a hinge's axis is the frame's ẑ, a cone-twist's its x̂,
// and the reference axis its ŷ (bench-scenes.md's table, "frame axes in world").
static const struct {
    rb_joint_type type;
    int a, b;               // parts
    double ax, ay, bx, by;  // anchors p_A - o and p_B - o (z = 0): the demo's two pivots, apart at creation
    double axis[3], ref[3]; // world directions at creation (normalised by rb_create_joint)
    double lo, hi;          // hinge: the limits of θ; cone-twist: swing and twist half-angles; units of π/4
} RAGDOLL_JOINTS[RB_RAGDOLL_JOINTS] = {
    {RB_JOINT_HINGE, 0, 1, 0.0, 1.15, 0.0, 1.05, {1, 0, 0}, {0, 1, 0}, -2, 1},            // 0 pelvis-spine
    {RB_JOINT_CONE_TWIST, 1, 2, 0.0, 1.5, 0.0, 1.46, {0, 1, 0}, {-1, 0, 0}, 1, 2},        // 1 neck
    {RB_JOINT_CONE_TWIST, 0, 3, -0.18, 0.9, -0.18, 0.875, {-1, 1, 0}, {-1, -1, 0}, 1, 0}, // 2 left hip
    {RB_JOINT_HINGE, 3, 4, -0.18, 0.425, -0.18, 0.385, {1, 0, 0}, {0, 1, 0}, -2, 0},      // 3 left knee
    {RB_JOINT_CONE_TWIST, 0, 5, 0.18, 0.9, 0.18, 0.875, {1, 1, 0}, {-1, 1, 0}, 1, 0},     // 4 right hip
    {RB_JOINT_HINGE, 5, 6, 0.18, 0.425, 0.18, 0.385, {1, 0, 0}, {0, 1, 0}, -2, 0},        // 5 right knee
    {RB_JOINT_CONE_TWIST, 1, 7, -0.2, 1.35, -0.17, 1.45, {-1, 0, 0}, {0, -1, 0}, 2, 0},   // 6 left shoulder
    {RB_JOINT_HINGE, 7, 8, -0.53, 1.45, -0.56, 1.45, {0, 1, 0}, {-1, 0, 0}, 0, 2},        // 7 left elbow
    {RB_JOINT_CONE_TWIST, 1, 9, 0.2, 1.35, 0.17, 1.45, {1, 0, 0}, {0, 1, 0}, 2, 0},       // 8 right shoulder
    {RB_JOINT_HINGE, 9, 10, 0.53, 1.45, 0.56, 1.45, {0, -1, 0}, {1, 0, 0}, 0, 2},         // 9 right elbow
};

static rb_status ragdoll(rb_world_id w, const rb_ragdoll_spec *r, gvec o, gquat q, rb_body_list *bodies,
                         rb_joint_list *joints)
{
    const double h = sqrt(0.5), pi = 3.14159265358979323846, k = r->scale;
    const gquat turns[3] = {{0.0, 0.0, -h, h}, {0.0, 0.0, 0.0, 1.0}, {0.0, 0.0, h, h}};
    rb_body_id part[RB_RAGDOLL_BODIES];
    rb_body_def def = rb_default_body_def();
    def.type = RB_BODY_DYNAMIC;
    def.mass = r->mass;
    def.linear_damping = r->linear_damping;
    def.angular_damping = r->angular_damping;
    rb_gen_shape shape = {.type = RB_SHAPE_CAPSULE, .def = r->def};
    rb_status s;
    for (int p = 0; p < RB_RAGDOLL_BODIES; ++p) {
        def.position = gv_out(gv_add(o, gq_rotate(q, gv(k * RAGDOLL_PARTS[p].x, k * RAGDOLL_PARTS[p].y, 0.0))));
        def.rotation = gq_out(gq_normalize(gq_mul(q, turns[RAGDOLL_PARTS[p].turn + 1])));
        shape.radius = (float)(k * RAGDOLL_PARTS[p].radius);
        shape.half_length = (float)(0.5 * k * RAGDOLL_PARTS[p].length);
        if ((s = rb_generate_body(w, &def, &shape, bodies)) != RB_OK)
            return s;
        part[p] = bodies->ids[bodies->count - 1];
    }
    for (int j = 0; j < RB_RAGDOLL_JOINTS; ++j) {
        bool hinge = RAGDOLL_JOINTS[j].type == RB_JOINT_HINGE;
        rb_joint_def jd = hinge ? rb_default_hinge_joint_def() : rb_default_cone_twist_joint_def();
        jd.body_a = part[RAGDOLL_JOINTS[j].a];
        jd.body_b = part[RAGDOLL_JOINTS[j].b];
        jd.anchor = gv_out(gv_add(o, gq_rotate(q, gv(k * RAGDOLL_JOINTS[j].ax, k * RAGDOLL_JOINTS[j].ay, 0.0))));
        jd.anchor_b = gv_out(gv_add(o, gq_rotate(q, gv(k * RAGDOLL_JOINTS[j].bx, k * RAGDOLL_JOINTS[j].by, 0.0))));
        jd.separate_anchor_b = true;
        const double *ax = RAGDOLL_JOINTS[j].axis, *rf = RAGDOLL_JOINTS[j].ref;
        jd.axis = gv_out(gq_rotate(q, gv(ax[0], ax[1], ax[2])));
        jd.reference_axis = gv_out(gq_rotate(q, gv(rf[0], rf[1], rf[2])));
        double lo = RAGDOLL_JOINTS[j].lo * pi / 4.0, hi = RAGDOLL_JOINTS[j].hi * pi / 4.0;
        if (hinge) {
            jd.enable_limit = true;
            jd.lower = (float)lo;
            jd.upper = (float)hi;
        } else {
            jd.swing_span1 = jd.swing_span2 = (float)lo; // a circular cone
            jd.twist_span = (float)hi;
        }
        if ((s = rb_generate_joint(w, &jd, joints)) != RB_OK)
            return s;
    }
    return RB_OK;
}

rb_status rb_generate_ragdolls(rb_world_id w, const rb_ragdoll_spec *r, rb_body_list *bodies, rb_joint_list *joints)
{
    if (!(r->scale > 0.0f) || !isfinite(r->scale))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "ragdoll scale must be finite and > 0, got %g", r->scale);
    if (!(r->mass > 0.0f) || !isfinite(r->mass))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "ragdoll mass must be finite and > 0 kg, got %g", r->mass);
    for (int i = 0; i < 3; ++i)
        if (r->count[i] < 0)
            return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "ragdoll count must be >= 0, got %d", r->count[i]);
    if (!finite_vec(r->position) || !finite_vec(r->spacing))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "ragdoll position and spacing must be finite");
    rb_status s = check_count((long long)r->count[0] * r->count[1] * r->count[2] * RB_RAGDOLL_BODIES, "ragdoll");
    if (s != RB_OK)
        return s;
    rb_quat rq = r->rotation;
    double qn = (double)rq.x * rq.x + (double)rq.y * rq.y + (double)rq.z * rq.z + (double)rq.w * rq.w;
    if (!(qn > 0.81 && qn < 1.21)) // NaN too
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT,
                              "ragdoll rotation must be a unit quaternion, got (%g, %g, %g, %g)", rq.x, rq.y, rq.z, rq.w);
    gquat q = gq_normalize((gquat){rq.x, rq.y, rq.z, rq.w});
    for (int iy = 0; iy < r->count[1]; ++iy) {
        for (int ix = 0; ix < r->count[0]; ++ix) {
            for (int iz = 0; iz < r->count[2]; ++iz) {
                gvec d = gv((ix - 0.5 * (r->count[0] - 1)) * r->spacing.x, iy * (double)r->spacing.y,
                            (iz - 0.5 * (r->count[2] - 1)) * r->spacing.z);
                if ((s = ragdoll(w, r, gv_add(gv_of(r->position), gq_rotate(q, d)), q, bodies, joints)) != RB_OK)
                    return s;
            }
        }
    }
    return RB_OK;
}

// The rotation that turns the local y axis onto unit d (half-way quaternion; half a turn about x
// when d is -y).
static gquat y_onto(gvec d)
{
    if (1.0 + d.y < 1e-9)
        return (gquat){1.0, 0.0, 0.0, 0.0};
    gvec c = gv_cross(gv(0.0, 1.0, 0.0), d);
    return gq_normalize((gquat){c.x, c.y, c.z, 1.0 + d.y});
}

rb_status rb_generate_chain(rb_world_id w, const rb_chain_spec *c, rb_body_list *bodies, rb_joint_list *joints)
{
    if (c->links < 1 || c->links > RB_MAX_GENERATED_BODIES - 1)
        return rb_fail_global(c->links < 1 ? RB_ERR_INVALID_ARGUMENT : RB_ERR_CAPACITY,
                              "chain links must be in [1, %d], got %d", RB_MAX_GENERATED_BODIES - 1, c->links);
    if (!(c->link_radius > 0.0f) || !isfinite(c->link_length) || !(c->link_length >= 2.0f * c->link_radius))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "chain link_radius must be > 0 and link_length finite and "
                              ">= 2 link_radius, got %g and %g", c->link_radius, c->link_length);
    if (!(c->link_mass >= 0.0f) || !(c->end_radius >= 0.0f) || !(c->end_mass >= 0.0f))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "chain link_mass, end_radius and end_mass must be >= 0, got %g, "
                              "%g and %g", c->link_mass, c->end_radius, c->end_mass);
    gvec d = gv_of(c->direction);
    double len = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    if (!finite_vec(c->anchor) || !(len > 0.0) || !isfinite(len))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "chain anchor must be finite and direction finite and non-zero");
    d = gv_scale(d, 1.0 / len);
    gvec a = gv_of(c->anchor);
    double l = c->link_length;
    rb_body_def def = rb_default_body_def();
    def.type = RB_BODY_DYNAMIC;
    def.mass = c->link_mass;
    def.rotation = gq_out(y_onto(d));
    rb_gen_shape shape = {.type = RB_SHAPE_CAPSULE, .radius = c->link_radius,
                          .half_length = 0.5f * (c->link_length - 2.0f * c->link_radius), .def = c->def};
    int first = bodies->count;
    rb_status s;
    for (int k = 0; k < c->links; ++k) {
        def.position = gv_out(gv_add(a, gv_scale(d, (k + 0.5) * l)));
        if ((s = rb_generate_body(w, &def, &shape, bodies)) != RB_OK)
            return s;
    }
    bool end = c->end_radius > 0.0f;
    if (end) {
        def.position = gv_out(gv_add(a, gv_scale(d, c->links * l + c->end_radius)));
        def.rotation = (rb_quat){0.0f, 0.0f, 0.0f, 1.0f};
        def.mass = c->end_mass;
        rb_gen_shape sphere = {.type = RB_SHAPE_SPHERE, .radius = c->end_radius, .def = c->def};
        if ((s = rb_generate_body(w, &def, &sphere, bodies)) != RB_OK)
            return s;
    }
    for (int k = 0; k < c->links + end; ++k) {
        rb_joint_def jd = rb_default_ball_joint_def();
        jd.body_a = k == 0 ? rb_null_body_id : bodies->ids[first + k - 1];
        jd.body_b = bodies->ids[first + k];
        jd.anchor = gv_out(gv_add(a, gv_scale(d, k * l)));
        if ((s = rb_generate_joint(w, &jd, joints)) != RB_OK)
            return s;
    }
    return RB_OK;
}
