// correct_penetrations (sequential solver; Schornbaum 2010 §2, Algorithms 1-3).
//
// Each penetrating contact (separation below -threshold) is corrected once per step by translating
// ONE of its bodies out, and every body that translation would push into, depth first, so that no new
// detectable penetration appears. Of the up to four ways to start (either body, along the normal or
// back along its last motion) the one that displaces the fewest bodies wins, ties going to the earlier
// option; an option that would push into a fixed body, or into the contact's other body, is invalid. A
// fraction of the threshold is deliberately left (sequential.remaining_penetration), so touching bodies
// keep touching instead of being separated by rounding.
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu_context.h"

typedef struct pen_group {
    const int *contacts; // ascending contact indices of the batch
    int count;
    int part;            // -1: the whole batch (or its seam phase); >= 0: only this part's contacts and bodies
} pen_group;

typedef struct pen_settings {
    float threshold;     // > 0
    float tolerance;     // remaining_penetration * threshold
    float h;             // substep, for the last motion D = h v
    rb_float3 up;        // against gravity (unit), or zero without gravity
} pen_settings;

static int in_group(const rb_cpu_ctx *c, const pen_group *g, int k)
{
    return g->part < 0 || c->seq_part[k] == g->part;
}

static int movable(const rb_cpu_ctx *c, const pen_group *g, int b)
{
    return !rb_seq_is_fixed(c, b) && (g->part < 0 || c->body_part[b] == g->part);
}

// Queues body `other` to move by d in push_out (unless already moved at least as far). Returns 0, or -1
// when the approach is given up (the scratch is full, or it reaches `limit` bodies).
static int push_body(rb_cpu_ctx *c, rb_seq_scratch *w, int other, rb_float3 d, int epoch, int *touched, int *sp,
                     int limit)
{
    if (c->body_epoch[other] != epoch) {
        if (*touched >= w->cap_bodies)
            return -1;
        c->body_epoch[other] = epoch;
        w->touched[(*touched)++] = other;
        if (*touched >= limit)
            return -1;
    } else if (rb_len_sq(d) <= rb_len_sq(rb_xyz(c->body_disp[other]))) {
        return 0; // already pushed at least as far
    }
    if (*sp >= w->cap_stack)
        return -1; // pathological chain: give up on this approach
    c->body_disp[other] = rb_f4_from3(d, 0.0f);
    w->stack[*sp] = other;
    w->stack_disp[(*sp)++] = c->body_disp[other];
    return 0;
}

// Depth-first push from body x displaced by dx (Alg. 3). Bodies it touches get epoch `epoch` and their
// displacement in body_disp. With `joined`, a body's joint partners move with it (the same
// translation keeps the joint as it was): rubble's, pe has no joints. Returns the number of displaced
// bodies, or -1 if the approach is invalid (pushes into a fixed body or into z, or would pull a joint
// to a fixed body apart) or reaches `limit` bodies (it cannot win any more).
static int push_out(rb_cpu_ctx *c, const pen_group *g, rb_seq_scratch *w, const pen_settings *st, int x, rb_float3 dx,
                    int z, int joined, int epoch, int limit, int *affected_count)
{
    int touched = 0, sp = 0, naff = 0;
    c->body_epoch[x] = epoch;
    c->body_disp[x] = rb_f4_from3(dx, 0.0f);
    w->touched[touched++] = x;
    w->stack[sp] = x;
    w->stack_disp[sp++] = rb_f4_from3(dx, 0.0f);
    while (sp > 0) {
        --sp;
        int y = w->stack[sp];
        rb_float4 dy4 = w->stack_disp[sp];
        rb_float4 cur = c->body_disp[y];
        if (dy4.x != cur.x || dy4.y != cur.y || dy4.z != cur.z)
            continue; // a longer displacement of y was pushed after this one
        rb_float3 dy = rb_xyz(dy4);
        for (int e = c->body_contact_start[y]; e < c->body_contact_start[y + 1]; ++e) {
            int k = c->body_contacts[e];
            const rb_seq_contact *q = &c->seq[k];
            int other = q->body_a == y ? q->body_b : q->body_a;
            rb_float3 n_yo = q->body_a == y ? q->normal : rb_neg(q->normal);
            rb_float3 d_other;
            // eq. 2.5.5: a push may leave up to the tolerated penetration
            if (rb_seq_pushes(dy, n_yo, q->separation + st->threshold, &d_other)) {
                if (!movable(c, g, other) || other == z ||
                    push_body(c, w, other, d_other, epoch, &touched, &sp, limit) < 0)
                    return -1;
            }
            // contacts of the part's seam are brought up to date after the parts (correct_batch)
            if (in_group(c, g, k) && c->seq_epoch[k] != epoch) {
                c->seq_epoch[k] = epoch;
                w->affected[naff++] = k;
            }
        }
        if (!joined)
            continue;
        for (int e = c->body_joint_start[y]; e < c->body_joint_start[y + 1]; ++e) {
            rb_constraint_edge je = c->joint_edges[c->body_joints[e] >> 1];
            int other = c->body_joints[e] & 1 ? je.body_a : je.body_b;
            if (!rb_takes_impulses(c->scene->body_flags, other) || !movable(c, g, other) || other == z ||
                push_body(c, w, other, dy, epoch, &touched, &sp, limit) < 0)
                return -1;
        }
    }
    *affected_count = naff;
    return touched;
}

