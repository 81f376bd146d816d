// The standard benchmark scenes of docs/bench-scenes.md, built in code.
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// the jointed scenes as data, shared with the ODE and Bullet drivers so that all three build the same bodies
#include "../bench/compare/joint_scenes.h"
#include "scene_generators.h"
#include "world.h"

// bench-scenes.md "Common settings": friction 0.6, restitution 0, every dynamic body 1 kg.
static rb_shape_def standard_material(void)
{
    rb_shape_def d = rb_default_shape_def();
    d.friction = 0.6f;
    d.restitution = 0.0f;
    return d;
}

static rb_status build_pyramid(rb_world_id w, rb_body_list *l)
{
    rb_pyramid_spec p = {
        .base = 10,
        .center = {0.0f, 0.0f, 0.0f},
        .body_type = RB_BODY_DYNAMIC,
        .mass = 1.0f,
        .shape = {.type = RB_SHAPE_BOX, .half_extents = {0.5f, 0.5f, 0.5f}, .def = standard_material()},
    };
    return rb_generate_pyramid(w, &p, l);
}

static rb_status build_stack(rb_world_id w, rb_body_list *l, rb_lcg *rng)
{
    rb_grid_spec g = {
        .count = {1, 20, 1},
        .spacing = {1.0f, 1.0f, 1.0f},
        .center = {0.0f, 0.5f, 0.0f},
        .body_type = RB_BODY_DYNAMIC,
        .mass = 1.0f,
        .shape = {.type = RB_SHAPE_BOX, .half_extents = {0.5f, 0.5f, 0.5f}, .def = standard_material()},
    };
    return rb_generate_grid(w, &g, rng, l);
}

// pile:S — S x S x 20 spheres of radius 0.5, spacing 1.1, jitter 0.05 in x and z, pen at 12 S / 20.
static rb_status build_pile(rb_world_id w, int size, rb_body_list *l, rb_lcg *rng)
{
    rb_pen_spec pen = {.half_width = 12.0f * (float)size / 20.0f, .height = 30.0f, .thickness = 1.0f,
                       .def = standard_material()};
    rb_status s = rb_generate_pen(w, &pen, l);
    if (s != RB_OK)
        return s;
    rb_grid_spec g = {
        .count = {size, 20, size},
        .spacing = {1.1f, 1.1f, 1.1f},
        .center = {0.0f, 1.0f, 0.0f},
        .jitter = {0.05f, 0.0f, 0.05f},
        .body_type = RB_BODY_DYNAMIC,
        .mass = 1.0f,
        .shape = {.type = RB_SHAPE_SPHERE, .radius = 0.5f, .def = standard_material()},
    };
    return rb_generate_grid(w, &g, rng, l);
}

static rb_status build_boxes(rb_world_id w, rb_body_list *l, rb_lcg *rng)
{
    rb_pen_spec pen = {.half_width = 12.0f, .height = 30.0f, .thickness = 1.0f, .def = standard_material()};
    rb_status s = rb_generate_pen(w, &pen, l);
    if (s != RB_OK)
        return s;
    rb_grid_spec g = {
        .count = {16, 16, 16},
        .spacing = {1.0f, 1.0f, 1.0f},
        .center = {0.0f, 1.0f, 0.0f},
        .random_rotation = true,
        .body_type = RB_BODY_DYNAMIC,
        .mass = 1.0f,
        .shape = {.type = RB_SHAPE_BOX, .half_extents = {0.25f, 0.25f, 0.25f}, .def = standard_material()},
    };
    return rb_generate_grid(w, &g, rng, l);
}

// bench-scenes.md "rocks": the boxes layout with each body the hull of 12 points drawn from the scene's
// LCG (rb_generate_rocks draws them as bench/compare/rocks_scene.h does), one hull per rock.
static rb_status build_rocks(rb_world_id w, rb_body_list *l, rb_hull_list *hulls, rb_lcg *rng)
{
    rb_pen_spec pen = {.half_width = 12.0f, .height = 30.0f, .thickness = 1.0f, .def = standard_material()};
    rb_status s = rb_generate_pen(w, &pen, l);
    if (s != RB_OK)
        return s;
    rb_rocks_spec g = {
        .count = {16, 16, 16},
        .spacing = {1.0f, 1.0f, 1.0f},
        .center = {0.0f, 1.0f, 0.0f},
        .points = 12,
        .extents = {0.25, 0.20, 0.15},
        .radius = 0.0f,
        .random_rotation = true,
        .body_type = RB_BODY_DYNAMIC,
        .mass = 1.0f,
        .def = standard_material(),
    };
    return rb_generate_rocks(w, &g, rng, l, hulls);
}

