// The shared kernel math: quaternions, 3x3 matrices, the contact basis, segment closest points and
// the reduction of contact candidates to four (rb_manifold_reduce is tested here, so there is no
// test_manifold_reduce.c).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "kernels/closest_points.h"
#include "kernels/contact_frame.h"
#include "kernels/manifold_reduce.h"
#include "kernels/vec_math.h"

// ---- helpers ----

static void assert_vec_equal(rb_float3 v, float x, float y, float z, float tol)
{
    assert_float_equal(v.x, x, tol);
    assert_float_equal(v.y, y, tol);
    assert_float_equal(v.z, z, tol);
}

static void assert_mat_equal(rb_mat3 a, rb_mat3 b, float tol)
{
    assert_vec_equal(a.r0, b.r0.x, b.r0.y, b.r0.z, tol);
    assert_vec_equal(a.r1, b.r1.x, b.r1.y, b.r1.z, tol);
    assert_vec_equal(a.r2, b.r2.x, b.r2.y, b.r2.z, tol);
}

static unsigned int rng_state;

static float frand(float lo, float hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(rng_state >> 8) * (1.0f / 16777216.0f);
}

static rb_float3 random_vec(float lo, float hi) { return rb_f3(frand(lo, hi), frand(lo, hi), frand(lo, hi)); }

static rb_float4 random_rotation(void)
{
    for (;;) {
        rb_float4 q = rb_f4(frand(-1.0f, 1.0f), frand(-1.0f, 1.0f), frand(-1.0f, 1.0f), frand(-1.0f, 1.0f));
        float l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if (l2 > 0.01f && l2 <= 1.0f)
            return rb_quat_normalize(q);
    }
}

static rb_float4 rot(float x, float y, float z, float deg)
{
    return rb_quat_axis_angle(rb_f3(x, y, z), deg * (RB_PI / 180.0f));
}

// Rotation angle of a unit quaternion, in [0, 2 pi).
static float quat_angle(rb_float4 q)
{
    return 2.0f * rb_atan2f(rb_len(rb_xyz(q)), q.w);
}

// ---- quaternions ----

// rb_sinf / rb_cosf (portable.h): float-only, so every backend gets the same bits; as accurate as
// libm's float versions over the angles a step can turn a body by, and NaN for NaN or infinity.
static void test_portable_sin_and_cos_match_the_double_precision_ones(void **state)
{
    (void)state;
    double worst = 0.0, worst_rel = 0.0;
    for (int i = -200000; i <= 200000; ++i) {
        float x = (float)i * 1.0e-4f * 3.3f; // [-66, 66] rad
        worst = fmax(worst, fabs((double)rb_sinf(x) - sin((double)x)));
        worst = fmax(worst, fabs((double)rb_cosf(x) - cos((double)x)));
    }
    for (float x = 1e-7f; x < 0.5f; x *= 1.01f) // small angles: relative accuracy matters for sin
        worst_rel = fmax(worst_rel, fabs((double)rb_sinf(x) / sin((double)x) - 1.0));
    assert_true(worst < 1.2e-7);     // ~1 ulp of 1
    assert_true(worst_rel < 1.2e-7); // ~1 ulp
    assert_float_equal(rb_sinf(-0.7f), -rb_sinf(0.7f), 0.0f);
    assert_float_equal(rb_cosf(-0.7f), rb_cosf(0.7f), 0.0f);
    assert_true(isnan(rb_sinf(NAN)) && isnan(rb_cosf(INFINITY)));
    float s = rb_sinf(1e20f), c = rb_cosf(1e20f); // no meaningful angle, but a unit vector, not UB
    assert_float_equal(s * s + c * c, 1.0f, 1e-6f);
}

static void test_identity_quaternion_leaves_vectors_and_rotations_unchanged(void **state)
{
    (void)state;
    rb_float4 id = rb_quat_identity();
    assert_vec_equal(rb_rotate(id, rb_f3(1.0f, -2.0f, 3.0f)), 1.0f, -2.0f, 3.0f, 0.0f);
    rb_float4 q = rot(1.0f, 2.0f, 3.0f, 40.0f);
    rb_float4 a = rb_quat_mul(id, q), b = rb_quat_mul(q, id);
    assert_float_equal(a.x, q.x, 0.0f);
    assert_float_equal(a.w, q.w, 0.0f);
    assert_float_equal(b.y, q.y, 0.0f);
    assert_float_equal(b.z, q.z, 0.0f);
}

