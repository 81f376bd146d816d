// A body's mass, centre of mass and inertia from its shapes, or as the application sets them.
//
// The shapes' contributions are summed in double, in the order the shapes were added, and the sums are
// kept for the body that last gained a shape (world.h's rb_mass_sums): adding n shapes to a body one
// after another, as the scene loader and most applications do, costs O(n) in all. The bounding radius
// about the centre of mass needs a pass over the shapes, so while shapes are being added it is an upper
// bound, made exact once per body (rb_flush_body_bound) before a step reads it.
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/mass_properties.h"
#include "world.h"

// Upper triangle of a symmetric 3x3 matrix, in the order xx yy zz xy xz yz.
static const int TRI_A[6] = {0, 1, 2, 0, 0, 1};
static const int TRI_B[6] = {0, 1, 2, 1, 2, 2};

// A shape's own mass model: volume, centre and inertia per unit mass about that centre (tensor entries xx yy
// zz xy xz yz), in the shape's frame. The primitives are centred on their frame with its axes principal; a
// hull has its own centroid and a full tensor.
static void shape_model(const rb_world *w, int type, rb_float4 params, double *volume, double centre[3],
                        double inertia[6])
{
    if (type == RB_GEOM_CONVEX) {
        rb_hull_shape_mass(w, (int)w->scene.hull_pool[(int)params.y].w, params.x, volume, centre, inertia);
        return;
    }
    rb_float3 d = rb_geom_inertia(type, params, 1.0f);
    double model[6] = {d.x, d.y, d.z, 0.0, 0.0, 0.0};
    *volume = rb_geom_volume(type, params);
    centre[0] = centre[1] = centre[2] = 0.0;
    memcpy(inertia, model, sizeof model);
}

void rb_shape_mass_model(const rb_world *w, int type, rb_float4 params, double *volume, double centre[3],
                         double inertia[6])
{
    shape_model(w, type, params, volume, centre, inertia);
}

// Adds one shape of mass `mass` (model as shape_model gives it) at `pos`, turned by `rot`, to the mass,
// first moment and inertia about the body origin (double: a body with many shapes far from its centre
// would otherwise lose digits in the parallel-axis terms).
static void add_shape(double *m, double c[3], double i[6], const double centre[3], const double model[6],
                      rb_float3 pos, rb_float4 rot, double mass)
{
    if (mass <= 0.0)
        return;
    rb_mat3 r = rb_mat3_from_quat(rot);
    double rr[3][3] = {{r.r0.x, r.r0.y, r.r0.z}, {r.r1.x, r.r1.y, r.r1.z}, {r.r2.x, r.r2.y, r.r2.z}};
    double tensor[3][3] = {{model[0], model[3], model[4]}, {model[3], model[1], model[5]}, {model[4], model[5], model[2]}};
    double p[3];
    for (int a = 0; a < 3; ++a) // the shape's centre in the body frame
        p[a] = (a == 0 ? pos.x : (a == 1 ? pos.y : pos.z)) + rr[a][0] * centre[0] + rr[a][1] * centre[1] +
               rr[a][2] * centre[2];
    double p2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    for (int t = 0; t < 6; ++t) {
        int a = TRI_A[t], b = TRI_B[t];
        double rot_term = 0.0; // (R I R^T)_ab
        for (int k = 0; k < 3; ++k)
            for (int l = 0; l < 3; ++l)
                rot_term += rr[a][k] * tensor[k][l] * rr[b][l];
        double shift = (a == b ? p2 : 0.0) - p[a] * p[b]; // parallel axis to the body origin
        i[t] += mass * (rot_term + shift);
    }
    for (int a = 0; a < 3; ++a)
        c[a] += mass * p[a];
    *m += mass;
}

static void sums_add(rb_mass_sums *m, const rb_world *w, int sh)
{
    const rb_scene *sc = &w->scene;
    if (sc->shape_type[sh] == RB_GEOM_PLANE)
        return;
    ++m->finite_shapes;
    rb_float4 rot = sc->shape_local_rot[sh];
    rb_float3 pos = rb_xyz(sc->shape_local_pos[sh]);
    double v, centre[3], model[6];
    shape_model(w, sc->shape_type[sh], sc->shape_params[sh], &v, centre, model);
    add_shape(&m->mass, m->c, m->i, centre, model, pos, rot, v * sc->shape_material[sh].z);
    add_shape(&m->vol, m->vc, m->vi, centre, model, pos, rot, v);
}

