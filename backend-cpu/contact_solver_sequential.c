// solve_contacts for the sequential solver (Schornbaum 2010 §3.6-§3.8, Algorithms 9 and 10).
//
// Per batch: every contact closing faster than the resolution threshold goes into a container; the
// contact with the largest closing speed is resolved next (one impulse, rb_seq_resolve), and the
// contacts sharing one of its bodies are re-evaluated. This stops when nothing closes or after
// max_iterations x contacts resolutions; then, if contacts still close, shock propagation solves the
// batch level by level upward from the bodies that touch fixed bodies, freezing each level (infinite
// mass) once it is solved, so the weight of a pile reaches the ground in one pass.
//
// Levels follow what rests on what (GBF03, where shock propagation comes from): level 0 are the bodies
// resting on a fixed body (the contact lies in the direction of gravity from the body), level k+1 the
// bodies resting on a level-k body; without gravity, any contact counts. The thesis's wording, "in
// contact with a fixed body", would put a sphere touching a pen's WALL high up into level 0 and freeze
// it while it is still falling; the spheres below it are then squeezed between two frozen layers and
// no amount of iterations resolves them (measured: 70% of a pile's contacts left closing).
// Stage k solves the contacts between two level-k bodies and between a level-k body and a fixed or
// frozen body; contacts between levels k and k+1 are solved in stage k+1, when level k is frozen.
// See docs/solver-sequential.md.
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu_context.h"

// Does body b have infinite mass in contact k: a fixed body, or one frozen by shock propagation,
// except where contact k is two-way (a frozen body keeps its real mass there; see shock_propagation)?
static int infinite_for(const rb_cpu_ctx *c, int k, int b)
{
    return rb_seq_is_fixed(c, b) || (c->body_frozen[b] && !c->seq_two_way[k]);
}

// Body b as contact k sees it.
static rb_seq_body load_body(const rb_cpu_ctx *c, int k, int b)
{
    const rb_scene *s = c->scene;
    rb_seq_body r;
    r.v = rb_xyz(s->body_lin_vel[b]);
    r.w = rb_xyz(s->body_ang_vel[b]);
    if (infinite_for(c, k, b)) {
        r.inv_mass = 0.0f;
        r.inv_inertia = rb_mat3_zero();
    } else {
        r.inv_mass = s->body_inv_inertia_diag[b].w;
        r.inv_inertia = c->inv_inertia_world[b];
    }
    return r;
}

// Writes back a body that took an impulse through contact k; a sleeping body that takes one wakes up
// (wake rule 3), frozen (a two-way contact of shock propagation) or not: else it would sleep on with
// the velocity the impulse gave it (measured: 559 sleeping bodies with a velocity over 6 s of pe-well).
static void store_body(rb_cpu_ctx *c, int k, int b, const rb_seq_body *body)
{
    if (infinite_for(c, k, b))
        return;
    rb_scene *s = c->scene;
    s->body_lin_vel[b] = rb_f4_from3(body->v, 0.0f);
    s->body_ang_vel[b] = rb_f4_from3(body->w, 0.0f);
    s->body_flags[b] |= RB_BODY_AWAKE;
}

// ---- the violated contacts: a lazy binary heap keyed by (priority, index), or an unsorted array for
// small groups (a linear search beats the heap's bookkeeping there; Schornbaum 2010 §3.8).
//
// Lazy: an entry's key in the heap may be stale, but never lower in priority than the contact's true
// key. A contact whose priority rises is moved up at once; one whose priority falls (most of them:
// resolving a contact mostly relieves its neighbours) is left where it is, and fixed when it reaches
// the top — re-keyed and sunk, or dropped if it no longer violates. The order of resolution is exactly
// largest violation first (ties to the lower contact index), at a fraction of the heap work. ----

typedef struct closing_set {
    rb_cpu_ctx *c;
    int *items;
    float *keys; // heap: the key each entry is filed under (<= the contact's true key)
    int count;
    int heap;    // 1: lazy binary heap, 0: unsorted array
} closing_set;

static int entry_before(float ka, int a, float kb, int b)
{
    return ka < kb || (ka == kb && a < b);
}

static void place(closing_set *s, int i, int k, float key)
{
    s->items[i] = k;
    if (s->heap)
        s->keys[i] = key;
    s->c->seq_heap_pos[k] = i;
}

static void sift_up(closing_set *s, int i)
{
    int k = s->items[i];
    float key = s->keys[i];
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!entry_before(key, k, s->keys[parent], s->items[parent]))
            break;
        place(s, i, s->items[parent], s->keys[parent]);
        i = parent;
    }
    place(s, i, k, key);
}

