// build_batches for the sequential solver: one contact per manifold point (an edge's rows), the
// adjacency of the bodies and batches of touching bodies over the constraint graph's edges (Schornbaum 2010
// §3.1: fixed bodies are barriers), their schedule, and the spatial parts of very large batches.
#include <stdlib.h>
#include <string.h>

#include "cpu_context.h"

int rb_seq_is_fixed(const rb_cpu_ctx *c, int b)
{
    // static and kinematic bodies have infinite mass; frozen ones are out of the simulation
    uint32_t f = c->scene->body_flags[b];
    return (f & RB_BODY_TYPE_MASK) != RB_BODY_DYNAMIC_T || (f & RB_BODY_FROZEN);
}

// Grows an array indexed by body slot to `n`; new entries are zero.
static int grow_body_array(void **p, int old_n, int n, size_t elem)
{
    void *q = realloc(*p, (size_t)n * elem);
    if (!q)
        return 0;
    memset((char *)q + (size_t)old_n * elem, 0, (size_t)(n - old_n) * elem);
    *p = q;
    return 1;
}

static int reserve_bodies(rb_cpu_ctx *c, int n)
{
    if (n + 1 <= c->seq_body_cap)
        return 1;
    int cap = c->seq_body_cap > 0 ? c->seq_body_cap : 256;
    while (cap < n + 1)
        cap *= 2;
    int old = c->seq_body_cap;
#define GROW(f)                                                                                    \
    if (!grow_body_array((void **)&c->f, old, cap, sizeof *c->f))                                  \
        return 0;
    GROW(body_contact_start)
    GROW(body_joint_start)
    GROW(body_batch)
    GROW(body_part)
    GROW(body_level)
    GROW(body_supports)
    GROW(body_epoch)
    GROW(body_disp)
    GROW(body_moved)
    GROW(body_frozen)
    GROW(gravity_contacts)
    GROW(gravity_contacts_prev)
    GROW(body_prev_lin_vel)
    GROW(body_prev_ang_vel)
    GROW(body_acc_lin)
    GROW(body_acc_ang)
#undef GROW
    c->seq_body_cap = cap;
    return 1;
}

static int reserve_contacts(rb_cpu_ctx *c, int n)
{
    if (n <= c->seq_cap)
        return 1;
    int cap = c->seq_cap > 0 ? c->seq_cap : 256;
    while (cap < n)
        cap *= 2;
    void *p;
#define GROW(f)                                                                                    \
    if (!(p = realloc(c->f, (size_t)cap * sizeof *c->f)))                                          \
        return 0;                                                                                  \
    c->f = p;
    GROW(seq)
    GROW(seq_heap_pos)
    GROW(seq_two_way)
    GROW(seq_epoch)
    GROW(seq_part)
#undef GROW
    c->seq_cap = cap;
    return 1;
}

// The velocity gravity adds towards the surface of contact q in one substep: a moving body on a fixed
// one (0 between two moving bodies, or if gravity pulls the body away).
static float gravity_dv(const rb_seq_contact *q, const rb_step_params *p)
{
    float gn = rb_dot(p->gravity, q->normal);
    float a = q->fixed_a && !q->fixed_b ? -gn : (q->fixed_b && !q->fixed_a ? gn : 0.0f);
    return rb_maxf(a, 0.0f) * p->dt;
}

// The separating speed owed to a contact whose approach at `impact` m/s (the speed at the surface) a
// speculative stop carried over from the last substep (0: none): rb_seq_launch_speed_q, which gives
// the rebound height e^2 H of the continuous bounce.
static float bounce_speed(const rb_seq_contact *q, float impact)
{
    if (!(impact > 0.0f) || q->cor == 0.0f)
        return 0.0f;
    return rb_seq_launch_speed_q(q->cor, impact * impact, q->gravity_dv);
}

