// Calls every function family of core/kernels/ from an OpenCL kernel, so that the shared physics
// headers are checked to compile as OpenCL C 1.2 (and, with the CUDA wrapper, as CUDA C). Compiled
// by tests/check_kernels_portable.sh; never run.
#include "collide.h"
#include "contact_persistence.h"
#include "contact_solver.h"
#include "contact_solver_split.h"
#include "integrate.h"
#include "mass_properties.h"
__kernel void k(__global rb_float4 *a, __global rb_manifold *out) {
  int i = get_global_id(0);
  rb_geom ga = rb_geom_make(i & 3, rb_xform_make(rb_xyz(a[2*i]), a[2*i+1]), a[2*i+2]);
  rb_geom gb = rb_geom_make((i >> 2) & 3, rb_xform_make(rb_xyz(a[2*i+3]), a[2*i+4]), a[2*i+5]);
  rb_manifold m; rb_collide(&ga, &gb, 0.02f, &m); out[i] = m;
  rb_float3 v = rb_xyz(a[0]), w = rb_xyz(a[1]);
  rb_integrate_velocity(&v, &w, rb_f3(0,-9.81f,0), 1.0f, rb_mat3_diag(rb_f3(1,1,1)), rb_mat3_diag(rb_f3(1,2,3)), a[3], v, w, a[4], 0.016f);
  rb_contact_constraint c; rb_contact_point pts[4]; rb_contact_warm warm[4];
  for (int j = 0; j < 4; ++j) { warm[j].friction = v; warm[j].normal = 0.0f; warm[j].carried_impact = 0.0f; }
  rb_contact_prepare(&c, pts, &m, 0.6f, 0.0f, 0.0005f, warm, v, v, w, 1.0f, rb_mat3_zero(), w, v, w, 1.0f, rb_mat3_zero());
  rb_solve_settings st; st.inv_h = 60.0f; st.bias_factor = 0.2f; st.slop = 0.0005f; st.max_push = 3.0f;
  rb_contact_solve(&c, pts, st, &v, &w, &v, &w); rb_contact_solve_position(&c, pts, st, &v, &w, &v, &w);
  rb_contact_restitution(&c, pts, 1.0f, 0.0005f, &v, &w, &v, &w);
  a[i] = rb_f4_from3(v, rb_contact_impact_speed(&pts[0], 60.0f, 0.0005f));
}
