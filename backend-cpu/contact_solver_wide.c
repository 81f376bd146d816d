// The soft solver's passes over the colours, RB_WIDE_LANES manifolds at a time (Box2D v3's wide
// solver). A colour holds no dynamic body twice, so its manifolds can share the lanes of one vector:
// each lane reads and writes its own bodies only. Gauss-Seidel inside a manifold is a chain of
// dependent operations (each point sees the velocities the previous one left), so the scalar code
// waits on latency; four chains side by side fill the pipeline.
//
// Each lane does rb_contact_solve_soft's operations in its order, with the same early end per
// manifold (a converged lane takes no more impulse while the others sweep on), so the result is the
// scalar code's; the lanes are laid out by colour order alone, never by the thread count.
//
// The rows, anchors and impulses live here in structure-of-arrays form from the frame's first solve
// (rb_wide_build, each group filled before its first warm start) to its end, when the impulses go back
// to c->points for restitution and the store (rb_wide_store). The refresh of closing points and the
// shock pass work in the lanes too; only the overflow batch stays scalar, in c->points.
// docs/solver-soft.md has the measurements.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contact_solver_wide.h"

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

// This file is compiled twice where it can be (backend-cpu/meson.build): with four lanes (SSE2 on
// x86-64, NEON on ARM), and with eight for CPUs with AVX2 (contact_solver_wide8.c, built with -mavx2:
// one 32-byte register per lane vector). contact_solver_wide_pick.c chooses one per context at run
// time. Eight lanes in two SSE registers spill (the solve 1.8 times slower); in AVX registers the
// pyramid's frame is 11% faster than with four, the boxes' 5% (docs/solver-soft.md). A lane's results
// do not depend on the lane count, so both give the scalar code's bits. GCC's vector extensions keep
// the code portable.
#ifndef RB_WIDE_LANES
#define RB_WIDE_LANES 4
#endif
// The entry points of this build, named for its lane count (rb_wide_build_4, rb_wide_build_8, ...).
#define RB_WIDE_CAT2(name, lanes) name##_##lanes
#define RB_WIDE_CAT(name, lanes) RB_WIDE_CAT2(name, lanes)
#define RB_WIDE_API(name) RB_WIDE_CAT(name, RB_WIDE_LANES)

typedef float rb_wf __attribute__((vector_size(4 * RB_WIDE_LANES)));
typedef int32_t rb_wm __attribute__((vector_size(4 * RB_WIDE_LANES))); // lane masks: -1 true, 0 false

#if defined(__SSE__)
// The lanes as quarters of four, each a __m128 (SSE's transpose works on four rows).
typedef union rb_wu {
    rb_wf v;
    __m128 q[RB_WIDE_LANES / 4];
} rb_wu;
#endif

typedef struct rb_wv {
    rb_wf x, y, z;
} rb_wv;

typedef struct wide_row {
    rb_wv ra_x, rb_x, ia_x, ib_x;
    rb_wf mass, impulse;
} wide_row;

typedef struct wide_point {
    wide_row n, t1, t2;
    rb_wv tangent1, tangent2;
    rb_wv local_a, local_b;
    rb_wf separation, friction, max_normal_impulse;
} wide_point;

// RB_WIDE_LANES constraints of one colour; a lane past the colour's end has no bodies and no mass.
typedef struct wide_constraint {
    rb_wv normal;
    rb_wf inv_mass_a, inv_mass_b;
    rb_wm stiff;                   // against a static or kinematic body: soft_static
    rb_wm moving;                  // both bodies move: closing points get fresh rows (refresh_group)
    int body_a[RB_WIDE_LANES], body_b[RB_WIDE_LANES]; // -1: static or none
    int constraint[RB_WIDE_LANES]; // index in c->constraints, -1: none
    int count[RB_WIDE_LANES];
    int first_point, point_count;  // in rb_wide_state.points; point_count: the lanes' largest count
    // torsional friction of one-point round contacts (rb_contact_solve_twist): arm 0 in other lanes
    rb_wf twist_arm, twist_mass, twist_impulse;
    rb_wv twist_ia, twist_ib;
    int any_twist;
} wide_constraint;

typedef struct shock_point {
    rb_wv ra_x, rb_x, ia_x, ib_x;
    rb_wv local_a, local_b;
    rb_wf separation, accumulated;
    rb_wf row_mass; // the normal row's effective mass: 0 for a retired closing point (rb_contact_retire_point)
} shock_point;

// One round of a shock group: each lane's body against one of its supports. Laid out at the frame's
// first shock pass; later passes take only what changed since: the accumulated impulses, and the rows
// of points the refresh rebuilds (closing points between two moving bodies) or of overflow constraints.
typedef struct shock_edge {
    shock_point pts[RB_MAX_MANIFOLD_POINTS];
    rb_wm has[RB_MAX_MANIFOLD_POINTS]; // the lane's support has this point
    rb_wv normal;
    rb_wf im;     // inverse mass of the moving body
    rb_wm side_b; // B moves (A supports)
    int body_a[RB_WIDE_LANES], body_b[RB_WIDE_LANES], moving[RB_WIDE_LANES]; // -1: none
    int constraint[RB_WIDE_LANES], reload[RB_WIDE_LANES]; // reload: the lane's rows may change
    int np;
} shock_edge;

typedef struct RB_WIDE_API(rb_wide_state) {
    wide_constraint *groups;
    size_t group_bytes;
    wide_point *points;
    size_t point_bytes;
    int *slot; // per constraint: group * RB_WIDE_LANES + lane, -1: overflow batch
    int slot_cap;
    int group_start[RB_MAX_COLORS + 1]; // colour k: groups [group_start[k], group_start[k + 1])
    int colors;
    // the shock pass: level l's groups [shock_group_start[l], shock_group_start[l + 1]); group g holds
    // the bodies shock_order[shock_first[g] .. min(shock_first[g] + RB_WIDE_LANES, shock_end[g]))
    int *shock_group_start, *shock_first, *shock_end;
    int shock_group_start_cap, shock_first_cap, shock_end_cap;
    int *shock_round_start, shock_round_start_cap; // group g's rounds (one per support of its lanes' bodies)
    shock_edge *shock_edges;
    size_t shock_edge_bytes;
} rb_wide_state;

static inline rb_wide_state *wide_of(const rb_cpu_ctx *c) { return c->wide; }

// ---- lane arithmetic: the scalar helpers of vec_math.h, operation for operation

