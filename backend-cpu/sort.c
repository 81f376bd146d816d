// Stable LSD radix sort of (64-bit key, 32-bit value) items, serial or with OpenMP.
//
// A pass sorts by one digit of 8 or 11 key bits. Only bits that differ between keys need a pass, so
// the sort first ORs and ANDs every key: bits set in the OR but clear in the AND vary. Bits above
// `key_bits` never get a pass, nor does a window whose bits are the same in every key. A digit is
// made of at most two windows of the key (total width 8 or 11), taken greedily from the lowest
// varying bit upwards; the second window lets one pass cover the top of one field and the bottom of
// the next (the pair keys (a << 32) | b of 8,000 shapes need 3 passes of 11 bits instead of 4). Every bit of a digit
// lies above every varying bit of the digits before it, and bits that vary in no key cannot change
// the order, so sorting by the digits, least significant first, sorts by the whole key.
//
// Parallel passes: the items are cut into one contiguous chunk per thread. Each thread counts the
// digits of its chunk; thread t then writes its items of digit d after every item of a smaller
// digit and after the items of digit d held by threads 0 .. t-1, in the order it reads them. That is
// exactly the order of a serial stable pass, so the result is the same for any thread count (as it
// must be: a stable sort's result is unique). Whole items move, `pad` included.
#include "sort.h"

#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

// Below this many items a parallel region costs more than it saves.
#define RB_SORT_SERIAL_BELOW 8192
// Each extra thread must get at least this many items.
#define RB_SORT_ITEMS_PER_THREAD 4096
// The per-thread histograms live in one array on the caller's stack (no allocation, 128 KB); a
// scatter is bound by memory bandwidth long before 16 threads.
#define RB_SORT_MAX_THREADS 16
#define RB_SORT_NARROW_BITS 8
#define RB_SORT_WIDE_BITS 11
#define RB_SORT_MAX_BUCKETS (1 << RB_SORT_WIDE_BITS)
// Every digit but the last spans at least its width of key bits (its first window is full, or the
// next varying bit lies beyond it), so 64 bits need at most 8 digits of 8 bits.
#define RB_SORT_MAX_PASSES 8
// Above this many items a scatter misses the cache anyway, and 2048 buckets cost no more than 256.
#define RB_SORT_WIDE_IS_FREE_ABOVE (1 << 17)

// A digit: bits [lo_shift, lo_shift + lo_bits) of the key, then [hi_shift, hi_shift + hi_bits) above.
typedef struct sort_digit {
    int lo_shift, lo_bits;
    int hi_shift, hi_bits;
} sort_digit;

typedef struct sort_plan {
    int passes;
    int digit_bits; // the width of the widest digit: 8 or 11
    sort_digit digit[RB_SORT_MAX_PASSES];
} sort_plan;

static uint64_t low_bits_mask(int bits)
{
    return bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
}

static int lowest_set_bit(uint64_t x)
{
    int i = 0;
    while (!(x & 1u)) {
        x >>= 1;
        i++;
    }
    return i;
}

static int highest_set_bit(uint64_t x)
{
    int i = 63;
    while (!(x >> i))
        i--;
    return i;
}

// The lowest varying bits that fit in one window of at most `width` bits, ending on a varying bit.
static void take_window(uint64_t *varying, int width, int *shift, int *bits)
{
    int lo = lowest_set_bit(*varying);
    uint64_t inside = *varying & (low_bits_mask(width) << lo);
    int hi = highest_set_bit(inside) + 1;
    *shift = lo;
    *bits = hi - lo;
    *varying &= ~(low_bits_mask(hi - lo) << lo);
}

static int plan_digits(uint64_t varying, int width, sort_digit *digit)
{
    int passes = 0;
    while (varying) {
        sort_digit d = {0, 0, 0, 0};
        take_window(&varying, width, &d.lo_shift, &d.lo_bits);
        if (varying && d.lo_bits < width)
            take_window(&varying, width - d.lo_bits, &d.hi_shift, &d.hi_bits);
        digit[passes++] = d;
    }
    return passes;
}

