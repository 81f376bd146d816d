// The GPU pipeline shared by the OpenCL and CUDA backends: the device copy of the scene, the per-step
// arrays, the kernel launches of every phase (gpu_pipeline.c) and the backend entry points around them
// (gpu_backend.c). What differs between the two APIs (memory, copies, launches, the program) is a
// small table of device operations (rb_gpu_device_ops) that each backend provides.
#ifndef RB_GPU_CONTEXT_H
#define RB_GPU_CONTEXT_H

#include "backend.h"
#include "kernels/constraint_graph.h"
#include "kernels/contact_apply.h"
#include "kernels/contact_solver.h"
#include "kernels/joint.h"
#include "kernels/manifold_reuse.h"
#include "kernels/device_counters.h"

#define RB_GPU_MAX_COLORS 64
#define RB_GPU_SCAN_LEVELS 6
#define RB_GPU_MAX_ARGS 24
#define RB_GPU_MAX_ARG_BYTES 32

// Kernels of the program, in the order of rb_gpu_kernel_names (gpu_backend.c).
enum {
    K_LAYOUT, K_SCAN_CHUNKS, K_SCAN_SERIAL, K_SCAN_ADD, K_SORT_HIST, K_SORT_SCATTER, K_SORT_SERIAL,
    K_BODY_INERTIA, K_SHAPE_BOUNDS,
    K_BP_CLASSIFY, K_BP_FILL, K_BP_GATHER_ENTRIES, K_BP_GRID_PAIRS, K_BP_SPECIAL_PAIRS, K_COMPACT_INDICES, K_PAIR_KEYS, K_PAIR_GATHER,
    K_COLLIDE, K_COMPACT_MANIFOLDS, K_MANIFOLDS_UNTOUCHED,
    K_FILL_EDGES, K_MARK_SLEEPERS, K_WAKE_GROUPS, K_PREPARE,
    K_SOLVE_COLOR, K_SOLVE_SERIAL, K_STORE_IMPULSES, K_SPLIT_LISTS, K_SPLIT_PREPARE, K_SPLIT_BLOCKS, K_SPLIT_GATHER,
    K_SHOCK_ANSWERS, K_SHOCK_LEVEL,
    K_INTEGRATE_VELOCITIES, K_ZERO_PSEUDO, K_INTEGRATE_POSITIONS, K_SLEEP_TIMERS, K_ISLANDS,
    K_BULLET_SWEEPS,
    K_JOINTS_COLOR, K_JOINTS_SERIAL, K_JOINTS_FINISH,
    K_COUNT
};
extern const char *const rb_gpu_kernel_names[K_COUNT];

// A device buffer that grows (contents are not kept when it does). `mem` is the API's handle: a cl_mem,
// or a CUdeviceptr in a pointer.
typedef struct rb_gpu_buf {
    void *mem;
    size_t bytes;
} rb_gpu_buf;

// One kernel argument: its bytes. A buffer argument is its handle (rb_gpu_buf.mem, or NULL).
typedef struct rb_gpu_arg {
    size_t size;
    unsigned char value[RB_GPU_MAX_ARG_BYTES];
} rb_gpu_arg;

typedef struct rb_gpu_ctx rb_gpu_ctx;

// What a device API provides. Each call returns RB_OK, or records what failed (rb_gpu_fail) and returns
// the status. Writes may complete later: their source must stay valid until the next finish. Reads
// return when the data is on the host. Launches run in order, each after the previous one.
typedef struct rb_gpu_device_ops {
    const char *api;              // "OpenCL", "CUDA": for messages
    const char *memory_limit_var; // the environment variable that caps device memory (tests of OOM)
    rb_status (*alloc)(rb_gpu_ctx *c, void **mem, size_t bytes, const char *what);
    void (*release)(rb_gpu_ctx *c, void *mem);
    rb_status (*write)(rb_gpu_ctx *c, void *mem, size_t offset, size_t bytes, const void *src, const char *what);
    rb_status (*read)(rb_gpu_ctx *c, void *mem, size_t offset, size_t bytes, void *dst, const char *what);
    rb_status (*copy)(rb_gpu_ctx *c, void *src, size_t src_offset, void *dst, size_t dst_offset, size_t bytes,
                      const char *what);
    rb_status (*fill_zero)(rb_gpu_ctx *c, void *mem, size_t offset, size_t bytes, const char *what);
    // Runs `kernel` over n work-items (n > 0; the kernels check bounds).
    rb_status (*launch)(rb_gpu_ctx *c, int kernel, size_t n, int nargs, const rb_gpu_arg *args, const char *what);
    rb_status (*finish)(rb_gpu_ctx *c, const char *what);
    void (*destroy)(rb_gpu_ctx *c); // the device state, after every buffer is released
} rb_gpu_device_ops;

