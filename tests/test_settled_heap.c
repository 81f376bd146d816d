// A settled heap of tumbled boxes is calm: six heaps of 1000 cubes of 0.5 m (10 × 10 × 10, 1 m apart,
// each turned at random, seeds 1-6) dropped into a pen 8 m wide, 10 s of 1/60 s with sleeping off.
// From 7 s to 10 s, sampled every 10 steps, the boxes faster than 5 cm/s are counted; the worst
// sample of each heap, averaged over the six, must stay at 80 or under (8% of the heap). The heap has
// settled by 7 s; what still moves then is creep or solver jitter.
//
// This is what the rigid solvers' shock pass (docs/solver.md) must not stir up. With friction from
// every support a body is made to follow supports that move apart: the `batched` heaps kept 88.7
// boxes on average above 5 cm/s; with friction only from supports that stick, 69.0 (`soft`: 2.5).
// A heap is chaotic and single heaps vary (24 to 125), hence six. The `split` solver's heaps do not
// settle this far (about 110: its Jacobi iterations), so it is not checked here. The solver is the CPU default, or the one RUBBLE_TEST_SOLVER names.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "physics_util.h"

// Boxes faster than 5 cm/s at the worst sample between 7 s and 10 s, for the heap of `seed`.
static int restless_boxes(uint64_t seed)
{
    rb_world_id w = pu_make_world(false);
    pu_add_ground(w, 0.6f, 0.0f);
    const float half_width = 4.0f;
    pu_add_plane(w, v3(1.0f, 0.0f, 0.0f), -half_width, 0.6f, 0.0f);
    pu_add_plane(w, v3(-1.0f, 0.0f, 0.0f), -half_width, 0.6f, 0.0f);
    pu_add_plane(w, v3(0.0f, 0.0f, 1.0f), -half_width, 0.6f, 0.0f);
    pu_add_plane(w, v3(0.0f, 0.0f, -1.0f), -half_width, 0.6f, 0.0f);
    enum { N = 10 };
    rb_body_id b[N * N * N];
    uint64_t state = seed;
    int k = 0;
    for (int iy = 0; iy < N; ++iy)
        for (int ix = 0; ix < N; ++ix)
            for (int iz = 0; iz < N; ++iz) {
                float u[4];
                for (int d = 0; d < 4; ++d) { // docs/bench-scenes.md's LCG
                    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
                    u[d] = (float)((double)(state >> 11) * (1.0 / 9007199254740992.0));
                }
                rb_quat q = rb_quat_from_axis_angle(v3(2 * u[0] - 1, 2 * u[1] - 1, 2 * u[2] - 1), (float)PU_PI * u[3]);
                rb_vec3 p = v3((float)ix - (N - 1) / 2.0f, 1.0f + (float)iy, (float)iz - (N - 1) / 2.0f);
                b[k++] = pu_box(w, p, q, v3(0.25f, 0.25f, 0.25f), 1.0f, 0.6f, 0.0f);
            }
    int worst = 0;
    for (int step = 1; step <= 600; ++step) {
        pu_step(w, 1);
        if (step < 420 || step % 10)
            continue;
        int fast = 0;
        for (int i = 0; i < k; ++i) {
            rb_vec3 v = pu_velocity(b[i]);
            fast += v.x * v.x + v.y * v.y + v.z * v.z > 0.05f * 0.05f;
        }
        worst = fast > worst ? fast : worst;
    }
    rb_destroy_world(w);
    return worst;
}

static void test_settled_heaps_of_a_thousand_tumbled_boxes_are_calm(void **state)
{
    (void)state;
    rb_world_id probe = pu_make_world(false);
    rb_solver solver = pu_solver(probe);
    rb_destroy_world(probe);
    if (solver == RB_SOLVER_SPLIT || solver == RB_SOLVER_SEQUENTIAL) {
        // split: see above; sequential (pe) is too slow for six heaps of 1000 in a test
        print_message("skipped for this solver (docs/solver.md)\n");
        skip();
    }
    int total = 0;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        int r = restless_boxes(seed);
        print_message("heap %d: at most %d of 1000 boxes faster than 5 cm/s from 7 s to 10 s\n", (int)seed, r);
        total += r;
    }
    print_message("mean %.1f (at most 80)\n", total / 6.0);
    assert_true(total <= 6 * 80);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_settled_heaps_of_a_thousand_tumbled_boxes_are_calm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
