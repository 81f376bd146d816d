// Chooses the lanes of the soft solver's wide passes, once per context (at its first build, outside
// any parallel region): eight where the CPU has AVX2 and the build has them, else four. Both give the
// same bits (a lane's results do not depend on the lane count), so the choice changes speed only.
#include "contact_solver_wide.h"

static int pick(void)
{
#if RB_WIDE_HAS_8
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 8 : 4;
#else
    return 4;
#endif
}

#if RB_WIDE_HAS_8
#define RB_WIDE_CALL(c, name, ...) ((c)->wide_lanes == 8 ? name##_8(__VA_ARGS__) : name##_4(__VA_ARGS__))
#else
#define RB_WIDE_CALL(c, name, ...) name##_4(__VA_ARGS__)
#endif

rb_status rb_wide_build(rb_cpu_ctx *c)
{
    if (c->wide_lanes == 0)
        c->wide_lanes = pick();
    return RB_WIDE_CALL(c, rb_wide_build, c);
}

void rb_wide_warm_start(rb_cpu_ctx *c, int prepare, float slop) { RB_WIDE_CALL(c, rb_wide_warm_start, c, prepare, slop); }

void rb_wide_solve(rb_cpu_ctx *c, const rb_soft_settings *st, int use_bias, int refresh)
{
    RB_WIDE_CALL(c, rb_wide_solve, c, st, use_bias, refresh);
}

void rb_wide_shock_pass(rb_cpu_ctx *c, const rb_soft_settings *st, int use_bias, int first)
{
    RB_WIDE_CALL(c, rb_wide_shock_pass, c, st, use_bias, first);
}

void rb_wide_store(rb_cpu_ctx *c) { RB_WIDE_CALL(c, rb_wide_store, c); }

void rb_wide_free(rb_cpu_ctx *c)
{
    if (c->wide)
        RB_WIDE_CALL(c, rb_wide_free, c->wide);
    c->wide = NULL;
}
