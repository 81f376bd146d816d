// The CUDA backend's launch geometry (backend-cuda/cuda_launch.h) with the kernels' thread numbering
// (rb_thread_id, backend-gpu/kernels/device_prelude.h, as compiled for the CUDA driver emulator): every
// work-item id in [0, n) is met exactly once, no grid dimension exceeds its limit, and the grid wastes
// less than one row of blocks. Small limits stand in for compute capability 1.0's 65535, so the 2-D
// grids that only scenes of millions of bodies need on a GPU are exercised here.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuda_launch.h"
#include "kernels/device_prelude.h"

rb_dim3 blockIdx, blockDim, gridDim, threadIdx;

static void check_covers(size_t n, unsigned block, unsigned grid_max)
{
    unsigned gx = 0, gy = 0;
    assert_true(rb_cuda_grid(n, block, grid_max, &gx, &gy));
    assert_true(gx >= 1 && gx <= grid_max && gy >= 1 && gy <= grid_max);
    size_t threads = (size_t)gx * gy * block;
    assert_true(threads >= n);
    assert_true(threads < n + (size_t)gx * block + block); // at most the last row is partly idle
    unsigned char *seen = calloc(n > 0 ? n : 1, 1);
    assert_non_null(seen);
    gridDim.x = gx, gridDim.y = gy, gridDim.z = 1;
    blockDim.x = block, blockDim.y = 1, blockDim.z = 1;
    size_t met = 0;
    for (unsigned y = 0; y < gy; ++y)
        for (unsigned x = 0; x < gx; ++x)
            for (unsigned t = 0; t < block; ++t) {
                blockIdx.x = x, blockIdx.y = y, threadIdx.x = t;
                int id = rb_thread_id();
                assert_true(id >= 0);
                if ((size_t)id >= n)
                    continue; // the kernels return
                assert_int_equal(seen[id], 0);
                seen[id] = 1;
                ++met;
            }
    assert_int_equal(met, n);
    free(seen);
}

static void test_one_row_grids_cover_every_item_once(void **state)
{
    (void)state;
    const size_t ns[] = {1, 2, 127, 128, 129, 1000, 65535, 100003};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i)
        check_covers(ns[i], 128, RB_CUDA_GRID_MAX);
}

static void test_two_dimensional_grids_cover_every_item_once(void **state)
{
    (void)state;
    // grid_max 7 with 32-thread blocks: more than 224 items need a second row
    const size_t ns[] = {224, 225, 300, 7 * 7 * 32 - 1, 7 * 7 * 32};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i)
        check_covers(ns[i], 32, 7);
    check_covers(1000003, 128, 300);
}

static void test_too_many_items_are_refused(void **state)
{
    (void)state;
    unsigned gx, gy;
    assert_false(rb_cuda_grid(7 * 7 * 32 + 1, 32, 7, &gx, &gy));
    // 65535^2 blocks of 128 threads: about 5.5e11 items fit; the largest scene is 1e6 bodies
    assert_true(rb_cuda_grid((size_t)1 << 36, 128, RB_CUDA_GRID_MAX, &gx, &gy));
    assert_int_equal(gx, RB_CUDA_GRID_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_row_grids_cover_every_item_once),
        cmocka_unit_test(test_two_dimensional_grids_cover_every_item_once),
        cmocka_unit_test(test_too_many_items_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
