// Launch geometry of the CUDA backend: n work-items in blocks of `block` threads, as a 2-D grid whose
// dimensions stay within `grid_max` blocks (65535 on compute capability 1.0). The kernels number their
// threads row by row (rb_thread_id in backend-gpu/kernels/device_prelude.h) and skip ids >= n.
#ifndef RB_CUDA_LAUNCH_H
#define RB_CUDA_LAUNCH_H

#include <stddef.h>

#define RB_CUDA_GRID_MAX 65535u

// Returns 0 when n needs more than grid_max x grid_max blocks.
static inline int rb_cuda_grid(size_t n, unsigned block, unsigned grid_max, unsigned *gx, unsigned *gy)
{
    size_t blocks = (n + block - 1) / block;
    if (blocks == 0)
        blocks = 1;
    if (blocks > (size_t)grid_max * grid_max)
        return 0;
    *gx = blocks < grid_max ? (unsigned)blocks : grid_max;
    *gy = (unsigned)((blocks + *gx - 1) / *gx);
    return 1;
}

#endif
