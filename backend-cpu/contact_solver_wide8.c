// The eight-lane build of the soft solver's wide passes, for CPUs with AVX2 (built with -mavx2 by
// backend-cpu/meson.build, run only where contact_solver_wide_pick.c finds AVX2).
#define RB_WIDE_LANES 8
// the 32-byte lane vectors pass between static functions of this file only, so GCC's note that their
// ABI differs without AVX concerns no caller outside it
#pragma GCC diagnostic ignored "-Wpsabi"
#include "contact_solver_wide.c"
