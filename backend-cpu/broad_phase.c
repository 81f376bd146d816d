// CPU broad phase: a sort-based uniform grid, plus a brute-force list for planes and large shapes.
//
// Steps of rb_broad_phase_find_pairs, each one parallel over shape slots or grid entries:
//  1. collect: each shape slot gets a role: skipped (free slot, frozen body), plane, grid or large.
//     The extents of the finite shapes are counted into log-scale histograms for the cell size.
//  2. classify: a finite shape whose AABB would touch more than BP_MAX_CELLS_PER_SHAPE cells, or
//     whose AABB is not finite, is "large" and stays out of the grid. The grid spans the others.
//  3. insert: every grid shape gets one entry (cell key, shape) per cell its AABB touches. The key
//     is the cell's exact linear index in the grid's box (no hashing, no collisions), so it has no
//     more bits than the grid has cells. rb_radix_sort by key makes each cell a run of entries.
//  4. pairs: within a run, a pair is emitted only by the cell that holds the lowest corner of the
//     intersection of the two AABBs. That cell is, on each axis, the larger of the two shapes' first
//     cells, so each entry carries three bits "this is my first cell along x / y / z", and the cell
//     owns the pair exactly when the two entries' bits together cover all three axes. Each
//     overlapping pair is found once, with no dedupe pass. A run's boxes are gathered into small
//     arrays and tested four at a time (SSE2; a scalar loop elsewhere). The pair rules (bodies,
//     kinds, filters) are read only for overlapping boxes. Each large shape and each plane is then
//     tested against every finite shape.
//  5. The pairs of all threads are sorted by (a, b) with rb_radix_sort into the result.
//
// Cell size (why): a moving shape should touch few cells (few entries to sort) and a cell should
// hold few shapes (few pairs to test). The cell is BP_CELL_SCALE = 2 times the median, over the
// finite moving (dynamic and kinematic) shapes, of each AABB's largest extent (over all finite
// shapes when none moves), read from a histogram with 8 bins per octave and rounded up to the bin
// edge. A typical shape then touches about 1.5 cells per axis (3 to 3.4 entries) and shares each
// cell with some 20 others. Measured on the 8,000-sphere pile, one core, ms per call: scale 1.5:
// 1.03, 1.75: 0.83, 2: 0.80, 2.5: 0.82, 3: 0.84; at 1, 8 entries per shape cost 2x in the sort.
// A few big shapes do not move the median; they go to the large list, which is tested against
// everything and so must stay short: if more than BP_MAX_LARGE_GUARD finite shapes are wider than
// 3 cells, the cell grows until no more than that many are. Static shapes count there too (a floor
// of many big static tiles becomes grid work instead of quadratic work), while the four walls of a
// pen stay in the list. The grid spans the grid shapes' AABBs; where that would need more than 2^21
// cells on an axis, the cell grows to fit.
#include "broad_phase.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/pair.h"
#include "kernels/shape_geom.h"
#include "scene.h"
#include "sort.h"

// The SSE2 paths also use __builtin_ctz: every compiler that defines __SSE2__ has it.
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifdef _OPENMP
#include <omp.h>
static int bp_thread_id(void) { return omp_get_thread_num(); }
static int bp_team_size(void) { return omp_get_num_threads(); }
#else
static int bp_thread_id(void) { return 0; }
static int bp_team_size(void) { return 1; }
#endif

#define BP_CELL_SCALE 2.0f
#define BP_MAX_CELLS_PER_SHAPE 64.0f
#define BP_MAX_LARGE_GUARD 32
// Extent histogram: the float's exponent and top 3 mantissa bits, i.e. 8 bins per octave.
#define BP_EXTENT_SHIFT 20
#define BP_EXTENT_BINS 2048
// At most 2^21 cells per axis, so a linear cell index fits in 63 bits.
#define BP_AXIS_CELLS_MAX (1 << 21)
// Loops shorter than this run on one thread.
#define BP_PARALLEL_MIN 4096
// Runs (cells) up to this many entries are gathered into arrays on the stack; longer ones (only in
// degenerate scenes) are tested in place.
#define BP_RUN_MAX 256
// Pair tests go in blocks of 4 boxes: one SSE vector of floats.
#define BP_BLOCK 4

// shape slot roles
#define BP_ROLE_SKIP 0
#define BP_ROLE_GRID 1
#define BP_ROLE_LARGE 2
#define BP_ROLE_PLANE 3

// entry pad bits: the entry's cell is the shape's first cell along x, y, z
#define BP_FIRST_X 0x1u
#define BP_FIRST_Y 0x2u
#define BP_FIRST_Z 0x4u
#define BP_FIRST_ALL 0x7u

typedef struct bp_grid {
    float origin[4];   // x, y, z and an unused lane: cell_range works on whole rb_float4s
    float inv_cell;
    float max_cell[4]; // highest cell coordinate per axis (exact in a float: at most 2^21)
    uint64_t stride_x; // key = y * stride_y + x * stride_x + z
    uint64_t stride_y;
    int key_bits;
} bp_grid;

// Counts of the insert step, combined in thread order.
typedef struct bp_counts {
    int64_t cells, large, planes;
} bp_counts;

