// The engine-independent half of the comparison drivers (ode_bench.c, bullet_bench.cpp): the
// standard scenes of docs/bench-scenes.md, the seeded LCG, the step timing, the quality fields
// and the JSON line. Header only, compiles as C99 and as C++; each driver supplies an `engine`
// (how to add the ground, a wall, a box, a sphere, a body and a joint of a jointed scene, a convex
// hull of the rocks scene; how to step; how to read a body back) and calls bench_main. The jointed
// scenes (chain, ragdolls) and their quality fields are in joint_scenes.h, the convex scene (rocks:
// its draws, hulls, mass properties and quality fields) in rocks_scene.h.
//
// Fields of the bench-scenes.md JSON line that are left out: `phases_ms` (neither ODE nor Bullet
// reports rubble's phases; see README.md). `contacts_last` is the number of contact points of the
// last step (ODE: contact joints made; Bullet: points in all persistent manifolds).
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "joint_scenes.h"
#include "rocks_scene.h"

typedef scn_vec3 vec3;
typedef scn_quat quat; // unit quaternion, w first

static vec3 v3(double x, double y, double z)
{
    vec3 v;
    v.x = x, v.y = y, v.z = z;
    return v;
}

// ---- the engine interface -------------------------------------------------------------------
typedef struct {
    const char *engine, *version, *solver;
    // the static plane y = 0 (every scene but chain), friction 0.6, restitution 0
    void (*add_ground)(void *ctx);
    // static box (a pen wall): centre and half extents, axis-aligned, friction 0.6, restitution 0
    void (*add_wall)(void *ctx, vec3 center, vec3 half);
    // dynamic bodies, 1 kg, solid-shape inertia, friction 0.6, restitution 0, sleeping only with --sleep
    void (*add_box)(void *ctx, vec3 center, quat rotation, double half_edge);
    void (*add_sphere)(void *ctx, vec3 center, double radius);
    // a body of a jointed scene (joint_scenes.h): capsule (axis = local y) or sphere with the given
    // mass, inertia, pose and damping; friction 0.6, restitution 0, sleeping only with --sleep
    void (*add_body)(void *ctx, const scn_body *b);
    // a joint between dynamic bodies j->body_a (or the static world, SCN_WORLD) and j->body_b, indices
    // in creation order, with the body-local anchors and frames of *j kept as they are (p_A != p_B);
    // the two bodies no longer collide with each other
    void (*add_joint)(void *ctx, const scn_joint *j);
    void (*step)(void *ctx);                                       // one frame of 1/60 s
    int (*contacts)(void *ctx);                                    // contact points of the last step
    void (*read_pose)(void *ctx, int i, vec3 *p, quat *q, vec3 *v); // i-th dynamic body, creation order
    // --sleep: the engine's own sleeping with its own default thresholds, switched on before the scene
    // is built; awake() counts the dynamic bodies the engine still simulates
    void (*set_sleep)(void *ctx, int on);
    int (*awake)(void *ctx);
    // rocks: a dynamic body of 1 kg whose shape is the convex hull *hull (body-local vertices about the
    // centroid, faces, planes), at center with orientation rotation; mass->inertia is the solid hull's
    // tensor in body axes, mass->principal / mass->axes its diagonal form; friction 0.6, restitution 0
    void (*add_hull)(void *ctx, vec3 center, quat rotation, const rocks_hull *hull, const rocks_mass *mass);
    // rocks: the collision margin the engine keeps around a hull, printed as "margin"; < 0: none printed
    double margin;
} engine;