static void sift_down(closing_set *s, int i)
{
    int k = s->items[i];
    float key = s->keys[i];
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        float mk = key;
        int mi = k;
        if (l < s->count && entry_before(s->keys[l], s->items[l], mk, mi)) {
            m = l;
            mk = s->keys[l];
            mi = s->items[l];
        }
        if (r < s->count && entry_before(s->keys[r], s->items[r], mk, mi))
            m = r;
        if (m == i)
            break;
        place(s, i, s->items[m], s->keys[m]);
        i = m;
    }
    place(s, i, k, key);
}

static void set_insert(closing_set *s, int k)
{
    place(s, s->count++, k, s->c->seq[k].key);
    if (s->heap)
        sift_up(s, s->count - 1);
}

static void remove_at(closing_set *s, int i)
{
    s->c->seq_heap_pos[s->items[i]] = -1;
    int last = --s->count;
    if (i == last)
        return;
    place(s, i, s->items[last], s->heap ? s->keys[last] : 0.0f);
    if (s->heap) {
        sift_up(s, i);
        sift_down(s, s->c->seq_heap_pos[s->items[i]]);
    }
}

// The true key of k (in the set) changed.
static void set_changed(closing_set *s, int k)
{
    if (!s->heap)
        return;
    int i = s->c->seq_heap_pos[k];
    float key = s->c->seq[k].key;
    if (key < s->keys[i]) { // priority rose: move up now
        s->keys[i] = key;
        sift_up(s, i);
    }
}

// The contact with the largest violation, taken out of the set; -1 if none is left.
static int set_pop_max(closing_set *s)
{
    if (!s->heap) {
        if (s->count == 0)
            return -1;
        int best = 0;
        for (int i = 1; i < s->count; ++i)
            if (entry_before(s->c->seq[s->items[i]].key, s->items[i], s->c->seq[s->items[best]].key, s->items[best]))
                best = i;
        int k = s->items[best];
        remove_at(s, best);
        return k;
    }
    while (s->count > 0) {
        int k = s->items[0];
        float key = s->c->seq[k].key;
        if (key == s->keys[0]) {
            remove_at(s, 0);
            return k;
        }
        if (key < 0.0f) { // stale: file it under its true key
            s->keys[0] = key;
            sift_down(s, 0);
        } else {
            remove_at(s, 0); // no longer violated
        }
    }
    return -1;
}

// ---- Algorithm 9 on a group of contacts ----

typedef struct group {
    const int *contacts;
    int count;
} group;

static rb_float3 relative_velocity_of(const rb_cpu_ctx *c, const rb_seq_contact *q)
{
    const rb_scene *s = c->scene;
    rb_float3 va = rb_add(rb_xyz(s->body_lin_vel[q->body_a]), rb_cross(rb_xyz(s->body_ang_vel[q->body_a]), q->ra));
    rb_float3 vb = rb_add(rb_xyz(s->body_lin_vel[q->body_b]), rb_cross(rb_xyz(s->body_ang_vel[q->body_b]), q->rb));
    return rb_sub(vb, va);
}

static float closing_of(const rb_cpu_ctx *c, const rb_seq_contact *q)
{
    return rb_dot(relative_velocity_of(c, q), q->normal);
}

// closing and slip of a contact from the bodies' current velocities; for a friction patch, its slip at
// the centroid, its spin and the sum of its points' normal impulses
static void measure(const rb_cpu_ctx *c, rb_seq_contact *q)
{
    rb_float3 u = relative_velocity_of(c, q);
    q->closing = rb_dot(u, q->normal);
    // A bouncy gap between two moving bodies that closes within this substep is an impact now, as if
    // touching (the soft solver's impact pass does the same): as a speculative stop, the balls of a
    // Newton's cradle hung 0.5 mm apart shared it (two pulled: 0.23, 0.55, 1.23 m/s out)
    if (q->cor > 0.0f && q->allowed > 0.0f && q->closing + q->allowed < 0.0f && !rb_seq_is_fixed(c, q->body_a) &&
        !rb_seq_is_fixed(c, q->body_b))
        q->allowed = 0.0f;
    rb_float3 ut = rb_mad(u, -q->closing, q->normal);
    const rb_scene *s = c->scene;
    if (q->patch_count == 0) {
        q->slip = rb_len(ut);
        if (q->radius > 0.0f)
            q->spin = rb_dot(rb_sub(rb_xyz(s->body_ang_vel[q->body_b]), rb_xyz(s->body_ang_vel[q->body_a])), q->normal);
        return;
    }
    q->slip_t = ut;
    q->spin = rb_dot(rb_sub(rb_xyz(s->body_ang_vel[q->body_b]), rb_xyz(s->body_ang_vel[q->body_a])), q->normal);
    float sr = q->spin * q->radius;
    q->slip = rb_sqrtf(rb_len_sq(ut) + sr * sr);
}

