// Volumes and inertia tensors of the solid shapes (core/kernels/mass_properties.h) against the
// textbook formulas and a numerical integration.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "kernels/mass_properties.h"

static void assert_vec_equal(rb_float3 v, float x, float y, float z, float tol)
{
    assert_float_equal(v.x, x, tol);
    assert_float_equal(v.y, y, tol);
    assert_float_equal(v.z, z, tol);
}

static void test_sphere_volume_and_inertia_follow_the_textbook(void **state)
{
    (void)state;
    // r = 0.5: V = 4/3 pi r^3 = 0.5235988; m = 2: I = 2/5 m r^2 = 0.2 about every axis
    rb_float4 p = rb_f4(0.5f, 0.0f, 0.0f, 0.0f);
    assert_float_equal(rb_geom_volume(RB_GEOM_SPHERE, p), 0.5235988f, 1e-6f);
    assert_vec_equal(rb_geom_inertia(RB_GEOM_SPHERE, p, 2.0f), 0.2f, 0.2f, 0.2f, 1e-7f);
}

static void test_box_volume_and_inertia_follow_the_textbook(void **state)
{
    (void)state;
    // half extents (0.5, 1, 1.5), full sides a, b, c = 1, 2, 3: V = 6; m = 6:
    // Ixx = m (b^2 + c^2) / 12 = 6.5, Iyy = m (a^2 + c^2) / 12 = 5, Izz = m (a^2 + b^2) / 12 = 2.5
    rb_float4 p = rb_f4(0.5f, 1.0f, 1.5f, 0.0f);
    assert_float_equal(rb_geom_volume(RB_GEOM_BOX, p), 6.0f, 1e-6f);
    assert_vec_equal(rb_geom_inertia(RB_GEOM_BOX, p, 6.0f), 6.5f, 5.0f, 2.5f, 1e-6f);
}

static void test_capsule_volume_and_inertia_follow_the_textbook(void **state)
{
    (void)state;
    // half length h = 1, r = 0.5: cylinder pi r^2 2h = 1.5707963, two caps 4/3 pi r^3 = 0.5235988,
    // V = 2.0943951. m = 3 splits as mc = 3 * 0.75 = 2.25, ms = 0.75. With L = 2h, the textbook
    // (cylinder plus two hemispheres moved out by the parallel axis theorem):
    // Iy = mc r^2/2 + 2/5 ms r^2 = 0.28125 + 0.075 = 0.35625
    // Ix = Iz = mc (L^2/12 + r^2/4) + ms (2 r^2/5 + L^2/4 + 3 L r/8) = 0.890625 + 1.10625 = 1.996875
    rb_float4 p = rb_f4(1.0f, 0.5f, 0.0f, 0.0f);
    assert_float_equal(rb_geom_volume(RB_GEOM_CAPSULE, p), 2.0943951f, 1e-6f);
    assert_vec_equal(rb_geom_inertia(RB_GEOM_CAPSULE, p, 3.0f), 1.996875f, 0.35625f, 1.996875f, 1e-5f);
}

static void test_capsule_of_zero_length_equals_a_sphere(void **state)
{
    (void)state;
    // half length 0, r 0.7: volume and inertia of a sphere of radius 0.7
    rb_float4 c = rb_f4(0.0f, 0.7f, 0.0f, 0.0f), s = rb_f4(0.7f, 0.0f, 0.0f, 0.0f);
    assert_float_equal(rb_geom_volume(RB_GEOM_CAPSULE, c), rb_geom_volume(RB_GEOM_SPHERE, s), 1e-6f);
    rb_float3 ic = rb_geom_inertia(RB_GEOM_CAPSULE, c, 1.5f), is = rb_geom_inertia(RB_GEOM_SPHERE, s, 1.5f);
    assert_vec_equal(ic, is.x, is.y, is.z, 1e-6f);
}

static void test_plane_has_no_volume_and_no_inertia(void **state)
{
    (void)state;
    rb_float4 p = rb_f4(0.0f, 1.0f, 0.0f, 0.0f);
    assert_float_equal(rb_geom_volume(RB_GEOM_PLANE, p), 0.0f, 0.0f);
    assert_vec_equal(rb_geom_inertia(RB_GEOM_PLANE, p, 1.0f), 0.0f, 0.0f, 0.0f, 0.0f);
}

