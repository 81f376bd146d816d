// Calls every function family of core/kernels/ from an OpenCL kernel, so that the shared physics
// headers are checked to compile as OpenCL C 1.2 (and, with the CUDA wrapper, as CUDA C). Compiled
// by tests/check_kernels_portable.sh; never run.
#include "body_flags.h"
#include "bounds.h"
#include "collide.h"
#include "constraint_graph.h"
#include "constraint_prepare.h"
#include "contact_apply.h"
#include "contact_manifold.h"
#include "contact_sequential.h"
#include "contact_persistence.h"
#include "contact_solver.h"
#include "contact_soft.h"
#include "contact_solver_split.h"
#include "integrate.h"
#include "joint.h"
#include "manifold_reuse.h"
#include "mass_properties.h"
#include "narrow_phase.h"
#include "pair.h"
#include "raycast.h"
#include "shock_levels.h"
#include "rest_timer.h"
#include "time_of_impact.h"
__kernel void k(__global rb_float4 *a, __global rb_manifold *out) {
  int i = get_global_id(0);
  rb_geom ga = rb_geom_make(i & 3, rb_xform_make(rb_xyz(a[2*i]), a[2*i+1]), a[2*i+2]);
  rb_geom gb = rb_geom_make((i >> 2) & 3, rb_xform_make(rb_xyz(a[2*i+3]), a[2*i+4]), a[2*i+5]);
  rb_manifold m; rb_collide(&ga, &gb, 0.02f, &m); out[i] = m;
  rb_float3 v = rb_xyz(a[0]), w = rb_xyz(a[1]);
  rb_integrate_velocity(&v, &w, rb_f3(0,-9.81f,0), 1.0f, rb_mat3_diag(rb_f3(1,1,1)), rb_mat3_diag(rb_f3(1,2,3)), a[3], v, w, a[4], 0.016f);
  rb_contact_constraint c; rb_contact_point pts[4]; rb_contact_warm warm[4];
  for (int j = 0; j < 4; ++j) { warm[j].friction = v; warm[j].normal = 0.0f; warm[j].carried_impact = 0.0f; }
  rb_solver_body sba; sba.p = v; sba.q = a[5]; sba.v = v; sba.w = w; sba.inv_mass = 1.0f; sba.inv_inertia = rb_mat3_zero(); sba.is_static = 0;
  rb_contact_material mat; mat.friction = 0.6f; mat.static_friction = 0.8f; mat.restitution = 0.0f;
  rb_contact_prepare(&c, pts, &m, mat, 0.0005f, warm, &sba, &sba);
  rb_soft_settings sst; sst.inv_h = 240.0f; sst.max_push = 3.0f; sst.slop = 0.0f;
  sst.soft = rb_make_softness(30.0f, 10.0f, 1.0f / 240.0f, 0.0f); sst.soft_static = sst.soft;
  rb_contact_solve_soft(&c, pts, &sst, 1, v, a[5], w, a[6], &v, &w, &v, &w);
  rb_solve_settings st; st.inv_h = 60.0f; st.bias_factor = 0.2f; st.slop = 0.0005f; st.max_push = 3.0f;
  rb_contact_solve(&c, pts, st, &v, &w, &v, &w); rb_contact_solve_position(&c, pts, st, &v, &w, &v, &w);
  rb_contact_restitution(&c, pts, 1.0f, 0.0005f, &v, &w, &v, &w);
  a[i] = rb_f4_from3(v, rb_contact_impact_speed(&pts[0], 60.0f, 0.0005f));
  rb_seq_contact q; rb_seq_body sa, sb;
  sa.v = v; sa.w = w; sa.inv_mass = 1.0f; sa.inv_inertia = rb_mat3_diag(rb_f3(1,1,1)); sb = sa;
  q.point = v; q.normal = rb_f3(0,1,0); q.cor = 0.5f; q.mu_s = 0.6f; q.mu_k = 0.4f; q.allowed = 0.0f;
  q.bounce = 0.0f; q.stopped = 0.0f; q.normal_impulse = 0.0f; q.friction1 = q.friction2 = 0.0f; q.impulse = v;
  q.sliding = 0; q.slide_mu = 0.0f; q.slip = 0.0f; q.target = 0.0f;
  q.patch = -1; q.patch_first = q.patch_count = 0; q.radius = 0.01f; q.twist = 0.0f; q.spin = 0.0f; q.slip_t = v;
  rb_seq_prepare(&q, v, w, &sa, &sb);
  q.closing = rb_seq_closing(&q, &sa, &sb);
  float size; int act = rb_seq_action(&q, 0.001f, &size);
  rb_float3 imp = rb_seq_resolve(&q, 0.05f, &sa, &sb); rb_seq_pull_back(&q, &sa, &sb);
  rb_float3 d = rb_seq_push_along_normal(q.normal, -0.01f, act), d2 = d, d3 = d;
  int ok = rb_seq_push_back(q.normal, -0.01f, 1, v, &d2) + rb_seq_push_up(q.normal, -0.01f, 0, rb_f3(0,1,0), &d3) +
           rb_seq_pushes(d, q.normal, 0.001f, &d2);
  rb_seq_resolve_twist(&q, &sa, &sb);
  rb_mat3 pm = rb_seq_patch_matrix(&q, &sa, &sb);
  int pact = rb_seq_patch_action(&q, 0.001f, &size);
  rb_float3 pimp = rb_add(rb_seq_patch_resolve(&q, &sa, &sb), rb_add(rb_seq_patch_slip(&q), pm.r0));
  a[i + 1] = rb_f4_from3(rb_add(rb_add(imp, pimp), rb_add(d2, d3)), size + (float)(ok + pact) + rb_seq_violation(&q, 0.001f));
  float frac; rb_float3 hn; int hit = rb_ray_geom(&ga, v, w, &frac, &hn);
  a[i + 2] = rb_f4_from3(hn, rb_rest_timer(hit ? frac : -1.0f, &a[i + 3].w, 1, v, w, 0.5f, 0.05f, 0.03f, 0.016f));
}

