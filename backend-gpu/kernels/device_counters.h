// Constants shared by the kernels and the host code: the slots of the small `counters` buffer (totals
// and flags the kernels produce and the host reads back, one read of RB_CNT_COUNT ints) and the chunk
// sizes of the scan and sort kernels.
#ifndef RB_DEVICE_COUNTERS_H
#define RB_DEVICE_COUNTERS_H

#define RB_CNT_WAKE 0           // some sleeping group was touched (build_batches)
#define RB_CNT_JOINT_BROKE 1    // some joint broke this step (the host reads the joints back)
#define RB_CNT_RESTITUTION 2    // some manifold bounces
#define RB_CNT_SLEPT 3          // bodies that fell asleep this step
#define RB_CNT_AWAKE 4          // bodies that took part in islands this step
#define RB_CNT_ENTRIES 5        // broad-phase grid entries
#define RB_CNT_SPECIAL 6        // large shapes and planes
#define RB_CNT_GRID_PAIRS 7
#define RB_CNT_SPECIAL_PAIRS 8
#define RB_CNT_MANIFOLDS 9
#define RB_CNT_POINTS 10
#define RB_CNT_FROZEN 11        // bodies frozen in this substep
#define RB_CNT_KEEP 12          // manifolds kept after shapes changed
#define RB_CNT_SCRATCH 13       // a total nobody reads
#define RB_CNT_UNUSED_14 14     // free (was the shock levels' count; the host builds them now)
#define RB_CNT_COUNT 16

// Elements per work-item of the scans and of the radix sort's histogram and scatter kernels.
#define RB_SCAN_CHUNK 256
#define RB_SORT_BLOCK 256

#endif