static void test_quaternion_product_applies_the_right_factor_first(void **state)
{
    (void)state;
    // qz = 90 degrees about z, qx = 90 degrees about x. (qz qx) y: qx turns y to z, qz leaves z: (0, 0, 1).
    // (qz qx) x: qx leaves x, qz turns x to y: (0, 1, 0)
    rb_float4 qz = rot(0.0f, 0.0f, 1.0f, 90.0f), qx = rot(1.0f, 0.0f, 0.0f, 90.0f);
    rb_float4 q = rb_quat_mul(qz, qx);
    assert_vec_equal(rb_rotate(q, rb_f3(0.0f, 1.0f, 0.0f)), 0.0f, 0.0f, 1.0f, 1e-6f);
    assert_vec_equal(rb_rotate(q, rb_f3(1.0f, 0.0f, 0.0f)), 0.0f, 1.0f, 0.0f, 1e-6f);
    // and in general: rotate(a b, v) = rotate(a, rotate(b, v))
    rng_state = 1u;
    for (int i = 0; i < 100; ++i) {
        rb_float4 a = random_rotation(), b = random_rotation();
        rb_float3 v = random_vec(-2.0f, 2.0f);
        rb_float3 lhs = rb_rotate(rb_quat_mul(a, b), v), rhs = rb_rotate(a, rb_rotate(b, v));
        assert_vec_equal(lhs, rhs.x, rhs.y, rhs.z, 2e-6f);
    }
}

static void test_rotation_by_quaternion_matches_its_matrix(void **state)
{
    (void)state;
    rng_state = 2u;
    for (int i = 0; i < 200; ++i) {
        rb_float4 q = random_rotation();
        rb_float3 v = random_vec(-2.0f, 2.0f);
        rb_float3 mv = rb_mat3_mulv(rb_mat3_from_quat(q), v);
        assert_vec_equal(rb_rotate(q, v), mv.x, mv.y, mv.z, 2e-6f);
        // the inverse rotation undoes it
        rb_float3 back = rb_inv_rotate(q, rb_rotate(q, v));
        assert_vec_equal(back, v.x, v.y, v.z, 2e-6f);
    }
}

static void test_axis_angle_rotates_about_the_normalised_axis(void **state)
{
    (void)state;
    // 120 degrees about (1, 1, 1) cycles the axes: x -> y -> z -> x
    rb_float4 q = rot(1.0f, 1.0f, 1.0f, 120.0f);
    assert_vec_equal(rb_rotate(q, rb_f3(1.0f, 0.0f, 0.0f)), 0.0f, 1.0f, 0.0f, 1e-6f);
    assert_vec_equal(rb_rotate(q, rb_f3(0.0f, 1.0f, 0.0f)), 0.0f, 0.0f, 1.0f, 1e-6f);
    // an unnormalised axis gives the same unit quaternion: (sin 45, 0, 0, cos 45) for 90 about x
    rb_float4 a = rot(5.0f, 0.0f, 0.0f, 90.0f);
    assert_float_equal(a.x, 0.7071068f, 1e-6f);
    assert_float_equal(a.y, 0.0f, 0.0f);
    assert_float_equal(a.w, 0.7071068f, 1e-6f);
    // the angle comes back out
    assert_float_equal(quat_angle(rot(0.3f, -0.2f, 0.9f, 73.0f)), 73.0f * (RB_PI / 180.0f), 1e-6f);
}

static void test_normalise_gives_a_unit_quaternion_and_identity_for_zero(void **state)
{
    (void)state;
    // (1, 2, 3, 4) / sqrt(30)
    rb_float4 q = rb_quat_normalize(rb_f4(1.0f, 2.0f, 3.0f, 4.0f));
    assert_float_equal(q.x, 0.1825742f, 1e-6f);
    assert_float_equal(q.y, 0.3651484f, 1e-6f);
    assert_float_equal(q.z, 0.5477226f, 1e-6f);
    assert_float_equal(q.w, 0.7302967f, 1e-6f);
    rb_float4 z = rb_quat_normalize(rb_f4(0.0f, 0.0f, 0.0f, 0.0f));
    assert_float_equal(z.w, 1.0f, 0.0f);
    assert_float_equal(z.x + z.y + z.z, 0.0f, 0.0f);
}