// A patch's fields (contact_sequential.h, "friction patches") from manifold m's points seq[first ..].
static void fill_patch(rb_cpu_ctx *c, const rb_contact_manifold *m, int first, int k)
{
    rb_seq_contact *q = &c->seq[k];
    const rb_seq_contact *p0 = &c->seq[first];
    int count = m->m.count;
    rb_float3 centre = rb_f3(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < count; ++j)
        centre = rb_add(centre, c->seq[first + j].point);
    centre = rb_scale(centre, 1.0f / (float)count);
    float radius = 0.0f;
    for (int j = 0; j < count; ++j)
        radius += rb_len(rb_sub(c->seq[first + j].point, centre));
    memset(q, 0, sizeof *q);
    q->body_a = p0->body_a;
    q->body_b = p0->body_b;
    q->fixed_a = p0->fixed_a;
    q->fixed_b = p0->fixed_b;
    q->point = centre;
    q->normal = p0->normal;
    rb_contact_basis(q->normal, &q->t1, &q->t2);
    q->separation = 1e9f; // never penetrating, never closing: only its friction is solved
    q->mu_s = m->static_friction;
    q->mu_k = m->friction;
    q->radius = rb_maxf(radius / (float)count, 1e-6f);
    q->patch = -1;
    q->patch_first = first;
    q->patch_count = count;
    c->seq_heap_pos[k] = -1;
    c->seq_two_way[k] = 0;
    c->seq_epoch[k] = 0;
}

// Radius of curvature of a shape at its contacts: a sphere's or capsule's radius; 0 for flat or
// edged shapes (box, plane).
static float round_radius(const rb_scene *s, int shape)
{
    int t = s->shape_type[shape];
    return t == RB_GEOM_SPHERE ? s->shape_params[shape].x : (t == RB_GEOM_CAPSULE ? s->shape_params[shape].y : 0.0f);
}

// The arm of a point's torsional friction (rb_seq_resolve_twist): contacts rest about
// remaining_penetration x penetration_threshold deep (delta), and a round shape that deep in another
// touches it on a disc of radius sqrt(2 R delta), R = R_A R_B / (R_A + R_B) (a flat side counts as an
// infinite radius); under uniform pressure the torsional friction acts at 2/3 of it. 0 when neither
// shape is round (a box's vertex or edge).
static float twist_arm(const rb_cpu_ctx *c, const rb_contact_manifold *m, const rb_step_params *p)
{
    float ra = round_radius(c->scene, m->shape_a), rb = round_radius(c->scene, m->shape_b);
    if (ra <= 0.0f && rb <= 0.0f)
        return 0.0f;
    float r = ra <= 0.0f ? rb : (rb <= 0.0f ? ra : ra * rb / (ra + rb));
    float delta = p->seq.remaining_penetration * p->seq.penetration_threshold;
    return (2.0f / 3.0f) * rb_sqrtf(2.0f * r * delta);
}

// Manifolds of two or more points get a friction patch (contact_sequential.h).
static int has_patch(const rb_contact_manifold *m)
{
    return m->m.count >= 2;
}

