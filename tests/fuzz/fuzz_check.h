// What the fuzz targets share: the libFuzzer entry point, and invariant checks that abort. An abort
// is what libFuzzer (and tests/fuzz/replay.c) reports as a crash, with the input that caused it.
#ifndef RB_FUZZ_CHECK_H
#define RB_FUZZ_CHECK_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rubble.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// An invariant that must hold for every input; the message says which and with what values.
#define FZ_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz invariant failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond);  \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

// Every status a call returns is one of rb_status's values.
static inline int fz_status_valid(rb_status s)
{
    return (int)s >= (int)RB_OK && (int)s <= (int)RB_ERR_NUMERIC;
}

// Checks of defects that are known and not fixed yet (docs/fuzzing.md lists them) run only with
// RUBBLE_FUZZ_STRICT=1, so that campaigns and the replay tests look for new defects meanwhile.
static inline int fz_strict(void)
{
    static int strict = -1;
    if (strict < 0) {
        const char *v = getenv("RUBBLE_FUZZ_STRICT");
        strict = v && strcmp(v, "1") == 0;
    }
    return strict;
}

static inline int fz_finite3(rb_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

// A rotation the library hands out is a unit quaternion (it normalises what it is given and
// renormalises after integrating); 1e-3 leaves room for float rounding, not for drift.
static inline int fz_unit_quat(rb_quat q)
{
    float l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    return isfinite(l2) && fabsf(l2 - 1.0f) < 1e-3f;
}

static inline int fz_unit3(rb_vec3 v)
{
    float l2 = v.x * v.x + v.y * v.y + v.z * v.z;
    return isfinite(l2) && fabsf(l2 - 1.0f) < 1e-3f;
}

#endif // RB_FUZZ_CHECK_H
