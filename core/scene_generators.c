// Generators of bodies: grids, pyramids, pens (see scene_generators.h).
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
    case RB_SHAPE_PLANE:
        break;
    }
    return rb_fail_global(RB_ERR_INVALID_ARGUMENT, "generated bodies take a sphere, capsule or box, got shape type %d",
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
                def.rotation = (rb_quat){0.0f, 0.0f, 0.0f, 1.0f};
                if (g->random_rotation) {
                    double ax = 2.0 * rb_lcg_next(rng) - 1.0;
                    double ay = 2.0 * rb_lcg_next(rng) - 1.0;
                    double az = 2.0 * rb_lcg_next(rng) - 1.0;
                    double angle = 3.14159265358979323846 * rb_lcg_next(rng);
                    double len = sqrt(ax * ax + ay * ay + az * az);
                    if (len > 0.0) {
                        double sn = sin(0.5 * angle) / len;
                        def.rotation = (rb_quat){(float)(ax * sn), (float)(ay * sn), (float)(az * sn),
                                                 (float)cos(0.5 * angle)};
                    }
                }
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
