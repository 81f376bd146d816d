// find_pairs: a sort-based uniform grid (after Le Grand, GPU Gems 3 ch. 32, and Csefalvay 2011), with no
// atomics. Every finite shape gets one entry per cell its AABB touches; entries are sorted by a
// cell key, a hash of the cell's coordinates with about twice as many values as there are entries
// (cells that share a key are told apart by their coordinates, and pairs are tested on the true
// cell; a key of a few bits more than the entries need keeps the radix sort's passes, each a few
// launches, to what the scene needs: 4 passes for the 41-link chain, 8 for 30 bits before); within a
// run of equal keys a
// pair is emitted only by the cell that holds the lowest corner of the two boxes' intersection, so
// each overlapping pair is found exactly once. Pairs are counted, the counts scanned, and the pairs
// written at their offsets (sort-and-compact). Shapes that would touch more than RB_BP_MAX_CELLS
// cells, or whose box is not finite, are "large"; they and the planes are tested against every
// finite shape. The pair rules, the overlap tests and the pair order are core/kernels/pair.h's, as on
// the CPU (backend-cpu/broad_phase.c), with include_sleeping 0: the sequential solver, which wants the
// contacts of sleeping bodies, runs only on the CPU.
#define RB_BP_ROLE_SKIP 0
#define RB_BP_ROLE_GRID 1
#define RB_BP_ROLE_LARGE 2
#define RB_BP_ROLE_PLANE 3
#define RB_BP_MAX_CELLS 64
#define RB_BP_COORD_MAX 1.0e9f

// Spatial hash of a cell (Teschner et al. 2003's primes), masked to the key's bits.
RB_FN uint rb_bp_key(int4 c, uint mask)
{
    return (((uint)c.x * 73856093u) ^ ((uint)c.y * 19349663u) ^ ((uint)c.z * 83492791u)) & mask;
}

RB_KERNEL void rb_bp_classify(int ns, float inv_cell, RB_GLOBAL const int *shape_body, RB_GLOBAL const int *shape_type,
                             RB_GLOBAL const uint *flags, RB_GLOBAL const rb_float4 *aabb_lo,
                             RB_GLOBAL const rb_float4 *aabb_hi, RB_GLOBAL int *role, RB_GLOBAL int4 *cell_lo,
                             RB_GLOBAL int4 *cell_hi, RB_GLOBAL int *cell_count, RB_GLOBAL int *special)
{
    int i = rb_thread_id();
    if (i >= ns)
        return;
    int r = RB_BP_ROLE_SKIP, cells = 0;
    if (rb_shape_in_broad_phase(i, shape_body, flags)) {
        if (shape_type[i] == RB_GEOM_PLANE) {
            r = RB_BP_ROLE_PLANE;
        } else {
            rb_float4 lo = aabb_lo[i], hi = aabb_hi[i];
            float lx = rb_floorf(lo.x * inv_cell), ly = rb_floorf(lo.y * inv_cell), lz = rb_floorf(lo.z * inv_cell);
            float hx = rb_floorf(hi.x * inv_cell), hy = rb_floorf(hi.y * inv_cell), hz = rb_floorf(hi.z * inv_cell);
            int finite = lx >= -RB_BP_COORD_MAX && ly >= -RB_BP_COORD_MAX && lz >= -RB_BP_COORD_MAX &&
                         hx <= RB_BP_COORD_MAX && hy <= RB_BP_COORD_MAX && hz <= RB_BP_COORD_MAX;
            r = RB_BP_ROLE_LARGE;
            if (finite && (hx - lx + 1.0f) * (hy - ly + 1.0f) * (hz - lz + 1.0f) <= (float)RB_BP_MAX_CELLS) {
                int4 l = rb_int4((int)lx, (int)ly, (int)lz, 0), h = rb_int4((int)hx, (int)hy, (int)hz, 0);
                cell_lo[i] = l;
                cell_hi[i] = h;
                cells = (h.x - l.x + 1) * (h.y - l.y + 1) * (h.z - l.z + 1);
                r = RB_BP_ROLE_GRID;
            }
        }
    }
    role[i] = r;
    cell_count[i] = cells;
    special[i] = r == RB_BP_ROLE_LARGE || r == RB_BP_ROLE_PLANE;
}

// Entry w: the shape slot in the low 28 bits (RB_MAX_SHAPES is 2^28) and three bits "this cell is
// the shape's first cell along x / y / z" above it. Two shapes that share a cell have the lowest
// corner of their boxes' intersection there exactly when, on every axis, one of them starts there.
#define RB_BP_SHAPE_MASK 0x0fffffff
#define RB_BP_FIRST_SHIFT 28

// One entry per (grid shape, cell); keys[e] = cell key, vals[e] = e.
RB_KERNEL void rb_bp_fill(int ns, int key_bits, RB_GLOBAL const int *role, RB_GLOBAL const int4 *cell_lo,
                         RB_GLOBAL const int4 *cell_hi, RB_GLOBAL const int *entry_start, RB_GLOBAL uint *keys,
                         RB_GLOBAL uint *vals, RB_GLOBAL int4 *entry)
{
    int i = rb_thread_id();
    if (i >= ns || role[i] != RB_BP_ROLE_GRID)
        return;
    int4 l = cell_lo[i], h = cell_hi[i];
    int e = entry_start[i];
    for (int x = l.x; x <= h.x; ++x)
        for (int y = l.y; y <= h.y; ++y)
            for (int z = l.z; z <= h.z; ++z) {
                int first = (x == l.x) | ((y == l.y) << 1) | ((z == l.z) << 2);
                int4 c = rb_int4(x, y, z, i | (first << RB_BP_FIRST_SHIFT));
                keys[e] = rb_bp_key(c, (1u << key_bits) - 1u);
                vals[e] = (uint)e;
                entry[e] = c;
                ++e;
            }
}