// Contacts from the manifolds, in manifold order (canonical, so the result does not depend on threads):
// all the points (manifold i's from its edge's first row), then the friction patches.
static void fill_contacts(rb_cpu_ctx *c, const rb_step_params *p)
{
    int n = c->manifold_count;
    int *patch = c->seq_manifold_patch;
    int total = n > 0 ? c->edges[n - 1].first_row + c->edges[n - 1].row_count : 0, patches = 0;
    for (int i = 0; i < n; ++i)
        patch[i] = has_patch(&c->manifolds[i]) ? total + patches++ : -1;
#pragma omp parallel for schedule(static) num_threads(c->team)
    for (int i = 0; i < n; ++i) {
        const rb_contact_manifold *m = &c->manifolds[i];
        int first = c->edges[i].first_row; // contact edge i is manifold i
        for (int j = 0; j < m->m.count; ++j) {
            int k = first + j;
            rb_seq_contact *q = &c->seq[k];
            q->body_a = m->body_a;
            q->body_b = m->body_b;
            q->fixed_a = rb_seq_is_fixed(c, m->body_a);
            q->fixed_b = rb_seq_is_fixed(c, m->body_b);
            q->point = m->m.points[j].point;
            q->normal = m->m.normal;
            q->separation = m->m.points[j].separation;
            q->cor = m->restitution;
            q->mu_s = m->static_friction;
            q->mu_k = m->friction;
            // last substep's normal impulse of this point (the narrow phase matched it by feature id): the
            // solver applies it first (warm start) when both bodies are awake or fixed. Friction starts
            // from zero: warm-started friction made the 20-box stack walk sideways (1 m in 2 s), since
            // last substep's friction answered a slip that the warm normal impulses no longer cause.
            // A point whose friction was more than a quarter of its static cone starts cold: warm,
            // the slip is the only violation left at its corner, its single-point sticking impulse
            // lies outside the cone, and a box held by mu_s on a slope crept (3.5 cm in 2 s)
            // (A patch's points always start warm: their friction is the patch's.)
            float fric = rb_len(m->friction_impulse[j]);
            int warm = patch[i] >= 0 || fric <= 0.25f * q->mu_s * m->normal_impulse[j];
            q->normal_impulse = warm ? m->normal_impulse[j] : 0.0f;
            q->friction1 = q->friction2 = 0.0f;
            q->impulse = rb_scale(q->normal, q->normal_impulse);
            q->target = 0.0f;
            q->allowed = 0.0f; // set by the solver from the corrected separation
            q->gravity_dv = gravity_dv(q, p);
            q->bounce = bounce_speed(q, m->carried_impact[j]);
            q->stopped = 0.0f;
            q->launch = 0.0f;
            q->approach = 0.0f;
            q->slip = 0.0f;
            q->sliding = 0;
            q->slide_mu = 0.0f;
            q->patch = patch[i];
            q->patch_first = q->patch_count = 0;
            q->twist = 0.0f;
            q->spin = 0.0f;
            q->radius = patch[i] >= 0 ? 0.0f : twist_arm(c, m, p);
            if (patch[i] >= 0)
                q->mu_s = q->mu_k = 0.0f; // the patch has the friction
            c->seq_heap_pos[k] = -1;
            c->seq_two_way[k] = 0;
            c->seq_epoch[k] = 0;
        }
        if (patch[i] >= 0)
            fill_patch(c, m, first, patch[i]);
    }
}

// Friction patches of this step's manifolds (fill_contacts).
static int count_patches(const rb_cpu_ctx *c)
{
    int patches = 0;
    for (int i = 0; i < c->manifold_count; ++i)
        patches += has_patch(&c->manifolds[i]);
    return patches;
}

// Adjacency of the non-fixed bodies over the edges (CSR of contacts: each edge's points, then its
// friction patch, the contacts of a body in ascending order) and, per body, the contacts "in the
// direction of gravity": those that moving the body along g would close (Schornbaum 2010 §3.2).
static int build_adjacency(rb_cpu_ctx *c, rb_float3 gravity)
{
    const rb_scene *s = c->scene;
    int nb = s->body_slots, n = c->edge_count;
    int *start = c->body_contact_start;
    memset(start, 0, sizeof *start * (size_t)(nb + 1));
    memset(c->gravity_contacts, 0, sizeof *c->gravity_contacts * (size_t)nb);
    for (int i = 0; i < n; ++i) {
        rb_constraint_edge e = c->edges[i];
        int rows = e.row_count + (c->seq_manifold_patch[i] >= 0);
        int moves_a = rb_takes_impulses(s->body_flags, e.body_a), moves_b = rb_takes_impulses(s->body_flags, e.body_b);
        start[e.body_a + 1] += moves_a ? rows : 0;
        start[e.body_b + 1] += moves_b ? rows : 0;
        // the wake rules count points, not patches
        for (int k = e.first_row; k < e.first_row + e.row_count; ++k) {
            float gn = rb_dot(c->seq[k].normal, gravity);
            c->gravity_contacts[e.body_a] += moves_a && gn > 0.0f; // from A, the other body lies along +n
            c->gravity_contacts[e.body_b] += moves_b && gn < 0.0f;
        }
    }
    for (int b = 0; b < nb; ++b)
        start[b + 1] += start[b];
    if (!rb_cpu_reserve((void **)&c->body_contacts, &c->body_contacts_cap, start[nb], sizeof *c->body_contacts))
        return 0;
    int *fill = c->body_epoch; // scratch: next free slot per body
    memcpy(fill, start, sizeof *fill * (size_t)nb);
    // points first, then patches: every patch lies after every point in the contact array
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < n; ++i) {
            rb_constraint_edge e = c->edges[i];
            int lo = pass == 0 ? e.first_row : c->seq_manifold_patch[i];
            int hi = pass == 0 ? e.first_row + e.row_count : lo + (lo >= 0);
            for (int k = lo; k < hi; ++k) {
                if (rb_takes_impulses(s->body_flags, e.body_a))
                    c->body_contacts[fill[e.body_a]++] = k;
                if (rb_takes_impulses(s->body_flags, e.body_b))
                    c->body_contacts[fill[e.body_b]++] = k;
            }
        }
    }
    memset(c->body_epoch, 0, sizeof *c->body_epoch * (size_t)nb);
    return 1;
}