// ---- the LCG of bench-scenes.md: advanced before each draw, u = (state >> 11) * 2^-53 ------------
static double lcg_next(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

// ---- scenes ---------------------------------------------------------------------------------
enum { SCENE_PYRAMID, SCENE_STACK, SCENE_PILE, SCENE_BOXES, SCENE_CHAIN, SCENE_RAGDOLLS, SCENE_ROCKS };

typedef struct {
    int kind;
    int pile_size;      // S of pile:S (pile = pile:20)
    double pen_half;    // inner faces of the pen at +-pen_half (pile, boxes, rocks)
    scn_scene joints;   // chain, ragdolls: the bodies and joints (joint_scenes.h); scn_free when done
    double (*rocks)[ROCKS_POINTS][3]; // rocks: each body's 12 drawn points (body-local), made by build_scene
} scene;

// 1 on success, 0 if the name is not a standard scene
static int scene_parse(const char *name, scene *s)
{
    memset(s, 0, sizeof *s);
    if (scn_make(name, &s->joints)) {
        s->kind = s->joints.kind == SCN_SCENE_CHAIN ? SCENE_CHAIN : SCENE_RAGDOLLS;
    } else if (strcmp(name, "pyramid") == 0) {
        s->kind = SCENE_PYRAMID;
    } else if (strcmp(name, "stack") == 0) {
        s->kind = SCENE_STACK;
    } else if (strcmp(name, "boxes") == 0) {
        s->kind = SCENE_BOXES;
        s->pen_half = 12.0;
    } else if (strcmp(name, "rocks") == 0) {
        s->kind = SCENE_ROCKS;
        s->pen_half = ROCKS_PEN_HALF;
    } else if (strcmp(name, "pile") == 0 || strncmp(name, "pile:", 5) == 0) {
        s->kind = SCENE_PILE;
        s->pile_size = 20;
        if (name[4] == ':') {
            char *end;
            long v = strtol(name + 5, &end, 10);
            if (end == name + 5 || *end != '\0' || v < 1 || v > 1000)
                return 0;
            s->pile_size = (int)v;
        }
        s->pen_half = 12.0 * s->pile_size / 20.0;
    } else {
        return 0;
    }
    return 1;
}

// The pen: four static boxes 1 m thick, y from 0 to 30, inner faces at +-L; the walls normal to x
// span z in [-(L+1), L+1] (26 m for L = 12), the walls normal to z span x likewise.
static void build_pen(const engine *e, void *ctx, double L)
{
    e->add_wall(ctx, v3(-(L + 0.5), 15.0, 0.0), v3(0.5, 15.0, L + 1.0));
    e->add_wall(ctx, v3(+(L + 0.5), 15.0, 0.0), v3(0.5, 15.0, L + 1.0));
    e->add_wall(ctx, v3(0.0, 15.0, -(L + 0.5)), v3(L + 1.0, 15.0, 0.5));
    e->add_wall(ctx, v3(0.0, 15.0, +(L + 0.5)), v3(L + 1.0, 15.0, 0.5));
}

// Adds the scene's ground plane, walls, dynamic bodies and joints; returns the number of dynamic bodies.
static int build_scene(const engine *e, void *ctx, scene *s, uint64_t seed)
{
    const quat identity = {1.0, 0.0, 0.0, 0.0};
    uint64_t rng = seed;
    int count = 0;
    if (s->kind != SCENE_CHAIN && s->kind != SCENE_RAGDOLLS)
        e->add_ground(ctx);
    switch (s->kind) {
    case SCENE_PYRAMID: // 385 unit cubes, layer k is (10-k) x (10-k), loop order k, i, j
        for (int k = 0; k < 10; ++k) {
            int n = 10 - k;
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j, ++count)
                    e->add_box(ctx, v3(i - (n - 1) / 2.0, 0.5 + k, j - (n - 1) / 2.0), identity, 0.5);
        }
        break;
    case SCENE_STACK: // 20 unit cubes, centres (0, 0.5 + k, 0)
        for (int k = 0; k < 20; ++k, ++count)
            e->add_box(ctx, v3(0.0, 0.5 + k, 0.0), identity, 0.5);
        break;
    case SCENE_PILE: { // S x 20 x S spheres r = 0.5, loop order iy, ix, iz, jitter jx then jz
        int S = s->pile_size;
        build_pen(e, ctx, s->pen_half);
        for (int iy = 0; iy < 20; ++iy)
            for (int ix = 0; ix < S; ++ix)
                for (int iz = 0; iz < S; ++iz, ++count) {
                    double jx = (2.0 * lcg_next(&rng) - 1.0) * 0.05;
                    double jz = (2.0 * lcg_next(&rng) - 1.0) * 0.05;
                    e->add_sphere(ctx, v3((ix - (S - 1) / 2.0) * 1.1 + jx, 1.0 + iy * 1.1, (iz - (S - 1) / 2.0) * 1.1 + jz),
                                  0.5);
                }
        break;
    }
    case SCENE_BOXES: // 16^3 cubes of edge 0.5, loop order iy, ix, iz, random axis-angle rotation
        build_pen(e, ctx, s->pen_half);
        for (int iy = 0; iy < 16; ++iy)
            for (int ix = 0; ix < 16; ++ix)
                for (int iz = 0; iz < 16; ++iz, ++count) {
                    double ax = 2.0 * lcg_next(&rng) - 1.0;
                    double ay = 2.0 * lcg_next(&rng) - 1.0;
                    double az = 2.0 * lcg_next(&rng) - 1.0;
                    double angle = 3.14159265358979323846 * lcg_next(&rng);
                    double len = sqrt(ax * ax + ay * ay + az * az);
                    quat q = identity;
                    if (len > 0.0) {
                        double sn = sin(0.5 * angle) / len;
                        q.w = cos(0.5 * angle), q.x = ax * sn, q.y = ay * sn, q.z = az * sn;
                    }
                    e->add_box(ctx, v3(ix - 7.5, 1.0 + iy, iz - 7.5), q, 0.25);
                }
        break;
    case SCENE_ROCKS: // 16^3 convex hulls of 12 drawn points each, the boxes layout (rocks_scene.h)
        build_pen(e, ctx, s->pen_half);
        s->rocks = (double (*)[ROCKS_POINTS][3])malloc(ROCKS_BODIES * sizeof *s->rocks);
        for (int b = 0; b < ROCKS_BODIES; ++b, ++count) {
            double c[3], q[4];
            rocks_hull hull;
            rocks_mass mass;
            rocks_draw_body(&rng, s->rocks[b], q);
            rocks_body_center(b, c);
            if (!rocks_hull_build(&s->rocks[b][0][0], ROCKS_POINTS, &hull)) {
                fprintf(stderr, "rocks: the hull of body %d could not be built (seed %llu)\n", b,
                        (unsigned long long)seed);
                exit(1);
            }
            rocks_mass_properties(&hull, 1.0, &mass);
            e->add_hull(ctx, v3(c[0], c[1], c[2]), scn_q(q[0], q[1], q[2], q[3]), &hull, &mass);
        }
        break;
    case SCENE_CHAIN: // joint_scenes.h: no ground
    case SCENE_RAGDOLLS: {
        const scn_scene *js = &s->joints;
        if (js->ground)
            e->add_ground(ctx);
        for (int i = 0; i < js->body_count; ++i, ++count)
            e->add_body(ctx, &js->bodies[i]);
        for (int k = 0; k < js->joint_count; ++k)
            e->add_joint(ctx, &js->joints[k]);
        break;
    }
    }
    return count;
}

