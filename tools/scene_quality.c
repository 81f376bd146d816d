// Standard scene names and the quality metrics of `rubble bench` (see scene_quality.h and
// docs/bench-scenes.md).
#include "scene_quality.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sphere_overlap.h"

int standard_scene_parse(const char *name, standard_scene *out)
{
    standard_scene s = {0};
    if (strcmp(name, "pyramid") == 0) {
        s.kind = SCENE_PYRAMID;
    } else if (strcmp(name, "stack") == 0) {
        s.kind = SCENE_STACK;
    } else if (strcmp(name, "boxes") == 0) {
        s.kind = SCENE_BOXES;
        s.pen_half_width = 12.0f;
    } else if (strcmp(name, "rocks") == 0) {
        s.kind = SCENE_ROCKS;
        s.pen_half_width = 12.0f;
    } else if (strcmp(name, "chain") == 0) {
        s.kind = SCENE_CHAIN;
    } else if (strcmp(name, "ragdolls") == 0) {
        s.kind = SCENE_RAGDOLLS;
    } else if (strcmp(name, "pile") == 0 || strncmp(name, "pile:", 5) == 0) {
        s.kind = SCENE_PILE;
        s.pile_size = 20;
        if (name[4] == ':') {
            const char *digits = name + 5;
            char *end = NULL;
            errno = 0;
            long v = strtol(digits, &end, 10);
            if (errno || end == digits || *end != '\0' || digits[0] == '+' || digits[0] == '-' || v < 1 ||
                v > 1000000)
                return -1;
            s.pile_size = (int)v;
        }
        s.pen_half_width = 12.0f * (float)s.pile_size / 20.0f;
    } else {
        return 0;
    }
    *out = s;
    return 1;
}