// What one thread owns; persists between calls.
typedef struct bp_thread {
    uint64_t *pairs;   // (a << 32) | b
    int64_t pair_count;
    int64_t pair_capacity;
    int64_t pair_budget; // rb_broad_input.max_pairs, or INT64_MAX
    int failed;          // 1: out of memory, 2: over the budget; the thread stops emitting
    bp_counts counts;
    uint32_t kinds;
    float lo[3], hi[3];
    uint32_t moving_hist[BP_EXTENT_BINS];
    uint32_t finite_hist[BP_EXTENT_BINS];
} bp_thread;

// What the pair rules read of a shape, gathered in one place (one cache line per shape to read).
typedef struct bp_rules {
    int body;
    uint32_t kind; // rb_pair_kind of the body
    uint32_t category, mask;
} bp_rules;

// The cells a grid shape touches: [first, last] on each axis. Found once when counting entries and
// read again when writing them.
typedef struct bp_cell_range {
    int first[3], last[3];
} bp_cell_range;

// One cell's entries, gathered for the pair tests.
typedef struct bp_run {
    float lx[BP_RUN_MAX + BP_BLOCK], ly[BP_RUN_MAX + BP_BLOCK], lz[BP_RUN_MAX + BP_BLOCK];
    float hx[BP_RUN_MAX + BP_BLOCK], hy[BP_RUN_MAX + BP_BLOCK], hz[BP_RUN_MAX + BP_BLOCK];
    int first[BP_RUN_MAX + BP_BLOCK];
    int shape[BP_RUN_MAX];
} bp_run;

struct rb_broad_phase {
    bp_thread *thread;
    int thread_capacity;
    int collect_threads; // team sizes of the steps whose per-thread results are read afterwards
    int classify_threads;
    int emit_threads;

    unsigned char *role; // BP_ROLE_* per shape slot
    size_t role_capacity;
    bp_rules *rules;     // per shape slot that takes part
    size_t rules_capacity;
    bp_cell_range *range; // per grid shape slot
    size_t range_capacity;

    int *large;          // slots of large finite shapes, ascending
    size_t large_capacity;
    int large_count;
    int *plane;          // slots of planes, ascending
    size_t plane_capacity;
    int plane_count;

    rb_key_value *entry, *entry_scratch;
    size_t entry_capacity, entry_scratch_capacity;
    int entry_count;

    rb_key_value *pair_items, *pair_scratch;
    size_t pair_items_capacity, pair_scratch_capacity;

    rb_pair *result;
    size_t result_capacity;
    int result_count;
    int64_t pairs_found; // of the last search, kept or not (rb_broad_phase_pairs_found)
};

// ---------------------------------------------------------------- memory

static size_t grown_capacity(size_t capacity, size_t need)
{
    size_t next = capacity + capacity / 2 + 16;
    return next > need ? next : need;
}

// Makes the array whose pointer is at `slot` (a pointer variable of any object type) hold at least
// `need` elements; the contents are not kept. On failure the array is untouched. The pointer moves
// by memcpy, which the aliasing rules allow whatever the pointer's type.
static int reserve_scratch(void *slot, size_t *capacity, size_t need, size_t elem)
{
    if (need <= *capacity)
        return 1;
    size_t cap = grown_capacity(*capacity, need);
    void *p = malloc(cap * elem), *old;
    if (!p)
        return 0;
    memcpy(&old, slot, sizeof old);
    free(old);
    memcpy(slot, &p, sizeof p);
    *capacity = cap;
    return 1;
}

// The sort's items and its scratch (each with its own capacity, so a half-done growth is harmless).
static int reserve_sort_arrays(rb_key_value **items, size_t *items_capacity, rb_key_value **scratch,
                               size_t *scratch_capacity, size_t need)
{
    return reserve_scratch(items, items_capacity, need, sizeof(rb_key_value)) &&
           reserve_scratch(scratch, scratch_capacity, need, sizeof(rb_key_value));
}

static int reserve_threads(rb_broad_phase *bp, int threads)
{
    if (threads <= bp->thread_capacity)
        return 1;
    bp_thread *t = realloc(bp->thread, sizeof(bp_thread) * (size_t)threads);
    if (!t)
        return 0;
    memset(t + bp->thread_capacity, 0, sizeof(bp_thread) * (size_t)(threads - bp->thread_capacity));
    bp->thread = t;
    bp->thread_capacity = threads;
    return 1;
}

// Called inside a parallel region by the thread that owns `th`; contents are kept.
static int grow_thread_pairs(bp_thread *th)
{
    size_t cap = grown_capacity((size_t)th->pair_capacity, (size_t)th->pair_count + 1);
    uint64_t *p = realloc(th->pairs, cap * sizeof(uint64_t));
    if (!p) {
        th->failed = 1;
        return 0;
    }
    th->pairs = p;
    th->pair_capacity = (int64_t)cap;
    return 1;
}

rb_broad_phase *rb_broad_phase_create(void)
{
    return calloc(1, sizeof(rb_broad_phase));
}

