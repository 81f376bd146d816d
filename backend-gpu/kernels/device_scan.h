// Exclusive prefix sums of int arrays in three kernels (chunks, the chunk sums, add back), and a
// stable LSD radix sort of (uint key, uint value) by 4-bit digits. No atomics: every work-item owns
// a chunk of the input and writes its own outputs, so results are the same on every device.
#define RB_SORT_RADIX 16

// out[i] = sum of in[chunk start .. i); sums[chunk] = sum of the chunk. in may equal out.
RB_KERNEL void rb_scan_chunks(int n, RB_GLOBAL const int *in, RB_GLOBAL int *out, RB_GLOBAL int *sums)
{
    int c = rb_thread_id();
    int lo = c * RB_SCAN_CHUNK, hi = rb_mini(lo + RB_SCAN_CHUNK, n);
    if (lo >= n)
        return;
    int acc = 0;
    for (int i = lo; i < hi; ++i) {
        int v = in[i];
        out[i] = acc;
        acc += v;
    }
    sums[c] = acc;
}

// Exclusive scan of m values by one work-item (in may equal out); the total goes to counters[slot].
RB_KERNEL void rb_scan_serial(int m, RB_GLOBAL const int *in, RB_GLOBAL int *out, RB_GLOBAL int *counters, int slot)
{
    if (rb_thread_id() != 0)
        return;
    int acc = 0;
    for (int i = 0; i < m; ++i) {
        int v = in[i];
        out[i] = acc;
        acc += v;
    }
    counters[slot] = acc;
}

RB_KERNEL void rb_scan_add(int n, RB_GLOBAL int *out, RB_GLOBAL const int *sums)
{
    int i = rb_thread_id();
    if (i < n)
        out[i] += sums[i / RB_SCAN_CHUNK];
}

// The digits at `shift` of keys[lo, hi): count[d] += how many have digit d.
RB_FN void rb_sort_count_digits(RB_GLOBAL const uint *keys, int lo, int hi, int shift, int *count)
{
    for (int i = lo; i < hi; ++i)
        count[(keys[i] >> shift) & 15u]++;
}

// keys[lo, hi) and their values to keys_out / vals_out at at[digit], in order (a stable pass).
RB_FN void rb_sort_scatter_digits(RB_GLOBAL const uint *keys, RB_GLOBAL const uint *vals, int lo, int hi, int shift,
                                  int *at, RB_GLOBAL uint *keys_out, RB_GLOBAL uint *vals_out)
{
    for (int i = lo; i < hi; ++i) {
        uint k = keys[i];
        int d = (int)((k >> shift) & 15u);
        keys_out[at[d]] = k;
        vals_out[at[d]] = vals[i];
        at[d]++;
    }
}

// hist[d * blocks + block] = how many keys of the block have digit d at `shift`.
RB_KERNEL void rb_sort_histogram(int n, int shift, int blocks, RB_GLOBAL const uint *keys, RB_GLOBAL int *hist)
{
    int blk = rb_thread_id();
    if (blk >= blocks)
        return;
    int count[RB_SORT_RADIX];
    for (int d = 0; d < RB_SORT_RADIX; ++d)
        count[d] = 0;
    int lo = blk * RB_SORT_BLOCK, hi = rb_mini(lo + RB_SORT_BLOCK, n);
    rb_sort_count_digits(keys, lo, hi, shift, count);
    for (int d = 0; d < RB_SORT_RADIX; ++d)
        hist[d * blocks + blk] = count[d];
}

// With hist scanned (digit-major), each block writes its keys in order: a stable pass.
RB_KERNEL void rb_sort_scatter(int n, int shift, int blocks, RB_GLOBAL const uint *keys, RB_GLOBAL const uint *vals,
                              RB_GLOBAL const int *hist, RB_GLOBAL uint *keys_out, RB_GLOBAL uint *vals_out)
{
    int blk = rb_thread_id();
    if (blk >= blocks)
        return;
    int at[RB_SORT_RADIX];
    for (int d = 0; d < RB_SORT_RADIX; ++d)
        at[d] = hist[d * blocks + blk];
    int lo = blk * RB_SORT_BLOCK, hi = rb_mini(lo + RB_SORT_BLOCK, n);
    rb_sort_scatter_digits(keys, vals, lo, hi, shift, at, keys_out, vals_out);
}

// The whole sort of at most RB_SORT_BLOCK keys by one work-item, every pass in one launch: the same
// stable passes as rb_sort_histogram, the scan and rb_sort_scatter with one block, so the same order,
// without the four or more launches per pass that cost a small scene more than its sort (the 41-link
// chain's broad phase on PoCL: 0.47 ms, most of it launches). `passes` is even: the result ends in
// keys / vals.
RB_KERNEL void rb_sort_serial(int n, int passes, RB_GLOBAL uint *keys, RB_GLOBAL uint *vals, RB_GLOBAL uint *keys2,
                             RB_GLOBAL uint *vals2)
{
    if (rb_thread_id() != 0)
        return;
    for (int p = 0; p < passes; ++p) {
        int shift = 4 * p < 32 ? 4 * p : 28;
        RB_GLOBAL uint *src_k = (p & 1) ? keys2 : keys, *src_v = (p & 1) ? vals2 : vals;
        RB_GLOBAL uint *dst_k = (p & 1) ? keys : keys2, *dst_v = (p & 1) ? vals : vals2;
        int at[RB_SORT_RADIX];
        for (int d = 0; d < RB_SORT_RADIX; ++d)
            at[d] = 0;
        rb_sort_count_digits(src_k, 0, n, shift, at);
        int acc = 0;
        for (int d = 0; d < RB_SORT_RADIX; ++d) {
            int v = at[d];
            at[d] = acc;
            acc += v;
        }
        rb_sort_scatter_digits(src_k, src_v, 0, n, shift, at, dst_k, dst_v);
    }
}
