// The constraint graph's rules (core/kernels/constraint_graph.h), which the CPU backend and the
// device kernels share: greedy colours in edge order, waking, islands, pe's batches and the split
// solver's per-body lists. Bodies here are slots with flags only; edges are what a step would build.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/constraint_graph.h"

#define STATIC_BODY (RB_BODY_ALIVE | RB_BODY_STATIC_T)
#define AWAKE_BODY (RB_BODY_ALIVE | RB_BODY_DYNAMIC_T | RB_BODY_AWAKE)
#define ASLEEP_BODY (RB_BODY_ALIVE | RB_BODY_DYNAMIC_T)
#define KINEMATIC_BODY (RB_BODY_ALIVE | RB_BODY_KINEMATIC_T | RB_BODY_AWAKE)

static rb_constraint_edge edge(int a, int b) { return rb_contact_edge(a, b, 0, 1); }

static void identity(int *parent, int n)
{
    for (int b = 0; b < n; ++b)
        parent[b] = b;
}

static void test_a_stack_alternates_two_colours_and_the_ground_takes_none(void **state)
{
    (void)state;
    // ground 0, boxes 1..4 stacked: each box touches the one below, so neighbours differ in colour,
    // while the static ground may sit in every colour
    unsigned int flags[5] = {STATIC_BODY, AWAKE_BODY, AWAKE_BODY, AWAKE_BODY, AWAKE_BODY};
    rb_constraint_edge e[4] = {edge(0, 1), edge(1, 2), edge(2, 3), edge(3, 4)};
    rb_color_bits used[5] = {0};
    int color[4], order[4], start[RB_MAX_COLORS + 2];
    assert_int_equal(rb_color_edges(4, e, flags, used, color, order, start), 2);
    assert_int_equal(color[0], 0);
    assert_int_equal(color[1], 1);
    assert_int_equal(color[2], 0);
    assert_int_equal(color[3], 1);
    // listed by colour, in edge order within a colour
    int expect[4] = {0, 2, 1, 3};
    assert_memory_equal(order, expect, sizeof expect);
    assert_int_equal(start[0], 0);
    assert_int_equal(start[1], 2);
    assert_int_equal(start[2], 4);
    assert_int_equal(start[RB_MAX_COLORS + 1], 4);
    assert_int_equal(used[0], 0);
}

static void test_a_body_touching_more_than_64_others_spills_into_the_overflow(void **state)
{
    (void)state;
    enum { N = 70 };
    unsigned int flags[N + 1];
    rb_constraint_edge e[N];
    for (int b = 0; b <= N; ++b)
        flags[b] = AWAKE_BODY;
    for (int i = 0; i < N; ++i)
        e[i] = edge(0, i + 1); // body 0 in every edge
    rb_color_bits used[N + 1];
    memset(used, 0, sizeof used);
    int color[N], order[N], start[RB_MAX_COLORS + 2];
    assert_int_equal(rb_color_edges(N, e, flags, used, color, order, start), RB_MAX_COLORS);
    assert_int_equal(color[RB_MAX_COLORS - 1], RB_MAX_COLORS - 1);
    assert_int_equal(color[RB_MAX_COLORS], RB_MAX_COLORS); // the overflow batch
    assert_int_equal(start[RB_MAX_COLORS + 1] - start[RB_MAX_COLORS], N - RB_MAX_COLORS);
}

static void test_an_awake_body_wakes_the_sleeper_it_touches_but_not_the_ground(void **state)
{
    (void)state;
    unsigned int flags[4] = {STATIC_BODY, AWAKE_BODY, ASLEEP_BODY, ASLEEP_BODY};
    int sleep_group[4] = {-1, -1, 3, -1}; // body 2 fell asleep with body 3's island
    assert_int_equal(rb_edge_wakes(edge(1, 2), flags), 2);
    assert_int_equal(rb_edge_wakes(edge(2, 1), flags), 2);
    assert_int_equal(rb_sleep_group_of(sleep_group, 2), 3);
    assert_int_equal(rb_sleep_group_of(sleep_group, 3), 3); // asleep on its own: its own group
    assert_int_equal(rb_edge_wakes(edge(0, 1), flags), -1); // the ground never sleeps or wakes
    assert_int_equal(rb_edge_wakes(edge(0, 2), flags), -1); // a sleeper on the ground stays asleep
    assert_int_equal(rb_edge_wakes(edge(2, 3), flags), -1); // two sleepers do not wake each other
}

