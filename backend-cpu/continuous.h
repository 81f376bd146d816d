// solve_continuous of the CPU backend (continuous.c): the bullets' sweeps after the step.
#ifndef RB_CPU_CONTINUOUS_H
#define RB_CPU_CONTINUOUS_H

#include "cpu_context.h"

rb_status rb_cpu_solve_continuous(rb_backend_ctx *ctx, const rb_step_params *p);

#endif