static sort_plan plan_passes(uint64_t key_or, uint64_t key_and, int key_bits, int n)
{
    uint64_t varying = (key_or ^ key_and) & low_bits_mask(key_bits);
    sort_plan narrow, wide;
    narrow.digit_bits = RB_SORT_NARROW_BITS;
    narrow.passes = plan_digits(varying, RB_SORT_NARROW_BITS, narrow.digit);
    wide.digit_bits = RB_SORT_WIDE_BITS;
    wide.passes = plan_digits(varying, RB_SORT_WIDE_BITS, wide.digit);
    // Measured: while the items fit in cache, a pass over 2048 buckets costs about 1.4 passes over
    // 256 (more scattered writes); beyond, both cost a cache miss per item.
    int wide_cost = n >= RB_SORT_WIDE_IS_FREE_ABOVE ? 10 * wide.passes : 14 * wide.passes;
    return wide_cost < 10 * narrow.passes ? wide : narrow;
}

static uint32_t digit_of(uint64_t key, sort_digit d)
{
    uint32_t lo = (uint32_t)(key >> d.lo_shift) & (uint32_t)low_bits_mask(d.lo_bits);
    uint32_t hi = (uint32_t)(key >> d.hi_shift) & (uint32_t)low_bits_mask(d.hi_bits);
    return lo | (hi << d.lo_bits);
}

static void scan_key_bits(const rb_key_value *items, int begin, int end, uint64_t *key_or, uint64_t *key_and)
{
    uint64_t o = 0, a = ~(uint64_t)0;
    for (int i = begin; i < end; i++) {
        o |= items[i].key;
        a &= items[i].key;
    }
    *key_or = o;
    *key_and = a;
}

// Most digits are one window of the key; their loops skip the second window's shift and mask.
static void count_digits(const rb_key_value *src, int begin, int end, sort_digit d, uint32_t *hist)
{
    if (d.hi_bits == 0) {
        uint32_t mask = (uint32_t)low_bits_mask(d.lo_bits);
        for (int i = begin; i < end; i++)
            hist[(uint32_t)(src[i].key >> d.lo_shift) & mask]++;
    } else {
        for (int i = begin; i < end; i++)
            hist[digit_of(src[i].key, d)]++;
    }
}

static void scatter_by_digit(const rb_key_value *src, rb_key_value *dst, int begin, int end, sort_digit d,
                             uint32_t *next)
{
    if (d.hi_bits == 0) {
        uint32_t mask = (uint32_t)low_bits_mask(d.lo_bits);
        for (int i = begin; i < end; i++)
            dst[next[(uint32_t)(src[i].key >> d.lo_shift) & mask]++] = src[i];
    } else {
        for (int i = begin; i < end; i++)
            dst[next[digit_of(src[i].key, d)]++] = src[i];
    }
}

static void exclusive_prefix_sum(uint32_t *hist, int buckets)
{
    uint32_t sum = 0;
    for (int b = 0; b < buckets; b++) {
        uint32_t c = hist[b];
        hist[b] = sum;
        sum += c;
    }
}

static void sort_serial(rb_key_value *items, rb_key_value *scratch, int n, int key_bits)
{
    uint64_t key_or, key_and;
    scan_key_bits(items, 0, n, &key_or, &key_and);
    sort_plan plan = plan_passes(key_or, key_and, key_bits, n);
    int buckets = 1 << plan.digit_bits;
    uint32_t hist[RB_SORT_MAX_PASSES][RB_SORT_MAX_BUCKETS];
    // The counts do not depend on the order, so every pass's counts come from the input.
    for (int p = 0; p < plan.passes; p++) {
        memset(hist[p], 0, sizeof(uint32_t) * (size_t)buckets);
        count_digits(items, 0, n, plan.digit[p], hist[p]);
    }
    rb_key_value *src = items, *dst = scratch;
    for (int p = 0; p < plan.passes; p++) {
        exclusive_prefix_sum(hist[p], buckets);
        scatter_by_digit(src, dst, 0, n, plan.digit[p], hist[p]);
        rb_key_value *t = src;
        src = dst;
        dst = t;
    }
    if (src != items)
        memcpy(items, src, sizeof(rb_key_value) * (size_t)n);
}

