// Read-back of the broad phase's candidate pairs (for cross-checking backends: `rubble check`).
#include "world.h"

static rb_status pairs_of(rb_world *w, const rb_pair **p, int *n)
{
    *p = NULL;
    *n = 0;
    if (w->contacts_stale || !w->ops->get_pairs)
        return RB_OK; // they named shapes that no longer exist
    rb_status s = w->ops->get_pairs(w->backend, p, n);
    if (s != RB_OK)
        return rb_fail(w, s, "backend '%s' could not return the pairs", w->ops->name);
    return RB_OK;
}

rb_status rb_world_get_pair_count(rb_world_id id, int *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_pair_count: out must not be NULL");
    const rb_pair *p;
    int n;
    if ((s = pairs_of(w, &p, &n)) != RB_OK)
        return s;
    *out = n;
    return RB_OK;
}

rb_status rb_world_get_pairs(rb_world_id id, int first, int count, rb_shape_pair *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    const rb_pair *p;
    int n;
    if ((s = pairs_of(w, &p, &n)) != RB_OK)
        return s;
    if (first < 0 || count < 0 || first > n || count > n - first)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_pairs: range [%d, %d + %d) is outside the %d pairs",
                       first, first, count, n);
    if (count > 0 && !out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_pairs: out must not be NULL");
    for (int i = 0; i < count; ++i) {
        out[i].shape_a = rb_make_shape_id(w, p[first + i].shape_a);
        out[i].shape_b = rb_make_shape_id(w, p[first + i].shape_b);
    }
    return RB_OK;
}