// Midpoint-rule integration over an n^3 grid on the bounding box of a capsule (axis y): volume and
// the second moments about x and y, for uniform density and total mass `mass`.
static void integrate_capsule(double h, double r, int n, double mass, double *vol, double *ix, double *iy)
{
    double ext[3] = {r, h + r, r};
    double cell[3] = {2.0 * ext[0] / n, 2.0 * ext[1] / n, 2.0 * ext[2] / n};
    double dv = cell[0] * cell[1] * cell[2];
    double v = 0.0, sx = 0.0, sy = 0.0;
    for (int i = 0; i < n; ++i) {
        double x = -ext[0] + (i + 0.5) * cell[0];
        for (int j = 0; j < n; ++j) {
            double y = -ext[1] + (j + 0.5) * cell[1];
            double yc = fmax(-h, fmin(h, y));  // closest axis point
            for (int k = 0; k < n; ++k) {
                double z = -ext[2] + (k + 0.5) * cell[2];
                if (x * x + (y - yc) * (y - yc) + z * z > r * r)
                    continue;
                v += dv;
                sx += (y * y + z * z) * dv;
                sy += (x * x + z * z) * dv;
            }
        }
    }
    *vol = v;
    *ix = mass * sx / v;
    *iy = mass * sy / v;
}

static void test_capsule_inertia_matches_a_numerical_integration(void **state)
{
    (void)state;
    // a long, a stubby and a nearly spherical capsule on a 160^3 grid: volume and both moments within 1%
    float shapes[3][2] = {{1.0f, 0.5f}, {0.3f, 0.8f}, {0.05f, 1.0f}};
    for (int k = 0; k < 3; ++k) {
        float h = shapes[k][0], r = shapes[k][1];
        rb_float4 p = rb_f4(h, r, 0.0f, 0.0f);
        double vol, ix, iy;
        integrate_capsule((double)h, (double)r, 160, 2.0, &vol, &ix, &iy);
        rb_float3 in = rb_geom_inertia(RB_GEOM_CAPSULE, p, 2.0f);
        assert_float_equal(rb_geom_volume(RB_GEOM_CAPSULE, p), vol, (0.01 * vol));
        assert_float_equal(in.x, ix, (0.01 * ix));
        assert_float_equal(in.z, ix, (0.01 * ix));
        assert_float_equal(in.y, iy, (0.01 * iy));
    }
}

static void test_box_and_sphere_inertia_match_a_numerical_integration(void **state)
{
    (void)state;
    // the same integration for the other two shapes (a capsule of half length 0 is the sphere)
    double vol, ix, iy;
    integrate_capsule(0.0, 0.6, 120, 1.0, &vol, &ix, &iy);
    rb_float3 s = rb_geom_inertia(RB_GEOM_SPHERE, rb_f4(0.6f, 0.0f, 0.0f, 0.0f), 1.0f);
    assert_float_equal(s.x, ix, (0.01 * ix));
    assert_float_equal(s.y, iy, (0.01 * iy));
    // box (0.5, 1, 1.5), m 6: Ixx = integral of (y^2 + z^2) dm; x does not enter, a 200^2 grid in y, z
    int n = 200;
    double hy = 1.0, hz = 1.5, sxx = 0.0;
    for (int j = 0; j < n; ++j) {
        for (int k = 0; k < n; ++k) {
            double y = -hy + (j + 0.5) * 2.0 * hy / n, z = -hz + (k + 0.5) * 2.0 * hz / n;
            sxx += (y * y + z * z) * 6.0 / ((double)n * n);
        }
    }
    rb_float3 b = rb_geom_inertia(RB_GEOM_BOX, rb_f4(0.5f, 1.0f, 1.5f, 0.0f), 6.0f);
    assert_float_equal(b.x, sxx, (0.01 * sxx));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sphere_volume_and_inertia_follow_the_textbook),
        cmocka_unit_test(test_box_volume_and_inertia_follow_the_textbook),
        cmocka_unit_test(test_capsule_volume_and_inertia_follow_the_textbook),
        cmocka_unit_test(test_capsule_of_zero_length_equals_a_sphere),
        cmocka_unit_test(test_plane_has_no_volume_and_no_inertia),
        cmocka_unit_test(test_capsule_inertia_matches_a_numerical_integration),
        cmocka_unit_test(test_box_and_sphere_inertia_match_a_numerical_integration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