// A patch's normal impulse: the sum of its points' (then kept up to date as they are resolved).
static float patch_normal_impulse(const rb_cpu_ctx *c, const rb_seq_contact *q)
{
    float n = 0.0f;
    for (int i = 0; i < q->patch_count; ++i)
        n += c->seq[q->patch_first + i].normal_impulse;
    return n;
}

static int action_of(const rb_seq_contact *q, float threshold, float *size)
{
    return q->patch_count ? rb_seq_patch_action(q, threshold, size) : rb_seq_action(q, threshold, size);
}

static float violation_of(const rb_seq_contact *q, float threshold)
{
    float size;
    action_of(q, threshold, &size);
    return size;
}

// Re-evaluates the group's contacts of body x after contact k changed its velocity.
static void refresh_body(rb_cpu_ctx *c, closing_set *set, int k, int x, int stamp, float threshold)
{
    if (infinite_for(c, k, x))
        return; // its velocity did not change
    for (int e = c->body_contact_start[x]; e < c->body_contact_start[x + 1]; ++e) {
        int t = c->body_contacts[e];
        if (c->seq_epoch[t] != stamp)
            continue; // not in this group
        rb_seq_contact *q = &c->seq[t];
        measure(c, q);
        q->key = -violation_of(q, threshold);
        if (c->seq_heap_pos[t] >= 0)
            set_changed(set, t); // an entry that stopped violating is dropped when it surfaces
        else if (q->key < 0.0f)
            set_insert(set, t);
    }
}

// The approach speed a contact's gap allows in one substep. Gaps up to linear_slop count as touching:
// the bodies of a touching contact (a Newton's cradle, a resting body) are a rounding error apart,
// and a contact that is "speculative" by 1e-8 m would stop every impact instead of bouncing it.
static float allowed_approach(const rb_seq_contact *q, const rb_step_params *p)
{
    return q->separation > p->linear_slop ? q->separation * p->inv_dt : 0.0f;
}

// Resolves contact k as it stands (collision, friction or pull-back) and writes its bodies back.
static void resolve_one(rb_cpu_ctx *c, const rb_step_params *p, int k, float thr)
{
    rb_seq_contact *q = &c->seq[k];
    rb_seq_body a = load_body(c, k, q->body_a), b = load_body(c, k, q->body_b);
    if (!q->prepared) {
        if (!q->patch_count) // a patch makes its matrix when it is resolved
            rb_seq_prepare_matrices(q, &a, &b);
        q->prepared = 1;
    }
    float size, n0 = q->normal_impulse;
    if (q->patch_count)
        rb_seq_patch_resolve(q, &a, &b);
    else if (rb_seq_action(q, thr, &size) == RB_SEQ_PULL_BACK)
        rb_seq_pull_back(q, &a, &b);
    else
        rb_seq_resolve(q, p->restitution_threshold, &a, &b);
    if (q->patch >= 0) // its patch's cone follows
        c->seq[q->patch].normal_impulse += q->normal_impulse - n0;
    store_body(c, k, q->body_a, &a);
    store_body(c, k, q->body_b, &b);
}