#ifdef _OPENMP
static int chunk_begin(int n, int t, int nthreads)
{
    return (int)((int64_t)n * t / nthreads);
}

// Where thread t writes its first item of each digit: all items of smaller digits, then the items of
// the same digit counted by threads before t.
static void thread_offsets(uint32_t (*hist)[RB_SORT_MAX_BUCKETS], int nthreads, int t, int buckets, uint32_t *next)
{
    uint32_t base = 0;
    for (int d = 0; d < buckets; d++) {
        uint32_t before = 0, total = 0;
        for (int u = 0; u < nthreads; u++) {
            if (u < t)
                before += hist[u][d];
            total += hist[u][d];
        }
        next[d] = base + before;
        base += total;
    }
}

static void sort_parallel(rb_key_value *items, rb_key_value *scratch, int n, int key_bits, int threads)
{
    // Shared, not private to each thread: threads read each other's counts.
    uint32_t hist_of[RB_SORT_MAX_THREADS][RB_SORT_MAX_BUCKETS];
    uint64_t or_of[RB_SORT_MAX_THREADS], and_of[RB_SORT_MAX_THREADS];
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), nthreads = omp_get_num_threads();
        int begin = chunk_begin(n, t, nthreads), end = chunk_begin(n, t + 1, nthreads);
        uint32_t *hist = hist_of[t], next[RB_SORT_MAX_BUCKETS];
        scan_key_bits(items, begin, end, &or_of[t], &and_of[t]);
#pragma omp barrier
        uint64_t key_or = 0, key_and = ~(uint64_t)0;
        for (int u = 0; u < nthreads; u++) {
            key_or |= or_of[u];
            key_and &= and_of[u];
        }
        // Every thread derives the same plan from the same inputs.
        sort_plan plan = plan_passes(key_or, key_and, key_bits, n);
        int buckets = 1 << plan.digit_bits;
        rb_key_value *src = items, *dst = scratch;
        for (int p = 0; p < plan.passes; p++) {
            memset(hist, 0, sizeof(uint32_t) * (size_t)buckets);
            count_digits(src, begin, end, plan.digit[p], hist);
#pragma omp barrier
            thread_offsets(hist_of, nthreads, t, buckets, next);
            scatter_by_digit(src, dst, begin, end, plan.digit[p], next);
            // The next pass reads what every thread wrote, and rewrites hist that others just read.
#pragma omp barrier
            rb_key_value *tmp = src;
            src = dst;
            dst = tmp;
        }
        if (src != items)
            memcpy(items + begin, src + begin, sizeof(rb_key_value) * (size_t)(end - begin));
    }
}
#endif

void rb_radix_sort(rb_key_value *items, rb_key_value *scratch, int n, int key_bits, int threads)
{
    if (n <= 1 || key_bits <= 0)
        return;
    if (key_bits > 64)
        key_bits = 64;
    int usable = n / RB_SORT_ITEMS_PER_THREAD;
    if (threads > usable)
        threads = usable;
    if (threads > RB_SORT_MAX_THREADS)
        threads = RB_SORT_MAX_THREADS;
#ifdef _OPENMP
    if (n >= RB_SORT_SERIAL_BELOW && threads > 1) {
        sort_parallel(items, scratch, n, key_bits, threads);
        return;
    }
#endif
    sort_serial(items, scratch, n, key_bits);
}