// Convex shapes: every pair type with a pooled geometry (hull views into the global hull pool; rb_collide
// reaches every convex pair routine), the convex ray cast, closest point and support.
__kernel void convex(__global const rb_float4 *pool, __global rb_float4 *a, __global rb_manifold *out) {
  int i = get_global_id(0);
  rb_geom ga = rb_geom_make_pooled(i % 5, rb_xform_make(rb_xyz(a[2*i]), a[2*i+1]), a[2*i+2], pool);
  rb_geom gb = rb_geom_make_pooled((i / 5) % 5, rb_xform_make(rb_xyz(a[2*i+3]), a[2*i+4]), a[2*i+5], pool);
  rb_manifold m; rb_collide(&ga, &gb, 0.02f, &m); out[i] = m;
  float frac; rb_float3 hn;
  int hit = rb_ray_geom(&gb, rb_xyz(a[0]), rb_xyz(a[1]), &frac, &hn);
  rb_float3 q, n; int feature;
  float d = rb_cx_point_hull(gb.hull, rb_xyz(a[2]), &q, &n, &feature);
  a[i] = rb_f4_from3(hn, frac + d + (float)(hit + feature) + rb_convex_support(&gb, n) + rb_geom_round_radius(&gb));
}

// The constraint graph's glue: global arrays through RB_GLOBAL parameters.
__kernel void graph(__global rb_constraint_edge *e, __global unsigned int *flags, __global rb_color_bits *used,
                    __global int *ints, __global rb_float4 *f4, __global rb_mat3 *m3, __global rb_manifold *mm,
                    __global rb_contact_constraint *cons, __global rb_contact_point *gp) {
  int n = get_global_id(0);
  int colors = rb_color_edges(n, e, flags, used, ints, ints + n, ints + 2 * n);
  int woken = rb_edge_wakes(e[0], flags) + rb_sleep_group_of(ints, 0);
  rb_unite_islands(n, e, flags, ints); rb_unite_batches(n, e, flags, ints);
  rb_edge_body_lists(n, e, ints, n, flags, ints, ints + n);
  float share = rb_split_share(ints, flags, 0);
  e[0] = rb_contact_edge(woken, colors, (int)share, rb_find_root(ints, 0));
  rb_contact_constraint k; rb_contact_point pts[4]; rb_contact_warm warm[4]; rb_manifold m = mm[0];
  for (int j = 0; j < 4; ++j) { warm[j].friction = rb_xyz(f4[j]); warm[j].normal = 0.0f; warm[j].carried_impact = 0.0f; }
  rb_contact_material mat; mat.friction = 0.6f; mat.static_friction = 0.8f; mat.restitution = 0.0f;
  k.first_point = 0;
  rb_prepare_contact_rows(&k, pts, &m, mat, warm, 0.0005f, 0, 1, flags, f4, f4, f4, f4, f4, m3);
  cons[0] = k;
  rb_shock_arrays sh; sh.level = ints; sh.carry_start = ints + n; sh.carry = ints + 2 * n; sh.order = ints + 3 * n;
  sh.level_start = ints + 4 * n; sh.support_start = ints + 5 * n; sh.supports = ints + 6 * n; sh.answer = ints + 7 * n;
  rb_shock_answer(0, cons, gp, rb_f3(0, 1, 0), sh.answer);
  int bodies, levels = rb_shock_levels_from_answers(n, n, sh, &bodies);
  rb_solve_settings st; st.inv_h = 60.0f; st.bias_factor = 0.2f; st.slop = 0.0005f; st.max_push = 3.0f;
  rb_shock_body(levels, bodies & 1, st, ints, ints + n, cons, gp, flags, f4, f4 + n);
}