// The entries in key order (vals from the sort), so the pair search reads them contiguously.
RB_KERNEL void rb_bp_gather_entries(int ne, RB_GLOBAL const uint *vals, RB_GLOBAL const int4 *entry,
                                   RB_GLOBAL int4 *sorted)
{
    int i = rb_thread_id();
    if (i < ne)
        sorted[i] = entry[vals[i]];
}

// Pairs owned by sorted entry i (with the later entries of its run). write = 0: count into
// count[i]; write = 1: write them at offset[i].
RB_KERNEL void rb_bp_grid_pairs(int ne, int write, RB_GLOBAL const uint *keys, RB_GLOBAL const int4 *sorted,
                               RB_GLOBAL const rb_float4 *aabb_lo, RB_GLOBAL const rb_float4 *aabb_hi,
                               RB_GLOBAL const int *shape_body, RB_GLOBAL const uint *flags,
                               RB_GLOBAL const uint *filter, RB_GLOBAL int *count, RB_GLOBAL const int *offset,
                               RB_GLOBAL rb_pair *pairs)
{
    int i = rb_thread_id();
    if (i >= ne)
        return;
    uint key = keys[i];
    int4 ci = sorted[i];
    int a = ci.w & RB_BP_SHAPE_MASK, first_a = ci.w >> RB_BP_FIRST_SHIFT;
    int n = 0, at = write ? offset[i] : 0;
    for (int j = i + 1; j < ne && keys[j] == key; ++j) {
        int4 cj = sorted[j];
        if (cj.x != ci.x || cj.y != ci.y || cj.z != ci.z)
            continue; // another cell with the same key
        // the cell owns the pair when it is the lowest corner of the boxes' intersection
        if (((first_a | (cj.w >> RB_BP_FIRST_SHIFT)) & 7) != 7)
            continue;
        int b = cj.w & RB_BP_SHAPE_MASK;
        if (!rb_aabb_overlap(aabb_lo[a], aabb_hi[a], aabb_lo[b], aabb_hi[b]) ||
            !rb_shapes_may_pair(a, b, shape_body, flags, filter, 0))
            continue;
        if (write)
            pairs[at + n] = rb_pair_make(a, b);
        ++n;
    }
    if (!write)
        count[i] = n;
}

// Each finite shape i against the large shapes (two large shapes meet once, from the later one) and
// the planes. `special` lists them in ascending slot order.
RB_KERNEL void rb_bp_special_pairs(int ns, int nspecial, int write, RB_GLOBAL const int *special,
                                  RB_GLOBAL const int *role, RB_GLOBAL const rb_float4 *aabb_lo,
                                  RB_GLOBAL const rb_float4 *aabb_hi, RB_GLOBAL const rb_float4 *plane_world,
                                  RB_GLOBAL const int *shape_body, RB_GLOBAL const uint *flags,
                                  RB_GLOBAL const uint *filter, RB_GLOBAL int *count, RB_GLOBAL const int *offset,
                                  RB_GLOBAL rb_pair *pairs)
{
    int i = rb_thread_id();
    if (i >= ns)
        return;
    int ri = role[i];
    int n = 0, at = write ? offset[i] : 0;
    if (ri == RB_BP_ROLE_GRID || ri == RB_BP_ROLE_LARGE) {
        rb_float4 lo = aabb_lo[i], hi = aabb_hi[i];
        for (int l = 0; l < nspecial; ++l) {
            int j = special[l];
            int hit;
            if (role[j] == RB_BP_ROLE_LARGE) {
                if (ri == RB_BP_ROLE_LARGE && j >= i)
                    continue;
                hit = rb_aabb_overlap(lo, hi, aabb_lo[j], aabb_hi[j]);
            } else {
                hit = rb_aabb_reaches_plane(lo, hi, plane_world[j]);
            }
            if (!hit || !rb_shapes_may_pair(i, j, shape_body, flags, filter, 0))
                continue;
            if (write)
                pairs[at + n] = rb_pair_make(i, j);
            ++n;
        }
    }
    if (!write)
        count[i] = n;
}

// special[k] = i for the k-th flagged shape (offsets from a scan of the flags).
RB_KERNEL void rb_compact_indices(int n, RB_GLOBAL const int *flag, RB_GLOBAL const int *offset, RB_GLOBAL int *out)
{
    int i = rb_thread_id();
    if (i < n && flag[i])
        out[offset[i]] = i;
}

// Sorting the pairs by (a, b). by_a < 0: one sort on the key a << -by_a | b (b below 2^-by_a, the key
// within 32 bits); else two stable passes, by b then by a. These make the keys of each pass.
RB_KERNEL void rb_pair_keys(int n, int by_a, RB_GLOBAL const rb_pair *pairs, RB_GLOBAL const uint *order,
                           RB_GLOBAL uint *keys, RB_GLOBAL uint *vals)
{
    int i = rb_thread_id();
    if (i >= n)
        return;
    uint src = order ? order[i] : (uint)i;
    rb_pair p = pairs[src];
    if (by_a < 0)
        keys[i] = ((uint)p.shape_a << (uint)(-by_a)) | (uint)p.shape_b;
    else
        keys[i] = (uint)(by_a ? p.shape_a : p.shape_b);
    vals[i] = src;
}

RB_KERNEL void rb_pair_gather(int n, RB_GLOBAL const rb_pair *in, RB_GLOBAL const uint *order, RB_GLOBAL rb_pair *out)
{
    int i = rb_thread_id();
    if (i < n)
        out[i] = in[order[i]];
}