static inline rb_wf w_splat(float x) { return (rb_wf){0} + x; }
static inline rb_wf w_select(rb_wm m, rb_wf a, rb_wf b) { return (rb_wf)(((rb_wm)a & m) | ((rb_wm)b & ~m)); }
static inline rb_wf w_max(rb_wf a, rb_wf b) { return w_select(a > b, a, b); } // rb_maxf
static inline rb_wf w_min(rb_wf a, rb_wf b) { return w_select(a < b, a, b); } // rb_minf
static inline rb_wf w_abs(rb_wf a) { return (rb_wf)((rb_wm)a & 0x7fffffff); }
static inline int w_any(rb_wm m)
{
#if defined(__SSE__)
    rb_wu u = {(rb_wf)m};
    int bits = 0;
    for (int h = 0; h < RB_WIDE_LANES / 4; ++h)
        bits |= _mm_movemask_ps(u.q[h]);
    return bits != 0;
#else
    int any = 0;
    for (int l = 0; l < RB_WIDE_LANES; ++l)
        any |= m[l];
    return any;
#endif
}
static inline rb_wf w_sqrt(rb_wf a)
{
#if defined(__SSE__)
    rb_wu u = {a};
    for (int h = 0; h < RB_WIDE_LANES / 4; ++h)
        u.q[h] = _mm_sqrt_ps(u.q[h]); // correctly rounded, as sqrtf
    return u.v;
#else
    for (int l = 0; l < RB_WIDE_LANES; ++l)
        a[l] = sqrtf(a[l]);
    return a;
#endif
}