struct rb_gpu_ctx {
    rb_scene *scene;
    const rb_gpu_device_ops *dev;
    void *dev_state;      // the device API's own state (queue, context, module, kernels)
    int profile;          // time every launch, print a table at destroy (RUBBLE_OPENCL_PROFILE, RUBBLE_CUDA_PROFILE)
    double kernel_ms[K_COUNT];
    long kernel_launches[K_COUNT];
    char device[384];
    char error[1024];     // what went wrong, for the world's error message
    size_t mem_used, mem_limit; // bytes of device buffers; limit from dev->memory_limit_var (0 = none)
    int full_upload;      // the device copy must be sent whole (first step)
    int serial_max;       // the most elements a scan or sort leaves to one work-item (gpu_pipeline.c); 0: a chunk's

    // scene copy: body and shape arrays (names as in core/scene.h)
    int body_cap, shape_cap;
    rb_gpu_buf pos, rot, lin, ang, force, torque, local_center, inertia_diag, inertia_off, inv_diag, inv_off, params,
        flags, sleep_group;
    rb_gpu_buf shape_body, shape_type, shape_lpos, shape_lrot, shape_params, material, filter;
    // the scene's hull pool (core/kernels/hull.h), sent whole when it changes (RB_DIRTY_HULLS); at least
    // one rb_float4, so that the kernels get a valid pointer in a world without hulls
    rb_gpu_buf hull_pool;
    float inv_cell;       // broad-phase grid: 1 / cell size

    // per body
    rb_gpu_buf inv_inertia_world, plin, pang, frozen, awake, wake_group, parent, rest, rest_low;
    rb_gpu_buf body_start;
    rb_gpu_buf start_pos, start_rot; // poses at the start of the step, for a body that is frozen
    // per shape
    rb_gpu_buf shape_world, aabb_lo, aabb_hi, plane_world, role, cell_lo, cell_hi, cell_count, entry_start,
        special_flag, special_off, special_list, special_count, special_at, special_pairs;
    // grid entries and sorting
    rb_gpu_buf keys, vals, keys2, vals2, entry, sorted_entry, entry_count, entry_at, hist;
    rb_gpu_buf scan_sums[RB_GPU_SCAN_LEVELS];
    // pairs, manifolds, constraints
    rb_gpu_buf pairs_raw, pairs, scratch, has, npoints, moff, manifolds, cache, cons, points, color_order,
        first_point, split_list, delta;
    rb_gpu_buf edges; // the constraint graph: one edge per manifold, in manifold order (rb_fill_edges)
    // the reference pose of each manifold (core/kernels/manifold_reuse.h), as on the CPU: refs beside
    // manifolds, cache_refs beside cache, pair_refs beside scratch
    rb_gpu_buf refs, cache_refs, pair_refs;
    // shock propagation (kernels/device_shock.h): per body and per constraint, as rb_shock_arrays
    rb_gpu_buf shock_support_start, shock_supports, shock_answer;
    rb_gpu_buf counters;
    // joints (kernels/device_joints.h): the scene's joints, the live ones' slots in colour order, their
    // edges (waking, islands) and the sorted keys of joined bodies that do not collide
    rb_gpu_buf joints, joint_order, joint_edges, nocollide;
    // per joint in colour order: its geometry at the solve's poses, from the warm start (rb_joint_kept)
    rb_gpu_buf joint_kept;