void rb_broad_phase_destroy(rb_broad_phase *bp)
{
    if (!bp)
        return;
    for (int t = 0; t < bp->thread_capacity; t++)
        free(bp->thread[t].pairs);
    free(bp->thread);
    free(bp->role);
    free(bp->rules);
    free(bp->range);
    free(bp->large);
    free(bp->plane);
    free(bp->entry);
    free(bp->entry_scratch);
    free(bp->pair_items);
    free(bp->pair_scratch);
    free(bp->result);
    free(bp);
}

// ---------------------------------------------------------------- small helpers

static int chunk_begin(int64_t n, int t, int nthreads)
{
    return (int)(n * t / nthreads);
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

// Finite and well ordered (NaN, inf and lo > hi go to the large list, where the plain comparisons
// of the overlap test give the answer the rules define).
static int aabb_is_gridable(rb_float4 lo, rb_float4 hi)
{
    return lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z && isfinite(hi.x - lo.x) && isfinite(hi.y - lo.y) &&
           isfinite(hi.z - lo.z);
}

static float largest_extent(rb_float4 lo, rb_float4 hi)
{
    float ex = hi.x - lo.x, ey = hi.y - lo.y, ez = hi.z - lo.z;
    float e = ex > ey ? ex : ey;
    return e > ez ? e : ez;
}

// Shape a's AABB overlaps shape b's (rb_aabb_overlap).
#if defined(__SSE2__)
// rb_aabb_overlap with the six comparisons in two SSE instructions, the same float comparisons.
static int shapes_overlap(const rb_broad_input *in, int a, int b)
{
    __m128 alo = _mm_loadu_ps(&in->aabb_lo[a].x), ahi = _mm_loadu_ps(&in->aabb_hi[a].x);
    __m128 blo = _mm_loadu_ps(&in->aabb_lo[b].x), bhi = _mm_loadu_ps(&in->aabb_hi[b].x);
    int mask = _mm_movemask_ps(_mm_and_ps(_mm_cmple_ps(alo, bhi), _mm_cmple_ps(blo, ahi)));
    return (mask & 0x7) == 0x7; // x, y, z; lane w is not part of the box
}
#else
static int shapes_overlap(const rb_broad_input *in, int a, int b)
{
    return rb_aabb_overlap(in->aabb_lo[a], in->aabb_hi[a], in->aabb_lo[b], in->aabb_hi[b]);
}
#endif

// The rules of core/kernels/pair.h other than overlap (rb_pair_allowed), for two shapes that take
// part (free slots and frozen bodies never get that far), from the records collect_chunk gathered.
static int may_pair(const rb_broad_phase *bp, int a, int b)
{
    const bp_rules *ra = &bp->rules[a], *rb = &bp->rules[b];
    return rb_pair_allowed(ra->body, ra->kind, ra->category, ra->mask, rb->body, rb->kind, rb->category, rb->mask);
}

static void emit_pair(bp_thread *th, int a, int b)
{
    if (th->pair_count >= th->pair_budget) {
        th->failed = 2;
        return;
    }
    if (th->pair_count == th->pair_capacity && !grow_thread_pairs(th))
        return;
    rb_pair p = rb_pair_make(a, b);
    th->pairs[th->pair_count++] = ((uint64_t)(uint32_t)p.shape_a << 32) | (uint32_t)p.shape_b;
}

static void test_finite_pair(const rb_broad_phase *bp, const rb_broad_input *in, bp_thread *th, int a, int b)
{
    if (shapes_overlap(in, a, b) && may_pair(bp, a, b))
        emit_pair(th, a, b);
}

// ---------------------------------------------------------------- 1. collect

static int initial_role(const rb_broad_input *in, int i)
{
    if (!rb_shape_in_broad_phase(i, in->shape_body, in->body_flags))
        return BP_ROLE_SKIP;
    if (in->shape_type[i] == RB_GEOM_PLANE)
        return BP_ROLE_PLANE;
    return aabb_is_gridable(in->aabb_lo[i], in->aabb_hi[i]) ? BP_ROLE_GRID : BP_ROLE_LARGE;
}

static void collect_chunk(rb_broad_phase *bp, const rb_broad_input *in, bp_thread *th, int begin, int end)
{
    th->kinds = 0;
    memset(th->moving_hist, 0, sizeof th->moving_hist);
    memset(th->finite_hist, 0, sizeof th->finite_hist);
    for (int i = begin; i < end; i++) {
        int role = initial_role(in, i);
        bp->role[i] = (unsigned char)role;
        if (role == BP_ROLE_SKIP)
            continue;
        int body = in->shape_body[i];
        uint32_t flags = in->body_flags[body];
        bp_rules *r = &bp->rules[i];
        r->body = body;
        r->kind = rb_pair_kind(flags, in->include_sleeping);
        r->category = in->shape_filter[2 * i];
        r->mask = in->shape_filter[2 * i + 1];
        th->kinds |= r->kind;
        if (role != BP_ROLE_GRID)
            continue;
        uint32_t bin = float_bits(largest_extent(in->aabb_lo[i], in->aabb_hi[i])) >> BP_EXTENT_SHIFT;
        th->finite_hist[bin]++;
        if ((flags & RB_BODY_TYPE_MASK) != RB_BODY_STATIC_T)
            th->moving_hist[bin]++;
    }
}

static void collect_roles(rb_broad_phase *bp, const rb_broad_input *in, int threads)
{
    (void)threads; // read only by the OpenMP pragma
    int n = in->shape_slots;
#pragma omp parallel num_threads(threads) if (n >= BP_PARALLEL_MIN)
    {
        int t = bp_thread_id(), nthreads = bp_team_size();
        collect_chunk(bp, in, &bp->thread[t], chunk_begin(n, t, nthreads), chunk_begin(n, t + 1, nthreads));
        if (t == 0) // read after the region has ended: no barrier needed
            bp->collect_threads = nthreads;
    }
}

// Every pair needs a dynamic body and an awake one; without both anywhere there is nothing to find.
static int any_pair_possible(const rb_broad_phase *bp)
{
    uint32_t kinds = 0;
    for (int t = 0; t < bp->collect_threads; t++)
        kinds |= bp->thread[t].kinds;
    return (kinds & RB_PAIR_KIND_PAIRABLE) == RB_PAIR_KIND_PAIRABLE;
}

// ---------------------------------------------------------------- cell size

static float bin_upper_edge(int bin)
{
    float edge = bits_float((uint32_t)(bin + 1) << BP_EXTENT_SHIFT);
    return isfinite(edge) ? edge : FLT_MAX;
}

static float median_extent(const uint32_t *hist)
{
    uint64_t total = 0, seen = 0;
    for (int b = 0; b < BP_EXTENT_BINS; b++)
        total += hist[b];
    for (int b = 0; b < BP_EXTENT_BINS && total > 0; b++) {
        seen += hist[b];
        if (2 * seen >= total)
            return bin_upper_edge(b);
    }
    return 0.0f;
}

// The smallest cell such that at most BP_MAX_LARGE_GUARD finite shapes are wider than 3 cells.
static float guard_cell(const uint32_t *finite)
{
    uint64_t above = 0;
    for (int b = BP_EXTENT_BINS - 1; b >= 0; b--) {
        above += finite[b];
        if (above > BP_MAX_LARGE_GUARD)
            return bin_upper_edge(b) / 3.0f;
    }
    return 0.0f;
}

static float choose_cell_size(const rb_broad_phase *bp)
{
    uint32_t moving[BP_EXTENT_BINS] = {0}, finite[BP_EXTENT_BINS] = {0};
    for (int t = 0; t < bp->collect_threads; t++)
        for (int b = 0; b < BP_EXTENT_BINS; b++) {
            moving[b] += bp->thread[t].moving_hist[b];
            finite[b] += bp->thread[t].finite_hist[b];
        }
    float typical = median_extent(moving);
    if (typical == 0.0f)
        typical = median_extent(finite);
    float cell = typical * BP_CELL_SCALE;
    float guard = guard_cell(finite);
    if (cell < guard)
        cell = guard;
    // Zero-size shapes only: any positive size works. Huge sizes: keep 1 / cell a normal number.
    if (!(cell > 1e-30f))
        cell = 1.0f;
    return cell < 1e30f ? cell : 1e30f;
}

// ---------------------------------------------------------------- 2. classify

// Cells touched if the AABB started on a cell boundary, plus one per axis: independent of where the
// grid starts, so it can be decided before the grid's bounds are known.
static int is_large(rb_float4 lo, rb_float4 hi, float inv_cell)
{
    float cells = ((hi.x - lo.x) * inv_cell + 1.0f) * ((hi.y - lo.y) * inv_cell + 1.0f) *
                  ((hi.z - lo.z) * inv_cell + 1.0f);
    return !(cells <= BP_MAX_CELLS_PER_SHAPE);
}

static void classify_chunk(rb_broad_phase *bp, const rb_broad_input *in, bp_thread *th, int begin, int end,
                           float inv_cell)
{
    float lx = FLT_MAX, ly = FLT_MAX, lz = FLT_MAX, hx = -FLT_MAX, hy = -FLT_MAX, hz = -FLT_MAX;
    for (int i = begin; i < end; i++) {
        if (bp->role[i] != BP_ROLE_GRID)
            continue;
        rb_float4 lo = in->aabb_lo[i], hi = in->aabb_hi[i];
        if (is_large(lo, hi, inv_cell)) {
            bp->role[i] = BP_ROLE_LARGE;
            continue;
        }
        lx = lo.x < lx ? lo.x : lx;
        ly = lo.y < ly ? lo.y : ly;
        lz = lo.z < lz ? lo.z : lz;
        hx = hi.x > hx ? hi.x : hx;
        hy = hi.y > hy ? hi.y : hy;
        hz = hi.z > hz ? hi.z : hz;
    }
    th->lo[0] = lx, th->lo[1] = ly, th->lo[2] = lz;
    th->hi[0] = hx, th->hi[1] = hy, th->hi[2] = hz;
}

// Marks the large shapes and returns the box that the grid shapes span.
static void classify_shapes(rb_broad_phase *bp, const rb_broad_input *in, float inv_cell, int threads, float *lo,
                            float *hi)
{
    (void)threads; // read only by the OpenMP pragma
    int n = in->shape_slots;
#pragma omp parallel num_threads(threads) if (n >= BP_PARALLEL_MIN)
    {
        int t = bp_thread_id(), nthreads = bp_team_size();
        classify_chunk(bp, in, &bp->thread[t], chunk_begin(n, t, nthreads), chunk_begin(n, t + 1, nthreads), inv_cell);
        if (t == 0) // read after the region has ended: no barrier needed
            bp->classify_threads = nthreads;
    }
    for (int k = 0; k < 3; k++) {
        lo[k] = FLT_MAX;
        hi[k] = -FLT_MAX;
        for (int t = 0; t < bp->classify_threads; t++) {
            lo[k] = bp->thread[t].lo[k] < lo[k] ? bp->thread[t].lo[k] : lo[k];
            hi[k] = bp->thread[t].hi[k] > hi[k] ? bp->thread[t].hi[k] : hi[k];
        }
    }
}

// ---------------------------------------------------------------- grid

// Monotone in x (a subtraction, a product by a positive constant, a clamp, a floor), which is what
// makes "the larger of the two first cells" the cell of the intersection's lowest corner.
static float cell_coord(float x, float origin, float inv_cell, float max_cell)
{
    float f = (x - origin) * inv_cell;
    f = f > 0.0f ? f : 0.0f;
    return f < max_cell ? f : max_cell;
}

static int bits_for(uint64_t max_value)
{
    int bits = 0;
    while (bits < 64 && (max_value >> bits) != 0)
        bits++;
    return bits;
}

// Cells cover [lo, hi], the box of the grid shapes; the cell grows if an axis would need more than
// BP_AXIS_CELLS_MAX cells.
static bp_grid make_grid(float cell, const float *lo, const float *hi)
{
    bp_grid g;
    for (int k = 0; k < 3; k++) {
        float least = (hi[k] - lo[k]) / (float)(BP_AXIS_CELLS_MAX / 2);
        cell = cell < least ? least : cell;
    }
    cell = cell <= 1e30f ? cell : 1e30f;
    g.inv_cell = 1.0f / cell;
    for (int k = 0; k < 3; k++) {
        g.origin[k] = lo[k] <= hi[k] ? lo[k] : 0.0f; // no grid shapes: any origin
        g.max_cell[k] = floorf(cell_coord(hi[k], g.origin[k], g.inv_cell, (float)(BP_AXIS_CELLS_MAX - 1)));
    }
    g.origin[3] = g.max_cell[3] = 0.0f;
    // y slowest, then x, then z: shapes made layer by layer meet their neighbours' data close by.
    g.stride_x = (uint64_t)g.max_cell[2] + 1;
    g.stride_y = g.stride_x * ((uint64_t)g.max_cell[0] + 1);
    g.key_bits = bits_for(g.stride_y * ((uint64_t)g.max_cell[1] + 1) - 1);
    return g;
}

// First and last cell along x, y, z of shape i. Written over 4 lanes read straight from memory
// (lane 3 clamps to 0 whatever w holds), so that the compiler does the 8 coordinates in two vector
// sequences.
static bp_cell_range cell_range(const bp_grid *g, const rb_broad_input *in, int i)
{
    float l[4], h[4];
    int first[4], last[4];
    memcpy(l, &in->aabb_lo[i], sizeof l);
    memcpy(h, &in->aabb_hi[i], sizeof h);
    for (int k = 0; k < 4; k++) {
        first[k] = (int)cell_coord(l[k], g->origin[k], g->inv_cell, g->max_cell[k]);
        last[k] = (int)cell_coord(h[k], g->origin[k], g->inv_cell, g->max_cell[k]);
    }
    bp_cell_range r = {{first[0], first[1], first[2]}, {last[0], last[1], last[2]}};
    return r;
}

static int64_t cells_in(const bp_cell_range *r)
{
    return (int64_t)(r->last[0] - r->first[0] + 1) * (r->last[1] - r->first[1] + 1) * (r->last[2] - r->first[2] + 1);
}

static rb_key_value *insert_shape(const bp_grid *g, const bp_cell_range *r, int i, rb_key_value *out)
{
    for (int y = r->first[1]; y <= r->last[1]; y++) {
        uint32_t first_y = y == r->first[1] ? BP_FIRST_Y : 0u;
        for (int x = r->first[0]; x <= r->last[0]; x++) {
            uint32_t first_xy = first_y | (x == r->first[0] ? BP_FIRST_X : 0u);
            uint64_t row = (uint64_t)y * g->stride_y + (uint64_t)x * g->stride_x;
            for (int z = r->first[2]; z <= r->last[2]; z++) {
                out->key = row + (uint64_t)z;
                out->value = (uint32_t)i;
                out->pad = first_xy | (z == r->first[2] ? BP_FIRST_Z : 0u);
                out++;
            }
        }
    }
    return out;
}

// ---------------------------------------------------------------- 3. insert

static void count_entries_chunk(rb_broad_phase *bp, const rb_broad_input *in, const bp_grid *g, bp_thread *th,
                                int begin, int end)
{
    int64_t cells = 0, large = 0, planes = 0;
    for (int i = begin; i < end; i++) {
        int role = bp->role[i];
        if (role == BP_ROLE_GRID) {
            bp->range[i] = cell_range(g, in, i);
            cells += cells_in(&bp->range[i]);
        }
        large += role == BP_ROLE_LARGE;
        planes += role == BP_ROLE_PLANE;
    }
    th->counts.cells = cells, th->counts.large = large, th->counts.planes = planes;
}

static void fill_entries_chunk(rb_broad_phase *bp, const bp_grid *g, int begin, int end, const bp_counts *before)
{
    // no grid entries at all (only planes and large shapes): bp->entry may still be NULL
    rb_key_value *out = bp->entry ? bp->entry + before->cells : NULL;
    int64_t large_at = before->large, plane_at = before->planes;
    for (int i = begin; i < end; i++) {
        int role = bp->role[i];
        if (role == BP_ROLE_GRID)
            out = insert_shape(g, &bp->range[i], i, out);
        else if (role == BP_ROLE_LARGE)
            bp->large[large_at++] = i;
        else if (role == BP_ROLE_PLANE)
            bp->plane[plane_at++] = i;
    }
}

// Sums of the counts of threads [0, t).
static bp_counts counts_before(const bp_thread *thread, int t)
{
    bp_counts sum = {0, 0, 0};
    for (int u = 0; u < t; u++) {
        sum.cells += thread[u].counts.cells;
        sum.large += thread[u].counts.large;
        sum.planes += thread[u].counts.planes;
    }
    return sum;
}

static rb_status reserve_entries(rb_broad_phase *bp, const bp_counts *total)
{
    if (total->cells > INT32_MAX)
        return RB_ERR_OUT_OF_MEMORY; // rb_radix_sort counts items in an int
    if (!reserve_sort_arrays(&bp->entry, &bp->entry_capacity, &bp->entry_scratch, &bp->entry_scratch_capacity,
                             (size_t)total->cells) ||
        !reserve_scratch(&bp->large, &bp->large_capacity, (size_t)total->large, sizeof(int)) ||
        !reserve_scratch(&bp->plane, &bp->plane_capacity, (size_t)total->planes, sizeof(int)))
        return RB_ERR_OUT_OF_MEMORY;
    bp->entry_count = (int)total->cells;
    bp->large_count = (int)total->large;
    bp->plane_count = (int)total->planes;
    return RB_OK;
}

static rb_status insert_shapes(rb_broad_phase *bp, const rb_broad_input *in, const bp_grid *g, int threads)
{
    (void)threads; // read only by the OpenMP pragma
    int n = in->shape_slots;
    rb_status status = RB_OK;
#pragma omp parallel num_threads(threads) if (n >= BP_PARALLEL_MIN)
    {
        int t = bp_thread_id(), nthreads = bp_team_size();
        int begin = chunk_begin(n, t, nthreads), end = chunk_begin(n, t + 1, nthreads);
        count_entries_chunk(bp, in, g, &bp->thread[t], begin, end);
#pragma omp barrier
#pragma omp single
        {
            bp_counts total = counts_before(bp->thread, nthreads);
            status = reserve_entries(bp, &total);
        }
        if (status == RB_OK) {
            bp_counts before = counts_before(bp->thread, t);
            fill_entries_chunk(bp, g, begin, end, &before);
        }
    }
    return status;
}

// ---------------------------------------------------------------- 4. pairs in the grid

// Copies a run's boxes and first-cell bits into `run`, followed by one block of boxes that overlap
// nothing (lo = +inf, hi = -inf), so that blocks may run past the end.
static void gather_run(const rb_broad_input *in, const rb_key_value *e, int k, bp_run *run)
{
    for (int i = 0; i < k; i++) {
        int s = (int)e[i].value;
        rb_float4 lo = in->aabb_lo[s], hi = in->aabb_hi[s];
        run->lx[i] = lo.x, run->ly[i] = lo.y, run->lz[i] = lo.z;
        run->hx[i] = hi.x, run->hy[i] = hi.y, run->hz[i] = hi.z;
        run->first[i] = (int)e[i].pad;
        run->shape[i] = s;
    }
    for (int i = k; i < k + BP_BLOCK; i++) {
        run->lx[i] = run->ly[i] = run->lz[i] = INFINITY;
        run->hx[i] = run->hy[i] = run->hz[i] = -INFINITY;
        run->first[i] = 0;
    }
}

static void emit_if_allowed(const rb_broad_phase *bp, bp_thread *th, int a, int b)
{
    if (may_pair(bp, a, b))
        emit_pair(th, a, b);
}

#if defined(__SSE2__)
// Box i against boxes (i, k) of the run, four at a time. Lane q of a block is set when box i + 1 + q
// overlaps box i and this cell owns the pair (the two entries' first-cell bits cover all three
// axes): the rule of the scalar version below, with the same float comparisons.
static void emit_box_pairs(const rb_broad_phase *bp, const bp_run *run, int i, int k, bp_thread *th)
{
    __m128 lx = _mm_set1_ps(run->lx[i]), ly = _mm_set1_ps(run->ly[i]), lz = _mm_set1_ps(run->lz[i]);
    __m128 hx = _mm_set1_ps(run->hx[i]), hy = _mm_set1_ps(run->hy[i]), hz = _mm_set1_ps(run->hz[i]);
    __m128i first = _mm_set1_epi32(run->first[i]), all = _mm_set1_epi32((int)BP_FIRST_ALL);
    for (int j0 = i + 1; j0 < k; j0 += BP_BLOCK) {
        __m128 x = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(run->lx + j0), hx), _mm_cmple_ps(lx, _mm_loadu_ps(run->hx + j0)));
        __m128 y = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(run->ly + j0), hy), _mm_cmple_ps(ly, _mm_loadu_ps(run->hy + j0)));
        __m128 z = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(run->lz + j0), hz), _mm_cmple_ps(lz, _mm_loadu_ps(run->hz + j0)));
        __m128i f = _mm_or_si128(first, _mm_loadu_si128((const __m128i *)(run->first + j0)));
        __m128 owned = _mm_castsi128_ps(_mm_cmpeq_epi32(f, all));
        unsigned mask = (unsigned)_mm_movemask_ps(_mm_and_ps(_mm_and_ps(x, y), _mm_and_ps(z, owned)));
        for (; mask; mask &= mask - 1)
            emit_if_allowed(bp, th, run->shape[i], run->shape[j0 + __builtin_ctz(mask)]);
    }
}
#else
static void emit_box_pairs(const rb_broad_phase *bp, const bp_run *run, int i, int k, bp_thread *th)
{
    for (int j = i + 1; j < k; j++)
        if ((run->first[i] | run->first[j]) == (int)BP_FIRST_ALL && run->lx[j] <= run->hx[i] &&
            run->lx[i] <= run->hx[j] && run->ly[j] <= run->hy[i] && run->ly[i] <= run->hy[j] &&
            run->lz[j] <= run->hz[i] && run->lz[i] <= run->hz[j])
            emit_if_allowed(bp, th, run->shape[i], run->shape[j]);
}
#endif

