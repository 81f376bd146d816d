// Allocation and change tracking of the structure-of-arrays scene.
#include <stdlib.h>
#include <string.h>

#include "scene.h"

// Grows *p from old_n to new_n elements of `size` bytes, zero-filling the new part. All-or-nothing
// is handled by the callers: they grow into temporaries first.
static void *grow(void *p, size_t old_n, size_t new_n, size_t size)
{
    void *q = realloc(p, new_n * size);
    if (!q)
        return NULL;
    memset((char *)q + old_n * size, 0, (new_n - old_n) * size);
    return q;
}

#define BODY_ARRAYS(X)                                                                             \
    X(body_pos, 1) X(body_rot, 1) X(body_lin_vel, 1) X(body_ang_vel, 1) X(body_force, 1)           \
    X(body_torque, 1) X(body_local_center, 1) X(body_inertia_diag, 1) X(body_inertia_offdiag, 1)   \
    X(body_inv_inertia_diag, 1) X(body_inv_inertia_offdiag, 1) X(body_params, 1) X(body_flags, 1)  \
    X(body_sleep_group, 1)

#define SHAPE_ARRAYS(X)                                                                            \
    X(shape_body, 1) X(shape_type, 1) X(shape_local_pos, 1) X(shape_local_rot, 1)                  \
    X(shape_params, 1) X(shape_material, 1) X(shape_filter, 2)

int rb_scene_reserve_bodies(rb_scene *s, int capacity)
{
    if (capacity <= s->body_capacity)
        return 1;
    int old = s->body_capacity;
    // realloc each array; on failure the arrays already grown keep a larger capacity, which is harmless
#define GROW(name, per)                                                                            \
    {                                                                                              \
        void *q = grow(s->name, (size_t)old * (per), (size_t)capacity * (per), sizeof *s->name);   \
        if (!q)                                                                                    \
            return 0;                                                                              \
        s->name = q;                                                                               \
    }
    BODY_ARRAYS(GROW)
#undef GROW
    s->body_capacity = capacity;
    return 1;
}

int rb_scene_reserve_shapes(rb_scene *s, int capacity)
{
    if (capacity <= s->shape_capacity)
        return 1;
    int old = s->shape_capacity;
#define GROW(name, per)                                                                            \
    {                                                                                              \
        void *q = grow(s->name, (size_t)old * (per), (size_t)capacity * (per), sizeof *s->name);   \
        if (!q)                                                                                    \
            return 0;                                                                              \
        s->name = q;                                                                               \
    }
    SHAPE_ARRAYS(GROW)
#undef GROW
    s->shape_capacity = capacity;
    return 1;
}

void rb_scene_free(rb_scene *s)
{
#define FREE(name, per) free(s->name);
    BODY_ARRAYS(FREE)
    SHAPE_ARRAYS(FREE)
#undef FREE
    free(s->joints);
    free(s->hull_pool);
    memset(s, 0, sizeof *s);
}

void rb_scene_mark_body(rb_scene *s, int body, uint32_t what)
{
    if (!(s->dirty & (RB_DIRTY_BODY_STATE | RB_DIRTY_BODY_PROPS))) {
        s->dirty_body_lo = body;
        s->dirty_body_hi = body + 1;
    } else {
        if (body < s->dirty_body_lo)
            s->dirty_body_lo = body;
        if (body + 1 > s->dirty_body_hi)
            s->dirty_body_hi = body + 1;
    }
    s->dirty |= what;
}

void rb_scene_mark_shape(rb_scene *s, int shape)
{
    if (!(s->dirty & RB_DIRTY_SHAPES)) {
        s->dirty_shape_lo = shape;
        s->dirty_shape_hi = shape + 1;
    } else {
        if (shape < s->dirty_shape_lo)
            s->dirty_shape_lo = shape;
        if (shape + 1 > s->dirty_shape_hi)
            s->dirty_shape_hi = shape + 1;
    }
    s->dirty |= RB_DIRTY_SHAPES;
}

void rb_scene_clear_dirty(rb_scene *s)
{
    s->dirty = 0;
    s->dirty_body_lo = s->dirty_body_hi = 0;
    s->dirty_shape_lo = s->dirty_shape_hi = 0;
}
