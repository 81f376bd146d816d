// The standard benchmark scenes of docs/bench-scenes.md, built in code.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
    enum { PYRAMID, STACK, PILE, BOXES } kind;
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
    else
        return rb_fail(world, RB_ERR_INVALID_ARGUMENT,
                       "unknown standard scene '%s': expected pyramid, stack, pile, pile:S (S in 1..1000) or boxes", name);

    rb_vec3 old_gravity = world->settings.gravity;
    int body_slots = world->scene.body_slots, shape_slots = world->scene.shape_slots;
    rb_body_list created = {0};
    rb_lcg rng = {seed};
    rb_shape_def ground = standard_material();
    s = rb_generate_ground(w, 0.0f, &ground, &created);
    if (s == RB_OK) {
        switch (kind) {
        case PYRAMID: s = build_pyramid(w, &created); break;
        case STACK: s = build_stack(w, &created, &rng); break;
        case PILE: s = build_pile(w, pile_size, &created, &rng); break;
        case BOXES: s = build_boxes(w, &created, &rng); break;
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
        rb_trim_free_slots(world, body_slots, shape_slots);
        world->contacts_stale = contacts_stale; // nothing that was there before is gone
        world->settings.gravity = old_gravity;
        return rb_fail(world, s, "building scene '%s' failed, nothing was added: %s", name, msg);
    }
    rb_body_list_free(&created);
    return RB_OK;
}