// Sweeps over a manifold's points, once the largest violation is an impact of one of them that bounces:
// a box landing flat on its four corners, resolved a corner at a time, was turned by the first and
// rebounded to 0.0–1.6 e²H, spinning at up to 2.2 rad/s (30 heights; tests/test_restitution.c). Swept
// together until none is violated, the points agree on one launch, as in the shared restitution sweeps
// (core/kernels/contact_solver.h). Returns the number of resolutions.
#define RB_SEQ_PATCH_SWEEPS 16
static int resolve_patch_points(rb_cpu_ctx *c, const rb_step_params *p, int patch, int stamp, float thr)
{
    const rb_seq_contact *pq = &c->seq[patch];
    int done = 0;
    for (int i = 0; i < pq->patch_count; ++i) { // the approaches before any of them takes an impulse
        rb_seq_contact *q = &c->seq[pq->patch_first + i];
        if (c->seq_epoch[pq->patch_first + i] == stamp) {
            measure(c, q);
            q->approach = rb_minf(q->approach, q->closing);
        }
    }
    for (int sweep = 0; sweep < RB_SEQ_PATCH_SWEEPS; ++sweep) {
        int any = 0;
        for (int i = 0; i < pq->patch_count; ++i) {
            int k = pq->patch_first + i;
            if (c->seq_epoch[k] != stamp)
                continue; // not in this group
            rb_seq_contact *q = &c->seq[k];
            measure(c, q);
            float size;
            int act = rb_seq_action(q, thr, &size);
            // a bouncing point the others' impulses left slower than its launch is owed the rest
            if (act == RB_SEQ_NONE && q->launch > 0.0f && q->closing < q->launch - thr)
                act = RB_SEQ_RESOLVE;
            if (act == RB_SEQ_NONE)
                continue;
            resolve_one(c, p, k, thr);
            any = 1;
            ++done;
        }
        if (!any)
            break;
    }
    return done;
}

// Resolves the group's closing contacts, largest closing speed first, at most cap times. Returns 1 if
// contacts still close when it stops.
static int solve_group(rb_cpu_ctx *c, const rb_step_params *p, rb_seq_scratch *w, group g, float cap_factor,
                       int stamp, int *iterations)
{
    float thr = p->seq.resolution_threshold;
    closing_set set = {c, w->heap, w->heap_keys, 0, g.count > p->seq.heap_threshold};
    for (int i = 0; i < g.count; ++i)
        c->seq_epoch[g.contacts[i]] = stamp;
    for (int i = 0; i < g.count; ++i) {
        int k = g.contacts[i];
        rb_seq_contact *q = &c->seq[k];
        // the masses may differ from the last group's (frozen levels, two-way contacts): the frame and
        // matrices are made again, when the contact is first resolved
        q->prepared = 0;
        q->allowed = allowed_approach(q, p);
        measure(c, q);
        q->key = -violation_of(q, thr);
        c->seq_heap_pos[k] = -1;
        if (q->key < 0.0f)
            set_insert(&set, k);
    }
    double cap = (double)cap_factor * g.count;
    int done = 0;
    while (done < cap) {
        int k = set_pop_max(&set);
        if (k < 0)
            break;
        rb_seq_contact *q = &c->seq[k];
        // an impact that bounces: the manifold's points together; resting contacts one at a time, in
        // pe's order (the sweeps toppled a 1 : 100 : 10 000 kg tower)
        int impact = q->cor > 0.0f && (q->closing < -p->restitution_threshold || q->bounce > 0.0f ||
                                       q->launch > 0.0f || q->stopped > 0.0f);
        if (q->patch >= 0 && impact)
            done += resolve_patch_points(c, p, q->patch, stamp, thr);
        else {
            resolve_one(c, p, k, thr);
            ++done;
        }
        refresh_body(c, &set, k, q->body_a, stamp, thr);
        refresh_body(c, &set, k, q->body_b, stamp, thr);
    }
    int left = 0; // stopped at the cap with something still violated?
    for (int i = 0; i < set.count; ++i) {
        left |= c->seq[set.items[i]].key < 0.0f;
        c->seq_heap_pos[set.items[i]] = -1;
    }
    for (int i = 0; i < g.count; ++i)
        c->seq_epoch[g.contacts[i]] = 0;
    *iterations += done;
    return left;
}

// ---- Algorithm 10: shock propagation over the bodies of one batch or part ----

static int in_scope(const rb_cpu_ctx *c, int b, int batch, int part)
{
    return !rb_seq_is_fixed(c, b) && c->body_batch[b] == batch && (part < 0 || c->body_part[b] == part);
}

// Does body x rest on `other` through contact q: does the other body lie in the direction of gravity
// from x (any contact counts without gravity)?
static int rests_on(const rb_seq_contact *q, int x, rb_float3 gravity)
{
    if (rb_len_sq(gravity) == 0.0f)
        return 1;
    rb_float3 n_xo = q->body_a == x ? q->normal : rb_neg(q->normal);
    return rb_dot(n_xo, gravity) > 0.0f;
}