// Each body's joint edges (CSR, rb_edge_body_lists in edge order), for the penetration correction,
// which moves a body's joint partners with it.
static int build_joint_adjacency(rb_cpu_ctx *c)
{
    const rb_scene *s = c->scene;
    int n = c->joint_edge_count;
    if (!rb_cpu_reserve((void **)&c->body_joints, &c->body_joints_cap, n > 0 ? 2 * n : 1, sizeof *c->body_joints))
        return 0;
    rb_edge_body_lists(n, c->joint_edges, 0, s->body_slots, s->body_flags, c->body_joint_start, c->body_joints);
    return 1;
}

typedef struct body_key {
    float x;
    int body;
} body_key;

static int cmp_body_key(const void *a, const void *b)
{
    const body_key *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->body - q->body;
}

// Cuts a large batch into `parts` slabs of equal body count along the horizontal axis (perpendicular
// to gravity) of largest extent, so each slab reaches the ground. The cut depends only on positions
// and the contact count, never on the thread count.
static int split_batch(rb_cpu_ctx *c, rb_seq_batch *batch, int parts, rb_float3 gravity)
{
    const rb_scene *s = c->scene;
    const int *bodies = &c->seq_batch_bodies[batch->first_body];
    int nb = batch->body_count;
    rb_float3 lo = rb_f3(RB_FLT_MAX, RB_FLT_MAX, RB_FLT_MAX), hi = rb_neg(lo);
    for (int i = 0; i < nb; ++i) {
        rb_float3 p = rb_xyz(s->body_pos[bodies[i]]);
        lo = rb_min3(lo, p);
        hi = rb_max3(hi, p);
    }
    rb_float3 g = rb_normalize_or(gravity, rb_f3(0.0f, 0.0f, 0.0f));
    int axis = 0;
    float best = -1.0f;
    for (int a = 0; a < 3; ++a) {
        rb_float3 e = rb_set(rb_f3(0.0f, 0.0f, 0.0f), a, 1.0f);
        // extent of the batch along axis a, counted only as much as the axis is horizontal
        float score = (rb_get(hi, a) - rb_get(lo, a)) * (1.0f - rb_fabsf(rb_dot(e, g)));
        if (score > best) {
            best = score;
            axis = a;
        }
    }
    body_key *keys = malloc(sizeof *keys * (size_t)nb);
    if (!keys)
        return 0;
    for (int i = 0; i < nb; ++i)
        keys[i] = (body_key){rb_get(rb_xyz(s->body_pos[bodies[i]]), axis), bodies[i]};
    qsort(keys, (size_t)nb, sizeof *keys, cmp_body_key);
    for (int i = 0; i < nb; ++i)
        c->body_part[keys[i].body] = (int)((long long)i * parts / nb);
    free(keys);
    for (int i = 0; i < batch->contact_count; ++i) {
        int k = c->seq_batch_contacts[batch->first_contact + i];
        const rb_seq_contact *q = &c->seq[k];
        int pa = q->fixed_a ? -1 : c->body_part[q->body_a], pb = q->fixed_b ? -1 : c->body_part[q->body_b];
        c->seq_part[k] = pa < 0 ? pb : (pb < 0 || pb == pa ? pa : -1);
    }
    batch->parts = parts;
    return 1;
}

static int cmp_batch_size(const void *a, const void *b)
{
    const rb_seq_batch *p = a, *q = b;
    if (p->contact_count != q->contact_count)
        return q->contact_count - p->contact_count; // largest first (Schornbaum 2010 §4)
    return p->first_contact - q->first_contact;
}