// Relative speed with which a body closes in on the contact (eqs. 2.5.1-2.5.3): A along +n, B along -n.
static float closing_speed(const rb_cpu_ctx *c, const rb_seq_contact *q, int b, int is_b)
{
    const rb_scene *s = c->scene;
    rb_float3 r = rb_sub(q->point, rb_xyz(s->body_pos[b]));
    rb_float3 v = rb_add(rb_xyz(s->body_lin_vel[b]), rb_cross(rb_xyz(s->body_ang_vel[b]), r));
    float vn = rb_dot(v, q->normal);
    return is_b ? -vn : vn;
}

// The best approach so far: its bodies and displacements in w->best / best_disp, its contacts in
// w->best_affected.
typedef struct pen_best {
    int count;    // bodies it displaces (fewer wins; ties to the earlier)
    int affected; // contacts it changes
} pen_best;

static void keep_best(rb_seq_scratch *w, const rb_cpu_ctx *c, int count, int naff, pen_best *best)
{
    best->count = count;
    best->affected = naff;
    for (int i = 0; i < count; ++i) {
        w->best[i] = w->touched[i];
        w->best_disp[i] = c->body_disp[w->touched[i]];
    }
    memcpy(w->best_affected, w->affected, sizeof *w->affected * (size_t)naff);
}

// Contact k's ways out, joint partners moving along (`joined`) or not: the four of Fig. 11, the body
// closing faster first (either body, back along its last motion or along the normal, the fewest bodies
// displaced winning), and if none is valid the fifth (rubble's): lift the upper body against gravity.
static void try_ways(rb_cpu_ctx *c, const pen_group *g, rb_seq_scratch *w, const pen_settings *st, int k, int joined,
                     int *epoch, pen_best *best)
{
    const rb_scene *s = c->scene;
    const rb_seq_contact *q = &c->seq[k];
    float dcorr = q->separation + st->tolerance; // < 0: what has to go, leaving the tolerated part
    int body[2] = {q->body_a, q->body_b};
    int can[2] = {movable(c, g, q->body_a), movable(c, g, q->body_b)};
    // ties to B, as the thesis writes speed_A > speed_B
    float sa = can[0] ? closing_speed(c, q, body[0], 0) : -RB_FLT_MAX;
    float sb = can[1] ? closing_speed(c, q, body[1], 1) : -RB_FLT_MAX;
    int fast = sa > sb ? 0 : 1;
    int order[2] = {fast, 1 - fast};
    for (int o = 0; o < 4; ++o) {
        int which = order[o / 2];
        if (!can[which])
            continue;
        rb_float3 d;
        if (o % 2 == 0) { // back along the last motion D = h v (preferred on ties: it comes first)
            rb_float3 motion = rb_scale(rb_xyz(s->body_lin_vel[body[which]]), st->h);
            if (!rb_seq_push_back(q->normal, dcorr, which, motion, &d))
                continue;
        } else {
            d = rb_seq_push_along_normal(q->normal, dcorr, which);
        }
        int naff = 0;
        int limit = best->count > 0 ? best->count : 0x7fffffff;
        int count = push_out(c, g, w, st, body[which], d, body[1 - which], joined, ++*epoch, limit, &naff);
        if (count >= 0)
            keep_best(w, c, count, naff, best);
    }
    if (best->count > 0 || rb_len_sq(st->up) == 0.0f)
        return;
    for (int which = 0; which < 2 && best->count == 0; ++which) {
        rb_float3 d;
        if (!can[which] || !rb_seq_push_up(q->normal, dcorr, which, st->up, &d))
            continue;
        int naff = 0;
        int count = push_out(c, g, w, st, body[which], d, body[1 - which], joined, ++*epoch, 0x7fffffff, &naff);
        if (count >= 0)
            keep_best(w, c, count, naff, best);
    }
}