// Is contact q a support of body x steep enough to be solved against a frozen body: does the other
// body lie within 60 degrees of the direction of gravity from x (any contact without gravity)? A frozen
// body has infinite mass but keeps its velocity; a body pressed between two of them, or between a
// frozen neighbour and a wall, with normals far from opposite gravity, must "move out of the way" at
// a speed the closing speed divided by the sine of the small angle between the normals: in pile:8,
// spheres squeezed sideways were shot up at 150 m/s. Within 60 degrees, the escape speed is at most
// tan 60 = 1.7 times the closing speed; in flatter contacts the frozen body keeps its real mass
// (two-way), so the squeeze pushes both ways.
static int supported_by(const rb_seq_contact *q, int x, rb_float3 gravity)
{
    float g2 = rb_len_sq(gravity);
    if (g2 == 0.0f)
        return 1;
    rb_float3 n_xo = q->body_a == x ? q->normal : rb_neg(q->normal);
    float d = rb_dot(n_xo, gravity);
    return d > 0.0f && d * d >= 0.25f * g2; // cos >= 0.5, |n| = 1
}

static void shock_propagation(rb_cpu_ctx *c, const rb_step_params *p, rb_seq_scratch *w, const rb_seq_batch *bt,
                              int batch, int part, int *stamp, int *iterations)
{
    const int *bodies = &c->seq_batch_bodies[bt->first_body];
    int *fifo = w->touched, *order = w->queue, *stage = w->affected, *level_start = w->best;
    int n = 0;
    // supports of each body: its contacts resting on another body of the scope
    for (int i = 0; i < bt->body_count; ++i) {
        int x = bodies[i];
        if (!in_scope(c, x, batch, part))
            continue; // another part's body: that part's thread owns its fields
        int supports = 0;
        for (int e = c->body_contact_start[x]; e < c->body_contact_start[x + 1]; ++e) {
            int k = c->body_contacts[e];
            const rb_seq_contact *q = &c->seq[k];
            int other = q->body_a == x ? q->body_b : q->body_a;
            if ((part < 0 || c->seq_part[k] == part) && in_scope(c, other, batch, part) && rests_on(q, x, p->gravity))
                ++supports;
        }
        c->body_supports[x] = supports;
        c->body_level[x] = 0;
        if (supports == 0)
            fifo[n++] = x;
    }
    // level = the longest rests-on path down to a body that rests on nothing movable (Kahn's order),
    // so that every body is solved after all the bodies it rests on
    int levels = 1, head = 0;
    while (head < n) {
        int x = fifo[head++];
        if (c->body_level[x] + 1 > levels)
            levels = c->body_level[x] + 1;
        for (int e = c->body_contact_start[x]; e < c->body_contact_start[x + 1]; ++e) {
            int k = c->body_contacts[e];
            const rb_seq_contact *q = &c->seq[k];
            int other = q->body_a == x ? q->body_b : q->body_a;
            if ((part >= 0 && c->seq_part[k] != part) || !in_scope(c, other, batch, part) || !rests_on(q, other, p->gravity))
                continue;
            if (c->body_level[other] < c->body_level[x] + 1)
                c->body_level[other] = c->body_level[x] + 1;
            if (--c->body_supports[other] == 0)
                fifo[n++] = other;
        }
    }
    // bodies on a cycle of rests-on (possible with tilted boxes, not with spheres) form one last level
    int scoped = 0;
    for (int i = 0; i < bt->body_count; ++i) {
        int x = bodies[i];
        if (!in_scope(c, x, batch, part))
            continue;
        ++scoped;
        if (c->body_supports[x] > 0)
            c->body_level[x] = levels;
    }
    if (scoped > n)
        ++levels;
    // bodies by level (counting sort, batch order within a level)
    for (int l = 0; l <= levels; ++l)
        level_start[l] = 0;
    for (int i = 0; i < bt->body_count; ++i)
        if (in_scope(c, bodies[i], batch, part))
            ++level_start[c->body_level[bodies[i]] + 1];
    for (int l = 0; l < levels; ++l)
        level_start[l + 1] += level_start[l];
    for (int i = 0; i < bt->body_count; ++i)
        if (in_scope(c, bodies[i], batch, part))
            order[level_start[c->body_level[bodies[i]]]++] = bodies[i];
    for (int l = levels; l > 0; --l)
        level_start[l] = level_start[l - 1];
    level_start[0] = 0;

    for (int level = 0; level < levels; ++level) {
        int lo = level_start[level], hi = level_start[level + 1];
        // this level's contacts: within the level, or to a fixed or frozen (lower) body
        int ns = 0;
        ++*stamp;
        for (int i = lo; i < hi; ++i) {
            int x = order[i];
            for (int e = c->body_contact_start[x]; e < c->body_contact_start[x + 1]; ++e) {
                int k = c->body_contacts[e];
                if (c->seq_epoch[k] == *stamp || (part >= 0 && c->seq_part[k] != part))
                    continue;
                const rb_seq_contact *q = &c->seq[k];
                int other = q->body_a == x ? q->body_b : q->body_a;
                if (!in_scope(c, other, batch, part) || c->body_level[other] <= level) {
                    c->seq_epoch[k] = *stamp; // listed once
                    c->seq_two_way[k] = in_scope(c, other, batch, part) && c->body_level[other] < level &&
                                        !supported_by(q, x, p->gravity);
                    stage[ns++] = k;
                }
            }
        }
        // the masses of the bodies frozen so far changed: fresh matrices for this stage
        solve_group(c, p, w, (group){stage, ns}, p->seq.shock_iterations, ++*stamp, iterations);
        for (int i = 0; i < ns; ++i)
            c->seq_two_way[stage[i]] = 0;
        for (int i = lo; i < hi; ++i)
            c->body_frozen[order[i]] = 1;
    }
    for (int i = 0; i < scoped; ++i)
        c->body_frozen[order[i]] = 0;
}

