// For tests that look inside the CPU backend: the backend context of a world that runs on it.
#ifndef RUBBLE_TESTS_CPU_TEST_UTIL_H
#define RUBBLE_TESTS_CPU_TEST_UTIL_H

#include "cpu_context.h"
#include "rubble.h"
#include "world.h"

static inline rb_cpu_ctx *cpu_of(rb_world_id id)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    assert_non_null(w);
    assert_string_equal(w->ops->name, "cpu");
    return (rb_cpu_ctx *)w->backend;
}

#endif