// Every pair (i, j), i < j, of the run that overlaps and that this cell owns.
static void emit_run_pairs(const rb_broad_phase *bp, const bp_run *run, int k, bp_thread *th)
{
    for (int i = 0; i + 1 < k; i++)
        emit_box_pairs(bp, run, i, k, th);
}

// A cell too full to gather: every two entries, in place.
static void emit_long_run_pairs(const rb_broad_phase *bp, const rb_broad_input *in, const rb_key_value *e, int k,
                                bp_thread *th)
{
    for (int i = 0; i + 1 < k && !th->failed; i++)
        for (int j = i + 1; j < k; j++)
            if ((e[i].pad | e[j].pad) == BP_FIRST_ALL)
                test_finite_pair(bp, in, th, (int)e[i].value, (int)e[j].value);
}

// The first run that starts at or after entry i: a run belongs to the thread holding its start.
static int run_start_at_or_after(const rb_key_value *e, int n, int i)
{
    while (i > 0 && i < n && e[i].key == e[i - 1].key)
        i++;
    return i;
}

static void emit_grid_pairs(const rb_broad_phase *bp, const rb_broad_input *in, bp_thread *th, int t, int nthreads)
{
    bp_run run;
    const rb_key_value *e = bp->entry;
    int n = bp->entry_count;
    int i = run_start_at_or_after(e, n, chunk_begin(n, t, nthreads));
    int end = run_start_at_or_after(e, n, chunk_begin(n, t + 1, nthreads));
    while (i < end && !th->failed) {
        int j = i + 1;
        while (j < n && e[j].key == e[i].key)
            j++;
        if (j - i > BP_RUN_MAX) {
            emit_long_run_pairs(bp, in, e + i, j - i, th);
        } else if (j - i > 1) {
            gather_run(in, e + i, j - i, &run);
            emit_run_pairs(bp, &run, j - i, th);
        }
        i = j;
    }
}