static void warm_start(rb_cpu_ctx *c, const rb_step_params *p, const rb_seq_batch *bt);

// One batch, or one part of a split batch (part >= 0): the global resolution, then shock propagation
// if it stopped at its cap with contacts still closing.
static int solve_batch(rb_cpu_ctx *c, const rb_step_params *p, rb_seq_scratch *w, const rb_seq_batch *bt, int part)
{
    const int *contacts = &c->seq_batch_contacts[bt->first_contact];
    int n = bt->contact_count, iterations = 0, stamp = 1;
    group g = {contacts, n};
    if (part >= 0) {
        // this part's contacts, gathered in the scratch list (ascending)
        int m = 0;
        for (int i = 0; i < n; ++i)
            if (c->seq_part[contacts[i]] == part)
                w->best_affected[m++] = contacts[i];
        g = (group){w->best_affected, m};
    }
    int batch = c->body_batch[c->seq[contacts[0]].fixed_a ? c->seq[contacts[0]].body_b : c->seq[contacts[0]].body_a];
    if (part < 0)
        warm_start(c, p, bt); // a split batch's was done before its parts
    int left = solve_group(c, p, w, g, p->seq.max_iterations, ++stamp, &iterations);
    int shocked = 0;
    if (left && p->seq.shock_propagation) {
        shock_propagation(c, p, w, bt, batch, part, &stamp, &iterations);
        shocked = 1;
        // Frozen levels can leave a contact closing that no stage could open: a body squeezed between
        // a wall and a frozen neighbour moving towards it. With every mass restored, a last pass of
        // the global resolution settles those between the two bodies themselves.
        if (p->seq.settle_iterations > 0.0f)
            solve_group(c, p, w, g, p->seq.settle_iterations, ++stamp, &iterations);
    }
#pragma omp atomic
    c->seq_iterations += iterations;
    return shocked;
}

// The seam of a split batch, after its parts: the whole batch with every body free, for a budget of
// max_iterations x the seam's contacts (docs/solver-sequential.md).
static void solve_seam(rb_cpu_ctx *c, const rb_step_params *p, const rb_seq_batch *bt)
{
    const int *contacts = &c->seq_batch_contacts[bt->first_contact];
    int seam = 0, iterations = 0, stamp = 1;
    for (int i = 0; i < bt->contact_count; ++i)
        seam += c->seq_part[contacts[i]] < 0;
    float cap = p->seq.max_iterations * (float)seam / (float)bt->contact_count;
    solve_group(c, p, &c->scratch[0], (group){contacts, bt->contact_count}, cap, ++stamp, &iterations);
    c->seq_iterations += iterations;
}

// Impulses and corrected contact geometry back to the manifolds (contact read-back). A manifold's
// points are its edge's rows: the consecutive contacts from the edge's first row.
static void store_contacts(rb_cpu_ctx *c)
{
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int i = 0; i < c->manifold_count; ++i) {
        rb_contact_manifold *m = &c->manifolds[i];
        int first = c->edges[i].first_row; // contact edge i is manifold i
        // a patch's friction is shared by its points in proportion to their normal impulses (its
        // torsion is not shown)
        int patch = c->seq_manifold_patch[i];
        rb_float3 fp = rb_f3(0.0f, 0.0f, 0.0f);
        float np = 0.0f;
        if (patch >= 0) {
            fp = c->seq[patch].impulse;
            for (int j = 0; j < m->m.count; ++j)
                np += rb_maxf(c->seq[first + j].normal_impulse, 0.0f);
        }
        for (int j = 0; j < m->m.count; ++j) {
            const rb_seq_contact *q = &c->seq[first + j];
            float in = rb_dot(q->impulse, q->normal);
            rb_float3 friction = rb_mad(q->impulse, -in, q->normal);
            if (patch >= 0) {
                float share = np > 0.0f ? rb_maxf(q->normal_impulse, 0.0f) / np : 1.0f / (float)m->m.count;
                friction = rb_add(friction, rb_scale(fp, share));
            }
            rb_contact_manifold_set_impulse(m, j, in, friction);
            m->m.points[j].point = q->point;
            m->m.points[j].separation = q->separation;
            m->carried_impact[j] = q->stopped; // the narrow phase hands it to next substep's contact
        }
    }
}