static void test_constant_spin_integrates_to_the_expected_angle(void **state)
{
    (void)state;
    // w = 2 rad/s about z for 60 steps of 1/60 s: 2 rad exactly in continuous time. The exponential
    // map turns by exactly |w| h per step, so only float rounding remains (60 steps: ~1e-5). (The
    // first-order q + (h/2) [w, 0] q would give 120 atan(1/60) = 1.9998148, 1.9e-4 short.)
    rb_float4 q = rb_quat_identity();
    for (int i = 0; i < 60; ++i)
        q = rb_quat_integrate(q, rb_f3(0.0f, 0.0f, 2.0f), 1.0f / 60.0f);
    assert_float_equal(quat_angle(q), 2.0f, 2e-5f);
    assert_float_equal(q.x, 0.0f, 0.0f);
    assert_float_equal(q.y, 0.0f, 0.0f);
    assert_float_equal(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1.0f, 1e-6f);
    // the same spin from a rotated start turns the body about the world z axis
    rb_float4 q0 = rot(1.0f, 0.0f, 0.0f, 30.0f);
    q = q0;
    for (int i = 0; i < 60; ++i)
        q = rb_quat_integrate(q, rb_f3(0.0f, 0.0f, 2.0f), 1.0f / 60.0f);
    rb_float4 dq = rb_quat_mul(q, rb_quat_conj(q0));
    assert_float_equal(quat_angle(dq), 2.0f, 2e-5f);
    assert_float_equal(dq.x, 0.0f, 1e-6f);
    assert_float_equal(dq.y, 0.0f, 1e-6f);
}

static void test_zero_spin_keeps_the_orientation(void **state)
{
    (void)state;
    rb_float4 q0 = rot(0.2f, 1.0f, -0.5f, 64.0f);
    rb_float4 q = rb_quat_integrate(q0, rb_f3(0.0f, 0.0f, 0.0f), 1.0f / 60.0f);
    assert_float_equal(q.x, q0.x, 1e-7f);
    assert_float_equal(q.y, q0.y, 1e-7f);
    assert_float_equal(q.z, q0.z, 1e-7f);
    assert_float_equal(q.w, q0.w, 1e-7f);
}

// ---- matrices ----

static void test_inverse_of_a_matrix_undoes_it(void **state)
{
    (void)state;
    // diag(2, 4, 8) -> diag(0.5, 0.25, 0.125); a shear [[1, 2, 0], [0, 1, 0], [0, 0, 1]] ->
    // [[1, -2, 0], [0, 1, 0], [0, 0, 1]]
    assert_mat_equal(rb_mat3_inverse(rb_mat3_diag(rb_f3(2.0f, 4.0f, 8.0f))), rb_mat3_diag(rb_f3(0.5f, 0.25f, 0.125f)), 0.0f);
    rb_mat3 shear = rb_mat3_rows(rb_f3(1.0f, 2.0f, 0.0f), rb_f3(0.0f, 1.0f, 0.0f), rb_f3(0.0f, 0.0f, 1.0f));
    rb_mat3 unshear = rb_mat3_rows(rb_f3(1.0f, -2.0f, 0.0f), rb_f3(0.0f, 1.0f, 0.0f), rb_f3(0.0f, 0.0f, 1.0f));
    assert_mat_equal(rb_mat3_inverse(shear), unshear, 0.0f);
    // random well-conditioned matrices (identity plus a perturbation): M^-1 M = M M^-1 = I
    rng_state = 3u;
    rb_mat3 id = rb_mat3_diag(rb_f3(1.0f, 1.0f, 1.0f));
    for (int i = 0; i < 100; ++i) {
        rb_mat3 m = rb_mat3_rows(rb_add(id.r0, random_vec(-0.4f, 0.4f)), rb_add(id.r1, random_vec(-0.4f, 0.4f)),
                                 rb_add(id.r2, random_vec(-0.4f, 0.4f)));
        rb_mat3 inv = rb_mat3_inverse(m);
        assert_mat_equal(rb_mat3_mul(inv, m), id, 1e-5f);
        assert_mat_equal(rb_mat3_mul(m, inv), id, 1e-5f);
    }
}