    int pair_count, manifold_count, point_count, cache_count;
    int color_count, any_restitution, awake_bodies;
    int color_start_host[RB_GPU_MAX_COLORS + 2];
    // the colouring runs on the host (gpu_pipeline.c color_on_host): its inputs and outputs there
    rb_constraint_edge *edges_host;
    uint32_t *flags_host;
    rb_color_bits *color_mask_host;
    int *edge_color_host, *color_order_host, *first_point_host;
    int edges_host_cap, bodies_host_cap;
    int shock_levels;                 // levels of this step (0: no shock pass)
    const int *shock_level_start_host; // shock_levels + 1 entries, in shock_host
    int *shock_host; // the levels' arrays on the host (shock_levels_on_host), shock_host_cap ints
    size_t shock_host_cap;
    int counters_host[RB_CNT_COUNT];
    // joints on the host: rebuilt when the scene's joint_version changes (rb_gpu_sync_joints)
    int joint_edge_count, joint_color_count, nocollide_count, joints_synced, joint_slots_synced;
    uint32_t joint_version_seen;
    int joint_color_start_host[RB_GPU_MAX_COLORS + 2];
    rb_constraint_edge *joint_edges_host;
    int *joint_edge_color_host, *joint_order_host;
    rb_joint_key *nocollide_host;
    int joint_host_cap;

    // host copies for get_pairs / get_manifolds, valid until the next step
    rb_pair *pairs_host;
    int pairs_host_cap, pairs_host_valid;
    rb_contact_manifold *manifolds_host;
    int manifolds_host_cap, manifolds_host_valid;
};

// Records a failure (first one wins until the next step) and returns status.
rb_status rb_gpu_fail(rb_gpu_ctx *c, rb_status status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
// Makes `b` hold at least `bytes` (growing geometrically; contents are lost on growth).
rb_status rb_gpu_reserve(rb_gpu_ctx *c, rb_gpu_buf *b, size_t bytes, const char *what);
rb_status rb_gpu_read_counters(rb_gpu_ctx *c);

// Backend creation, after the device layer has set c->dev, c->dev_state and c->device: reads the
// memory limit, makes the fixed buffers and checks that the device compiler lays out the shared
// structs as the host does. On failure msg says why; the caller then calls rb_gpu_destroy.
rb_status rb_gpu_start(rb_gpu_ctx *c, char *msg, size_t msg_size);
// An on/off environment variable (unset, empty, "0" or "1"): 0 with a message in msg for anything else.
int rb_gpu_env_flag(const char *var, int *out, char *msg, size_t msg_size);
// The module's backend ops: the kernel set and entry points every GPU backend shares, with its own
// name, create and probe (what rb_backend_module_ops returns).
typedef rb_status (*rb_backend_create_fn)(rb_scene *scene, const rb_backend_config *cfg, rb_backend_ctx **out,
                                          char *msg, size_t msg_size);
typedef rb_status (*rb_backend_probe_fn)(char *device, size_t device_size, char *msg, size_t msg_size);
const rb_backend_ops *rb_gpu_module_ops(const char *name, rb_backend_create_fn create, rb_backend_probe_fn probe);

// The kernels (gpu_pipeline.c).
rb_status rb_gpu_update_bounds(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_gpu_find_pairs(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_gpu_collide(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_gpu_build_batches(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_gpu_integrate_velocities(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_gpu_solve_constraints(rb_backend_ctx *ctx, const rb_step_params *p);
// Does solve_constraints have a table for this solver (gpu_pipeline.c)?
int rb_gpu_has_solver(int solver);
rb_status rb_gpu_integrate_positions(rb_backend_ctx *ctx, const rb_step_params *p);
rb_status rb_gpu_update_sleep(rb_backend_ctx *ctx, const rb_step_params *p);
// The bullets' sweeps after the step (gpu_continuous.c).
rb_status rb_gpu_solve_continuous(rb_backend_ctx *ctx, const rb_step_params *p);
int rb_gpu_frozen_in_last_step(rb_backend_ctx *ctx);
// Drops the manifolds that touch shape slots [lo, hi) (changed by the application).
rb_status rb_gpu_drop_manifolds(rb_gpu_ctx *c, int lo, int hi);
// Sends the scene's joints to the device and rebuilds their edges, colours and the no-collide keys
// (gpu_pipeline.c); after the application changed joints, or a joint broke.
rb_status rb_gpu_sync_joints(rb_gpu_ctx *c);
void rb_gpu_destroy(rb_backend_ctx *ctx);

#endif