// ---------------------------------------------------------------- 4. pairs outside the grid

// Each finite shape in [begin, end) against the large shapes (two large shapes meet once, from the
// later one) and the planes.
static void emit_apart_pairs(const rb_broad_phase *bp, const rb_broad_input *in, bp_thread *th, int begin, int end)
{
    for (int i = begin; i < end && !th->failed; i++) {
        int role = bp->role[i];
        if (role != BP_ROLE_GRID && role != BP_ROLE_LARGE)
            continue;
        for (int l = 0; l < bp->large_count && bp->large[l] != i; l++)
            test_finite_pair(bp, in, th, i, bp->large[l]);
        rb_float4 lo = in->aabb_lo[i], hi = in->aabb_hi[i];
        for (int l = 0; l < bp->plane_count; l++) {
            int p = bp->plane[l];
            if (rb_aabb_reaches_plane(lo, hi, in->plane[p]) && may_pair(bp, i, p))
                emit_pair(th, i, p);
        }
    }
}

static void emit_pairs(rb_broad_phase *bp, const rb_broad_input *in, int threads)
{
    (void)threads; // read only by the OpenMP pragma
    int n = in->shape_slots;
    int apart = bp->large_count + bp->plane_count > 0;
#pragma omp parallel num_threads(threads) if ((int64_t)bp->entry_count + n >= BP_PARALLEL_MIN)
    {
        int t = bp_thread_id(), nthreads = bp_team_size();
        bp_thread *th = &bp->thread[t];
        th->pair_count = 0;
        th->pair_budget = in->max_pairs > 0 ? in->max_pairs : INT64_MAX;
        th->failed = 0;
        emit_grid_pairs(bp, in, th, t, nthreads);
        if (apart)
            emit_apart_pairs(bp, in, th, chunk_begin(n, t, nthreads), chunk_begin(n, t + 1, nthreads));
        if (t == 0) // read after the region has ended: no barrier needed
            bp->emit_threads = nthreads;
    }
}