static void test_inverse_of_a_singular_matrix_is_zero(void **state)
{
    (void)state;
    // second row = 2 x first: det 0, the documented "infinite inertia" answer is the zero matrix
    rb_mat3 m = rb_mat3_rows(rb_f3(1.0f, 2.0f, 3.0f), rb_f3(2.0f, 4.0f, 6.0f), rb_f3(0.0f, 0.0f, 1.0f));
    assert_mat_equal(rb_mat3_inverse(m), rb_mat3_zero(), 0.0f);
    assert_mat_equal(rb_mat3_inverse(rb_mat3_zero()), rb_mat3_zero(), 0.0f);
}

static void test_rotated_tensor_is_r_i_rt(void **state)
{
    (void)state;
    // diag(1, 2, 3) turned 90 degrees about z swaps the x and y moments: diag(2, 1, 3)
    rb_mat3 t = rb_mat3_rotate_tensor(rot(0.0f, 0.0f, 1.0f, 90.0f), rb_mat3_diag(rb_f3(1.0f, 2.0f, 3.0f)));
    assert_mat_equal(t, rb_mat3_diag(rb_f3(2.0f, 1.0f, 3.0f)), 1e-6f);
    // in general: entry (i, j) = sum_k R_ik I_k R_jk for a diagonal I; symmetric; trace kept
    rng_state = 4u;
    for (int i = 0; i < 100; ++i) {
        rb_float4 q = random_rotation();
        rb_float3 d = random_vec(0.1f, 3.0f);
        rb_mat3 w = rb_mat3_rotate_tensor(q, rb_mat3_diag(d));
        rb_mat3 r = rb_mat3_from_quat(q);
        rb_float3 rows[3] = {r.r0, r.r1, r.r2}, wr[3] = {w.r0, w.r1, w.r2};
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) {
                float e = rb_get(rows[a], 0) * d.x * rb_get(rows[b], 0) + rb_get(rows[a], 1) * d.y * rb_get(rows[b], 1) +
                          rb_get(rows[a], 2) * d.z * rb_get(rows[b], 2);
                assert_float_equal(rb_get(wr[a], b), e, 1e-5f);
                assert_float_equal(rb_get(wr[a], b), rb_get(wr[b], a), 1e-5f);
            }
        }
        assert_float_equal(w.r0.x + w.r1.y + w.r2.z, d.x + d.y + d.z, 1e-5f);
    }
}

// ---- contact basis ----

static void assert_right_handed_basis(rb_float3 n)
{
    rb_float3 t1, t2;
    rb_contact_basis(n, &t1, &t2);
    assert_float_equal(rb_len(t1), 1.0f, 1e-6f);
    assert_float_equal(rb_len(t2), 1.0f, 1e-6f);
    assert_float_equal(rb_dot(t1, t2), 0.0f, 1e-6f);
    assert_float_equal(rb_dot(t1, n), 0.0f, 1e-6f);
    assert_float_equal(rb_dot(t2, n), 0.0f, 1e-6f);
    rb_float3 c = rb_cross(t1, t2);
    assert_vec_equal(c, n.x, n.y, n.z, 2e-6f);
}

