// The batched solver's colouring: within a colour no dynamic body appears twice (so a colour can be
// solved in parallel without races), every manifold is solved exactly once, and bodies with more
// contacts than there are colours spill into the overflow batch instead of breaking the rule.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpu_test_util.h"

// The constraint graph of the last step: one contact edge per manifold, in manifold order, with the
// manifold's bodies and its points as rows, numbered in manifold order.
static void check_edges(const rb_cpu_ctx *c)
{
    assert_int_equal(c->edge_count, c->manifold_count);
    int row = 0;
    for (int i = 0; i < c->edge_count; ++i) {
        const rb_constraint_edge *e = &c->edges[i];
        assert_int_equal(e->kind, RB_EDGE_CONTACT);
        assert_int_equal(e->body_a, c->manifolds[i].body_a);
        assert_int_equal(e->body_b, c->manifolds[i].body_b);
        assert_int_equal(e->first_row, row);
        assert_int_equal(e->row_count, c->manifolds[i].m.count);
        row += e->row_count;
    }
    assert_int_equal(row, c->contact_point_count);
}

// Checks the invariants on the last step's colouring; returns the number of overflow constraints.
static int check_coloring(rb_cpu_ctx *c)
{
    const rb_scene *s = c->scene;
    int n = c->manifold_count;
    int *seen = calloc((size_t)n, sizeof *seen);
    int *last_color = malloc(sizeof *last_color * (size_t)s->body_slots);
    for (int b = 0; b < s->body_slots; ++b)
        last_color[b] = -1;
    assert_true(c->color_count <= RB_MAX_COLORS);
    for (int k = 0; k < c->color_count; ++k) {
        for (int j = c->color_start[k]; j < c->color_start[k + 1]; ++j) {
            int m = c->color_order[j];
            seen[m]++;
            const rb_contact_constraint *con = &c->constraints[j];
            int bodies[2] = {con->body_a, con->body_b};
            for (int i = 0; i < 2; ++i) {
                int b = bodies[i];
                if (b < 0 || !rb_body_is_dynamic(s, b))
                    continue;
                if (last_color[b] == k)
                    fail_msg("body %d appears twice in colour %d", b, k);
                last_color[b] = k;
            }
        }
    }
    int overflow = c->color_start[RB_MAX_COLORS + 1] - c->color_start[RB_MAX_COLORS];
    for (int j = c->color_start[RB_MAX_COLORS]; j < c->color_start[RB_MAX_COLORS + 1]; ++j)
        seen[c->color_order[j]]++;
    for (int m = 0; m < n; ++m)
        assert_int_equal(seen[m], 1);
    free(seen);
    free(last_color);
    return overflow;
}

static void test_pile_colours_never_repeat_a_dynamic_body(void **state)
{
    (void)state;
    rb_world_def d = rb_default_world_def();
    d.backend = RB_BACKEND_CPU;
    d.solver = RB_SOLVER_BATCHED; // the colours are the batched solver's
    d.threads = 2;
    rb_world_id w;
    assert_int_equal(rb_create_world(&d, &w), RB_OK);
    assert_int_equal(rb_build_standard_scene(w, "pile:6", 1), RB_OK);
    for (int i = 0; i < 120; ++i)
        assert_int_equal(rb_world_step(w), RB_OK);
    rb_cpu_ctx *c = cpu_of(w);
    assert_true(c->manifold_count > 500);
    check_edges(c);
    assert_int_equal(check_coloring(c), 0);
    // static walls and the ground take part in many constraints of one colour: that is allowed
    rb_destroy_world(w);
}

static void test_body_with_more_contacts_than_colours_uses_the_overflow_batch(void **state)
{
    (void)state;
    rb_world_def d = rb_default_world_def();
    d.backend = RB_BACKEND_CPU;
    d.solver = RB_SOLVER_BATCHED; // the colours are the batched solver's
    d.gravity = (rb_vec3){0, 0, 0};
    rb_world_id w;
    assert_int_equal(rb_create_world(&d, &w), RB_OK);
    // one big sphere with 100 small spheres resting on its surface (a Fibonacci sphere of points)
    rb_body_def bd = rb_default_body_def();
    bd.type = RB_BODY_DYNAMIC;
    rb_body_id big;
    assert_int_equal(rb_create_body(w, &bd, &big), RB_OK);
    rb_shape_def sd = rb_default_shape_def();
    rb_sphere big_s = {2.0f}, small_s = {0.1f};
    rb_shape_id sid;
    rb_create_sphere_shape(big, &sd, &big_s, &sid);
    for (int i = 0; i < 100; ++i) {
        float y = 1.0f - 2.0f * ((float)i + 0.5f) / 100.0f;
        float r = sqrtf(1.0f - y * y), phi = 2.39996323f * (float)i;
        float R = 2.0f + 0.1f - 0.001f; // touching, 1 mm deep
        bd.position = (rb_vec3){R * r * cosf(phi), R * y, R * r * sinf(phi)};
        rb_body_id b;
        assert_int_equal(rb_create_body(w, &bd, &b), RB_OK);
        rb_create_sphere_shape(b, &sd, &small_s, &sid);
    }
    assert_int_equal(rb_world_step(w), RB_OK);
    rb_cpu_ctx *c = cpu_of(w);
    assert_int_equal(c->manifold_count, 100);
    assert_int_equal(c->color_count, RB_MAX_COLORS);
    assert_int_equal(check_coloring(c), 100 - RB_MAX_COLORS);
    // the overflow contacts are solved too: every small sphere is pushed out (none keeps approaching)
    for (int i = 1; i <= 100; ++i) {
        rb_body_id id;
        rb_world_get_body_id(w, i, &id);
        rb_vec3 p, v;
        rb_body_get_world_center(id, &p);
        rb_body_get_linear_velocity(id, &v);
        assert_true(p.x * v.x + p.y * v.y + p.z * v.z >= -1e-6f);
    }
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pile_colours_never_repeat_a_dynamic_body),
        cmocka_unit_test(test_body_with_more_contacts_than_colours_uses_the_overflow_batch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