static int build_groups(rb_cpu_ctx *c, const rb_step_params *p)
{
    const rb_scene *s = c->scene;
    int nb = s->body_slots, n = c->seq_count;
    int *parent = c->body_batch;
    for (int b = 0; b < nb; ++b)
        parent[b] = b;
    rb_unite_batches(c->edge_count, c->edges, s->body_flags, parent);
    // joined bodies share a batch: the penetration correction moves a body's joint partners with it
    rb_unite_batches(c->joint_edge_count, c->joint_edges, s->body_flags, parent);
    // compact batch numbers in order of their lowest body (the root); a group without contacts gets none,
    // and bodies without contacts are not the batch's (they are in its reach)
    int *index = c->body_level; // scratch: batch number of each root
    for (int b = 0; b < nb; ++b)
        index[b] = -1;
    for (int b = 0; b < nb; ++b)
        if (c->body_contact_start[b + 1] > c->body_contact_start[b])
            index[rb_find_root(parent, b)] = -2; // a root with a contact in its group
    int count = 0;
    for (int b = 0; b < nb; ++b)
        if (index[b] == -2)
            index[b] = count++;
    if (count > c->batch_cap) {
        rb_seq_batch *q = realloc(c->batches, sizeof *q * (size_t)count);
        if (!q)
            return 0;
        c->batches = q;
        c->batch_cap = count;
    }
    if (count > 0) // c->batches is still NULL before the first contact
        memset(c->batches, 0, sizeof *c->batches * (size_t)count);
    for (int b = 0; b < nb; ++b) {
        int has = c->body_contact_start[b + 1] > c->body_contact_start[b];
        int group = rb_takes_impulses(s->body_flags, b) ? index[rb_find_root(parent, b)] : -1;
        int batch = has ? group : -1;
        c->body_part[b] = batch; // scratch until the groups are laid out
        if (batch >= 0)
            c->batches[batch].body_count++;
        if (group >= 0)
            c->batches[group].reach++;
    }
    for (int k = 0; k < n; ++k) {
        const rb_seq_contact *q = &c->seq[k];
        int body = q->fixed_a ? q->body_b : q->body_a;
        c->batches[c->body_part[body]].contact_count++;
    }
    int fc = 0, fb = 0;
    for (int i = 0; i < count; ++i) {
        c->batches[i].first_contact = fc;
        c->batches[i].first_body = fb;
        c->batches[i].parts = 1;
        fc += c->batches[i].contact_count;
        fb += c->batches[i].body_count;
        c->batches[i].contact_count = 0;
        c->batches[i].body_count = 0;
    }
    if (!rb_cpu_reserve((void **)&c->seq_batch_contacts, &c->seq_batch_contacts_cap, fc > 0 ? fc : 1,
                        sizeof *c->seq_batch_contacts) ||
        !rb_cpu_reserve((void **)&c->seq_batch_bodies, &c->seq_batch_bodies_cap, fb > 0 ? fb : 1,
                        sizeof *c->seq_batch_bodies))
        return 0;
    for (int b = 0; b < nb; ++b) {
        int batch = c->body_part[b];
        c->body_batch[b] = batch;
        if (batch >= 0) {
            rb_seq_batch *g = &c->batches[batch];
            c->seq_batch_bodies[g->first_body + g->body_count++] = b;
        }
    }
    for (int k = 0; k < n; ++k) {
        const rb_seq_contact *q = &c->seq[k];
        rb_seq_batch *g = &c->batches[c->body_batch[q->fixed_a ? q->body_b : q->body_a]];
        c->seq_batch_contacts[g->first_contact + g->contact_count++] = k;
        c->seq_part[k] = 0;
    }
    c->batch_count = count;
    for (int b = 0; b < nb; ++b)
        c->body_part[b] = 0;
    // very large batches are solved in spatial parts (docs/solver-sequential.md)
    for (int i = 0; i < count; ++i) {
        rb_seq_batch *g = &c->batches[i];
        int split = p->seq.split_contacts;
        if (split > 0 && g->contact_count > split) {
            int parts = (g->contact_count + split - 1) / split;
            if (parts > RB_SEQ_MAX_PARTS)
                parts = RB_SEQ_MAX_PARTS;
            if (!split_batch(c, g, parts, p->gravity))
                return 0;
        }
    }
    if (count > 1)
        qsort(c->batches, (size_t)count, sizeof *c->batches, cmp_batch_size);
    return 1;
}