static void test_contact_basis_is_orthonormal_and_right_handed(void **state)
{
    (void)state;
    // the six axis directions
    rb_float3 axes[6] = {rb_f3(1.0f, 0.0f, 0.0f),  rb_f3(-1.0f, 0.0f, 0.0f), rb_f3(0.0f, 1.0f, 0.0f),
                         rb_f3(0.0f, -1.0f, 0.0f), rb_f3(0.0f, 0.0f, 1.0f),  rb_f3(0.0f, 0.0f, -1.0f)};
    for (int i = 0; i < 6; ++i)
        assert_right_handed_basis(axes[i]);
    // n = +z gives t1 = x, t2 = y
    rb_float3 t1, t2;
    rb_contact_basis(rb_f3(0.0f, 0.0f, 1.0f), &t1, &t2);
    assert_vec_equal(t1, 1.0f, 0.0f, 0.0f, 0.0f);
    assert_vec_equal(t2, 0.0f, 1.0f, 0.0f, 0.0f);
    // near n.z = -1, where the construction switches sign, and across n.z = 0 (-0.0 included)
    float zs[6] = {-1.0f + 1e-7f, -0.99999994f, -0.9999f, -1e-7f, -0.0f, 1e-7f};
    for (int i = 0; i < 6; ++i) {
        float z = zs[i];
        float s = sqrtf(1.0f - z * z);
        assert_right_handed_basis(rb_f3(s, 0.0f, z));
        assert_right_handed_basis(rb_f3(0.0f, -s, z));
        assert_right_handed_basis(rb_f3(0.6f * s, 0.8f * s, z));
    }
    // many random unit normals
    rng_state = 5u;
    for (int i = 0; i < 2000; ++i) {
        rb_float3 v = random_vec(-1.0f, 1.0f);
        if (rb_len(v) < 0.1f)
            continue;
        assert_right_handed_basis(rb_normalize(v));
    }
}

// ---- closest points ----

static void test_crossing_segments_meet_at_their_midpoints(void **state)
{
    (void)state;
    // (-1, 0, 0)-(1, 0, 0) and (0, -1, 1)-(0, 1, 1): s = t = 1/2, points (0, 0, 0) and (0, 0, 1)
    float s, t;
    rb_float3 c1, c2;
    rb_segment_segment_closest(rb_f3(-1.0f, 0.0f, 0.0f), rb_f3(1.0f, 0.0f, 0.0f), rb_f3(0.0f, -1.0f, 1.0f),
                               rb_f3(0.0f, 1.0f, 1.0f), &s, &t, &c1, &c2);
    assert_float_equal(s, 0.5f, 1e-7f);
    assert_float_equal(t, 0.5f, 1e-7f);
    assert_vec_equal(c1, 0.0f, 0.0f, 0.0f, 1e-7f);
    assert_vec_equal(c2, 0.0f, 0.0f, 1.0f, 1e-7f);
}

static void test_parallel_segments_give_a_closest_pair_in_the_overlap(void **state)
{
    (void)state;
    // (0, 0, 0)-(2, 0, 0) and (1, 1, 0)-(3, 1, 0): distance 1 all along the overlap x in [1, 2]. The
    // routine takes s = 0, gets t = -1/2, clamps t to 0 and recomputes s = 1/2: points (1, 0, 0) and
    // (1, 1, 0), the start of the overlap
    float s, t;
    rb_float3 c1, c2;
    rb_segment_segment_closest(rb_f3(0.0f, 0.0f, 0.0f), rb_f3(2.0f, 0.0f, 0.0f), rb_f3(1.0f, 1.0f, 0.0f),
                               rb_f3(3.0f, 1.0f, 0.0f), &s, &t, &c1, &c2);
    assert_float_equal(s, 0.5f, 1e-7f);
    assert_float_equal(t, 0.0f, 0.0f);
    assert_float_equal(rb_len(rb_sub(c2, c1)), 1.0f, 1e-7f);
    assert_vec_equal(c1, 1.0f, 0.0f, 0.0f, 1e-7f);
    // antiparallel: the same distance
    rb_segment_segment_closest(rb_f3(0.0f, 0.0f, 0.0f), rb_f3(2.0f, 0.0f, 0.0f), rb_f3(3.0f, 1.0f, 0.0f),
                               rb_f3(1.0f, 1.0f, 0.0f), &s, &t, &c1, &c2);
    assert_float_equal(rb_len(rb_sub(c2, c1)), 1.0f, 1e-7f);
}

