// The split solver of the CPU backend (contact_solver_split.c).
#ifndef RB_CPU_CONTACT_SOLVER_SPLIT_H
#define RB_CPU_CONTACT_SOLVER_SPLIT_H

#include "cpu_context.h"

struct rb_split_state;

// solve_constraints for RB_SOLVER_SPLIT.
rb_status rb_cpu_solve_split(rb_cpu_ctx *c, const rb_step_params *p);
void rb_cpu_split_free(struct rb_split_state *st);

#endif