// ---------------------------------------------------------------- 5. result

static void gather_thread_pairs(rb_broad_phase *bp)
{
    rb_key_value *out = bp->pair_items;
    for (int t = 0; t < bp->emit_threads; t++) {
        const bp_thread *th = &bp->thread[t];
        for (int64_t i = 0; i < th->pair_count; i++) {
            out->key = th->pairs[i];
            out->value = 0;
            out->pad = 0;
            out++;
        }
    }
}

static void write_result(rb_broad_phase *bp, int count, int threads)
{
    (void)threads; // read only by the OpenMP pragma
    gather_thread_pairs(bp);
    rb_radix_sort(bp->pair_items, bp->pair_scratch, count, 64, threads);
#pragma omp parallel for num_threads(threads) if (count >= BP_PARALLEL_MIN)
    for (int i = 0; i < count; i++) {
        bp->result[i].shape_a = (int)(bp->pair_items[i].key >> 32);
        bp->result[i].shape_b = (int)(uint32_t)bp->pair_items[i].key;
    }
    bp->result_count = count;
}

static rb_status finish_pairs(rb_broad_phase *bp, int threads, int max_pairs)
{
    int64_t total = 0;
    int over = 0;
    for (int t = 0; t < bp->emit_threads; t++) {
        if (bp->thread[t].failed == 1)
            return RB_ERR_OUT_OF_MEMORY;
        over |= bp->thread[t].failed == 2;
        total += bp->thread[t].pair_count;
    }
    bp->pairs_found = total + over; // a thread over the budget found one more than it kept
    if (over || (max_pairs > 0 && total > max_pairs))
        return RB_ERR_CAPACITY;
    // The result is reserved last: any failure before leaves the previous result as it was.
    if (total > INT32_MAX ||
        !reserve_sort_arrays(&bp->pair_items, &bp->pair_items_capacity, &bp->pair_scratch, &bp->pair_scratch_capacity,
                             (size_t)total) ||
        !reserve_scratch(&bp->result, &bp->result_capacity, (size_t)(total > 0 ? total : 1), sizeof(rb_pair)))
        return RB_ERR_OUT_OF_MEMORY;
    write_result(bp, (int)total, threads);
    return RB_OK;
}

