// A snapshot of every live body (see body_state.h).
#include "body_state.h"

#include <stdlib.h>
#include <string.h>

const char *body_type_name(rb_body_type type)
{
    switch (type) {
    case RB_BODY_STATIC: return "static";
    case RB_BODY_KINEMATIC: return "kinematic";
    case RB_BODY_DYNAMIC: return "dynamic";
    }
    return "unknown";
}

void body_state_free(body_state *s)
{
    free(s->slot);
    free(s->type);
    free(s->transform);
    free(s->linear);
    free(s->angular);
    memset(s, 0, sizeof *s);
}

int body_state_count_type(const body_state *s, rb_body_type type)
{
    int n = 0;
    for (int i = 0; i < s->count; ++i)
        n += s->type[i] == type;
    return n;
}

rb_status body_state_read(rb_world_id world, body_state *out)
{
    memset(out, 0, sizeof *out);
    rb_counters c;
    rb_status st = rb_world_get_counters(world, &c);
    if (st != RB_OK)
        return st;
    size_t n = c.body_slots > 0 ? (size_t)c.body_slots : 1;
    out->slot = malloc(n * sizeof *out->slot);
    out->type = malloc(n * sizeof *out->type);
    out->transform = malloc(n * sizeof *out->transform);
    out->linear = malloc(n * sizeof *out->linear);
    out->angular = malloc(n * sizeof *out->angular);
    if (!out->slot || !out->type || !out->transform || !out->linear || !out->angular) {
        body_state_free(out);
        return RB_ERR_OUT_OF_MEMORY;
    }
    // Live slots, then one bulk read per run of consecutive live slots.
    int count = 0;
    for (int slot = 0; slot < c.body_slots; ++slot) {
        rb_body_id id;
        if (rb_world_get_body_id(world, slot, &id) != RB_OK)
            continue; // a freed slot
        if ((st = rb_body_get_type(id, &out->type[count])) != RB_OK) {
            body_state_free(out);
            return st;
        }
        out->slot[count++] = slot;
    }
    out->count = count;
    for (int i = 0; i < count;) {
        int j = i + 1;
        while (j < count && out->slot[j] == out->slot[j - 1] + 1)
            ++j;
        st = rb_world_get_transforms(world, out->slot[i], j - i, out->transform + i);
        if (st == RB_OK)
            st = rb_world_get_velocities(world, out->slot[i], j - i, out->linear + i, out->angular + i);
        if (st != RB_OK) {
            body_state_free(out);
            return st;
        }
        i = j;
    }
    return RB_OK;
}

static int hull_id_cmp(const void *a, const void *b)
{
    const rb_hull_id *x = a, *y = b;
    if (x->index1 != y->index1)
        return x->index1 < y->index1 ? -1 : 1;
    return (x->generation > y->generation) - (x->generation < y->generation);
}

rb_status body_state_count_hulls(rb_world_id world, const body_state *s, int *hulls, int *convex_shapes)
{
    *hulls = *convex_shapes = 0;
    rb_hull_id *ids = NULL;
    rb_shape_id *shapes = NULL;
    int count = 0, capacity = 0, room = 0;
    rb_status st = RB_OK;
    for (int i = 0; i < s->count && st == RB_OK; ++i) {
        rb_body_id body;
        int n = 0;
        if ((st = rb_world_get_body_id(world, s->slot[i], &body)) != RB_OK ||
            (st = rb_body_get_shape_count(body, &n)) != RB_OK)
            break;
        if (n > room) {
            rb_shape_id *p = realloc(shapes, (size_t)n * sizeof *p);
            if (!p) {
                st = RB_ERR_OUT_OF_MEMORY;
                break;
            }
            shapes = p;
            room = n;
        }
        if (n > 0 && (st = rb_body_get_shapes(body, shapes, n, NULL)) != RB_OK)
            break;
        for (int k = 0; k < n && st == RB_OK; ++k) {
            rb_shape_type type;
            rb_convex convex;
            if ((st = rb_shape_get_type(shapes[k], &type)) != RB_OK || type != RB_SHAPE_CONVEX ||
                (st = rb_shape_get_convex(shapes[k], &convex)) != RB_OK)
                continue;
            if (count == capacity) {
                int cap = capacity ? 2 * capacity : 64;
                rb_hull_id *p = realloc(ids, (size_t)cap * sizeof *p);
                if (!p) {
                    st = RB_ERR_OUT_OF_MEMORY;
                    break;
                }
                ids = p;
                capacity = cap;
            }
            ids[count++] = convex.hull;
        }
    }
    if (st == RB_OK) {
        if (count > 1) // ids is NULL when there are none
            qsort(ids, (size_t)count, sizeof *ids, hull_id_cmp);
        for (int i = 0; i < count; ++i)
            *hulls += i == 0 || hull_id_cmp(&ids[i - 1], &ids[i]) != 0;
        *convex_shapes = count;
    }
    free(ids);
    free(shapes);
    return st;
}