// Sums over every shape of body b, oldest first (the list is newest first: it is turned around for the
// walk and back), so they equal the sums built one shape at a time.
static void sums_rebuild(rb_world *w, int b, rb_mass_sums *m)
{
    memset(m, 0, sizeof *m);
    int prev = -1;
    for (int sh = w->body_first_shape[b]; sh >= 0;) {
        int next = w->shape_next[sh];
        w->shape_next[sh] = prev;
        prev = sh;
        sh = next;
    }
    int head = -1;
    for (int sh = prev; sh >= 0;) {
        sums_add(m, w, sh);
        int next = w->shape_next[sh];
        w->shape_next[sh] = head;
        head = sh;
        sh = next;
    }
    w->body_first_shape[b] = head;
}

static void sums_key(const rb_world *w, int b, rb_mass_sums *m)
{
    m->body = b + 1;
    m->generation = w->body_ids.generation[b];
    m->head = w->body_first_shape[b];
    m->count = w->body_shape_count[b];
}

static float shape_bound(const rb_scene *sc, int sh, rb_float3 center)
{
    if (sc->shape_type[sh] == RB_GEOM_PLANE)
        return 0.0f;
    rb_float3 p = rb_sub(rb_xyz(sc->shape_local_pos[sh]), center);
    return rb_len(p) + rb_geom_bounding_radius(sc->shape_type[sh], sc->shape_params[sh]);
}

static float body_bound(const rb_world *w, int b, rb_float3 center)
{
    float bound = 0.0f;
    for (int sh = w->body_first_shape[b]; sh >= 0; sh = w->shape_next[sh])
        bound = rb_maxf(bound, shape_bound(&w->scene, sh, center));
    return bound;
}

void rb_flush_body_bound(rb_world *w)
{
    int b = w->bound_pending - 1;
    w->bound_pending = 0;
    rb_scene *sc = &w->scene;
    if (b < 0 || b >= sc->body_slots || !(sc->body_flags[b] & RB_BODY_ALIVE) ||
        w->body_ids.generation[b] != w->bound_pending_generation)
        return;
    sc->body_local_center[b].w = body_bound(w, b, rb_xyz(sc->body_local_center[b]));
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_PROPS);
}

// Writes mass, centre, inertia (and their inverses) into the scene, keeping the body origin fixed. With
// `added` >= 0 (the shape just added) the bounding radius is left pending, an upper bound until then.
static void store_mass(rb_world *w, int b, float mass, rb_float3 center, rb_float3 diag, rb_float3 offdiag, int added)
{
    rb_scene *sc = &w->scene;
    rb_mat3 inertia = rb_mat3_symmetric(diag, offdiag);
    rb_mat3 inv = mass > 0.0f ? rb_mat3_inverse(inertia) : rb_mat3_zero();
    rb_float4 old_center = sc->body_local_center[b];
    float bound;
    if (added >= 0) {
        // every old shape is within the old bound of the old centre, so within that plus the move of the
        // new one; the exact value follows once per body
        if (w->bound_pending != b + 1) {
            rb_flush_body_bound(w);
            w->bound_pending = b + 1;
            w->bound_pending_generation = w->body_ids.generation[b];
        }
        bound = rb_maxf(old_center.w + rb_len(rb_sub(center, rb_xyz(old_center))), shape_bound(sc, added, center));
    } else {
        if (w->bound_pending == b + 1)
            w->bound_pending = 0;
        bound = body_bound(w, b, center);
    }

    // keep the origin where it is: the centre of mass moves by R (c_new - c_old), and its velocity
    // picks up w x that offset
    rb_float4 q = sc->body_rot[b];
    rb_float3 shift = rb_rotate(q, rb_sub(center, rb_xyz(old_center)));
    sc->body_pos[b] = rb_f4_from3(rb_add(rb_xyz(sc->body_pos[b]), shift), 0.0f);
    rb_float3 v = rb_add(rb_xyz(sc->body_lin_vel[b]), rb_cross(rb_xyz(sc->body_ang_vel[b]), shift));
    if (rb_scene_body_type(sc, b) != RB_BODY_STATIC_T)
        sc->body_lin_vel[b] = rb_f4_from3(v, 0.0f);

    sc->body_local_center[b] = rb_f4_from3(center, bound);
    sc->body_inertia_diag[b] = rb_f4_from3(diag, mass);
    sc->body_inertia_offdiag[b] = rb_f4_from3(offdiag, 0.0f);
    sc->body_inv_inertia_diag[b] = rb_f4(inv.r0.x, inv.r1.y, inv.r2.z, mass > 0.0f ? 1.0f / mass : 0.0f);
    sc->body_inv_inertia_offdiag[b] = rb_f4(inv.r0.y, inv.r0.z, inv.r1.z, 0.0f);
    rb_scene_mark_body(sc, b, RB_DIRTY_BODY_STATE | RB_DIRTY_BODY_PROPS);
}