// Corrects one penetrating contact; returns 1 if it could be corrected. Joined bodies move together
// where they can, so the correction opens no joint; where they cannot (the contact is between two
// bodies of one jointed group, or the group hangs from a fixed body) one body moves as in pe.
static int correct_contact(rb_cpu_ctx *c, const pen_group *g, rb_seq_scratch *w, const pen_settings *st, int k,
                           int *epoch)
{
    rb_scene *s = c->scene;
    pen_best best = {0, 0};
    try_ways(c, g, w, st, k, 1, epoch, &best);
    if (best.count == 0 && c->joint_edge_count > 0)
        try_ways(c, g, w, st, k, 0, epoch, &best);
    int best_bodies = best.count, best_affected = best.affected;
    if (best_bodies == 0)
        return 0; // no valid way: the contact stays (Fig. 8)

    // apply: translate, wake (rule 2), update the affected contacts (eqs. 2.3.7a/b)
    int stamp = ++*epoch;
    for (int i = 0; i < best_bodies; ++i) {
        int b = w->best[i];
        rb_float3 d = rb_xyz(w->best_disp[i]);
        c->body_epoch[b] = stamp;
        c->body_disp[b] = w->best_disp[i];
        s->body_pos[b] = rb_f4_from3(rb_add(rb_xyz(s->body_pos[b]), d), 0.0f);
        c->body_moved[b] = rb_f4_from3(rb_add(rb_xyz(c->body_moved[b]), d), 0.0f);
        s->body_flags[b] |= RB_BODY_AWAKE;
    }
    for (int i = 0; i < best_affected; ++i) {
        rb_seq_contact *t = &c->seq[w->best_affected[i]];
        rb_float3 da = c->body_epoch[t->body_a] == stamp ? rb_xyz(c->body_disp[t->body_a]) : rb_f3(0.0f, 0.0f, 0.0f);
        rb_float3 db = c->body_epoch[t->body_b] == stamp ? rb_xyz(c->body_disp[t->body_b]) : rb_f3(0.0f, 0.0f, 0.0f);
        t->point = rb_add(t->point, rb_scale(rb_add(da, db), 0.5f));
        t->separation += rb_dot(rb_sub(db, da), t->normal);
    }
    return 1;
}

static void correct_group(rb_cpu_ctx *c, const pen_group *g, rb_seq_scratch *w, const pen_settings *st)
{
    int epoch = 0;
    for (int i = 0; i < g->count; ++i) {
        int k = g->contacts[i];
        // corrected as a side effect of an earlier one, or not this group's
        if (!in_group(c, g, k) || c->seq[k].separation >= -st->threshold)
            continue;
        correct_contact(c, g, w, st, k, &epoch);
    }
}