// Warm start (rubble's addition to pe): every contact first applies the impulse its point ended the
// last substep with, so a resting stack or pile starts each substep near its solution instead of from
// the bare gravity velocity; the resolution then corrects what changed, and pull-backs take back what
// is no longer needed. One pass over a batch's contacts in ascending order, by the thread that solves
// the batch: each body sums its contacts' impulses in the same order whatever the threads (a batch's
// contacts touch only its own bodies and fixed ones). A contact touching a sleeping body starts from
// zero, so warm starting wakes nobody.
static void warm_start(rb_cpu_ctx *c, const rb_step_params *p, const rb_seq_batch *bt)
{
    const rb_scene *s = c->scene;
    int enabled = p->seq.warm_start;
    const int *contacts = &c->seq_batch_contacts[bt->first_contact];
    for (int i = 0; i < bt->contact_count; ++i) {
        int k = contacts[i];
        rb_seq_contact *q = &c->seq[k];
        int asleep = (!q->fixed_a && !(s->body_flags[q->body_a] & RB_BODY_AWAKE)) ||
                     (!q->fixed_b && !(s->body_flags[q->body_b] & RB_BODY_AWAKE));
        if (q->patch_count) { // starts cold (warm, the 20-box stack toppled); its cone is its points',
            q->friction1 = q->friction2 = q->twist = 0.0f; // which come first (lower indices)
            q->impulse = rb_f3(0.0f, 0.0f, 0.0f);
            q->normal_impulse = patch_normal_impulse(c, q);
            continue;
        }
        if (!enabled || asleep || q->normal_impulse <= 0.0f) {
            q->normal_impulse = q->friction1 = q->friction2 = q->twist = 0.0f;
            q->impulse = rb_f3(0.0f, 0.0f, 0.0f);
            continue;
        }
        rb_seq_body a = load_body(c, k, q->body_a), b = load_body(c, k, q->body_b);
        rb_seq_apply(q, q->impulse, &a, &b);
        store_body(c, k, q->body_a, &a);
        store_body(c, k, q->body_b, &b);
    }
}

// The anchors of every contact (the bodies do not move while the solver runs).
static void anchor_all(rb_cpu_ctx *c)
{
    const rb_scene *s = c->scene;
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int k = 0; k < c->seq_count; ++k) {
        rb_seq_contact *q = &c->seq[k];
        rb_seq_anchor(q, rb_xyz(s->body_pos[q->body_a]), rb_xyz(s->body_pos[q->body_b]));
    }
}

// The guard before a step's first move (RB_STAGE_GUARD, core/step.c) stores no impulses: the step's
// own detection warm-starts from the same impulses it would have without the guard. Only the impact a
// speculative stop took is kept, for the bounce owed once the contact touches.
static void keep_stops(rb_cpu_ctx *c)
{
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int i = 0; i < c->manifold_count; ++i) {
        rb_contact_manifold *m = &c->manifolds[i];
        int first = c->edges[i].first_row;
        for (int j = 0; j < m->m.count; ++j)
            m->carried_impact[j] = rb_maxf(m->carried_impact[j], c->seq[first + j].stopped);
    }
}

// After pe's resolution, rounds of joint passes (a third of the iterations each) and resolution again
// of what they left closing: block Gauss-Seidel between the joint rows and pe's contacts. pe gives
// each contact its whole impulse at once, so with the joints only before it a limb struck on a step
// kept its joints open (a ragdoll down stairs: anchors 5.6 cm apart, limits 8.5° past at 4 substeps;
// with one round 2.8 cm; with four of half the iterations and the correction moving joined bodies
// together 4.5 mm and 0.9°, of a third 4.4 mm and 0.6° at 26 passes a substep instead of 30).
#define RB_SEQ_JOINT_ROUNDS 4