static rb_status set_empty_result(rb_broad_phase *bp)
{
    if (!reserve_scratch(&bp->result, &bp->result_capacity, 1, sizeof(rb_pair)))
        return RB_ERR_OUT_OF_MEMORY;
    bp->result_count = 0;
    return RB_OK;
}

static rb_status find_pairs(rb_broad_phase *bp, const rb_broad_input *in, int threads)
{
    if (!reserve_threads(bp, threads) ||
        !reserve_scratch(&bp->role, &bp->role_capacity, (size_t)in->shape_slots, 1) ||
        !reserve_scratch(&bp->rules, &bp->rules_capacity, (size_t)in->shape_slots, sizeof(bp_rules)) ||
        !reserve_scratch(&bp->range, &bp->range_capacity, (size_t)in->shape_slots, sizeof(bp_cell_range)))
        return RB_ERR_OUT_OF_MEMORY;
    collect_roles(bp, in, threads);
    if (!any_pair_possible(bp))
        return set_empty_result(bp);
    float cell = choose_cell_size(bp);
    float lo[3], hi[3];
    classify_shapes(bp, in, 1.0f / cell, threads, lo, hi);
    bp_grid grid = make_grid(cell, lo, hi);
    rb_status status = insert_shapes(bp, in, &grid, threads);
    if (status != RB_OK)
        return status;
    rb_radix_sort(bp->entry, bp->entry_scratch, bp->entry_count, grid.key_bits, threads);
    emit_pairs(bp, in, threads);
    return finish_pairs(bp, threads, in->max_pairs);
}

int64_t rb_broad_phase_pairs_found(const rb_broad_phase *bp) { return bp->pairs_found; }

rb_status rb_broad_phase_find_pairs(rb_broad_phase *bp, const rb_broad_input *in, int threads,
                                    const rb_pair **pairs, int *count)
{
    if (!bp || !in || !pairs || !count || in->shape_slots < 0)
        return RB_ERR_INVALID_ARGUMENT;
    rb_status status = find_pairs(bp, in, threads < 1 ? 1 : threads);
    if (status != RB_OK)
        return status;
    *pairs = bp->result;
    *count = bp->result_count;
    return RB_OK;
}
