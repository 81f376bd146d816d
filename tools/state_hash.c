// FNV-1a state hash (see state_hash.h).
#include "state_hash.h"

#include <stddef.h>

static const uint64_t k_fnv_offset = 14695981039346656037ull;
static const uint64_t k_fnv_prime = 1099511628211ull;

static uint64_t fnv1a(uint64_t h, const float *values, int n)
{
    const unsigned char *bytes = (const unsigned char *)values;
    for (size_t i = 0; i < (size_t)n * sizeof(float); ++i) {
        h ^= bytes[i];
        h *= k_fnv_prime;
    }
    return h;
}

uint64_t state_hash(const body_state *s)
{
    uint64_t h = k_fnv_offset;
    for (int i = 0; i < s->count; ++i) {
        const rb_transform *t = &s->transform[i];
        float v[13] = {t->p.x, t->p.y, t->p.z, t->q.x, t->q.y, t->q.z, t->q.w,
                       s->linear[i].x, s->linear[i].y, s->linear[i].z,
                       s->angular[i].x, s->angular[i].y, s->angular[i].z};
        h = fnv1a(h, v, 13);
    }
    return h;
}