static void joint_rounds(rb_cpu_ctx *c, const rb_step_params *p, const rb_joint_settings *jst)
{
    int third = (p->iterations + 2) / 3, iterations = 0;
#pragma omp parallel num_threads(c->team) reduction(+ : iterations)
    for (int r = 0; r < RB_SEQ_JOINT_ROUNDS; ++r) {
        if (r > 0) {
#pragma omp for schedule(dynamic, 1)
            for (int i = 0; i < c->batch_count; ++i) {
                const rb_seq_batch *bt = &c->batches[i];
                group g = {&c->seq_batch_contacts[bt->first_contact], bt->contact_count};
                int used = 0;
                solve_group(c, p, rb_seq_my_scratch(c), g, p->seq.max_iterations, (1 << 28) + r, &used);
                iterations += used;
            }
        }
        for (int it = 0; it < third; ++it)
            rb_cpu_joints_solve(c, jst);
    }
    c->seq_iterations += iterations;
}

void rb_seq_solve(rb_cpu_ctx *c, const rb_step_params *p)
{
    // the guard: the contacts that close faster than their gaps allow are resolved from rest (no warm
    // start: the impulses of the last substep are applied once, by the step's own resolution)
    rb_step_params cold;
    int guard = p->stage == RB_STAGE_GUARD;
    if (guard) {
        cold = *p;
        cold.seq.warm_start = false;
        p = &cold;
    }
    anchor_all(c);
    // group membership stamps start clean (penetration correction used the same array)
    memset(c->seq_epoch, 0, sizeof *c->seq_epoch * (size_t)c->seq_count);
    c->seq_iterations = 0;
    c->seq_shock_batches = 0;
    int shocked = 0;
    // joints first (pe resolves contacts one at a time; equality rows have no closing speed to order
    // by): Gauss-Seidel passes with the Baumgarte bias, then the contacts see the joints' velocities
    rb_joint_settings jst = rb_cpu_joint_settings(p, RB_JOINT_PASS_RIGID);
    if (!guard && c->joint_edge_count > 0) {
        rb_cpu_color_joints(c);
#pragma omp parallel num_threads(c->team)
        {
            rb_cpu_joints_warm_start(c, &jst);
            for (int it = 0; it < p->iterations; ++it)
                rb_cpu_joints_solve(c, &jst);
        }
    }
    // split batches: their parts in parallel, then the seam
    for (int i = 0; i < c->batch_count; ++i) {
        const rb_seq_batch *bt = &c->batches[i];
        if (bt->parts <= 1)
            continue;
        warm_start(c, p, bt);
#pragma omp parallel for schedule(dynamic, 1) num_threads(c->team) reduction(+ : shocked)
        for (int part = 0; part < bt->parts; ++part)
            shocked += solve_batch(c, p, rb_seq_my_scratch(c), bt, part);
        solve_seam(c, p, bt);
    }
    // whole batches: the large ones handed out largest first, the small ones statically (Schornbaum 2010 §4)
    int n = c->batch_count, next = 0, large_end = 0;
    while (large_end < n && c->batches[large_end].contact_count >= p->seq.large_batch)
        ++large_end;
#pragma omp parallel num_threads(c->team) reduction(+ : shocked)
    {
        rb_seq_scratch *w = rb_seq_my_scratch(c);
        for (;;) {
            int i;
#pragma omp atomic capture
            i = next++;
            if (i >= large_end)
                break;
            if (c->batches[i].parts <= 1)
                shocked += solve_batch(c, p, w, &c->batches[i], -1);
        }
#pragma omp for schedule(static)
        for (int i = large_end; i < n; ++i)
            shocked += solve_batch(c, p, w, &c->batches[i], -1);
    }
    c->seq_shock_batches = shocked;
    if (!guard && c->joint_edge_count > 0 && c->batch_count > 0) // without contacts the passes before suffice
        joint_rounds(c, p, &jst);
    int unresolved = 0;
    float thr = p->seq.resolution_threshold;
#pragma omp parallel for schedule(static) num_threads(c->team) reduction(+ : unresolved)
    for (int k = 0; k < c->seq_count; ++k) {
        const rb_seq_contact *q = &c->seq[k];
        float allowed = allowed_approach(q, p);
        unresolved += closing_of(c, q) + allowed < -thr;
    }
    c->seq_unresolved = unresolved;
    if (guard) {
        keep_stops(c);
    } else {
        store_contacts(c);
        rb_cpu_joints_finish(c, p->inv_dt);
    }
}