static inline rb_wv wv_add(rb_wv a, rb_wv b) { return (rb_wv){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline rb_wv wv_sub(rb_wv a, rb_wv b) { return (rb_wv){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline rb_wv wv_scale(rb_wv a, rb_wf s) { return (rb_wv){a.x * s, a.y * s, a.z * s}; }
static inline rb_wv wv_mad(rb_wv a, rb_wf s, rb_wv b) { return (rb_wv){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z}; }
static inline rb_wf wv_dot(rb_wv a, rb_wv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline rb_wv wv_cross(rb_wv a, rb_wv b)
{
    return (rb_wv){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

typedef struct rb_wq {
    rb_wv u;
    rb_wf w;
} rb_wq;

static inline rb_wv wq_rotate(rb_wq q, rb_wv v) // rb_rotate
{
    rb_wv t = wv_scale(wv_cross(q.u, v), w_splat(2.0f));
    return wv_add(wv_add(v, wv_scale(t, q.w)), wv_cross(q.u, t));
}

typedef struct rb_wm3 {
    rb_wv r0, r1, r2;
} rb_wm3;

static inline rb_wv wm3_mulv(rb_wm3 m, rb_wv v) { return (rb_wv){wv_dot(m.r0, v), wv_dot(m.r1, v), wv_dot(m.r2, v)}; }

// The passes' hot functions are compiled twice on x86-64 with GCC, for AVX2 and the baseline, and the
// loader picks one (an ifunc): the same operations (no fused multiply-add: -ffp-contract=off), so the
// same results, with three-operand instructions and fewer register copies (4% of the pyramid's frame).
#if RB_WIDE_LANES == 4 && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define RB_WIDE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define RB_WIDE_CLONES
#endif

// ---- lanes to and from the scalar layout

static inline void lane_set(rb_wv *v, int l, rb_float3 s)
{
    v->x[l] = s.x;
    v->y[l] = s.y;
    v->z[l] = s.z;
}

static inline rb_float3 lane_get(const rb_wv *v, int l) { return rb_f3(v->x[l], v->y[l], v->z[l]); }

static void lane_set_row(wide_row *w, int l, const rb_contact_row *r, int with_impulse)
{
    lane_set(&w->ra_x, l, r->ra_x);
    lane_set(&w->rb_x, l, r->rb_x);
    lane_set(&w->ia_x, l, r->ia_x);
    lane_set(&w->ib_x, l, r->ib_x);
    w->mass[l] = r->mass;
    if (with_impulse)
        w->impulse[l] = r->impulse;
}

// Body velocities of the lanes (zero for none), and their poses (the origin and no rotation for none:
// the anchor of a static body is in world space, rb_contact_separation's convention). Each lane's
// body is one 16-byte rb_float4: four loads and a transpose.
static const rb_float4 none_zero = {0.0f, 0.0f, 0.0f, 0.0f}, none_rot = {0.0f, 0.0f, 0.0f, 1.0f};

static inline void gather4(const rb_float4 *a, const int *idx, const rb_float4 *none, rb_wf *x, rb_wf *y, rb_wf *z,
                           rb_wf *w)
{
#if defined(__SSE__)
    rb_wu ux, uy, uz, uw;
    for (int h = 0; h < RB_WIDE_LANES / 4; ++h) {
        const int *i4 = idx + 4 * h;
        __m128 r0 = _mm_loadu_ps(&(i4[0] >= 0 ? &a[i4[0]] : none)->x);
        __m128 r1 = _mm_loadu_ps(&(i4[1] >= 0 ? &a[i4[1]] : none)->x);
        __m128 r2 = _mm_loadu_ps(&(i4[2] >= 0 ? &a[i4[2]] : none)->x);
        __m128 r3 = _mm_loadu_ps(&(i4[3] >= 0 ? &a[i4[3]] : none)->x);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        ux.q[h] = r0;
        uy.q[h] = r1;
        uz.q[h] = r2;
        uw.q[h] = r3;
    }
    *x = ux.v;
    *y = uy.v;
    *z = uz.v;
    *w = uw.v;
#else
    for (int l = 0; l < RB_WIDE_LANES; ++l) {
        const rb_float4 *v = idx[l] >= 0 ? &a[idx[l]] : none;
        (*x)[l] = v->x;
        (*y)[l] = v->y;
        (*z)[l] = v->z;
        (*w)[l] = v->w;
    }
#endif
}

static inline rb_wv gather3(const rb_float4 *a, const int *idx)
{
    rb_wv r;
    rb_wf unused;
    gather4(a, idx, &none_zero, &r.x, &r.y, &r.z, &unused);
    return r;
}

static inline rb_wq gather_rot(const rb_float4 *a, const int *idx)
{
    rb_wq r;
    gather4(a, idx, &none_rot, &r.u.x, &r.u.y, &r.u.z, &r.w);
    return r;
}

// Only dynamic bodies take impulses; static ones, kinematic and frozen ones are read-only (store_pair).
static inline void scatter(rb_scene *s, const int *idx, rb_wv v, rb_wv w)
{
    const uint32_t mask = RB_BODY_TYPE_MASK | RB_BODY_FROZEN;
#if defined(__SSE__)
    rb_wu vx = {v.x}, vy = {v.y}, vz = {v.z}, wx = {w.x}, wy = {w.y}, wz = {w.z};
    for (int h = 0; h < RB_WIDE_LANES / 4; ++h) {
        __m128 v0 = vx.q[h], v1 = vy.q[h], v2 = vz.q[h], v3 = _mm_setzero_ps();
        __m128 w0 = wx.q[h], w1 = wy.q[h], w2 = wz.q[h], w3 = _mm_setzero_ps();
        _MM_TRANSPOSE4_PS(v0, v1, v2, v3);
        _MM_TRANSPOSE4_PS(w0, w1, w2, w3);
        __m128 vl[4] = {v0, v1, v2, v3}, wl[4] = {w0, w1, w2, w3};
        for (int l = 0; l < 4; ++l) {
            int b = idx[4 * h + l];
            if (b >= 0 && (s->body_flags[b] & mask) == RB_BODY_DYNAMIC_T) {
                _mm_storeu_ps(&s->body_lin_vel[b].x, vl[l]);
                _mm_storeu_ps(&s->body_ang_vel[b].x, wl[l]);
            }
        }
    }
#else
    for (int l = 0; l < RB_WIDE_LANES; ++l) {
        int b = idx[l];
        if (b >= 0 && (s->body_flags[b] & mask) == RB_BODY_DYNAMIC_T) {
            s->body_lin_vel[b] = rb_f4(v.x[l], v.y[l], v.z[l], 0.0f);
            s->body_ang_vel[b] = rb_f4(w.x[l], w.y[l], w.z[l], 0.0f);
        }
    }
#endif
}

// ---- layout

static int reserve_aligned(void **p, size_t *bytes, size_t need)
{
    if (need <= *bytes)
        return 1;
    size_t cap = need + need / 2;
    cap = (cap + 63) & ~(size_t)63;
    void *q = aligned_alloc(64, cap);
    if (!q)
        return 0;
    free(*p);
    *p = q;
    *bytes = cap;
    return 1;
}

rb_status RB_WIDE_API(rb_wide_build)(rb_cpu_ctx *c)
{
    if (!c->wide && !(c->wide = calloc(1, sizeof(rb_wide_state))))
        return RB_ERR_OUT_OF_MEMORY;
    rb_wide_state *w = c->wide;
    int n = c->manifold_count;
    if (!rb_cpu_reserve((void **)&w->slot, &w->slot_cap, n, sizeof *w->slot))
        return RB_ERR_OUT_OF_MEMORY;
    int groups = 0;
    w->colors = c->color_count;
    for (int k = 0; k < c->color_count; ++k) {
        w->group_start[k] = groups;
        groups += (c->color_start[k + 1] - c->color_start[k] + RB_WIDE_LANES - 1) / RB_WIDE_LANES;
    }
    w->group_start[c->color_count] = groups;
    if (!reserve_aligned((void **)&w->groups, &w->group_bytes, sizeof *w->groups * (size_t)(groups + 1)))
        return RB_ERR_OUT_OF_MEMORY;
    int points = 0;
    for (int k = 0; k < c->color_count; ++k) {
        int lo = c->color_start[k], hi = c->color_start[k + 1];
        for (int g = w->group_start[k]; g < w->group_start[k + 1]; ++g) {
            wide_constraint *wc = &w->groups[g];
            int first = lo + (g - w->group_start[k]) * RB_WIDE_LANES, most = 0;
            for (int l = 0; l < RB_WIDE_LANES; ++l) {
                int j = first + l < hi ? first + l : -1;
                wc->constraint[l] = j;
                if (j >= 0) {
                    w->slot[j] = g * RB_WIDE_LANES + l;
                    most = rb_maxi(most, c->constraints[j].count);
                }
            }
            wc->first_point = points;
            wc->point_count = most;
            points += most;
        }
    }
    for (int j = c->color_start[RB_MAX_COLORS]; j < c->color_start[RB_MAX_COLORS + 1]; ++j)
        w->slot[j] = -1;
    if (!reserve_aligned((void **)&w->points, &w->point_bytes, sizeof *w->points * (size_t)(points + 1)))
        return RB_ERR_OUT_OF_MEMORY;
    // the shock levels in groups of RB_WIDE_LANES bodies
    int levels = c->shock_levels, shock_groups = 0;
    if (!rb_cpu_reserve((void **)&w->shock_group_start, &w->shock_group_start_cap, levels + 1, sizeof(int)))
        return RB_ERR_OUT_OF_MEMORY;
    for (int l = 0; l < levels; ++l) {
        w->shock_group_start[l] = shock_groups;
        shock_groups += (c->shock_level_start[l + 1] - c->shock_level_start[l] + RB_WIDE_LANES - 1) / RB_WIDE_LANES;
    }
    w->shock_group_start[levels] = shock_groups;
    if (!rb_cpu_reserve((void **)&w->shock_first, &w->shock_first_cap, shock_groups, sizeof(int)) ||
        !rb_cpu_reserve((void **)&w->shock_end, &w->shock_end_cap, shock_groups, sizeof(int)))
        return RB_ERR_OUT_OF_MEMORY;
    if (!rb_cpu_reserve((void **)&w->shock_round_start, &w->shock_round_start_cap, shock_groups + 1, sizeof(int)))
        return RB_ERR_OUT_OF_MEMORY;
    int rounds = 0;
    const int *ss = c->shock_support_start;
    for (int l = 0, g = 0; l < levels; ++l)
        for (int i = c->shock_level_start[l]; i < c->shock_level_start[l + 1]; i += RB_WIDE_LANES, ++g) {
            int hi = c->shock_level_start[l + 1], most = 0;
            w->shock_first[g] = i;
            w->shock_end[g] = hi;
            w->shock_round_start[g] = rounds;
            for (int b = i; b < hi && b < i + RB_WIDE_LANES; ++b)
                most = rb_maxi(most, ss[b + 1] - ss[b]);
            rounds += most;
        }
    w->shock_round_start[shock_groups] = rounds;
    if (!reserve_aligned((void **)&w->shock_edges, &w->shock_edge_bytes, sizeof(shock_edge) * (size_t)(rounds + 1)))
        return RB_ERR_OUT_OF_MEMORY;
    return RB_OK;
}

// Lane by lane from the scalar layout: constraints, rows, impulses.
static void fill_group(rb_cpu_ctx *c, int g)
{
    rb_wide_state *w = c->wide;
    wide_constraint *wc = &w->groups[g];
    wide_point *wp = &w->points[wc->first_point];
    memset(wp, 0, sizeof *wp * (size_t)wc->point_count);
    rb_wv zero = {w_splat(0.0f), w_splat(0.0f), w_splat(0.0f)};
    wc->normal = zero;
    wc->inv_mass_a = wc->inv_mass_b = w_splat(0.0f);
    wc->twist_arm = wc->twist_mass = wc->twist_impulse = w_splat(0.0f);
    wc->twist_ia = wc->twist_ib = zero;
    wc->any_twist = 0;
    for (int l = 0; l < RB_WIDE_LANES; ++l) {
        int j = wc->constraint[l];
        wc->body_a[l] = wc->body_b[l] = -1;
        wc->count[l] = 0;
        wc->stiff[l] = 0;
        wc->moving[l] = 0;
        if (j < 0)
            continue;
        const rb_contact_constraint *k = &c->constraints[j];
        wc->body_a[l] = k->body_a;
        wc->body_b[l] = k->body_b;
        wc->count[l] = k->count;
        lane_set(&wc->normal, l, k->normal);
        wc->inv_mass_a[l] = k->inv_mass_a;
        wc->inv_mass_b[l] = k->inv_mass_b;
        wc->stiff[l] = (k->inv_mass_a == 0.0f || k->inv_mass_b == 0.0f) ? -1 : 0;
        wc->moving[l] = ~wc->stiff[l];
        const rb_contact_point *pts = &c->points[k->first_point];
        if (k->twist_arm > 0.0f) {
            wc->twist_arm[l] = k->twist_arm;
            wc->twist_mass[l] = pts[0].twist_mass;
            wc->twist_impulse[l] = pts[0].twist_impulse;
            lane_set(&wc->twist_ia, l, k->twist_ia);
            lane_set(&wc->twist_ib, l, k->twist_ib);
            wc->any_twist = 1;
        }
        for (int i = 0; i < k->count; ++i) {
            const rb_contact_point *p = &pts[i];
            wide_point *q = &wp[i];
            lane_set_row(&q->n, l, &p->n, 1);
            lane_set_row(&q->t1, l, &p->t1, 1);
            lane_set_row(&q->t2, l, &p->t2, 1);
            lane_set(&q->tangent1, l, p->tangent1);
            lane_set(&q->tangent2, l, p->tangent2);
            lane_set(&q->local_a, l, p->local_a);
            lane_set(&q->local_b, l, p->local_b);
            q->separation[l] = p->separation;
            q->friction[l] = p->friction;
            q->max_normal_impulse[l] = p->max_normal_impulse;
        }
    }
}

void RB_WIDE_API(rb_wide_store)(rb_cpu_ctx *c)
{
    rb_wide_state *w = c->wide;
    int groups = w->group_start[w->colors];
#pragma omp for schedule(static)
    for (int g = 0; g < groups; ++g) {
        const wide_constraint *wc = &w->groups[g];
        for (int l = 0; l < RB_WIDE_LANES; ++l) {
            int j = wc->constraint[l];
            if (j < 0)
                continue;
            const rb_contact_constraint *k = &c->constraints[j];
            if (k->twist_arm > 0.0f)
                c->points[k->first_point].twist_impulse = wc->twist_impulse[l];
            for (int i = 0; i < k->count; ++i) {
                rb_contact_point *p = &c->points[k->first_point + i];
                const wide_point *q = &w->points[wc->first_point + i];
                p->n.impulse = q->n.impulse[l];
                p->t1.impulse = q->t1.impulse[l];
                p->t2.impulse = q->t2.impulse[l];
                p->max_normal_impulse = q->max_normal_impulse[l];
            }
        }
    }
}

void RB_WIDE_API(rb_wide_free)(void *state)
{
    rb_wide_state *w = state;
    if (!w)
        return;
    free(w->groups);
    free(w->points);
    free(w->slot);
    free(w->shock_group_start);
    free(w->shock_first);
    free(w->shock_end);
    free(w->shock_round_start);
    free(w->shock_edges);
    free(w);
}

// ---- the passes

typedef struct wide_bodies {
    rb_wv va, wa, vb, wb;
} wide_bodies;

// rb_contact_row_velocity
static inline rb_wf row_velocity(const wide_row *r, rb_wv d, const wide_bodies *b)
{
    return wv_dot(wv_sub(b->vb, b->va), d) + wv_dot(b->wb, r->rb_x) - wv_dot(b->wa, r->ra_x);
}

// rb_contact_row_apply
static inline void row_apply(const wide_row *r, rb_wv d, rb_wf lambda, rb_wf ima, rb_wf imb, wide_bodies *b)
{
    b->va = wv_mad(b->va, -ima * lambda, d);
    b->wa = wv_mad(b->wa, -lambda, r->ia_x);
    b->vb = wv_mad(b->vb, imb * lambda, d);
    b->wb = wv_mad(b->wb, lambda, r->ib_x);
}

RB_WIDE_CLONES static void warm_start_group(rb_cpu_ctx *c, const wide_constraint *wc)
{
    rb_scene *s = c->scene;
    wide_bodies b = {gather3(s->body_lin_vel, wc->body_a), gather3(s->body_ang_vel, wc->body_a),
                     gather3(s->body_lin_vel, wc->body_b), gather3(s->body_ang_vel, wc->body_b)};
    const wide_point *pts = &wide_of(c)->points[wc->first_point];
    rb_wf ima = wc->inv_mass_a, imb = wc->inv_mass_b;
    for (int i = 0; i < wc->point_count; ++i) { // rb_contact_warm_start
        const wide_point *p = &pts[i];
        row_apply(&p->n, wc->normal, p->n.impulse, ima, imb, &b);
        row_apply(&p->t1, p->tangent1, p->t1.impulse, ima, imb, &b);
        row_apply(&p->t2, p->tangent2, p->t2.impulse, ima, imb, &b);
    }
    if (wc->any_twist) { // lanes without the row have a zero impulse
        b.wa = wv_mad(b.wa, -wc->twist_impulse, wc->twist_ia);
        b.wb = wv_mad(b.wb, wc->twist_impulse, wc->twist_ib);
    }
    scatter(s, wc->body_a, b.va, b.wa);
    scatter(s, wc->body_b, b.vb, b.wb);
}

// rb_contact_solve_soft, lane by lane
RB_WIDE_CLONES static void solve_group(rb_cpu_ctx *c, wide_constraint *wc, const rb_soft_settings *st, int use_bias)
{
    rb_scene *s = c->scene;
    wide_bodies b = {gather3(s->body_lin_vel, wc->body_a), gather3(s->body_ang_vel, wc->body_a),
                     gather3(s->body_lin_vel, wc->body_b), gather3(s->body_ang_vel, wc->body_b)};
    rb_wv pa = gather3(s->body_pos, wc->body_a), pb = gather3(s->body_pos, wc->body_b);
    rb_wq qa = gather_rot(s->body_rot, wc->body_a), qb = gather_rot(s->body_rot, wc->body_b);
    wide_point *pts = &wide_of(c)->points[wc->first_point];
    rb_wf ima = wc->inv_mass_a, imb = wc->inv_mass_b;
    rb_wv normal = wc->normal;
    rb_wf bias_rate = w_select(wc->stiff, w_splat(st->soft_static.bias_rate), w_splat(st->soft.bias_rate));
    rb_wf soft_scale = w_select(wc->stiff, w_splat(st->soft_static.mass_scale), w_splat(st->soft.mass_scale));
    rb_wf soft_leak = w_select(wc->stiff, w_splat(st->soft_static.impulse_scale), w_splat(st->soft.impulse_scale));
    rb_wf zero = w_splat(0.0f), one = w_splat(1.0f);
    rb_wf bias_of[RB_MAX_MANIFOLD_POINTS], scale_of[RB_MAX_MANIFOLD_POINTS], leak_of[RB_MAX_MANIFOLD_POINTS];
    int np = wc->point_count;
    for (int i = 0; i < np; ++i) {
        const wide_point *p = &pts[i];
        // rb_contact_separation
        rb_wv xa = wv_add(pa, wq_rotate(qa, p->local_a)), xb = wv_add(pb, wq_rotate(qb, p->local_b));
        rb_wf sep = p->separation + wv_dot(wv_sub(xb, xa), normal);
        rb_wm speculative = sep > zero;
        rb_wf biased = w_max(bias_rate * w_min(sep + st->slop, zero), w_splat(-st->max_push));
        bias_of[i] = w_select(speculative, sep * st->inv_h, use_bias ? biased : zero);
        scale_of[i] = use_bias ? w_select(speculative, one, soft_scale) : one;
        leak_of[i] = use_bias ? w_select(speculative, zero, soft_leak) : zero;
    }
    // -mass mass_scale, once per pass; without a leak (rubble's default) its term is +0 (the impulses
    // are >= +0) and subtracting +0 changes nothing, so it is left out
    rb_wf neg_mass[RB_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < np; ++i)
        neg_mass[i] = -pts[i].n.mass * scale_of[i];
    int leaky = st->soft.impulse_scale != 0.0f || st->soft_static.impulse_scale != 0.0f;
    rb_wm active = (rb_wm){0} - 1;
    for (int sweep = 0; sweep < st->sweeps; ++sweep) {
        rb_wf change = zero;
        for (int i = 0; i < np; ++i) {
            wide_point *p = &pts[i];
            rb_wf vn = row_velocity(&p->n, normal, &b);
            rb_wf lambda = neg_mass[i] * (vn + bias_of[i]);
            if (leaky)
                lambda -= leak_of[i] * p->n.impulse;
            rb_wf total = w_select(active, w_max(p->n.impulse + lambda, zero), p->n.impulse);
            lambda = total - p->n.impulse;
            p->n.impulse = total;
            p->max_normal_impulse = w_max(p->max_normal_impulse, total);
            row_apply(&p->n, normal, lambda, ima, imb, &b);
            change = w_max(change, w_select(p->n.mass > zero, w_abs(lambda) / p->n.mass, zero));
        }
        // a lane whose manifold has converged takes no more impulse (the scalar code's break)
        active &= ~(change < w_splat(RB_SOFT_CONVERGED));
        if (!w_any(active))
            break;
    }
    for (int i = 0; i < np; ++i) { // rb_contact_solve_friction
        wide_point *p = &pts[i];
        rb_wf limit = p->friction * p->n.impulse;
        rb_wf v1 = row_velocity(&p->t1, p->tangent1, &b);
        rb_wf v2 = row_velocity(&p->t2, p->tangent2, &b);
        rb_wf new1 = p->t1.impulse - p->t1.mass * v1;
        rb_wf new2 = p->t2.impulse - p->t2.mass * v2;
        rb_wf len2 = new1 * new1 + new2 * new2;
        rb_wm over = len2 > limit * limit;
        if (w_any(over)) {
            rb_wf scale = w_select(over, limit / w_sqrt(w_select(over, len2, one)), one);
            new1 = w_select(over, new1 * scale, new1);
            new2 = w_select(over, new2 * scale, new2);
        }
        rb_wf d1 = new1 - p->t1.impulse, d2 = new2 - p->t2.impulse;
        p->t1.impulse = new1;
        p->t2.impulse = new2;
        row_apply(&p->t1, p->tangent1, d1, ima, imb, &b);
        row_apply(&p->t2, p->tangent2, d2, ima, imb, &b);
    }
    if (wc->any_twist) { // rb_contact_solve_twist, in the lanes that have the row
        rb_wm has = wc->twist_arm > zero;
        rb_wf spin = wv_dot(wv_sub(b.wb, b.wa), normal);
        rb_wf limit = pts[0].friction * w_max(pts[0].n.impulse, zero) * wc->twist_arm;
        rb_wf next = w_min(w_max(wc->twist_impulse - wc->twist_mass * spin, -limit), limit);
        rb_wf d = next - wc->twist_impulse;
        wc->twist_impulse = w_select(has, next, wc->twist_impulse);
        rb_wv wa = wv_mad(b.wa, -d, wc->twist_ia), wb = wv_mad(b.wb, d, wc->twist_ib);
        b.wa = (rb_wv){w_select(has, wa.x, b.wa.x), w_select(has, wa.y, b.wa.y), w_select(has, wa.z, b.wa.z)};
        b.wb = (rb_wv){w_select(has, wb.x, b.wb.x), w_select(has, wb.y, b.wb.y), w_select(has, wb.z, b.wb.z)};
    }
    scatter(s, wc->body_a, b.va, b.wa);
    scatter(s, wc->body_b, b.vb, b.wb);
}

// rb_contact_make_row, stored where `need`
static inline void make_row(wide_row *r, rb_wm need, rb_wv ra, rb_wv rb, rb_wv d, rb_wf ima, rb_wf imb, rb_wm3 iia,
                            rb_wm3 iib)
{
    rb_wv ra_x = wv_cross(ra, d), rb_x = wv_cross(rb, d);
    rb_wv ia_x = wm3_mulv(iia, ra_x), ib_x = wm3_mulv(iib, rb_x);
    rb_wf k = ima + imb + wv_dot(ra_x, ia_x) + wv_dot(rb_x, ib_x);
    rb_wf zero = w_splat(0.0f);
    rb_wf mass = w_select(k > zero, 1.0f / w_select(k > zero, k, w_splat(1.0f)), zero);
    r->ra_x = (rb_wv){w_select(need, ra_x.x, r->ra_x.x), w_select(need, ra_x.y, r->ra_x.y), w_select(need, ra_x.z, r->ra_x.z)};
    r->rb_x = (rb_wv){w_select(need, rb_x.x, r->rb_x.x), w_select(need, rb_x.y, r->rb_x.y), w_select(need, rb_x.z, r->rb_x.z)};
    r->ia_x = (rb_wv){w_select(need, ia_x.x, r->ia_x.x), w_select(need, ia_x.y, r->ia_x.y), w_select(need, ia_x.z, r->ia_x.z)};
    r->ib_x = (rb_wv){w_select(need, ib_x.x, r->ib_x.x), w_select(need, ib_x.y, r->ib_x.y), w_select(need, ib_x.z, r->ib_x.z)};
    r->mass = w_select(need, mass, r->mass);
}

// rb_contact_shadows_overlap
static inline rb_wm shadows_overlap(rb_wv d, rb_wv n, rb_wf radius_a, rb_wf radius_b)
{
    rb_wv across = wv_mad(d, -wv_dot(d, n), n);
    rb_wf reach = radius_a + radius_b;
    return wv_dot(across, across) <= reach * reach;
}

// rb_contact_retire_point where `drop`: lever arms, mass and impulse zero
static inline void clear_row(wide_row *r, rb_wm drop)
{
    rb_wf zero = w_splat(0.0f);
    r->ra_x = (rb_wv){w_select(drop, zero, r->ra_x.x), w_select(drop, zero, r->ra_x.y), w_select(drop, zero, r->ra_x.z)};
    r->rb_x = (rb_wv){w_select(drop, zero, r->rb_x.x), w_select(drop, zero, r->rb_x.y), w_select(drop, zero, r->rb_x.z)};
    r->ia_x = (rb_wv){w_select(drop, zero, r->ia_x.x), w_select(drop, zero, r->ia_x.y), w_select(drop, zero, r->ia_x.z)};
    r->ib_x = (rb_wv){w_select(drop, zero, r->ib_x.x), w_select(drop, zero, r->ib_x.y), w_select(drop, zero, r->ib_x.z)};
    r->mass = w_select(drop, zero, r->mass);
    r->impulse = w_select(drop, zero, r->impulse);
}

// The current body of each lane (current_body in contact_solver_soft.c): world inverse inertia at the
// current orientation, as integrate_positions left it.
static inline rb_wm3 current_inv_inertia(const rb_cpu_ctx *c, const int *idx, rb_wf *inv_mass)
{
    rb_wv d, o;
    rb_wf unused;
    gather4(c->cur_inv_inertia_diag, idx, &none_zero, &d.x, &d.y, &d.z, inv_mass);
    gather4(c->cur_inv_inertia_offdiag, idx, &none_zero, &o.x, &o.y, &o.z, &unused);
    return (rb_wm3){{d.x, o.x, o.y}, {o.x, d.y, o.z}, {o.y, o.z, d.z}}; // rb_mat3_symmetric
}

// rb_contact_refresh_point on every closing point (separation > slop) between two moving bodies, or
// rb_contact_retire_point once the bodies have slid past each other (rb_contact_shadows_overlap)
RB_WIDE_CLONES static void refresh_group(rb_cpu_ctx *c, wide_constraint *wc, float slop)
{
    wide_point *pts = &wide_of(c)->points[wc->first_point];
    int np = wc->point_count, any = 0;
    rb_wm need[RB_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < np; ++i) {
        need[i] = wc->moving & (pts[i].separation > w_splat(slop));
        any |= w_any(need[i]);
    }
    if (!any)
        return;
    const rb_scene *s = c->scene;
    rb_wv pa = gather3(s->body_pos, wc->body_a), pb = gather3(s->body_pos, wc->body_b);
    rb_wq qa = gather_rot(s->body_rot, wc->body_a), qb = gather_rot(s->body_rot, wc->body_b);
    rb_wf ima, imb;
    rb_wm3 iia = current_inv_inertia(c, wc->body_a, &ima), iib = current_inv_inertia(c, wc->body_b, &imb);
    rb_wv unused;
    rb_wf radius_a, radius_b; // bounding radii about the centres of mass
    gather4(s->body_local_center, wc->body_a, &none_zero, &unused.x, &unused.y, &unused.z, &radius_a);
    gather4(s->body_local_center, wc->body_b, &none_zero, &unused.x, &unused.y, &unused.z, &radius_b);
    rb_wm touchable = shadows_overlap(wv_sub(pb, pa), wc->normal, radius_a, radius_b);
    for (int i = 0; i < np; ++i) {
        if (!w_any(need[i]))
            continue;
        wide_point *p = &pts[i];
        rb_wv xa = wv_add(pa, wq_rotate(qa, p->local_a)), xb = wv_add(pb, wq_rotate(qb, p->local_b));
        rb_wv x = wv_scale(wv_add(xa, xb), w_splat(0.5f));
        rb_wv ra = wv_sub(x, pa), rb = wv_sub(x, pb);
        rb_wm keep = need[i] & touchable;
        make_row(&p->n, keep, ra, rb, wc->normal, ima, imb, iia, iib);
        make_row(&p->t1, keep, ra, rb, p->tangent1, ima, imb, iia, iib);
        make_row(&p->t2, keep, ra, rb, p->tangent2, ima, imb, iia, iib);
        rb_wm drop = need[i] & ~keep;
        if (w_any(drop)) {
            clear_row(&p->n, drop);
            clear_row(&p->t1, drop);
            clear_row(&p->t2, drop);
            if (i == 0)
                wc->twist_impulse = w_select(drop, w_splat(0.0f), wc->twist_impulse);
        }
    }
}

// A colour or level with fewer groups than this per thread runs on one thread, together with the
// small ones after it: its barrier would cost more than the parallel loop saves.
#define RB_WIDE_MIN_GROUPS_PER_THREAD 2

static int team_size(void)
{
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}

typedef struct wide_pass {
    int op;      // RB_WIDE_WARM_START, RB_WIDE_SOLVE, RB_WIDE_RELAX
    int prepare; // RB_WIDE_FILL, RB_WIDE_REFRESH or 0: done to each group just before its pass
    const rb_soft_settings *st;
    float slop;
} wide_pass;

static void run_group(rb_cpu_ctx *c, int g, const wide_pass *wp)
{
    wide_constraint *wc = &wide_of(c)->groups[g];
    if (wp->prepare == RB_WIDE_FILL)
        fill_group(c, g);
    else if (wp->prepare == RB_WIDE_REFRESH)
        refresh_group(c, wc, wp->slop);
    if (wp->op == RB_WIDE_WARM_START)
        warm_start_group(c, wc);
    else
        solve_group(c, wc, wp->st, wp->op == RB_WIDE_SOLVE);
}

// Runs item(ctx, g) for the ranges [start[k], start[k + 1]), k = 0 .. count - 1, in order; each
// range's items in parallel (inside a parallel region).
static void run_ranges(int count, const int *start, void (*item)(rb_cpu_ctx *, int, const void *), rb_cpu_ctx *c,
                       const void *arg)
{
    int small = RB_WIDE_MIN_GROUPS_PER_THREAD * team_size();
    for (int k = 0; k < count;) {
        int lo = start[k], hi = start[k + 1];
        if (hi - lo >= small) {
#pragma omp for schedule(static)
            for (int g = lo; g < hi; ++g)
                item(c, g, arg);
            ++k;
            continue;
        }
        int end = k;
        while (end < count && start[end + 1] - start[end] < small)
            ++end;
#pragma omp single
        for (int g = lo; g < start[end]; ++g)
            item(c, g, arg);
        k = end;
    }
}

static void color_item(rb_cpu_ctx *c, int g, const void *arg) { run_group(c, g, (const wide_pass *)arg); }

void RB_WIDE_API(rb_wide_warm_start)(rb_cpu_ctx *c, int prepare, float slop)
{
    wide_pass wp = {RB_WIDE_WARM_START, prepare, NULL, slop};
    run_ranges(wide_of(c)->colors, wide_of(c)->group_start, color_item, c, &wp);
}

void RB_WIDE_API(rb_wide_solve)(rb_cpu_ctx *c, const rb_soft_settings *st, int use_bias, int refresh)
{
    wide_pass wp = {use_bias ? RB_WIDE_SOLVE : RB_WIDE_RELAX, refresh ? RB_WIDE_REFRESH : 0, st, st->slop};
    run_ranges(wide_of(c)->colors, wide_of(c)->group_start, color_item, c, &wp);
}

// ---- the shock pass (rb_contact_solve_shock), a level's bodies in the lanes
//
// A level's bodies are independent (each writes only itself, against supports already final), so
// RB_WIDE_LANES of them share the lanes; each lane takes its body's supports in order, one per round,
// as the scalar pass does. What a support needs (its normal rows, anchors, separations, accumulated
// impulses) is read from the lanes of its colour, where the passes keep it current.


// Lane l of the round: constraint j's points (from its colour's lanes, or c->points for the overflow
// batch). Returns its point count.
static int load_support(const rb_cpu_ctx *c, int j, int l, shock_point *sp)
{
    const rb_wide_state *w = c->wide;
    const rb_contact_constraint *k = &c->constraints[j];
    int slot = w->slot[j];
    if (slot < 0) {
        for (int i = 0; i < k->count; ++i) {
            const rb_contact_point *p = &c->points[k->first_point + i];
            lane_set(&sp[i].ra_x, l, p->n.ra_x);
            lane_set(&sp[i].rb_x, l, p->n.rb_x);
            lane_set(&sp[i].ia_x, l, p->n.ia_x);
            lane_set(&sp[i].ib_x, l, p->n.ib_x);
            lane_set(&sp[i].local_a, l, p->local_a);
            lane_set(&sp[i].local_b, l, p->local_b);
            sp[i].separation[l] = p->separation;
            sp[i].accumulated[l] = p->n.impulse;
            sp[i].row_mass[l] = p->n.mass;
        }
        return k->count;
    }
    const wide_point *q = &w->points[w->groups[slot / RB_WIDE_LANES].first_point];
    int ql = slot % RB_WIDE_LANES;
    for (int i = 0; i < k->count; ++i) {
        lane_set(&sp[i].ra_x, l, lane_get(&q[i].n.ra_x, ql));
        lane_set(&sp[i].rb_x, l, lane_get(&q[i].n.rb_x, ql));
        lane_set(&sp[i].ia_x, l, lane_get(&q[i].n.ia_x, ql));
        lane_set(&sp[i].ib_x, l, lane_get(&q[i].n.ib_x, ql));
        lane_set(&sp[i].local_a, l, lane_get(&q[i].local_a, ql));
        lane_set(&sp[i].local_b, l, lane_get(&q[i].local_b, ql));
        sp[i].separation[l] = q[i].separation[ql];
        sp[i].accumulated[l] = q[i].n.impulse[ql];
        sp[i].row_mass[l] = q[i].n.mass[ql];
    }
    return k->count;
}


static void shock_load(rb_cpu_ctx *c, shock_edge *e, const int *edge, float slop)
{
    memset(e, 0, sizeof *e);
    for (int l = 0; l < RB_WIDE_LANES; ++l) {
        e->body_a[l] = e->body_b[l] = e->moving[l] = e->constraint[l] = -1;
        if (edge[l] < 0)
            continue;
        int j = edge[l] >> 1, fixed_a = edge[l] & 1;
        const rb_contact_constraint *k = &c->constraints[j];
        e->constraint[l] = j;
        e->body_a[l] = k->body_a;
        e->body_b[l] = k->body_b;
        e->moving[l] = fixed_a ? k->body_b : k->body_a; // dynamic: shock_levels.c levels only bodies with mass
        e->side_b[l] = fixed_a ? -1 : 0;
        e->im[l] = fixed_a ? k->inv_mass_b : k->inv_mass_a;
        lane_set(&e->normal, l, k->normal);
        int count = load_support(c, j, l, e->pts);
        for (int i = 0; i < count; ++i)
            e->has[i][l] = -1;
        e->np = rb_maxi(e->np, count);
        // refresh_group's test, or the overflow batch (refreshed in c->points)
        int fresh = wide_of(c)->slot[j] < 0;
        for (int i = 0; i < count; ++i)
            fresh |= k->inv_mass_a != 0.0f && k->inv_mass_b != 0.0f && e->pts[i].separation[l] > slop;
        e->reload[l] = fresh;
    }
}

static void shock_update(rb_cpu_ctx *c, shock_edge *e)
{
    const rb_wide_state *w = c->wide;
    for (int l = 0; l < RB_WIDE_LANES; ++l) {
        int j = e->constraint[l];
        if (j < 0)
            continue;
        if (e->reload[l]) {
            load_support(c, j, l, e->pts);
            continue;
        }
        int slot = w->slot[j], ql = slot % RB_WIDE_LANES, count = c->constraints[j].count;
        const wide_point *q = &w->points[w->groups[slot / RB_WIDE_LANES].first_point];
        for (int i = 0; i < count; ++i)
            e->pts[i].accumulated[l] = q[i].n.impulse[ql];
    }
}

RB_WIDE_CLONES static void shock_round(rb_cpu_ctx *c, const shock_edge *e, const rb_soft_settings *st, int use_bias)
{
    rb_scene *s = c->scene;
    const shock_point *sp = e->pts;
    int np = e->np;
    const rb_wm *has = e->has;
    rb_wv normal = e->normal;
    rb_wf im = e->im;
    rb_wm side_b = e->side_b;
    wide_bodies b = {gather3(s->body_lin_vel, e->body_a), gather3(s->body_ang_vel, e->body_a),
                     gather3(s->body_lin_vel, e->body_b), gather3(s->body_ang_vel, e->body_b)};
    rb_wv pa = gather3(s->body_pos, e->body_a), pb = gather3(s->body_pos, e->body_b);
    rb_wq qa = gather_rot(s->body_rot, e->body_a), qb = gather_rot(s->body_rot, e->body_b);
    rb_softness soft = st->soft_static;
    rb_wf zero = w_splat(0.0f);
    rb_wf bias_of[RB_MAX_MANIFOLD_POINTS], mass_of[RB_MAX_MANIFOLD_POINTS], extra[RB_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < np; ++i) {
        const shock_point *p = &sp[i];
        rb_wv xa = wv_add(pa, wq_rotate(qa, p->local_a)), xb = wv_add(pb, wq_rotate(qb, p->local_b));
        rb_wf sep = p->separation + wv_dot(wv_sub(xb, xa), normal);
        rb_wm speculative = sep > zero;
        rb_wf biased = w_max(soft.bias_rate * w_min(sep + st->slop, zero), w_splat(-st->max_push));
        bias_of[i] = w_select(speculative, sep * st->inv_h, use_bias ? biased : zero);
        rb_wf mass_scale = use_bias ? w_select(speculative, w_splat(1.0f), w_splat(soft.mass_scale)) : w_splat(1.0f);
        // rb_row_mass_one_side
        rb_wf k = im + w_select(side_b, wv_dot(p->rb_x, p->ib_x), wv_dot(p->ra_x, p->ia_x));
        rb_wf mass = w_select(k > zero, 1.0f / w_select(k > zero, k, w_splat(1.0f)), zero);
        mass_of[i] = w_select(has[i] & (p->row_mass > zero), mass * mass_scale, zero);
        extra[i] = zero;
    }
    rb_wm active = has[0];
    for (int sweep = 0; sweep < st->shock_sweeps; ++sweep) {
        rb_wf change = zero;
        for (int i = 0; i < np; ++i) {
            const shock_point *p = &sp[i];
            rb_wf vn = wv_dot(wv_sub(b.vb, b.va), normal) + wv_dot(b.wb, p->rb_x) - wv_dot(b.wa, p->ra_x);
            rb_wf lambda = -mass_of[i] * (vn + bias_of[i]);
            lambda = w_max(lambda, -(p->accumulated + extra[i]));
            lambda = w_select(active & has[i], lambda, zero);
            extra[i] += lambda;
            // rb_contact_row_apply_one_side: the supporting body's velocities take nothing
            rb_wf la = w_select(side_b, zero, lambda), lb = w_select(side_b, lambda, zero);
            b.va = wv_mad(b.va, -im * la, normal);
            b.wa = wv_mad(b.wa, -la, p->ia_x);
            b.vb = wv_mad(b.vb, im * lb, normal);
            b.wb = wv_mad(b.wb, lb, p->ib_x);
            change = w_max(change, w_select(mass_of[i] > zero, w_abs(lambda) / mass_of[i], zero));
        }
        active &= ~(change < w_splat(RB_SOFT_CONVERGED));
        if (!w_any(active))
            break;
    }
    for (int l = 0; l < RB_WIDE_LANES; ++l) {
        int m = e->moving[l];
        if (m < 0)
            continue;
        rb_wv v = side_b[l] ? b.vb : b.va, w = side_b[l] ? b.wb : b.wa;
        s->body_lin_vel[m] = rb_f4(v.x[l], v.y[l], v.z[l], 0.0f);
        s->body_ang_vel[m] = rb_f4(w.x[l], w.y[l], w.z[l], 0.0f);
    }
}

typedef struct shock_arg {
    const rb_soft_settings *st;
    int use_bias, first; // first: the frame's first shock pass lays the rounds out
} shock_arg;

// Shock group g: RB_WIDE_LANES bodies of one level from shock_order[first[g]] on.
static void shock_item(rb_cpu_ctx *c, int g, const void *arg)
{
    const shock_arg *sa = arg;
    const rb_wide_state *w = c->wide;
    const int *ss = c->shock_support_start;
    int first = w->shock_first[g], hi = w->shock_end[g];
    for (int r = 0; r < w->shock_round_start[g + 1] - w->shock_round_start[g]; ++r) {
        shock_edge *e = &w->shock_edges[w->shock_round_start[g] + r];
        if (sa->first) {
            int edge[RB_WIDE_LANES];
            for (int l = 0; l < RB_WIDE_LANES; ++l) {
                int i = first + l;
                edge[l] = i < hi && ss[i] + r < ss[i + 1] ? c->shock_supports[ss[i] + r] : -1;
            }
            shock_load(c, e, edge, sa->st->slop);
        } else {
            shock_update(c, e);
        }
        shock_round(c, e, sa->st, sa->use_bias);
    }
}

void RB_WIDE_API(rb_wide_shock_pass)(rb_cpu_ctx *c, const rb_soft_settings *st, int use_bias, int first)
{
    shock_arg sa = {st, use_bias, first};
    run_ranges(c->shock_levels, wide_of(c)->shock_group_start, shock_item, c, &sa);
}
