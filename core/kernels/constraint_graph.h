// The constraint graph (docs/architecture.md): bodies are nodes, every constraint is an edge. Colouring,
// waking, islands, shock levels, the split solver's per-body lists and pe's batches are computed over
// edges and never ask which kind an edge is; only the row code (core/kernels/contact_*.h) does.
//
// The functions here are the per-element glue that the CPU backend and the device kernels both call,
// so the graph's rules exist once. The serial ones (colouring, union-find) run on one CPU thread or
// one work-item: their order is what makes the result the same on every backend and thread count.
#ifndef RB_KERNELS_CONSTRAINT_GRAPH_H
#define RB_KERNELS_CONSTRAINT_GRAPH_H

#include "body_flags.h"
#include "portable.h"

// Edge kinds. A new kind adds its rows and its row code; nothing here changes.
#define RB_EDGE_CONTACT 0
#define RB_EDGE_JOINT 1 // first_row: the joint's slot (core/kernels/joint.h), one "row" (the joint)

// One constraint between two bodies. body_a and body_b are body slots (a static body is its slot,
// never -1). The edge's rows are rows first_row .. first_row + row_count - 1 of its kind's row store.
// Contacts: the rows are the manifold's points, numbered in manifold order (the numbering of pe's
// contact array and of the narrow phase's point scan), and contact edges come first, one per
// manifold in manifold order, so a contact edge's index is its manifold's.
typedef struct rb_constraint_edge {
    int body_a, body_b;
    int kind;
    int first_row, row_count;
} rb_constraint_edge;

RB_FN rb_constraint_edge rb_contact_edge(int body_a, int body_b, int first_point, int point_count)
{
    rb_constraint_edge e;
    e.body_a = body_a;
    e.body_b = body_b;
    e.kind = RB_EDGE_CONTACT;
    e.first_row = first_point;
    e.row_count = point_count;
    return e;
}

// ---- waking ----

// The sleep group of body b: a body asleep on its own (put to sleep by the application) is its own.
RB_FN int rb_sleep_group_of(RB_GLOBAL const int *sleep_group, int b) { return sleep_group[b] >= 0 ? sleep_group[b] : b; }

// The body that edge e wakes: a sleeping dynamic body held by an awake one (-1: none).
RB_FN int rb_edge_wakes(rb_constraint_edge e, RB_GLOBAL const unsigned int *flags)
{
    unsigned int fa = flags[e.body_a], fb = flags[e.body_b];
    if ((fa & RB_BODY_AWAKE) && !(fb & RB_BODY_AWAKE) && rb_is_dynamic_flags(fb))
        return e.body_b;
    if ((fb & RB_BODY_AWAKE) && !(fa & RB_BODY_AWAKE) && rb_is_dynamic_flags(fa))
        return e.body_a;
    return -1;
}

// ---- colouring ----

// Colour c: edges color_order[color_start[c] .. color_start[c + 1]); colour RB_MAX_COLORS is the
// overflow batch (edges that found every colour taken, solved serially after the colours).
#define RB_MAX_COLORS 64

#if defined(RB_OPENCL)
typedef ulong rb_color_bits;
RB_FN int rb_lowest_bit(rb_color_bits v) { return 63 - (int)clz(v & (~v + (rb_color_bits)1)); }
#elif defined(__CUDACC__)
typedef unsigned long long rb_color_bits;
RB_FN int rb_lowest_bit(rb_color_bits v)
{
    int i = 0;
    while (!(v & 1ull)) {
        v >>= 1;
        ++i;
    }
    return i;
}
#else
typedef unsigned long long rb_color_bits;
RB_FN int rb_lowest_bit(rb_color_bits v) { return __builtin_ctzll(v); }
#endif

// Greedy colour of edge e: the lowest colour neither of its dynamic bodies has used (static and
// kinematic bodies are only read, so they may appear in every colour); RB_MAX_COLORS if none is free.
RB_FN int rb_edge_take_color(rb_constraint_edge e, RB_GLOBAL const unsigned int *flags, RB_GLOBAL rb_color_bits *used)
{
    int da = rb_is_dynamic_flags(flags[e.body_a]), db = rb_is_dynamic_flags(flags[e.body_b]);
    rb_color_bits taken = (da ? used[e.body_a] : (rb_color_bits)0) | (db ? used[e.body_b] : (rb_color_bits)0);
    if (!~taken)
        return RB_MAX_COLORS;
    int color = rb_lowest_bit(~taken);
    rb_color_bits bit = (rb_color_bits)1 << color;
    if (da)
        used[e.body_a] |= bit;
    if (db)
        used[e.body_b] |= bit;
    return color;
}

