// Determinism of the CPU backend: the same scene gives bitwise the same state whatever the thread
// count, on every run, and however the steps are split up. The solver's colours hold no body twice
// and every reduction is in a fixed order, so nothing may depend on scheduling.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "physics_util.h"

typedef struct snapshot {
    int slots;
    rb_transform *t;
    rb_vec3 *v, *w;
} snapshot;

static rb_world_id make_scene(const char *scene, int threads, bool sleep)
{
    rb_world_def d = pu_world_def(sleep);
    d.threads = threads;
    rb_world_id w = pu_make_world_from(&d);
    RB_CHECK(rb_build_standard_scene(w, scene, 1));
    rb_world_info info;
    RB_CHECK(rb_world_get_info(w, &info));
    assert_int_equal(info.threads, threads);
    return w;
}

static snapshot take_snapshot(rb_world_id w)
{
    snapshot s;
    s.slots = pu_body_slots(w);
    s.t = calloc((size_t)s.slots, sizeof *s.t);
    s.v = calloc((size_t)s.slots, sizeof *s.v);
    s.w = calloc((size_t)s.slots, sizeof *s.w);
    assert_non_null(s.t);
    assert_non_null(s.v);
    assert_non_null(s.w);
    RB_CHECK(rb_world_get_transforms(w, 0, s.slots, s.t));
    RB_CHECK(rb_world_get_velocities(w, 0, s.slots, s.v, s.w));
    return s;
}

static void free_snapshot(snapshot *s)
{
    free(s->t);
    free(s->v);
    free(s->w);
}

static snapshot run(const char *scene, int threads, int steps, bool sleep)
{
    rb_world_id w = make_scene(scene, threads, sleep);
    pu_step(w, steps);
    snapshot s = take_snapshot(w);
    rb_destroy_world(w);
    return s;
}

// Bitwise comparison; on a difference, names the first body that differs and by how much.
static void assert_identical(const snapshot *a, const snapshot *b, const char *what)
{
    assert_int_equal(a->slots, b->slots);
    for (int i = 0; i < a->slots; ++i) {
        if (memcmp(&a->t[i], &b->t[i], sizeof a->t[i]) != 0 || memcmp(&a->v[i], &b->v[i], sizeof a->v[i]) != 0 ||
            memcmp(&a->w[i], &b->w[i], sizeof a->w[i]) != 0) {
            int diff = 0;
            for (int j = i; j < a->slots; ++j)
                diff += memcmp(&a->t[j], &b->t[j], sizeof a->t[j]) != 0;
            fail_msg("%s: body slot %d differs first (position (%.9g, %.9g, %.9g) vs (%.9g, %.9g, %.9g), "
                     "|dp| = %.3g m); %d transforms differ in all",
                     what, i, a->t[i].p.x, a->t[i].p.y, a->t[i].p.z, b->t[i].p.x, b->t[i].p.y, b->t[i].p.z,
                     v3_dist(a->t[i].p, b->t[i].p), diff);
        }
    }
}

static void check_threads_agree(const char *scene, int steps)
{
    snapshot one = run(scene, 1, steps, false);
    snapshot two = run(scene, 2, steps, false);
    char what[64];
    snprintf(what, sizeof what, "%s, 1 vs 2 threads, %d steps", scene, steps);
    assert_identical(&one, &two, what);
    free_snapshot(&one);
    free_snapshot(&two);
}

static void test_pile_is_bitwise_identical_with_one_and_two_threads(void **state)
{
    (void)state;
    // "pile:8" (1280 spheres) after 200 steps: every transform and velocity equal bit for bit.
    check_threads_agree("pile:8", 200);
}

static void test_boxes_scene_is_bitwise_identical_with_one_and_two_threads(void **state)
{
    (void)state;
    // "boxes" (4096 turned cubes falling into the pen, many box–box manifolds) after 200 steps, or
    // 100 with the sequential solver (the landing heap costs it ~0.7 s a step; contacts from step 60).
    rb_world_def d = pu_world_def(false);
    check_threads_agree("boxes", d.solver == RB_SOLVER_BATCHED ? 200 : 100);
}

static void test_pyramid_is_bitwise_identical_with_one_and_two_threads(void **state)
{
    (void)state;
    // "pyramid" (385 cubes in resting contact, long warm-started solver chains) after 200 steps.
    check_threads_agree("pyramid", 200);
}

static void test_ragdolls_are_bitwise_identical_with_one_and_two_threads(void **state)
{
    (void)state;
    // "ragdolls" (1360 joints by colours beside the contacts; joints that break are decided serially)
    // after 120 steps: the ragdolls have landed and lie in contact with each other.
    check_threads_agree("ragdolls", 120);
}

static void test_two_runs_with_the_same_thread_count_are_identical(void **state)
{
    (void)state;
    // Same scene, same settings, two threads, run twice (and with sleeping on, so island and
    // sleep decisions are covered too): bitwise the same after 200 steps.
    snapshot a = run("pile:8", 2, 200, true);
    snapshot b = run("pile:8", 2, 200, true);
    assert_identical(&a, &b, "pile:8, two runs with 2 threads");
    free_snapshot(&a);
    free_snapshot(&b);
}

static void test_stepping_in_pieces_gives_the_same_state_as_stepping_straight_through(void **state)
{
    (void)state;
    // 200 steps in one go vs pieces of 1, 7, 42, 50 and 100 steps with the whole state read back
    // (transforms, velocities, awake flags, contacts, counters) between pieces: reading must not
    // change anything, and a step must not depend on how many came before in the same call.
    snapshot straight = run("pile:8", 2, 200, true);
    rb_world_id w = make_scene("pile:8", 2, true);
    const int pieces[] = {1, 7, 42, 50, 100};
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; ++i) {
        pu_step(w, pieces[i]);
        snapshot s = take_snapshot(w);
        bool *awake = calloc((size_t)s.slots, sizeof *awake);
        assert_non_null(awake);
        RB_CHECK(rb_world_get_awake(w, 0, s.slots, awake));
        int n;
        rb_contact *c = pu_contacts(w, &n);
        rb_counters counters;
        RB_CHECK(rb_world_get_counters(w, &counters));
        free(c);
        free(awake);
        free_snapshot(&s);
    }
    snapshot pieced = take_snapshot(w);
    assert_identical(&straight, &pieced, "pile:8, 200 steps straight vs in pieces");
    free_snapshot(&straight);
    free_snapshot(&pieced);
    rb_destroy_world(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pile_is_bitwise_identical_with_one_and_two_threads),
        cmocka_unit_test(test_boxes_scene_is_bitwise_identical_with_one_and_two_threads),
        cmocka_unit_test(test_pyramid_is_bitwise_identical_with_one_and_two_threads),
        cmocka_unit_test(test_ragdolls_are_bitwise_identical_with_one_and_two_threads),
        cmocka_unit_test(test_two_runs_with_the_same_thread_count_are_identical),
        cmocka_unit_test(test_stepping_in_pieces_gives_the_same_state_as_stepping_straight_through),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