// Mass properties of body b from the sums `m` over its shapes; checks them, and unless check_only
// stores them (see store_mass for `added`).
static rb_status apply_sums(rb_world *w, int b, const rb_mass_sums *m, bool check_only, int added)
{
    rb_scene *sc = &w->scene;
    uint32_t type = rb_scene_body_type(sc, b);
    rb_float3 zero = rb_f3(0.0f, 0.0f, 0.0f);
    if (type != RB_BODY_DYNAMIC_T) {
        if (!check_only)
            store_mass(w, b, 0.0f, zero, zero, zero, added);
        return RB_OK;
    }
    if (sc->body_flags[b] & RB_BODY_FIXED_MASS) {
        // from what the application set, which a static or kinematic spell zeroed in the scene
        if (!check_only) {
            const rb_mass_data *d = &w->body_mass_data[b];
            store_mass(w, b, d->mass, rb_f3(d->center.x, d->center.y, d->center.z),
                       rb_f3(d->inertia.x, d->inertia.y, d->inertia.z),
                       rb_f3(d->inertia_products.x, d->inertia_products.y, d->inertia_products.z), added);
        }
        return RB_OK;
    }

    float target = w->body_target_mass[b];
    if (m->finite_shapes == 0) {
        // no shapes yet: behaves as a 0.5 m solid sphere of the given mass (1 kg if none)
        if (!check_only) {
            float mass = target > 0.0f ? target : 1.0f;
            float i = 0.4f * mass * 0.25f;
            store_mass(w, b, mass, zero, rb_f3(i, i, i), zero, added);
        }
        return RB_OK;
    }
    double total = m->mass;
    const double *mc = m->c, *mi = m->i;
    if (total <= 0.0) {
        if (target <= 0.0f)
            return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                           "a dynamic body needs a mass > 0: its shapes have density 0 and it has no body mass "
                           "(give a shape a density > 0, or the body def a mass)");
        // the body mass is given but every density is 0: spread it by volume
        total = m->vol;
        mc = m->vc;
        mi = m->vi;
    }
    if (!(total > 0.0) || !isfinite(total))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a dynamic body needs a finite mass > 0, its shapes give %g", total);

    double scale = target > 0.0f ? target / total : 1.0;
    double mass = total * scale;
    double c[3] = {mc[0] / total, mc[1] / total, mc[2] / total};
    // inertia about the centre of mass: I_origin - M (|c|^2 E - c c^T)
    double c2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    double ic[6];
    for (int t = 0; t < 6; ++t) {
        int a = TRI_A[t], k = TRI_B[t];
        ic[t] = (mi[t] - total * ((a == k ? c2 : 0.0) - c[a] * c[k])) * scale;
    }
    // what the float scene can hold: a mass and inertia that overflow or underflow a float would step
    // as infinite or zero and turn the inverse into inf or NaN
    if (!(mass >= FLT_MIN && mass <= FLT_MAX))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a dynamic body's mass must be within the 32-bit float range "
                       "[%g, %g] kg, its shapes give %g kg", FLT_MIN, FLT_MAX, mass);
    for (int t = 0; t < 3; ++t)
        if (!(ic[t] >= FLT_MIN && ic[t] <= FLT_MAX) || !(fabs(ic[t + 3]) <= FLT_MAX))
            return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                           "a dynamic body's inertia must be within the 32-bit float range [%g, %g] kg m^2, its "
                           "shapes give (%g, %g, %g), products (%g, %g, %g)",
                           FLT_MIN, FLT_MAX, ic[0], ic[1], ic[2], ic[3], ic[4], ic[5]);
    if (check_only)
        return RB_OK;
    store_mass(w, b, (float)mass, rb_f3((float)c[0], (float)c[1], (float)c[2]),
               rb_f3((float)ic[0], (float)ic[1], (float)ic[2]), rb_f3((float)ic[3], (float)ic[4], (float)ic[5]),
               added);
    return RB_OK;
}