static bool finite3(rb_vec3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static double length3(double x, double y, double z)
{
    return sqrt(x * x + y * y + z * z);
}

// Radius of the body's first shape if it is a sphere, else NaN.
static float sphere_radius(rb_world_id world, int slot)
{
    rb_body_id body;
    rb_shape_id shape;
    int count = 0;
    rb_sphere sphere;
    rb_shape_type type;
    if (rb_world_get_body_id(world, slot, &body) != RB_OK || rb_body_get_shapes(body, &shape, 1, &count) != RB_OK ||
        count < 1 || rb_shape_get_type(shape, &type) != RB_OK || type != RB_SHAPE_SPHERE ||
        rb_shape_get_sphere(shape, &sphere) != RB_OK)
        return NAN;
    return sphere.radius;
}

static rb_status measure_pile(rb_world_id world, const body_state *end, scene_quality *q)
{
    int n = body_state_count_type(end, RB_BODY_DYNAMIC);
    rb_vec3 *centers = malloc((size_t)(n > 0 ? n : 1) * sizeof *centers);
    float *radii = malloc((size_t)(n > 0 ? n : 1) * sizeof *radii);
    if (!centers || !radii) {
        free(centers), free(radii);
        return RB_ERR_OUT_OF_MEMORY;
    }
    int k = 0;
    double ground = 0.0;
    for (int i = 0; i < end->count; ++i) {
        if (end->type[i] != RB_BODY_DYNAMIC)
            continue;
        centers[k] = end->transform[i].p;
        radii[k] = sphere_radius(world, end->slot[i]);
        if (isfinite(radii[k]) && isfinite(centers[k].y) && radii[k] - (double)centers[k].y > ground)
            ground = radii[k] - (double)centers[k].y;
        ++k;
    }
    q->has_penetration = true;
    q->max_ground_penetration = ground;
    q->max_penetration = max_sphere_overlap(centers, radii, k);
    free(centers), free(radii);
    return q->max_penetration < 0.0 ? RB_ERR_OUT_OF_MEMORY : RB_OK;
}

// ---- the jointed scenes ----

void joint_watch_free(joint_watch *jw)
{
    if (jw->scene.bodies)
        scn_free(&jw->scene);
    free(jw->transform);
    free(jw->linear);
    free(jw->angular);
    free(jw->pose);
    memset(jw, 0, sizeof *jw);
}

rb_status joint_watch_init(joint_watch *jw, rb_world_id world, const standard_scene *scene)
{
    memset(jw, 0, sizeof *jw);
    scn_run_init(&jw->run);
    if (!scn_make(scene->kind == SCENE_CHAIN ? "chain" : scene->kind == SCENE_RAGDOLLS ? "ragdolls" : "", &jw->scene))
        return RB_ERR_INVALID_ARGUMENT;
    rb_counters c;
    rb_status st = rb_world_get_counters(world, &c);
    if (st != RB_OK) {
        joint_watch_free(jw);
        return st;
    }
    // rb_build_standard_scene creates the ground (if any), then the bodies in the scene's order
    int n = jw->scene.body_count;
    jw->first_slot = c.body_slots - n;
    jw->transform = malloc((size_t)n * sizeof *jw->transform);
    jw->linear = malloc((size_t)n * sizeof *jw->linear);
    jw->angular = malloc((size_t)n * sizeof *jw->angular);
    jw->pose = malloc((size_t)n * sizeof *jw->pose);
    if (!jw->scene.bodies || !jw->scene.joints || !jw->transform || !jw->linear || !jw->angular || !jw->pose) {
        joint_watch_free(jw);
        return RB_ERR_OUT_OF_MEMORY;
    }
    if (jw->first_slot < 0) {
        joint_watch_free(jw);
        return RB_ERR_INVALID_ARGUMENT;
    }
    return RB_OK;
}

rb_status joint_watch_measure(joint_watch *jw, rb_world_id world, scn_quality *out)
{
    int n = jw->scene.body_count;
    rb_status st = rb_world_get_transforms(world, jw->first_slot, n, jw->transform);
    if (st == RB_OK)
        st = rb_world_get_velocities(world, jw->first_slot, n, jw->linear, jw->angular);
    if (st != RB_OK)
        return st;
    for (int i = 0; i < n; ++i) {
        // the body origin is the centre of mass (the scene's mass data has centre 0); rb_quat is (x, y, z, w)
        rb_transform t = jw->transform[i];
        rb_vec3 v = jw->linear[i];
        jw->pose[i].position = scn_v3(t.p.x, t.p.y, t.p.z);
        jw->pose[i].orientation = scn_q(t.q.w, t.q.x, t.q.y, t.q.z);
        jw->pose[i].velocity = scn_v3(v.x, v.y, v.z);
    }
    scn_measure(&jw->scene, jw->pose, out);
    return RB_OK;
}

rb_status joint_watch_step(joint_watch *jw, rb_world_id world)
{
    scn_quality q;
    rb_status st = joint_watch_measure(jw, world, &q);
    if (st == RB_OK)
        scn_run_add(&jw->run, &q);
    return st;
}

void joint_watch_report(const joint_watch *jw, const scene_quality *q, scn_emit_fn emit, void *ctx)
{
    scn_report(&jw->scene, &q->joints, &q->joints_run, emit, ctx);
}

// p turned by q and moved by t.p: the point of frame t in its parent frame
static rb_vec3 transform_point(rb_transform t, rb_vec3 v)
{
    rb_quat q = t.q;
    // v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z)
    double ux = q.x, uy = q.y, uz = q.z, w = q.w;
    double cx = uy * v.z - uz * v.y, cy = uz * v.x - ux * v.z, cz = ux * v.y - uy * v.x;
    double dx = uy * cz - uz * cy, dy = uz * cx - ux * cz, dz = ux * cy - uy * cx;
    return (rb_vec3){(float)(v.x + 2.0 * (w * cx + dx) + t.p.x), (float)(v.y + 2.0 * (w * cy + dy) + t.p.y),
                     (float)(v.z + 2.0 * (w * cz + dz) + t.p.z)};
}

// rocks: the deepest world-space hull vertex below the ground, max(0, -lowest y), over every convex
// shape of a dynamic body (bench-scenes.md "rocks"), read through the API.
static rb_status measure_hull_ground(rb_world_id world, const body_state *end, scene_quality *q)
{
    double deepest = 0.0;
    for (int i = 0; i < end->count; ++i) {
        if (end->type[i] != RB_BODY_DYNAMIC)
            continue;
        rb_body_id body;
        rb_shape_id shapes[8];
        int count = 0;
        rb_status s;
        if ((s = rb_world_get_body_id(world, i, &body)) != RB_OK ||
            (s = rb_body_get_shapes(body, shapes, 8, &count)) != RB_OK)
            return s;
        for (int k = 0; k < count && k < 8; ++k) {
            rb_shape_type type;
            rb_convex cv;
            rb_transform local;
            rb_vec3 v[64];
            int n = 0;
            if ((s = rb_shape_get_type(shapes[k], &type)) != RB_OK)
                return s;
            if (type != RB_SHAPE_CONVEX)
                continue;
            if ((s = rb_shape_get_convex(shapes[k], &cv)) != RB_OK ||
                (s = rb_shape_get_local_transform(shapes[k], &local)) != RB_OK ||
                (s = rb_hull_get_vertices(cv.hull, v, 64, &n)) != RB_OK)
                return s;
            rb_transform t = end->transform[i];
            for (int j = 0; j < n && j < 64; ++j) {
                rb_vec3 in_body = transform_point(local, v[j]);
                double y = (double)transform_point(t, in_body).y - cv.radius;
                if (!isfinite(y))
                    deepest = NAN;
                else if (-y > deepest)
                    deepest = -y;
            }
        }
    }
    q->max_ground_penetration = deepest;
    return RB_OK;
}

// ---- every scene ----

rb_status scene_quality_measure(rb_world_id world, const standard_scene *scene, const body_state *start,
                                const body_state *end, joint_watch *joints, scene_quality *out)
{
    scene_quality q = {0};
    double max_speed = 0.0, min_y = INFINITY, max_drift = 0.0, top_y = NAN;
    bool nonfinite_speed = false, nonfinite_position = false;
    float L = scene->pen_half_width;
    for (int i = 0; i < end->count; ++i) {
        if (end->type[i] != RB_BODY_DYNAMIC)
            continue;
        rb_vec3 p = end->transform[i].p, v = end->linear[i];
        if (!finite3(v))
            nonfinite_speed = true;
        else if (length3(v.x, v.y, v.z) > max_speed)
            max_speed = length3(v.x, v.y, v.z);
        if (!finite3(v) || length3(v.x, v.y, v.z) > 0.1)
            ++q.moving_final;
        if (!finite3(p)) {
            nonfinite_position = true;
            ++q.escaped;
            continue;
        }
        if (fabsf(p.x) > L || fabsf(p.z) > L || p.y < 0.0f)
            ++q.escaped;
        if (p.y < min_y)
            min_y = p.y;
        top_y = p.y; // ends as the last dynamic body's
        if (start && i < start->count) {
            rb_vec3 s = start->transform[i].p;
            double d = length3((double)p.x - s.x, (double)p.y - s.y, (double)p.z - s.z);
            if (d > max_drift)
                max_drift = d;
        }
    }
    q.max_speed_final = nonfinite_speed ? NAN : max_speed;
    switch (scene->kind) {
    case SCENE_PYRAMID:
    case SCENE_STACK:
        q.has_drift = true;
        q.max_drift = nonfinite_position ? NAN : max_drift;
        // the top cube is the last body; if its position is not finite top_y is too
        for (int i = end->count - 1; i >= 0; --i)
            if (end->type[i] == RB_BODY_DYNAMIC) {
                top_y = end->transform[i].p.y;
                break;
            }
        q.top_y = top_y;
        break;
    case SCENE_PILE: {
        q.has_escaped = true;
        rb_status s = measure_pile(world, end, &q);
        if (s != RB_OK)
            return s;
        break;
    }
    case SCENE_BOXES:
        q.has_escaped = true;
        q.has_min_y = true;
        q.min_y = nonfinite_position || isinf(min_y) ? NAN : min_y;
        break;
    case SCENE_ROCKS: {
        q.has_escaped = true;
        q.has_min_y = true;
        q.min_y = nonfinite_position || isinf(min_y) ? NAN : min_y;
        q.has_hull_ground = true;
        rb_status s = measure_hull_ground(world, end, &q);
        if (s != RB_OK)
            return s;
        break;
    }
    case SCENE_CHAIN:
    case SCENE_RAGDOLLS: {
        if (!joints)
            return RB_ERR_INVALID_ARGUMENT;
        rb_status s = joint_watch_measure(joints, world, &q.joints);
        if (s != RB_OK)
            return s;
        q.has_joints = true;
        q.joints_run = joints->run;
        break;
    }
    }
    *out = q;
    return RB_OK;
}
