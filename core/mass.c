// A body's mass, centre of mass and inertia from its shapes, or as the application sets them.
#include <string.h>

#include "kernels/mass_properties.h"
#include "world.h"

// Host-side accumulation in double: a body with many shapes far from its centre would otherwise
// lose digits in the parallel-axis terms.
typedef struct mass_sum {
    double mass;
    double c[3];
    double i[3][3]; // about the body origin
} mass_sum;

static void add_shape(mass_sum *m, int type, rb_float4 params, rb_float3 pos, rb_float4 rot, double mass)
{
    if (mass <= 0.0)
        return;
    rb_float3 d = rb_geom_inertia(type, params, 1.0f); // per unit mass, shape frame
    rb_mat3 r = rb_mat3_from_quat(rot);
    double rr[3][3] = {{r.r0.x, r.r0.y, r.r0.z}, {r.r1.x, r.r1.y, r.r1.z}, {r.r2.x, r.r2.y, r.r2.z}};
    double dd[3] = {d.x, d.y, d.z};
    double p[3] = {pos.x, pos.y, pos.z};
    double p2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
            double rot_term = 0.0; // (R diag(d) R^T)_ab
            for (int k = 0; k < 3; ++k)
                rot_term += rr[a][k] * dd[k] * rr[b][k];
            double shift = (a == b ? p2 : 0.0) - p[a] * p[b]; // parallel axis to the body origin
            m->i[a][b] += mass * (rot_term + shift);
        }
        m->c[a] += mass * p[a];
    }
    m->mass += mass;
}

static float shape_bound(const rb_scene *sc, int sh, rb_float3 center)
{
    if (sc->shape_type[sh] == RB_GEOM_PLANE)
        return 0.0f;
    rb_float3 p = rb_sub(rb_xyz(sc->shape_local_pos[sh]), center);
    return rb_len(p) + rb_geom_bounding_radius(sc->shape_type[sh], sc->shape_params[sh]);
}

// Writes mass, centre, inertia (and their inverses) into the scene, keeping the body origin fixed.
static void store_mass(rb_world *w, int b, float mass, rb_float3 center, rb_float3 diag, rb_float3 offdiag)
{
    rb_scene *sc = &w->scene;
    rb_mat3 inertia = rb_mat3_symmetric(diag, offdiag);
    rb_mat3 inv = mass > 0.0f ? rb_mat3_inverse(inertia) : rb_mat3_zero();
    float bound = 0.0f;
    for (int sh = w->body_first_shape[b]; sh >= 0; sh = w->shape_next[sh])
        bound = rb_maxf(bound, shape_bound(sc, sh, center));

    // keep the origin where it is: the centre of mass moves by R (c_new - c_old), and its velocity
    // picks up w x that offset
    rb_float4 q = sc->body_rot[b];
    rb_float3 shift = rb_rotate(q, rb_sub(center, rb_xyz(sc->body_local_center[b])));
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

rb_status rb_update_body_mass(rb_world *w, int b, bool check_only)
{
    rb_scene *sc = &w->scene;
    uint32_t type = rb_scene_body_type(sc, b);
    if (type != RB_BODY_DYNAMIC_T) {
        if (!check_only)
            store_mass(w, b, 0.0f, rb_f3(0.0f, 0.0f, 0.0f), rb_f3(0.0f, 0.0f, 0.0f), rb_f3(0.0f, 0.0f, 0.0f));
        return RB_OK;
    }
    if (sc->body_flags[b] & RB_BODY_FIXED_MASS) {
        if (!check_only) {
            rb_float4 d = sc->body_inertia_diag[b], o = sc->body_inertia_offdiag[b];
            store_mass(w, b, d.w, rb_xyz(sc->body_local_center[b]), rb_xyz(d), rb_xyz(o));
        }
        return RB_OK;
    }

    float target = w->body_target_mass[b];
    mass_sum m;
    memset(&m, 0, sizeof m);
    double volume = 0.0;
    int finite_shapes = 0;
    for (int sh = w->body_first_shape[b]; sh >= 0; sh = w->shape_next[sh]) {
        if (sc->shape_type[sh] == RB_GEOM_PLANE)
            continue;
        ++finite_shapes;
        double v = rb_geom_volume(sc->shape_type[sh], sc->shape_params[sh]);
        volume += v;
        add_shape(&m, sc->shape_type[sh], sc->shape_params[sh], rb_xyz(sc->shape_local_pos[sh]),
                  sc->shape_local_rot[sh], v * sc->shape_material[sh].z);
    }
    if (finite_shapes == 0) {
        // no shapes yet: behaves as a 0.5 m solid sphere of the given mass (1 kg if none)
        if (!check_only) {
            float mass = target > 0.0f ? target : 1.0f;
            float i = 0.4f * mass * 0.25f;
            store_mass(w, b, mass, rb_f3(0.0f, 0.0f, 0.0f), rb_f3(i, i, i), rb_f3(0.0f, 0.0f, 0.0f));
        }
        return RB_OK;
    }
    if (m.mass <= 0.0) {
        if (target <= 0.0f)
            return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                           "a dynamic body needs a mass > 0: its shapes have density 0 and it has no body mass "
                           "(give a shape a density > 0, or the body def a mass)");
        // the body mass is given but every density is 0: spread it by volume
        memset(&m, 0, sizeof m);
        for (int sh = w->body_first_shape[b]; sh >= 0; sh = w->shape_next[sh])
            if (sc->shape_type[sh] != RB_GEOM_PLANE)
                add_shape(&m, sc->shape_type[sh], sc->shape_params[sh], rb_xyz(sc->shape_local_pos[sh]),
                          sc->shape_local_rot[sh], rb_geom_volume(sc->shape_type[sh], sc->shape_params[sh]));
    }
    if (!(m.mass > 0.0) || !isfinite(m.mass))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a dynamic body needs a finite mass > 0, its shapes give %g", m.mass);
    if (check_only)
        return RB_OK;

    double scale = target > 0.0f ? target / m.mass : 1.0;
    double mass = m.mass * scale;
    double c[3] = {m.c[0] / m.mass, m.c[1] / m.mass, m.c[2] / m.mass};
    // inertia about the centre of mass: I_origin - M (|c|^2 E - c c^T)
    double c2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    double ic[3][3];
    for (int a = 0; a < 3; ++a)
        for (int k = 0; k < 3; ++k)
            ic[a][k] = (m.i[a][k] - m.mass * ((a == k ? c2 : 0.0) - c[a] * c[k])) * scale;
    store_mass(w, b, (float)mass, rb_f3((float)c[0], (float)c[1], (float)c[2]),
               rb_f3((float)ic[0][0], (float)ic[1][1], (float)ic[2][2]),
               rb_f3((float)ic[0][1], (float)ic[0][2], (float)ic[1][2]));
    return RB_OK;
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
    if (!(data->mass > 0.0f) || !isfinite(data->mass))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a dynamic body needs a finite mass > 0, got %g", data->mass);
    if (!rb_finite_vec3(data->center) || !rb_finite_vec3(data->inertia) || !rb_finite_vec3(data->inertia_products))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "mass data centre and inertia must be finite");
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
    w->scene.body_flags[b] |= RB_BODY_FIXED_MASS;
    store_mass(w, b, data->mass, rb_f3(data->center.x, data->center.y, data->center.z), rb_f3(d.x, d.y, d.z),
               rb_f3(o.x, o.y, o.z));
    return RB_OK;
}