// Colours edges [0, n) in edge order (used[] cleared beforehand, one word per body slot) and lists
// them by colour, stable in edge order. Returns the number of colours used (the overflow not counted).
RB_FN int rb_color_edges(int n, RB_GLOBAL const rb_constraint_edge *edges, RB_GLOBAL const unsigned int *flags,
                         RB_GLOBAL rb_color_bits *used, RB_GLOBAL int *edge_color, RB_GLOBAL int *color_order,
                         RB_GLOBAL int *color_start)
{
    int count[RB_MAX_COLORS + 1];
    for (int k = 0; k <= RB_MAX_COLORS; ++k)
        count[k] = 0;
    int colors = 0;
    for (int i = 0; i < n; ++i) {
        int color = rb_edge_take_color(edges[i], flags, used);
        if (color < RB_MAX_COLORS)
            colors = rb_maxi(colors, color + 1);
        edge_color[i] = color;
        count[color]++;
    }
    int start = 0;
    for (int k = 0; k <= RB_MAX_COLORS; ++k) {
        color_start[k] = start;
        start += count[k];
        count[k] = color_start[k]; // next free slot of colour k
    }
    color_start[RB_MAX_COLORS + 1] = start;
    for (int i = 0; i < n; ++i)
        color_order[count[edge_color[i]]++] = i;
    return colors;
}

// ---- islands (union-find) ----

RB_FN int rb_find_root(RB_GLOBAL int *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]]; // path halving
        x = parent[x];
    }
    return x;
}

// Union by smaller index: a component's root is its lowest body slot, whatever the order of unions.
RB_FN void rb_unite(RB_GLOBAL int *parent, int a, int b)
{
    a = rb_find_root(parent, a);
    b = rb_find_root(parent, b);
    if (a < b)
        parent[b] = a;
    else if (b < a)
        parent[a] = b;
}

// Bodies that sleep in islands: awake and moving (dynamic or kinematic). Static bodies do not connect.
RB_FN int rb_joins_islands(unsigned int f) { return (f & RB_BODY_AWAKE) && (f & RB_BODY_TYPE_MASK) != RB_BODY_STATIC_T; }

// Unites the ends of every edge whose two bodies join islands (parent[] set to the identity beforehand).
RB_FN void rb_unite_islands(int n, RB_GLOBAL const rb_constraint_edge *edges, RB_GLOBAL const unsigned int *flags,
                            RB_GLOBAL int *parent)
{
    for (int i = 0; i < n; ++i) {
        rb_constraint_edge e = edges[i];
        if (rb_joins_islands(flags[e.body_a]) && rb_joins_islands(flags[e.body_b]))
            rb_unite(parent, e.body_a, e.body_b);
    }
}

// pe's batches (Schornbaum 2010 §3.1): bodies joined by edges between two moving bodies; a fixed body
// (static, kinematic, frozen) is a barrier.
RB_FN void rb_unite_batches(int n, RB_GLOBAL const rb_constraint_edge *edges, RB_GLOBAL const unsigned int *flags,
                            RB_GLOBAL int *parent)
{
    for (int i = 0; i < n; ++i) {
        rb_constraint_edge e = edges[i];
        if (rb_takes_impulses(flags, e.body_a) && rb_takes_impulses(flags, e.body_b))
            rb_unite(parent, e.body_a, e.body_b);
    }
}

// ---- the split solver's per-body lists ----

// CSR of the edges each body takes impulses from: the entries of body b are
// list[start[b] .. start[b + 1]), each `position * 2 + side` (side 0: the body is A), in solve order:
// edge order[i] has position i (the order the constraints lie in memory; order 0: edge i). start has nb + 1
// entries.
RB_FN void rb_edge_body_lists(int n, RB_GLOBAL const rb_constraint_edge *edges, RB_GLOBAL const int *order, int nb,
                              RB_GLOBAL const unsigned int *flags, RB_GLOBAL int *start, RB_GLOBAL int *list)
{
    for (int b = 0; b <= nb; ++b)
        start[b] = 0;
    for (int i = 0; i < n; ++i) {
        rb_constraint_edge e = edges[order ? order[i] : i];
        if (rb_takes_impulses(flags, e.body_a))
            start[e.body_a + 1]++;
        if (rb_takes_impulses(flags, e.body_b))
            start[e.body_b + 1]++;
    }
    for (int b = 0; b < nb; ++b)
        start[b + 1] += start[b];
    // start[b] walks forward over the fill, then takes its neighbour's value back
    for (int i = 0; i < n; ++i) {
        rb_constraint_edge e = edges[order ? order[i] : i];
        if (rb_takes_impulses(flags, e.body_a))
            list[start[e.body_a]++] = 2 * i;
        if (rb_takes_impulses(flags, e.body_b))
            list[start[e.body_b]++] = 2 * i + 1;
    }
    for (int b = nb; b > 0; --b)
        start[b] = start[b - 1];
    start[0] = 0;
}

// How many blocks the split solver divides body b's mass among (1 for a body that takes no impulse).
RB_FN float rb_split_share(RB_GLOBAL const int *start, RB_GLOBAL const unsigned int *flags, int b)
{
    return rb_takes_impulses(flags, b) ? (float)(start[b + 1] - start[b]) : 1.0f;
}

#endif
