// Shock-propagation levels over the constraint graph (soft solver): which body rests on which, and in
// which order a pass from the ground up visits them.
//
// An edge is a support when its normal is within 60° of the vertical: the body below carries the one
// above. Level 1 is every moving body carried by something fixed (static, kinematic, frozen), level
// k + 1 what a level-k body carries; bodies that nothing fixed carries (a free cluster, anything in
// zero gravity) get no level and no shock pass. Each body keeps the list of its supports from lower
// levels, so a level's bodies are independent: the pass over one level is one parallel loop, each
// body solving its own supports against the already final velocities below it.
#include <string.h>

#include "cpu_context.h"

// cos 60°: steeper normals do not carry (a box leaning on a wall is not supported by it)
#define SUPPORT_COS 0.5f
// m: a manifold whose nearest point is further apart carries nothing yet
#define SUPPORT_GAP 0.001f

static int grow_int(int **a, int *cap, int n) { return rb_cpu_reserve((void **)a, cap, n, sizeof **a); }

// The lower body of constraint j if it is a support (-2 for a fixed lower body), else -1; *upper gets
// the carried body and *fixed_a whether A is the lower one.
static int support_of(const rb_cpu_ctx *c, int j, rb_float3 up, int *upper, int *fixed_a)
{
    const rb_contact_constraint *k = &c->constraints[j];
    float d = rb_dot(k->normal, up);
    // the normal points from A to B: d > 0 puts B above A
    int lower_is_a = d > SUPPORT_COS;
    if (!lower_is_a && !(d < -SUPPORT_COS))
        return -1;
    // only touching manifolds carry: a speculative contact a gap away would make a body skip the
    // levels between (plates 2 mm thick are all within the contact margin of the bottom one)
    float gap = RB_FLT_MAX;
    for (int i = 0; i < k->count; ++i)
        gap = rb_minf(gap, c->points[k->first_point + i].separation);
    if (gap > SUPPORT_GAP)
        return -1;
    int lo = lower_is_a ? k->body_a : k->body_b, hi = lower_is_a ? k->body_b : k->body_a;
    float im_lo = lower_is_a ? k->inv_mass_a : k->inv_mass_b, im_hi = lower_is_a ? k->inv_mass_b : k->inv_mass_a;
    if (hi < 0 || im_hi == 0.0f)
        return -1; // nothing to carry
    *upper = hi;
    *fixed_a = lower_is_a;
    return (lo < 0 || im_lo == 0.0f) ? -2 : lo;
}

rb_status rb_cpu_build_shock_levels(rb_cpu_ctx *c, rb_float3 gravity)
{
    int nb = c->scene->body_slots, n = c->manifold_count;
    c->shock_levels = 0;
    float g = rb_len(gravity);
    if (g < 1e-6f || n == 0)
        return RB_OK;
    rb_float3 up = rb_scale(gravity, -1.0f / g);
    if (!grow_int(&c->shock_level, &c->shock_level_cap, nb) || !grow_int(&c->shock_carry_start, &c->shock_carry_start_cap, nb + 1) ||
        !grow_int(&c->shock_carry, &c->shock_carry_cap, n) || !grow_int(&c->shock_order, &c->shock_order_cap, nb) ||
        !grow_int(&c->shock_support_start, &c->shock_support_start_cap, nb + 1) ||
        !grow_int(&c->shock_supports, &c->shock_supports_cap, n) || !grow_int(&c->shock_edge, &c->shock_edge_cap, 2 * n))
        return RB_ERR_OUT_OF_MEMORY;
    // each constraint's answer once: the loops below read it three times
    int *edge = c->shock_edge;
    for (int j = 0; j < n; ++j) {
        int hi = 0, fa = 0;
        edge[2 * j] = support_of(c, j, up, &hi, &fa);
        edge[2 * j + 1] = hi * 2 + fa;
    }
    int *level = c->shock_level, *cs = c->shock_carry_start;
    // what each body carries (CSR over lower bodies), and level 1
    memset(cs, 0, sizeof *cs * (size_t)(nb + 1));
    for (int b = 0; b < nb; ++b)
        level[b] = -1;
    int *queue = c->shock_order, qn = 0;
    for (int j = 0; j < n; ++j) {
        int lo = edge[2 * j], hi = edge[2 * j + 1] >> 1;
        if (lo >= 0)
            cs[lo + 1]++;
        else if (lo == -2 && level[hi] < 0) {
            level[hi] = 1;
            queue[qn++] = hi;
        }
    }
    for (int b = 0; b < nb; ++b)
        cs[b + 1] += cs[b];
    int *fill = c->shock_support_start; // scratch for the fill
    memcpy(fill, cs, sizeof *fill * (size_t)nb);
    for (int j = 0; j < n; ++j) {
        int lo = edge[2 * j], hi = edge[2 * j + 1] >> 1;
        if (lo >= 0)
            c->shock_carry[fill[lo]++] = hi;
    }
    // breadth first from level 1: the queue ends in level order
    for (int i = 0; i < qn; ++i) {
        int b = queue[i];
        for (int e = cs[b]; e < cs[b + 1]; ++e) {
            int u = c->shock_carry[e];
            if (level[u] < 0) {
                level[u] = level[b] + 1;
                queue[qn++] = u;
            }
        }
    }
    if (qn == 0)
        return RB_OK;
    // the queue is in level order but depends on constraint order only: deterministic
    int levels = level[queue[qn - 1]];
    if (!grow_int(&c->shock_level_start, &c->shock_level_start_cap, levels + 2))
        return RB_ERR_OUT_OF_MEMORY;
    for (int l = 0; l <= levels + 1; ++l)
        c->shock_level_start[l] = qn;
    for (int i = qn - 1; i >= 0; --i)
        c->shock_level_start[level[queue[i]] - 1] = i;
    // supports of each levelled body from strictly lower levels (CSR in queue order); fixed supports
    // are lower than everything
    int *pos = c->shock_carry_start; // reused: queue position of each body
    for (int i = 0; i < qn; ++i)
        pos[queue[i]] = i;
    int *ss = c->shock_support_start;
    memset(ss, 0, sizeof *ss * (size_t)(qn + 1));
    for (int j = 0; j < n; ++j) {
        int lo = edge[2 * j], hi = edge[2 * j + 1] >> 1;
        if (lo == -1 || level[hi] < 0)
            continue;
        if (lo == -2 || (level[lo] >= 0 && level[lo] < level[hi]))
            ss[pos[hi] + 1]++;
    }
    for (int i = 0; i < qn; ++i)
        ss[i + 1] += ss[i];
    int *f2 = c->shock_level; // the levels are no longer needed after this loop's test: keep a copy
    for (int j = 0, k; j < n; ++j) {
        int lo = edge[2 * j], hi = edge[2 * j + 1] >> 1, fa = edge[2 * j + 1] & 1;
        if (lo == -1 || f2[hi] < 0)
            continue;
        if (lo == -2 || (f2[lo] >= 0 && f2[lo] < f2[hi])) {
            k = ss[pos[hi]]++;
            c->shock_supports[k] = j * 2 + fa;
        }
    }
    for (int i = qn; i > 0; --i)
        ss[i] = ss[i - 1];
    ss[0] = 0;
    c->shock_levels = levels;
    c->shock_bodies = qn;
    return RB_OK;
}