static void test_segments_apart_meet_at_end_points(void **state)
{
    (void)state;
    // (0, 0, 0)-(1, 0, 0) and (2, 1, 0)-(3, 5, 0): end of the first, start of the second, distance sqrt2
    float s, t;
    rb_float3 c1, c2;
    rb_segment_segment_closest(rb_f3(0.0f, 0.0f, 0.0f), rb_f3(1.0f, 0.0f, 0.0f), rb_f3(2.0f, 1.0f, 0.0f),
                               rb_f3(3.0f, 5.0f, 0.0f), &s, &t, &c1, &c2);
    assert_float_equal(s, 1.0f, 0.0f);
    assert_float_equal(t, 0.0f, 0.0f);
    assert_float_equal(rb_len(rb_sub(c2, c1)), 1.4142136f, 1e-6f);
    // an end against the interior: (0, 0, 0)-(1, 0, 0) and (2, -1, 0)-(2, 1, 0) (in the same plane):
    // s = 1, t = 1/2, distance 1
    rb_segment_segment_closest(rb_f3(0.0f, 0.0f, 0.0f), rb_f3(1.0f, 0.0f, 0.0f), rb_f3(2.0f, -1.0f, 0.0f),
                               rb_f3(2.0f, 1.0f, 0.0f), &s, &t, &c1, &c2);
    assert_float_equal(s, 1.0f, 0.0f);
    assert_float_equal(t, 0.5f, 1e-7f);
}

static void test_zero_length_segments_act_as_points(void **state)
{
    (void)state;
    // a point (0.5, 1, 0) against (0, 0, 0)-(1, 0, 0): s = 0, t = 1/2; two points: s = t = 0
    float s, t;
    rb_float3 c1, c2;
    rb_float3 p = rb_f3(0.5f, 1.0f, 0.0f);
    rb_segment_segment_closest(p, p, rb_f3(0.0f, 0.0f, 0.0f), rb_f3(1.0f, 0.0f, 0.0f), &s, &t, &c1, &c2);
    assert_float_equal(s, 0.0f, 0.0f);
    assert_float_equal(t, 0.5f, 1e-7f);
    assert_vec_equal(c2, 0.5f, 0.0f, 0.0f, 1e-7f);
    rb_segment_segment_closest(rb_f3(0.0f, 0.0f, 0.0f), rb_f3(1.0f, 0.0f, 0.0f), p, p, &s, &t, &c1, &c2);
    assert_float_equal(s, 0.5f, 1e-7f);
    assert_float_equal(t, 0.0f, 0.0f);
    rb_segment_segment_closest(p, p, rb_f3(3.0f, 0.0f, 0.0f), rb_f3(3.0f, 0.0f, 0.0f), &s, &t, &c1, &c2);
    assert_float_equal(s, 0.0f, 0.0f);
    assert_float_equal(t, 0.0f, 0.0f);
    // point against a segment: beyond either end the end is closest
    rb_float3 a = rb_f3(0.0f, 0.0f, 0.0f), b = rb_f3(2.0f, 0.0f, 0.0f);
    assert_float_equal(rb_segment_closest_t(rb_f3(-1.0f, 1.0f, 0.0f), a, b), 0.0f, 0.0f);
    assert_float_equal(rb_segment_closest_t(rb_f3(3.0f, 1.0f, 0.0f), a, b), 1.0f, 0.0f);
    assert_float_equal(rb_segment_closest_t(rb_f3(0.5f, 1.0f, 0.0f), a, b), 0.25f, 0.0f);
}

static void test_segment_closest_points_are_no_farther_than_any_sampled_pair(void **state)
{
    (void)state;
    // random segments: the returned distance is within 1e-5 of the minimum over a 201 x 201 grid of
    // parameter pairs, and never above it by more than rounding (the grid misses the exact optimum)
    rng_state = 6u;
    for (int i = 0; i < 300; ++i) {
        rb_float3 p1 = random_vec(-1.0f, 1.0f), q1 = random_vec(-1.0f, 1.0f);
        rb_float3 p2 = random_vec(-1.0f, 1.0f), q2 = random_vec(-1.0f, 1.0f);
        float s, t;
        rb_float3 c1, c2;
        rb_segment_segment_closest(p1, q1, p2, q2, &s, &t, &c1, &c2);
        assert_true(s >= 0.0f && s <= 1.0f && t >= 0.0f && t <= 1.0f);
        double d = (double)rb_len(rb_sub(c2, c1));
        double best = 1e30;
        for (int j = 0; j <= 200; ++j) {
            for (int k = 0; k <= 200; ++k) {
                double u = j / 200.0, v = k / 200.0;
                double dx = ((double)p1.x + u * ((double)q1.x - (double)p1.x)) - ((double)p2.x + v * ((double)q2.x - (double)p2.x));
                double dy = ((double)p1.y + u * ((double)q1.y - (double)p1.y)) - ((double)p2.y + v * ((double)q2.y - (double)p2.y));
                double dz = ((double)p1.z + u * ((double)q1.z - (double)p1.z)) - ((double)p2.z + v * ((double)q2.z - (double)p2.z));
                best = fmin(best, sqrt(dx * dx + dy * dy + dz * dz));
            }
        }
        assert_true(d <= best + 1e-5);
        assert_true(d >= best - 2e-2);  // grid spacing 1/200 of a segment of length <= 3.5
    }
}