static rb_vec3 scn_to_vec3(scn_vec3 v) { return (rb_vec3){(float)v.x, (float)v.y, (float)v.z}; }

// Bullet's damping d (v <- v (1 - d)^dt before each step's solve) as rubble's rate c (1/s), which scales the
// velocity by 1 / (1 + h c) in each of a step's n substeps (core/kernels/integrate.h, h = dt / n). Equal
// factors over the step: (1 + h c)^-n = (1 - d)^dt, so 1 + h c = (1 - d)^-h, c = expm1(-h ln(1 - d)) / h.
// At dt = 1/60 the step's factors are bench-scenes.md's 0.999145477 (d = 0.05) and 0.968875977 (d = 0.85)
// for any n; the rate differs with n (soft, n = 4: 0.0512988 and 1.90464 1/s), so it is set from the
// world's time step and substeps when the scene is built.
static float damping_rate(double d, double h)
{
    return d > 0.0 ? (float)(expm1(-h * log1p(-d)) / h) : 0.0f;
}

// One body of a jointed scene: a capsule (along local y, half length L / 2) or a sphere, with the scene's
// mass and inertia set exactly (a capsule's shape-derived inertia would be rubble's own formula).
static rb_status build_jointed_body(rb_world_id w, const scn_body *b, double h, rb_body_list *l)
{
    rb_body_def def = rb_default_body_def();
    def.type = RB_BODY_DYNAMIC;
    def.position = scn_to_vec3(b->position);
    def.rotation = (rb_quat){(float)b->orientation.x, (float)b->orientation.y, (float)b->orientation.z,
                             (float)b->orientation.w};
    def.mass = (float)b->mass;
    def.linear_damping = damping_rate(b->linear_damping, h);
    def.angular_damping = damping_rate(b->angular_damping, h);
    rb_gen_shape shape = {.radius = (float)b->radius, .def = standard_material()};
    if (b->shape == SCN_CAPSULE) {
        shape.type = RB_SHAPE_CAPSULE;
        shape.half_length = (float)(0.5 * b->length);
    } else {
        shape.type = RB_SHAPE_SPHERE;
    }
    rb_status s = rb_generate_body(w, &def, &shape, l);
    if (s != RB_OK)
        return s;
    rb_mass_data m = {.mass = (float)b->mass, .inertia = scn_to_vec3(b->inertia)};
    return rb_body_set_mass_data(l->ids[l->count - 1], &m);
}

// One joint of a jointed scene. The frame's axes are passed so that rubble's frame is the scene's:
// a hinge's axis is ẑ and a cone-twist's x̂, and ŷ is the reference axis in both.
static rb_status build_scene_joint(rb_world_id w, const scn_joint *j, const rb_body_id *bodies, rb_joint_id *out)
{
    rb_joint_def def;
    switch (j->type) {
    case SCN_HINGE:
        def = rb_default_hinge_joint_def();
        def.axis = scn_to_vec3(scn_axis(j->frame, 2));
        def.enable_limit = true;
        def.lower = (float)j->lo;
        def.upper = (float)j->hi;
        break;
    case SCN_CONE_TWIST:
        def = rb_default_cone_twist_joint_def();
        def.axis = scn_to_vec3(scn_axis(j->frame, 0));
        def.swing_span1 = (float)j->swing; // the scene's cones are circular
        def.swing_span2 = (float)j->swing;
        def.twist_span = (float)j->twist;
        break;
    default:
        def = rb_default_ball_joint_def();
        break;
    }
    if (j->type != SCN_BALL)
        def.reference_axis = scn_to_vec3(scn_axis(j->frame, 1));
    def.body_a = j->body_a == SCN_WORLD ? rb_null_body_id : bodies[j->body_a];
    def.body_b = bodies[j->body_b];
    def.anchor = scn_to_vec3(j->anchor_a);
    // the ragdolls' two anchors are apart at creation, and must stay where the scene puts them
    def.separate_anchor_b = true;
    def.anchor_b = scn_to_vec3(j->anchor_b);
    return rb_create_joint(w, &def, out);
}