// ---- quality (bench-scenes.md "Scenes"), measured after the timed steps -------------------------
static int finite3(vec3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static double dist3(vec3 a, vec3 b)
{
    return sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

static const vec3 *sort_centres; // qsort has no context argument
static int by_x(const void *a, const void *b)
{
    double x = sort_centres[*(const int *)a].x, y = sort_centres[*(const int *)b].x;
    return (x > y) - (x < y);
}

// Largest overlap of two spheres of radius r: sort by x, then compare pairs closer than 2r in x.
static double max_sphere_overlap(const vec3 *p, int n, double r)
{
    int *order = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
    int m = 0;
    for (int i = 0; i < n; ++i)
        if (finite3(p[i]))
            order[m++] = i;
    sort_centres = p;
    qsort(order, (size_t)m, sizeof *order, by_x);
    double best = 0.0;
    for (int a = 0; a < m; ++a)
        for (int b = a + 1; b < m && p[order[b]].x - p[order[a]].x < 2.0 * r; ++b) {
            double overlap = 2.0 * r - dist3(p[order[a]], p[order[b]]);
            if (overlap > best)
                best = overlap;
        }
    free(order);
    return best;
}

static void json_num(const char *key, double v)
{
    if (isfinite(v))
        printf(",\"%s\":%.6g", key, v);
    else
        printf(",\"%s\":null", key);
}

static const char *cpu_model(void)
{
    static char model[256] = "cpu";
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            const char *v = strchr(line, ':') + 1;
            while (*v == ' ')
                ++v;
            snprintf(model, sizeof model, "%s", v);
            model[strcspn(model, "\n\"\\")] = '\0';
            break;
        }
    if (f)
        fclose(f);
    return model;
}

static void json_field(void *unused, const char *key, double v)
{
    (void)unused;
    json_num(key, v);
}

static void read_poses(const engine *e, void *ctx, int n, scn_pose *pose)
{
    for (int i = 0; i < n; ++i)
        e->read_pose(ctx, i, &pose[i].position, &pose[i].orientation, &pose[i].velocity);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// ---- the run: --scene NAME --steps N [--seed S] [--sleep] -----------------------------------
#define SCENE_NAMES "pyramid|stack|pile|pile:S|boxes|rocks|chain|ragdolls"

static int bench_main(int argc, char **argv, const engine *e, void *ctx)
{
    const char *name = NULL;
    int steps = 600;
    uint64_t seed = 1;
    int sleep = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc)
            name = argv[++i];
        else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc)
            steps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--sleep") == 0)
            sleep = 1;
        else {
            fprintf(stderr, "usage: %s --scene " SCENE_NAMES " [--steps N] [--seed S] [--sleep]\n", argv[0]);
            return 2;
        }
    }
    scene s;
    if (!name || steps < 1 || !scene_parse(name, &s)) {
        fprintf(stderr, "%s: --scene " SCENE_NAMES " and --steps >= 1 expected\n", argv[0]);
        return 2;
    }
    e->set_sleep(ctx, sleep);
    int n = build_scene(e, ctx, &s, seed);
    vec3 *start = (vec3 *)malloc((size_t)n * sizeof *start);
    vec3 *pos = (vec3 *)malloc((size_t)n * sizeof *pos);
    vec3 *vel = (vec3 *)malloc((size_t)n * sizeof *vel);
    quat *rot = (quat *)malloc((size_t)n * sizeof *rot);
    scn_pose *pose = (scn_pose *)malloc((size_t)n * sizeof *pose);
    double *ms = (double *)malloc((size_t)steps * sizeof *ms);
    for (int i = 0; i < n; ++i)
        e->read_pose(ctx, i, &start[i], &rot[i], &vel[i]);
    scn_quality quality;
    scn_run run; // chain: maxima over all steps, measured after each step outside the timing
    scn_run_init(&run);

    double total = 0.0;
    int all_asleep_step = 0; // the first step after which no body is awake (counted outside the timing)
    for (int i = 0; i < steps; ++i) {
        double t0 = now_ms();
        e->step(ctx);
        ms[i] = now_ms() - t0;
        total += ms[i];
        if (sleep && all_asleep_step == 0 && e->awake(ctx) == 0)
            all_asleep_step = i + 1;
        if (s.kind == SCENE_CHAIN) {
            read_poses(e, ctx, n, pose);
            scn_measure(&s.joints, pose, &quality);
            scn_run_add(&run, &quality);
        }
    }
    int skip = steps > 10 ? 10 : 0; // median and mean leave out the first 10 steps
    double mean = 0.0;
    for (int i = skip; i < steps; ++i)
        mean += ms[i] / (steps - skip);
    qsort(ms + skip, (size_t)(steps - skip), sizeof *ms, cmp_double);
    int m = steps - skip;
    double median = m % 2 ? ms[skip + m / 2] : 0.5 * (ms[skip + m / 2 - 1] + ms[skip + m / 2]);

    // quality, outside the timing
    double max_speed = 0.0, max_drift = 0.0, min_y = INFINITY, ground = 0.0;
    int escaped = 0, bad_speed = 0, bad_pos = 0;
    for (int i = 0; i < n; ++i) {
        e->read_pose(ctx, i, &pos[i], &rot[i], &vel[i]);
        vec3 p = pos[i];
        if (!finite3(vel[i]))
            bad_speed = 1;
        else if (dist3(vel[i], v3(0, 0, 0)) > max_speed)
            max_speed = dist3(vel[i], v3(0, 0, 0));
        if (!finite3(p)) {
            bad_pos = 1, ++escaped;
            continue;
        }
        if (fabs(p.x) > s.pen_half || fabs(p.z) > s.pen_half || p.y < 0.0)
            ++escaped;
        if (p.y < min_y)
            min_y = p.y;
        if (0.5 - p.y > ground) // spheres of the pile have r = 0.5
            ground = 0.5 - p.y;
        if (dist3(p, start[i]) > max_drift)
            max_drift = dist3(p, start[i]);
    }

    printf("{\"engine\":\"%s\",\"version\":\"%s\",\"backend\":\"cpu\",\"device\":\"%s\",\"solver\":\"%s\"", e->engine,
           e->version, cpu_model(), e->solver);
    printf(",\"threads\":1,\"scene\":\"%s\",\"bodies\":%d", name, n);
    if (s.joints.joint_count)
        printf(",\"joints\":%d", s.joints.joint_count);
    printf(",\"steps\":%d,\"substeps\":1,\"sleep\":%s", steps, sleep ? "true" : "false");
    json_num("ms_per_step_median", median);
    json_num("ms_per_step_mean", mean);
    json_num("ms_total", total);
    printf(",\"contacts_last\":%d", e->contacts(ctx));
    if (s.kind == SCENE_ROCKS && e->margin >= 0.0)
        json_num("margin", e->margin);
    if (s.kind == SCENE_PYRAMID || s.kind == SCENE_STACK) {
        json_num("max_drift", bad_pos ? NAN : max_drift);
        json_num("top_y", pos[n - 1].y); // the top cube is the last body
    }
    if (s.kind == SCENE_PILE) {
        json_num("max_penetration", max_sphere_overlap(pos, n, 0.5));
        json_num("max_ground_penetration", ground);
    }
    if (s.kind == SCENE_PILE || s.kind == SCENE_BOXES)
        printf(",\"escaped\":%d", escaped);
    if (s.kind == SCENE_BOXES)
        json_num("min_y", bad_pos ? NAN : min_y);
    if (s.kind == SCENE_ROCKS) { // rocks_scene.h: escaped, max_ground_penetration, moving_final, min_y
        rocks_quality rq;
        rocks_quality_init(&rq);
        for (int i = 0; i < n; ++i) {
            double p[3] = {pos[i].x, pos[i].y, pos[i].z}, r[4] = {rot[i].w, rot[i].x, rot[i].y, rot[i].z};
            double u[3] = {vel[i].x, vel[i].y, vel[i].z};
            rocks_quality_add(&rq, &s.rocks[i][0][0], ROCKS_POINTS, p, r, u);
        }
        rocks_report(&rq, json_field, NULL);
    }
    if (s.kind == SCENE_CHAIN || s.kind == SCENE_RAGDOLLS) { // joint_scenes.h, from the final poses
        for (int i = 0; i < n; ++i)
            pose[i].position = pos[i], pose[i].orientation = rot[i], pose[i].velocity = vel[i];
        scn_measure(&s.joints, pose, &quality);
        scn_report(&s.joints, &quality, s.kind == SCENE_CHAIN ? &run : NULL, json_field, NULL);
    }
    json_num("max_speed_final", bad_speed ? NAN : max_speed);
    if (sleep) {
        printf(",\"awake_final\":%d", e->awake(ctx));
        json_num("all_asleep_s", all_asleep_step ? all_asleep_step / 60.0 : -1.0); // -1: not within the run
    }
    printf("}\n");
    fflush(stdout);
    free(start), free(pos), free(vel), free(rot), free(pose), free(ms);
    free(s.rocks);
    scn_free(&s.joints);
    return 0;
}

#endif