// ---- manifold reduction ----

static rb_manifold_point cand_at(float x, float z, float sep, unsigned int id)
{
    rb_manifold_point p;
    p.point = rb_f3(x, 0.0f, z);
    p.separation = sep;
    p.id = id;
    return p;
}

static void test_reduce_passes_four_or_fewer_points_through_in_order(void **state)
{
    (void)state;
    rb_manifold_point c[3] = {cand_at(0.0f, 0.0f, -0.1f, 7u), cand_at(1.0f, 0.0f, -0.2f, 3u), cand_at(0.0f, 1.0f, 0.0f, 5u)};
    rb_manifold m = {0};
    rb_manifold_reduce(c, 3, rb_f3(0.0f, 1.0f, 0.0f), &m);
    assert_int_equal(m.count, 3);
    assert_int_equal(m.points[0].id, 7);
    assert_int_equal(m.points[1].id, 3);
    assert_int_equal(m.points[2].id, 5);
    assert_vec_equal(m.normal, 0.0f, 1.0f, 0.0f, 0.0f);
    rb_manifold_reduce(c, 0, rb_f3(0.0f, 1.0f, 0.0f), &m);
    assert_int_equal(m.count, 0);
}

static void test_reduce_keeps_the_corners_of_the_contact_area(void **state)
{
    (void)state;
    // the corners of a 2 x 2 square and four points inside it; the deepest is corner (-1, -1).
    // Step 1: the deepest, index 1. Step 2: farthest from it, the opposite corner (1, 1), index 4.
    // Step 3: largest triangle on that diagonal: (1, -1) and (-1, 1) tie at area 4, the lower index
    // wins: 3. Step 4: farthest outside that triangle: (-1, 1), index 6.
    rb_manifold_point c[8] = {cand_at(0.1f, 0.1f, -0.01f, 0u),  cand_at(-1.0f, -1.0f, -0.02f, 1u),
                              cand_at(0.3f, -0.2f, -0.01f, 2u), cand_at(1.0f, -1.0f, -0.01f, 3u),
                              cand_at(1.0f, 1.0f, -0.01f, 4u),  cand_at(0.0f, 0.9f, -0.01f, 5u),
                              cand_at(-1.0f, 1.0f, -0.01f, 6u), cand_at(-0.2f, 0.5f, -0.01f, 7u)};
    rb_manifold m = {0};
    rb_manifold_reduce(c, 8, rb_f3(0.0f, 1.0f, 0.0f), &m);
    assert_int_equal(m.count, 4);
    assert_int_equal(m.points[0].id, 1);
    assert_int_equal(m.points[1].id, 4);
    assert_int_equal(m.points[2].id, 3);
    assert_int_equal(m.points[3].id, 6);
}

static void test_reduce_keeps_the_deepest_point_even_inside_the_area(void **state)
{
    (void)state;
    // the deepest point (0.2, 0.1), separation -0.05, sits inside the square: it is kept, first
    rb_manifold_point c[7] = {cand_at(0.2f, 0.1f, -0.05f, 10u), cand_at(-1.0f, -1.0f, -0.01f, 11u),
                              cand_at(1.0f, -1.0f, -0.01f, 12u), cand_at(0.0f, 0.5f, -0.02f, 13u),
                              cand_at(1.0f, 1.0f, -0.01f, 14u),  cand_at(-1.0f, 1.0f, -0.01f, 15u),
                              cand_at(-0.5f, 0.0f, -0.03f, 16u)};
    rb_manifold m = {0};
    rb_manifold_reduce(c, 7, rb_f3(0.0f, 1.0f, 0.0f), &m);
    assert_int_equal(m.count, 4);
    assert_int_equal(m.points[0].id, 10);
    assert_float_equal(m.points[0].separation, -0.05f, 0.0f);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < i; ++j)
            assert_true(m.points[i].id != m.points[j].id);
}