static int reserve_scratch(rb_cpu_ctx *c)
{
    int max_c = 1, max_b = 1;
    for (int i = 0; i < c->batch_count; ++i) {
        if (c->batches[i].contact_count > max_c)
            max_c = c->batches[i].contact_count;
        if (c->batches[i].reach > max_b) // the correction may move every body of its reach
            max_b = c->batches[i].reach;
    }
    if (c->scratch_threads < c->threads) {
        rb_seq_scratch *q = realloc(c->scratch, sizeof *q * (size_t)c->threads);
        if (!q)
            return 0;
        memset(q + c->scratch_threads, 0, sizeof *q * (size_t)(c->threads - c->scratch_threads));
        c->scratch = q;
        c->scratch_threads = c->threads;
    }
    for (int t = 0; t < c->threads; ++t) {
        rb_seq_scratch *w = &c->scratch[t];
        if (w->cap_contacts < max_c) {
            int cap = max_c;
            void *p1 = realloc(w->heap, sizeof *w->heap * (size_t)cap);
            if (p1)
                w->heap = p1;
            void *p2 = realloc(w->affected, sizeof *w->affected * (size_t)cap);
            if (p2)
                w->affected = p2;
            void *p3 = realloc(w->best_affected, sizeof *w->best_affected * (size_t)cap);
            if (p3)
                w->best_affected = p3;
            void *p4 = realloc(w->heap_keys, sizeof *w->heap_keys * (size_t)cap);
            if (p4)
                w->heap_keys = p4;
            if (!p1 || !p2 || !p3 || !p4)
                return 0;
            w->cap_contacts = cap;
        }
        int need_b = (max_b > max_c ? max_b : max_c) + 2; // the queue holds bodies or contacts; +2: level starts
        if (w->cap_bodies < need_b) {
            int cap = need_b;
            void *p1 = realloc(w->queue, sizeof *w->queue * (size_t)cap);
            if (p1)
                w->queue = p1;
            void *p2 = realloc(w->touched, sizeof *w->touched * (size_t)cap);
            if (p2)
                w->touched = p2;
            void *p3 = realloc(w->best, sizeof *w->best * (size_t)cap);
            if (p3)
                w->best = p3;
            void *p4 = realloc(w->best_disp, sizeof *w->best_disp * (size_t)cap);
            if (p4)
                w->best_disp = p4;
            if (!p1 || !p2 || !p3 || !p4)
                return 0;
            w->cap_bodies = cap;
        }
        // a body may be pushed once per contact or joint end that reaches it with a larger displacement
        int need_s = 2 * max_c + 2 * c->joint_edge_count + max_b;
        if (w->cap_stack < need_s) {
            void *p1 = realloc(w->stack, sizeof *w->stack * (size_t)need_s);
            if (p1)
                w->stack = p1;
            void *p2 = realloc(w->stack_disp, sizeof *w->stack_disp * (size_t)need_s);
            if (p2)
                w->stack_disp = p2;
            if (!p1 || !p2)
                return 0;
            w->cap_stack = need_s;
        }
    }
    return 1;
}

rb_status rb_seq_build_batches(rb_cpu_ctx *c, const rb_step_params *p)
{
    int nb = c->scene->body_slots;
    c->seq_count = c->contact_point_count + count_patches(c);
    if (!reserve_bodies(c, nb) || !reserve_contacts(c, c->seq_count > 0 ? c->seq_count : 1) ||
        !rb_cpu_reserve((void **)&c->seq_manifold_patch, &c->seq_manifold_patch_cap,
                        c->manifold_count > 0 ? c->manifold_count : 1, sizeof *c->seq_manifold_patch))
        return RB_ERR_OUT_OF_MEMORY;
    fill_contacts(c, p);
    if (!build_adjacency(c, p->gravity) || !build_joint_adjacency(c) || !build_groups(c, p) || !reserve_scratch(c))
        return RB_ERR_OUT_OF_MEMORY;
    c->color_count = 0;
    return RB_OK;
}