rb_status rb_update_body_mass(rb_world *w, int b, bool check_only)
{
    // a full pass: rebuild the sums, and keep them for this body
    rb_mass_sums m;
    sums_rebuild(w, b, &m);
    sums_key(w, b, &m);
    rb_status s = apply_sums(w, b, &m, check_only, -1);
    if (!check_only)
        w->mass_sums = m;
    else if (w->mass_sums.body == b + 1)
        w->mass_sums.body = 0; // a check of a changed shape set: the kept sums may no longer match
    return s;
}

rb_status rb_body_mass_add_shape(rb_world *w, int b, int sh, bool check_only)
{
    // the kept sums are this body's exactly when they cover the list behind the new head
    const rb_mass_sums *kept = &w->mass_sums;
    if (kept->body != b + 1 || kept->generation != w->body_ids.generation[b] || kept->head != w->shape_next[sh] ||
        kept->count != w->body_shape_count[b] - 1)
        return rb_update_body_mass(w, b, check_only);
    rb_mass_sums m = *kept;
    sums_add(&m, w, sh);
    sums_key(w, b, &m);
    rb_status s = apply_sums(w, b, &m, check_only, sh);
    if (!check_only)
        w->mass_sums = m;
    return s;
}

rb_status rb_body_set_mass_data(rb_body_id id, const rb_mass_data *data)
{
    rb_status s;
    int b;
    rb_world *w = rb_get_body(id, &b, &s);
    if (!w)
        return s;
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;
    if (!data)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_body_set_mass_data: data must not be NULL");
    if (rb_scene_body_type(&w->scene, b) != RB_BODY_DYNAMIC_T)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "mass data applies to dynamic bodies only");
    // the range in which a mass, its inverse and an inertia of m r² stay normal floats
    if (!(data->mass >= 1e-30f && data->mass <= 1e30f))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a dynamic body's mass must be in [1e-30, 1e30] kg, got %g", data->mass);
    if (!rb_finite_vec3(data->center) || !rb_finite_vec3(data->inertia) || !rb_finite_vec3(data->inertia_products))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "mass data centre and inertia must be finite");
    // as shape sizes and offsets: a centre 4e37 m from the origin put the body's origin at -inf
    if (!(fabsf(data->center.x) <= 1e6f && fabsf(data->center.y) <= 1e6f && fabsf(data->center.z) <= 1e6f))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "mass data centre must be within 1e6 m of the body origin, got (%g, %g, %g)",
                       data->center.x, data->center.y, data->center.z);
    // positive definite (Sylvester: leading principal minors > 0)
    rb_vec3 d = data->inertia, o = data->inertia_products;
    double m1 = d.x;
    double m2 = (double)d.x * d.y - (double)o.x * o.x;
    rb_mat3 t = rb_mat3_symmetric(rb_f3(d.x, d.y, d.z), rb_f3(o.x, o.y, o.z));
    double m3 = rb_mat3_det(t);
    if (!(m1 > 0.0 && m2 > 0.0 && m3 > 0.0))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                       "inertia tensor must be positive definite, got diagonal (%g, %g, %g) products (%g, %g, %g)", d.x,
                       d.y, d.z, o.x, o.y, o.z);
    if (!w->body_mass_data && !(w->body_mass_data = calloc((size_t)w->scene.body_capacity, sizeof *w->body_mass_data)))
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "rb_body_set_mass_data: out of memory for %d bodies' mass data",
                       w->scene.body_capacity);
    w->body_mass_data[b] = *data;
    w->scene.body_flags[b] |= RB_BODY_FIXED_MASS;
    store_mass(w, b, data->mass, rb_f3(data->center.x, data->center.y, data->center.z), rb_f3(d.x, d.y, d.z),
               rb_f3(o.x, o.y, o.z), -1);
    return RB_OK;
}