// The per-element glue, which reads and writes the scene's arrays in global memory.
__kernel void glue(__global int *ints, __global unsigned int *flags, __global rb_float4 *f4, __global rb_xform *xf,
                   __global rb_mat3 *m3, __global rb_pair *pairs, __global rb_contact_manifold *cm,
                   __global rb_contact_constraint *cons, __global rb_contact_point *cpts,
                   __global rb_manifold_ref *refs) {
  int i = get_global_id(0);
  m3[i] = rb_world_inv_inertia(flags[i], f4[0], f4[1], f4[2]);
  rb_shape_update_bounds(i, 0.01f, 0.016f, ints, ints, f4, f4, f4, f4, flags, f4, f4, f4, f4, f4, xf, f4, f4, f4);
  pairs[i] = rb_pair_make(ints[i], ints[i + 1]);
  ints[i] = rb_shapes_may_pair(i, i + 1, ints, flags, flags, 1) + rb_aabb_overlap(f4[0], f4[1], f4[2], f4[3]) +
            rb_aabb_reaches_plane(f4[0], f4[1], f4[2]) + rb_pair_less(1, 2, 3, 4) + rb_integrates_velocity(flags[i]) +
            rb_integrates_position(flags[i]) + (int)rb_frozen_flags(flags[i]) + rb_takes_impulses(flags, i) +
            rb_shape_in_broad_phase(i, ints, flags);
  rb_contact_manifold m;
  ints[i + 1] = rb_narrow_phase_pair(&m, ints[0], ints[1], 0.01f, 0.016f, ints, ints, xf, f4, f4, f4, f4, flags, f4, f4, f4,
                                     rb_find_manifold(cm, 4, 1, 2) >= 0 ? &cm[0] : 0);
  cm[i] = m;
  rb_manifold_ref ref;
  ints[i + 2] = rb_narrow_phase_pair_reusing(&m, &ref, ints[0], ints[1], 0.01f, 0.016f, ints, ints, xf, f4, f4, f4, f4,
                                             flags, f4, f4, f4, &cm[1], &refs[1]);
  refs[i] = ref;
  rb_contact_constraint k = cons[i];
  rb_contact_point pts[4];
  for (int p = 0; p < 4; ++p) pts[p] = cpts[p];
  rb_solve_settings st; st.inv_h = 60.0f; st.bias_factor = 0.2f; st.slop = 0.0005f; st.max_push = 3.0f;
  rb_contact_apply_to_bodies(RB_OP_SOLVE, &k, pts, st, 1.0f, flags, f4, f4);
  rb_contact_store_impulses(&cm[i], cpts, k.count, 60.0f, 0.0005f);
  rb_float3 v = rb_load_vel(f4, i), w = v, p3 = v; rb_float4 q = f4[i];
  ints[i + 2] = rb_body_integrate_velocity(&v, &w, v, 1.0f, m3[i], f4[0], f4[1], q, v, w, f4[2], 0.016f) +
                rb_body_integrate_position(&p3, &q, v, w, v, w, 0.016f);
  rb_store_vel(f4, f4, flags, i, v, w);
  xf[i] = rb_body_origin(f4[0], q, f4[1]);
  // continuous collision: one sweep of shape 0 against shape 1
  rb_sweep sw0 = rb_sweep_make(f4[0], f4[1], f4[2], f4[3], f4[4]), sw1 = rb_sweep_make(f4[4], f4[3], f4[2], f4[1], f4[0]);
  rb_toi_shape ta = rb_toi_shape_make(ints[0], f4[0], f4[1], f4[2], f4[3]), tb = rb_toi_core(&ta, 0.01f);
  int toi_state = 0;
  f4[i].w = rb_time_of_impact(&ta, &sw0, &tb, &sw1, 0.001f, 0.0001f, 1.0f, &toi_state) +
            rb_toi_center_clearance(&ta, &sw0, &tb, &sw1) + (float)(toi_state + rb_is_swept_bullet(flags[i]) +
                                                                  rb_is_sweep_target(i, ints, flags));
}