// chain and ragdolls (bench-scenes.md, "Jointed scenes"), from bench/compare/joint_scenes.h's data: the
// bodies in index order, then the joints; the ground only where the scene has one (not the chain).
static rb_status build_jointed(rb_world_id w, const char *name, rb_body_list *l)
{
    scn_scene sc;
    if (!scn_make(name, &sc))
        return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "'%s' is not a jointed scene", name);
    float dt = 0.0f;
    int substeps = 1;
    rb_status s = rb_world_get_time_step(w, &dt, &substeps);
    double h = (double)dt / substeps;
    if (s == RB_OK && sc.ground) {
        rb_shape_def ground = standard_material();
        s = rb_generate_ground(w, 0.0f, &ground, l);
    }
    int first = l->count, made = 0;
    rb_joint_id *joints = malloc((size_t)sc.joint_count * sizeof *joints);
    if (s == RB_OK && !joints)
        s = rb_fail_global(RB_ERR_OUT_OF_MEMORY, "out of memory for %d joint ids", sc.joint_count);
    for (int i = 0; s == RB_OK && i < sc.body_count; ++i)
        s = build_jointed_body(w, &sc.bodies[i], h, l);
    for (int k = 0; s == RB_OK && k < sc.joint_count; ++k)
        if ((s = build_scene_joint(w, &sc.joints[k], l->ids + first, &joints[k])) == RB_OK)
            ++made;
    // on failure the joints go newest first, so that their slots are handed out again in the same order
    // (destroying the bodies afterwards would free them in slot order)
    while (s != RB_OK && made > 0)
        rb_destroy_joint(joints[--made]);
    free(joints);
    scn_free(&sc);
    return s;
}

// "pile:S" -> S (1 .. 1000); anything else after "pile:" is an error.
static int parse_pile_size(const char *name, int *size)
{
    const char *digits = name + 5;
    char *end = NULL;
    errno = 0;
    long v = strtol(digits, &end, 10);
    if (errno || end == digits || *end != '\0' || v < 1 || v > 1000)
        return 0;
    *size = (int)v;
    return 1;
}

rb_status rb_build_standard_scene(rb_world_id w, const char *name, uint64_t seed)
{
    rb_status s;
    rb_world *world = rb_get_world(w, &s);
    if (!world)
        return s;
    if (!name)
        return rb_fail(world, RB_ERR_INVALID_ARGUMENT, "scene name must not be NULL");
    int pile_size = 0;
    enum { PYRAMID, STACK, PILE, BOXES, ROCKS, CHAIN, RAGDOLLS } kind;
    if (strcmp(name, "pyramid") == 0)
        kind = PYRAMID;
    else if (strcmp(name, "stack") == 0)
        kind = STACK;
    else if (strcmp(name, "pile") == 0)
        kind = PILE, pile_size = 20;
    else if (strncmp(name, "pile:", 5) == 0 && parse_pile_size(name, &pile_size))
        kind = PILE;
    else if (strcmp(name, "boxes") == 0)
        kind = BOXES;
    else if (strcmp(name, "rocks") == 0)
        kind = ROCKS;
    else if (strcmp(name, "chain") == 0)
        kind = CHAIN;
    else if (strcmp(name, "ragdolls") == 0)
        kind = RAGDOLLS;
    else
        return rb_fail(world, RB_ERR_INVALID_ARGUMENT,
                       "unknown standard scene '%s': expected pyramid, stack, pile, pile:S (S in 1..1000), boxes, "
                       "rocks, chain or ragdolls",
                       name);

    rb_vec3 old_gravity = world->settings.gravity;
    int body_slots = world->scene.body_slots, shape_slots = world->scene.shape_slots;
    rb_body_list created = {0};
    rb_hull_list hulls = {0};
    rb_lcg rng = {seed};
    if (kind == CHAIN || kind == RAGDOLLS) {
        s = build_jointed(w, name, &created); // adds its own ground, if any: the chain has none
    } else {
        rb_shape_def ground = standard_material();
        s = rb_generate_ground(w, 0.0f, &ground, &created);
        if (s == RB_OK) {
            switch (kind) {
            case PYRAMID: s = build_pyramid(w, &created); break;
            case STACK: s = build_stack(w, &created, &rng); break;
            case PILE: s = build_pile(w, pile_size, &created, &rng); break;
            case BOXES: s = build_boxes(w, &created, &rng); break;
            case ROCKS: s = build_rocks(w, &created, &hulls, &rng); break;
            default: break;
            }
        }
    }
    if (s == RB_OK)
        s = rb_world_set_gravity(w, (rb_vec3){0.0f, -9.81f, 0.0f});
    if (s != RB_OK) {
        // the generators record their errors on the thread (they may fail before touching the world)
        char msg[RB_ERROR_SIZE];
        rb_format(msg, sizeof msg, "%s", rb_last_error(rb_null_world_id));
        bool contacts_stale = world->contacts_stale;
        rb_body_list_destroy_all(&created);
        rb_hull_list_destroy_all(&hulls); // after the bodies whose shapes used them
        rb_trim_free_slots(world, body_slots, shape_slots);
        world->contacts_stale = contacts_stale; // nothing that was there before is gone
        world->settings.gravity = old_gravity;
        return rb_fail(world, s, "building scene '%s' failed, nothing was added: %s", name, msg);
    }
    rb_body_list_free(&created);
    rb_hull_list_free(&hulls);
    return RB_OK;
}