static void test_islands_meet_only_through_moving_bodies_and_take_the_lowest_slot(void **state)
{
    (void)state;
    // two stacks on one ground (0): {1, 3} and {2, 4}; the ground joins no island
    unsigned int flags[5] = {STATIC_BODY, AWAKE_BODY, AWAKE_BODY, AWAKE_BODY, AWAKE_BODY};
    rb_constraint_edge e[4] = {edge(0, 3), edge(3, 1), edge(0, 4), edge(4, 2)};
    int parent[5];
    identity(parent, 5);
    rb_unite_islands(4, e, flags, parent);
    assert_int_equal(rb_find_root(parent, 3), 1);
    assert_int_equal(rb_find_root(parent, 4), 2);
    assert_int_equal(rb_find_root(parent, 0), 0);
    // a kinematic body moves: it joins the islands it touches
    flags[0] = KINEMATIC_BODY;
    identity(parent, 5);
    rb_unite_islands(4, e, flags, parent);
    for (int b = 0; b < 5; ++b)
        assert_int_equal(rb_find_root(parent, b), 0);
}

static void test_pe_batches_stop_at_kinematic_and_frozen_bodies(void **state)
{
    (void)state;
    // 1 - 0 (kinematic) - 2, and 3 - 4 (frozen) - 5: fixed bodies are barriers (Schornbaum 2010 §3.1)
    unsigned int flags[6] = {KINEMATIC_BODY, AWAKE_BODY, AWAKE_BODY, AWAKE_BODY, AWAKE_BODY | RB_BODY_FROZEN,
                             AWAKE_BODY};
    rb_constraint_edge e[5] = {edge(0, 1), edge(0, 2), edge(3, 4), edge(4, 5), edge(1, 3)};
    int parent[6];
    identity(parent, 6);
    rb_unite_batches(5, e, flags, parent);
    assert_int_equal(rb_find_root(parent, 3), 1); // 1 - 3 touch directly
    assert_int_equal(rb_find_root(parent, 2), 2);
    assert_int_equal(rb_find_root(parent, 5), 5);
}

static void test_split_lists_give_each_moving_body_its_blocks_in_solve_order(void **state)
{
    (void)state;
    // ground 0; body 1 on the ground and under body 2; solved in the order edge 1, then edge 0
    unsigned int flags[3] = {STATIC_BODY, AWAKE_BODY, AWAKE_BODY};
    rb_constraint_edge e[2] = {edge(0, 1), edge(1, 2)};
    int order[2] = {1, 0}, start[4], list[4];
    rb_edge_body_lists(2, e, order, 3, flags, start, list);
    int expect_start[4] = {0, 0, 2, 3};
    assert_memory_equal(start, expect_start, sizeof expect_start);
    // body 1: side A of position 0 (edge 1), side B of position 1 (edge 0); body 2: side B of position 0
    int expect_list[3] = {0, 3, 1};
    assert_memory_equal(list, expect_list, sizeof expect_list);
    // the ground's mass is not split; body 1's is split in two
    assert_true(rb_split_share(start, flags, 0) == 1.0f);
    assert_true(rb_split_share(start, flags, 1) == 2.0f);
    assert_true(rb_split_share(start, flags, -1) == 1.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_stack_alternates_two_colours_and_the_ground_takes_none),
        cmocka_unit_test(test_a_body_touching_more_than_64_others_spills_into_the_overflow),
        cmocka_unit_test(test_an_awake_body_wakes_the_sleeper_it_touches_but_not_the_ground),
        cmocka_unit_test(test_islands_meet_only_through_moving_bodies_and_take_the_lowest_slot),
        cmocka_unit_test(test_pe_batches_stop_at_kinematic_and_frozen_bodies),
        cmocka_unit_test(test_split_lists_give_each_moving_body_its_blocks_in_solve_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