static void test_reduce_breaks_ties_towards_the_lower_index(void **state)
{
    (void)state;
    // duplicated corners: (1, 1) at indices 1 and 2, (1, -1) at 3 and 5. Step 2 ties between 1 and 2
    // -> 1; step 3 ties between 3, 4 and 5 -> 3; step 4: (-1, 1), index 4. Same answer every call.
    rb_manifold_point c[6] = {cand_at(-1.0f, -1.0f, -0.02f, 0u), cand_at(1.0f, 1.0f, -0.01f, 1u),
                              cand_at(1.0f, 1.0f, -0.01f, 2u),   cand_at(1.0f, -1.0f, -0.01f, 3u),
                              cand_at(-1.0f, 1.0f, -0.01f, 4u),  cand_at(1.0f, -1.0f, -0.01f, 5u)};
    for (int k = 0; k < 3; ++k) {
        rb_manifold m = {0};
        rb_manifold_reduce(c, 6, rb_f3(0.0f, 1.0f, 0.0f), &m);
        assert_int_equal(m.count, 4);
        assert_int_equal(m.points[0].id, 0);
        assert_int_equal(m.points[1].id, 1);
        assert_int_equal(m.points[2].id, 3);
        assert_int_equal(m.points[3].id, 4);
    }
}

static void test_reduce_of_collinear_points_gives_four_distinct_points(void **state)
{
    (void)state;
    // six points on a line: no area anywhere, but four distinct candidates are still kept, both ends
    // of the line among them
    rb_manifold_point c[6];
    for (int i = 0; i < 6; ++i)
        c[i] = cand_at((float)i, 0.0f, i == 2 ? -0.1f : -0.05f, (unsigned int)i);
    rb_manifold m = {0};
    rb_manifold_reduce(c, 6, rb_f3(0.0f, 1.0f, 0.0f), &m);
    assert_int_equal(m.count, 4);
    assert_int_equal(m.points[0].id, 2);
    assert_int_equal(m.points[1].id, 5);
    int has0 = 0;
    for (int i = 0; i < 4; ++i) {
        has0 |= m.points[i].id == 0;
        for (int j = 0; j < i; ++j)
            assert_true(m.points[i].id != m.points[j].id);
    }
    assert_true(has0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_portable_sin_and_cos_match_the_double_precision_ones),
        cmocka_unit_test(test_identity_quaternion_leaves_vectors_and_rotations_unchanged),
        cmocka_unit_test(test_quaternion_product_applies_the_right_factor_first),
        cmocka_unit_test(test_rotation_by_quaternion_matches_its_matrix),
        cmocka_unit_test(test_axis_angle_rotates_about_the_normalised_axis),
        cmocka_unit_test(test_normalise_gives_a_unit_quaternion_and_identity_for_zero),
        cmocka_unit_test(test_constant_spin_integrates_to_the_expected_angle),
        cmocka_unit_test(test_zero_spin_keeps_the_orientation),
        cmocka_unit_test(test_inverse_of_a_matrix_undoes_it),
        cmocka_unit_test(test_inverse_of_a_singular_matrix_is_zero),
        cmocka_unit_test(test_rotated_tensor_is_r_i_rt),
        cmocka_unit_test(test_contact_basis_is_orthonormal_and_right_handed),
        cmocka_unit_test(test_crossing_segments_meet_at_their_midpoints),
        cmocka_unit_test(test_parallel_segments_give_a_closest_pair_in_the_overlap),
        cmocka_unit_test(test_segments_apart_meet_at_end_points),
        cmocka_unit_test(test_zero_length_segments_act_as_points),
        cmocka_unit_test(test_segment_closest_points_are_no_farther_than_any_sampled_pair),
        cmocka_unit_test(test_reduce_passes_four_or_fewer_points_through_in_order),
        cmocka_unit_test(test_reduce_keeps_the_corners_of_the_contact_area),
        cmocka_unit_test(test_reduce_keeps_the_deepest_point_even_inside_the_area),
        cmocka_unit_test(test_reduce_breaks_ties_towards_the_lower_index),
        cmocka_unit_test(test_reduce_of_collinear_points_gives_four_distinct_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