// A batch split into parts: the parts in parallel (each moves only its own bodies), then the seam
// contacts, first brought up to date with what the parts moved, then corrected with every body free.
static void correct_split_batch(rb_cpu_ctx *c, const rb_seq_batch *b, const pen_settings *st)
{
    const int *contacts = &c->seq_batch_contacts[b->first_contact];
#pragma omp parallel for schedule(dynamic, 1) num_threads(c->team)
    for (int part = 0; part < b->parts; ++part) {
        pen_group g = {contacts, b->contact_count, part};
        correct_group(c, &g, rb_seq_my_scratch(c), st);
    }
    for (int i = 0; i < b->contact_count; ++i) {
        rb_seq_contact *t = &c->seq[contacts[i]];
        if (c->seq_part[contacts[i]] >= 0)
            continue;
        rb_float3 da = rb_seq_is_fixed(c, t->body_a) ? rb_f3(0.0f, 0.0f, 0.0f) : rb_xyz(c->body_moved[t->body_a]);
        rb_float3 db = rb_seq_is_fixed(c, t->body_b) ? rb_f3(0.0f, 0.0f, 0.0f) : rb_xyz(c->body_moved[t->body_b]);
        t->point = rb_add(t->point, rb_scale(rb_add(da, db), 0.5f));
        t->separation += rb_dot(rb_sub(db, da), t->normal);
    }
    // seam phase: every body of the batch may move; epochs restart above the parts' (fresh stamps)
    if (c->joint_edge_count > 0) // joined bodies without a contact move too: not in the batch's list
        memset(c->body_epoch, 0, sizeof *c->body_epoch * (size_t)c->scene->body_slots);
    else
        for (int i = 0; i < b->body_count; ++i)
            c->body_epoch[c->seq_batch_bodies[b->first_body + i]] = 0;
    for (int i = 0; i < b->contact_count; ++i)
        c->seq_epoch[contacts[i]] = 0;
    pen_group seam = {contacts, b->contact_count, -1};
    rb_seq_scratch *w = &c->scratch[0];
    int epoch = 0;
    for (int i = 0; i < b->contact_count; ++i) {
        int k = contacts[i];
        if (c->seq_part[k] >= 0 || c->seq[k].separation >= -st->threshold)
            continue;
        correct_contact(c, &seam, w, st, k, &epoch);
    }
}

rb_status rb_seq_correct_penetrations(rb_cpu_ctx *c, const rb_step_params *p)
{
    c->seq_uncorrected = 0;
    c->pose_epoch++; // it moves bodies (kept joint geometry, joint_solver.c)
    if (c->batch_count == 0)
        return RB_OK;
    pen_settings st = {p->seq.penetration_threshold, p->seq.remaining_penetration * p->seq.penetration_threshold,
                       p->dt, rb_f3(0.0f, 0.0f, 0.0f)};
    if (rb_len_sq(p->gravity) > 0.0f)
        st.up = rb_normalize(rb_neg(p->gravity));
    memset(c->body_moved, 0, sizeof *c->body_moved * (size_t)c->scene->body_slots);

    for (int i = 0; i < c->batch_count; ++i)
        if (c->batches[i].parts > 1)
            correct_split_batch(c, &c->batches[i], &st);

    // whole batches, largest first: the large ones handed out one at a time, the small ones statically
    int n = c->batch_count, next = 0, large_end = 0;
    while (large_end < n && c->batches[large_end].contact_count >= p->seq.large_batch)
        ++large_end;
#pragma omp parallel num_threads(c->team)
    {
        rb_seq_scratch *w = rb_seq_my_scratch(c);
        for (;;) {
            int i;
#pragma omp atomic capture
            i = next++;
            if (i >= large_end)
                break;
            const rb_seq_batch *b = &c->batches[i];
            if (b->parts > 1)
                continue;
            pen_group g = {&c->seq_batch_contacts[b->first_contact], b->contact_count, -1};
            correct_group(c, &g, w, &st);
        }
#pragma omp for schedule(static)
        for (int i = large_end; i < n; ++i) {
            const rb_seq_batch *b = &c->batches[i];
            pen_group g = {&c->seq_batch_contacts[b->first_contact], b->contact_count, -1};
            correct_group(c, &g, w, &st);
        }
    }
    int uncorrected = 0;
#pragma omp parallel for schedule(static) num_threads(c->team) reduction(+ : uncorrected)
    for (int k = 0; k < c->seq_count; ++k)
        uncorrected += c->seq[k].separation < -st.threshold;
    c->seq_uncorrected = uncorrected;
    return RB_OK;
}
