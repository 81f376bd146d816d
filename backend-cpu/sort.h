// Stable radix sort of 64-bit keys carrying 32-bit values; deterministic for any thread count.
#ifndef RB_CPU_SORT_H
#define RB_CPU_SORT_H

#include <stdint.h>

typedef struct rb_key_value {
    uint64_t key;
    uint32_t value;
    uint32_t pad;
} rb_key_value;

// Sorts items[0, n) by key (ascending, stable). `scratch` must hold n items. `key_bits` is the number
// of low key bits that can be non-zero (passes over higher bits are skipped). Uses up to `threads`
// OpenMP threads.
void rb_radix_sort(rb_key_value *items, rb_key_value *scratch, int n, int key_bits, int threads);

#endif
