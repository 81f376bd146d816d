// State of the OpenCL backend between kernel calls: the device copy of the scene, the per-step
// arrays, and the few totals read back to size the next launches.
#ifndef RB_OPENCL_CONTEXT_H
#define RB_OPENCL_CONTEXT_H

#include "backend.h"
#include "kernels/contact_solver.h"
#include "kernels/counters.h"
#include "opencl_device.h"

#define RB_OCL_MAX_COLORS 64
#define RB_OCL_SCAN_LEVELS 6

// Kernels of the program, in the order of k_kernel_names (opencl_backend.c).
enum {
    K_LAYOUT, K_SCAN_CHUNKS, K_SCAN_SERIAL, K_SCAN_ADD, K_SORT_HIST, K_SORT_SCATTER,
    K_BODY_INERTIA, K_SHAPE_BOUNDS,
    K_BP_CLASSIFY, K_BP_FILL, K_BP_GATHER_ENTRIES, K_BP_GRID_PAIRS, K_BP_SPECIAL_PAIRS, K_COMPACT_INDICES, K_PAIR_KEYS, K_PAIR_GATHER,
    K_COLLIDE, K_COMPACT_MANIFOLDS, K_MANIFOLDS_UNTOUCHED,
    K_MARK_SLEEPERS, K_WAKE_GROUPS, K_COLOR, K_PREPARE,
    K_SOLVE_COLOR, K_SOLVE_SERIAL, K_STORE_IMPULSES, K_SPLIT_LISTS, K_SPLIT_PREPARE, K_SPLIT_BLOCKS, K_SPLIT_GATHER,
    K_INTEGRATE_VELOCITIES, K_ZERO_PSEUDO, K_INTEGRATE_POSITIONS, K_SLEEP_TIMERS, K_ISLANDS,
    K_COUNT
};

// A device buffer that grows (contents are not kept when it does).
typedef struct rb_ocl_buf {
    cl_mem mem;
    size_t bytes;
} rb_ocl_buf;

typedef struct rb_ocl_ctx {
    rb_scene *scene;
    cl_device_id dev;
    rb_ocl_program *shared;
    cl_context cl;
    cl_program prog;
    cl_command_queue q;
    cl_kernel k[K_COUNT];
    size_t local_size;    // work-group size of every launch: 64, or less where a kernel allows less
    int profile;          // RUBBLE_OPENCL_PROFILE=1: time every launch, print a table at destroy
    double kernel_ms[K_COUNT];
    long kernel_launches[K_COUNT];
    char device[384];
    char error[1024];     // what went wrong, for the world's error message
    size_t mem_used, mem_limit; // bytes of device buffers; limit from RUBBLE_OPENCL_MEMORY_LIMIT (0 = none)
    int full_upload;      // the device copy must be sent whole (first step)

    // scene copy: body and shape arrays (names as in core/scene.h)
    int body_cap, shape_cap;
    rb_ocl_buf pos, rot, lin, ang, force, torque, local_center, inertia_diag, inertia_off, inv_diag, inv_off, params,
        flags, sleep_group;
    rb_ocl_buf shape_body, shape_type, shape_lpos, shape_lrot, shape_params, material, filter;
    float inv_cell;       // broad-phase grid: 1 / cell size

    // per body
    rb_ocl_buf inv_inertia_world, plin, pang, frozen, awake, color_mask, wake_group, parent, rest, body_start;
    // per shape
    rb_ocl_buf shape_world, aabb_lo, aabb_hi, plane_world, role, cell_lo, cell_hi, cell_count, entry_start,
        special_flag, special_off, special_list, special_count, special_at, special_pairs;
    // grid entries and sorting
    rb_ocl_buf keys, vals, keys2, vals2, entry, sorted_entry, entry_count, entry_at, hist;
    rb_ocl_buf scan_sums[RB_OCL_SCAN_LEVELS];
    // pairs, manifolds, constraints
    rb_ocl_buf pairs_raw, pairs, scratch, has, npoints, moff, manifolds, cache, cons, points, color_order,
        constraint_color, first_point, color_start, split_list, delta;
    rb_ocl_buf counters;

    int pair_count, manifold_count, point_count, cache_count;
    int color_count, any_restitution, awake_bodies, frozen_last_step;
    int color_start_host[RB_OCL_MAX_COLORS + 2];
    int counters_host[RB_CNT_COUNT];

    // host copies for get_pairs / get_manifolds, valid until the next step
    rb_pair *pairs_host;
    int pairs_host_cap, pairs_host_valid;
    rb_contact_manifold *manifolds_host;
    int manifolds_host_cap, manifolds_host_valid;
} rb_ocl_ctx;

// Records a failure (first one wins until the next step) and returns status.
rb_status rb_ocl_fail(rb_ocl_ctx *c, rb_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
// Checks an OpenCL result: on error records "what: CL_ERROR" and returns the status it maps to.
rb_status rb_ocl_check(rb_ocl_ctx *c, cl_int err, const char *what);
// Makes `b` hold at least `bytes` (growing geometrically; contents are lost on growth).
rb_status rb_ocl_reserve(rb_ocl_ctx *c, rb_ocl_buf *b, size_t bytes, const char *what);
rb_status rb_ocl_read_counters(rb_ocl_ctx *c);
// Names of the kernels, indexed by K_*.
extern const char *const rb_ocl_kernel_names[K_COUNT];

// The kernels (opencl_pipeline.c).
rb_status rb_ocl_update_bounds(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_ocl_find_pairs(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_ocl_collide(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_ocl_build_batches(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_ocl_integrate_velocities(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_ocl_solve_contacts(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_ocl_integrate_positions(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_ocl_update_sleep(rb_backend_ctx *ctx, const rb_step_params *p);
int rb_ocl_frozen_in_last_step(rb_backend_ctx *ctx);
// Drops the manifolds that touch shape slots [lo, hi) (changed by the application).
rb_status rb_ocl_drop_manifolds(rb_ocl_ctx *c, int lo, int hi);

#endif