// The joints' rows through the per-joint glue (global joint, global body arrays), and on a private
// copy directly.
__kernel void joints(__global rb_joint *js, __global unsigned int *flags, __global rb_float4 *f4,
                     __global rb_joint_key *keys, __global rb_joint_kept *kept) {
  int i = get_global_id(0);
  rb_joint_settings st = rb_joint_settings_make(1.0f / 240.0f, 240.0f, 60.0f, 2.0f, 0.2f, 3.0f, i % 3);
  rb_joint_args ja = rb_joint_args_of(st, i & 1);
  rb_joint_settings st2 = rb_joint_settings_of(ja);
  rb_joint_op(&js[i], RB_JOINT_OP_WARM, &st2, flags, f4, f4 + 1, f4 + 2, f4 + 3, f4 + 4, f4 + 5, 0, 0, &kept[i], 1);
  rb_joint_op(&js[i], RB_JOINT_OP_SOLVE, &st2, flags, f4, f4 + 1, f4 + 2, f4 + 3, f4 + 4, f4 + 5, f4 + 6, f4 + 7,
              &kept[i], 0);
  int broke = rb_joint_finish(&js[i], 240.0f, flags, f4, f4 + 1, f4 + 2, f4 + 3, f4 + 4, f4 + 5);
  rb_joint j = js[i];
  rb_joint_body a = rb_joint_load_body(j.body_a, flags, f4, f4 + 1, f4 + 2, f4 + 3, f4 + 4, f4 + 5);
  rb_joint_body b = rb_joint_load_body(j.body_b, flags, f4, f4 + 1, f4 + 2, f4 + 3, f4 + 4, f4 + 5);
  rb_joint_geometry g = rb_joint_geometry_of(&j, &a, &b);
  int apart = rb_joined_no_collide(keys, i, j.body_a, j.body_b);
  f4[i] = rb_f4(rb_joint_hinge_angle(&g), rb_joint_twist(&g), rb_angle_between(g.xa, g.xb), (float)(broke + apart));
}
