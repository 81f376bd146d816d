// Convex hulls from point clouds (core/hull_build.c): the half-edge structure on many random and degenerate
// clouds, the merged faces of polyhedra given with extra points, the refusals, the vertex cap, the mass
// properties against the textbook, and the record against the kernels' accessors (core/kernels/hull.h).
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "hull_build.h"

// ---------------------------------------------------------------------------------------------------------
// Helpers

typedef struct lcg {
    unsigned long long s;
} lcg;

static double rnd(lcg *g) // uniform in [0, 1)
{
    g->s = g->s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g->s >> 11) * (1.0 / 9007199254740992.0);
}

static double rnd_in(lcg *g, double lo, double hi) { return lo + (hi - lo) * rnd(g); }

static int rnd_int(lcg *g, int lo, int hi) { return lo + (int)(rnd(g) * (hi - lo + 1)); } // lo .. hi

static void rnd_unit(lcg *g, double v[3])
{
    for (;;) {
        double x = rnd_in(g, -1.0, 1.0), y = rnd_in(g, -1.0, 1.0), z = rnd_in(g, -1.0, 1.0);
        double l = sqrt(x * x + y * y + z * z);
        if (l > 0.05 && l <= 1.0) {
            v[0] = x / l;
            v[1] = y / l;
            v[2] = z / l;
            return;
        }
    }
}

// A random rotation matrix (from a random unit quaternion).
static void rnd_rotation(lcg *g, double r[3][3])
{
    double q[4], l = 0.0;
    for (int k = 0; k < 4; ++k) {
        q[k] = rnd_in(g, -1.0, 1.0);
        l += q[k] * q[k];
    }
    l = sqrt(l);
    double x = q[0] / l, y = q[1] / l, z = q[2] / l, w = q[3] / l;
    double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                      {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                      {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    memcpy(r, m, sizeof m);
}

static rb_float3 transform(const double r[3][3], const double t[3], double x, double y, double z)
{
    return rb_f3((float)(r[0][0] * x + r[0][1] * y + r[0][2] * z + t[0]),
                 (float)(r[1][0] * x + r[1][1] * y + r[1][2] * z + t[1]),
                 (float)(r[2][0] * x + r[2][1] * y + r[2][2] * z + t[2]));
}

static double d3(rb_float3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

// The builder's tolerance as core/hull_build.c derives it from the cloud, times `factor`, plus the rounding
// of planes stored as floats.
static double tolerance(const rb_float3 *p, int n, float weld, double factor)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, maxabs = 0.0;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], d3(p[i], k));
            hi[k] = fmax(hi[k], d3(p[i], k));
            maxabs = fmax(maxabs, fabs(d3(p[i], k)));
        }
    double ext = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                      (hi[2] - lo[2]) * (hi[2] - lo[2]));
    double tol = fmax(fmin(weld, 0.01 * ext), fmax(1e-6 * ext, 2.0 * FLT_EPSILON * maxabs));
    return factor * tol + 8.0 * FLT_EPSILON * (maxabs + ext);
}

// What is wrong with mesh m as the hull of points p[0 .. n), or NULL: its structure, convexity, vertices
// taken from the points (p not NULL), and the points behind every plane (`contains`). tol: how far a
// vertex or point may stick out of a plane.
static const char *mesh_problem(const rb_hull_mesh *m, const rb_float3 *p, int n, int contains, int max_vertices,
                                double tol)
{
    static char text[256];
    int V = m->vertex_count, F = m->face_count, H = m->half_edge_count;
    if (V < 4 || V > max_vertices || F < 4 || F > RB_HULL_MAX_FACES || H < 12 || H > RB_HULL_MAX_HALF_EDGES ||
        H % 2)
        return "counts out of range";
    if (V - H / 2 + F != 2)
        return "V - E + F != 2";
    for (int e = 0; e < H; ++e) {
        if (m->edge_twin[e] != (e ^ 1) || m->edge_next[e] < 0 || m->edge_next[e] >= H || m->edge_face[e] < 0 ||
            m->edge_face[e] >= F || m->edge_origin[e] < 0 || m->edge_origin[e] >= V)
            return "half-edge index out of range";
        if (m->edge_origin[e ^ 1] != m->edge_origin[m->edge_next[e]])
            return "twin does not start where the edge ends";
        if (m->edge_face[e] == m->edge_face[e ^ 1])
            return "an edge with the same face on both sides";
    }
    int seen[RB_HULL_MAX_HALF_EDGES] = {0}, degree[RB_HULL_MAX_VERTICES] = {0}, total = 0;
    for (int f = 0; f < F; ++f) {
        int e = m->face_edge[f], c = m->face_edge_count[f];
        if (c < 3)
            return "a face with fewer than 3 edges";
        for (int k = 0; k < c; ++k) {
            if (e < 0 || e >= H || m->edge_face[e] != f || seen[e])
                return "a face's next cycle leaves the face";
            seen[e] = 1;
            e = m->edge_next[e];
        }
        if (e != m->face_edge[f])
            return "a face's next cycle does not close after its edge count";
        total += c;
    }
    if (total != H)
        return "half-edges outside every face cycle";
    for (int e = 0; e < H; ++e)
        degree[m->edge_origin[e]]++;
    for (int v = 0; v < V; ++v) {
        if (m->vertex_edge[v] < 0 || m->vertex_edge[v] >= H || m->edge_origin[m->vertex_edge[v]] != v)
            return "vertex_edge does not leave its vertex";
        if (degree[v] < 3)
            return "a vertex on fewer than 3 edges";
        for (int w = 0; w < v; ++w)
            if (memcmp(&m->vertex[v], &m->vertex[w], sizeof(rb_float3)) == 0)
                return "two vertices at the same place";
        if (p) { // a vertex is one of the input points, exactly
            int found = 0;
            for (int i = 0; i < n && !found; ++i)
                found = memcmp(&m->vertex[v], &p[i], sizeof(rb_float3)) == 0;
            if (!found)
                return "a vertex that is not an input point";
        }
    }
    for (int f = 0; f < F; ++f) {
        double nx = m->plane[f].x, ny = m->plane[f].y, nz = m->plane[f].z, d = m->plane[f].w;
        if (fabs(sqrt(nx * nx + ny * ny + nz * nz) - 1.0) > 1e-6)
            return "a normal that is not unit";
        for (int v = 0; v < V; ++v) {
            double s = nx * m->vertex[v].x + ny * m->vertex[v].y + nz * m->vertex[v].z - d;
            if (s > tol) {
                snprintf(text, sizeof text, "vertex %d is %g in front of face %d (tolerance %g)", v, s, f, tol);
                return text;
            }
        }
        int e = m->face_edge[f];
        for (int k = 0; k < m->face_edge_count[f]; ++k) {
            int e1 = m->edge_next[e], e2 = m->edge_next[e1];
            rb_float3 u = m->vertex[m->edge_origin[e]], v = m->vertex[m->edge_origin[e1]],
                      w = m->vertex[m->edge_origin[e2]];
            double s = nx * v.x + ny * v.y + nz * v.z - d;
            if (fabs(s) > tol) {
                snprintf(text, sizeof text, "face %d's vertex is %g off its plane (tolerance %g)", f, s, tol);
                return text;
            }
            double a[3] = {(double)v.x - u.x, (double)v.y - u.y, (double)v.z - u.z};
            double b[3] = {(double)w.x - v.x, (double)w.y - v.y, (double)w.z - v.z};
            double c = nx * (a[1] * b[2] - a[2] * b[1]) + ny * (a[2] * b[0] - a[0] * b[2]) +
                       nz * (a[0] * b[1] - a[1] * b[0]);
            if (!(c > 0.0))
                return "a face that is not strictly convex (or not counter-clockwise)";
            e = e1;
        }
        if (p && contains)
            for (int i = 0; i < n; ++i) {
                double s = nx * p[i].x + ny * p[i].y + nz * p[i].z - d;
                if (s > tol) {
                    snprintf(text, sizeof text, "input point %d is %g in front of face %d (tolerance %g)", i, s, f,
                             tol);
                    return text;
                }
            }
    }
    return NULL;
}

static void assert_valid_hull(const rb_hull_mesh *m, const rb_float3 *p, int n, float weld, int max_vertices)
{
    const char *problem = mesh_problem(m, p, n, 1, max_vertices, tolerance(p, n, weld, 4.0));
    if (problem)
        fail_msg("%s", problem);
}

static void build_ok(const rb_float3 *p, int n, float weld, int max_vertices, rb_hull_mesh *m)
{
    char why[256];
    int ok = rb_hull_build(p, n, weld, max_vertices, m, why, sizeof why);
    if (!ok)
        fail_msg("refused: %s", why);
}

// The index of the vertex at (x, y, z) exactly, or -1.
static int vertex_at(const rb_hull_mesh *m, float x, float y, float z)
{
    for (int v = 0; v < m->vertex_count; ++v)
        if (m->vertex[v].x == x && m->vertex[v].y == y && m->vertex[v].z == z)
            return v;
    return -1;
}

// ---------------------------------------------------------------------------------------------------------
// Random clouds

enum { CLOUD_BOX, CLOUD_SPHERE, CLOUD_ELLIPSOID, CLOUD_CLUSTERS, CLOUD_BOX_FACES, CLOUD_LATTICE,
       CLOUD_LATTICE_SURFACE, CLOUD_NEAR_DUPLICATES, CLOUD_PRISM, CLOUD_SLAB, CLOUD_KINDS };

// A cloud of the given kind; its size (4 .. 64 or 4 .. 200 points), weld and cap come from the LCG.
static int make_cloud(lcg *g, int kind, rb_float3 *p, float *weld, int *max_vertices)
{
    int n = rnd(g) < 0.5 ? rnd_int(g, 4, 64) : rnd_int(g, 4, 200);
    double rot[3][3], t[3], scale = pow(10.0, rnd_in(g, -2.0, 2.0));
    rnd_rotation(g, rot);
    int turned = rnd(g) < 0.5, moved = rnd(g) < 0.3;
    for (int k = 0; k < 3; ++k)
        t[k] = moved ? rnd_in(g, -3.0, 3.0) * scale : 0.0;
    if (!turned)
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k)
                rot[i][k] = i == k ? 1.0 : 0.0;
    double ax = rnd_in(g, 0.2, 1.0), ay = rnd_in(g, 0.2, 1.0), az = rnd_in(g, 0.2, 1.0);
    int lattice = rnd_int(g, 1, 4);
    for (int i = 0; i < n; ++i) {
        double x = 0.0, y = 0.0, z = 0.0, u[3];
        switch (kind) {
        case CLOUD_BOX:
            x = rnd_in(g, -ax, ax), y = rnd_in(g, -ay, ay), z = rnd_in(g, -az, az);
            break;
        case CLOUD_SPHERE:
            rnd_unit(g, u);
            x = u[0], y = u[1], z = u[2];
            break;
        case CLOUD_ELLIPSOID:
            rnd_unit(g, u);
            x = ax * u[0], y = ay * u[1], z = 0.1 * az * u[2];
            break;
        case CLOUD_CLUSTERS: { // up to 6 tight clusters: many points within the weld of each other
            lcg c = {(unsigned long long)rnd_int(g, 0, 5) * 7919u + 17u};
            double cx = rnd_in(&c, -1, 1), cy = rnd_in(&c, -1, 1), cz = rnd_in(&c, -1, 1), r = 1e-3 * rnd(g);
            x = cx + rnd_in(g, -r, r), y = cy + rnd_in(g, -r, r), z = cz + rnd_in(g, -r, r);
            break;
        }
        case CLOUD_BOX_FACES: { // on the faces of a box, corners and edges included sometimes
            int f = rnd_int(g, 0, 5);
            double s = f % 2 ? 1.0 : -1.0;
            double a = rnd(g) < 0.2 ? (rnd(g) < 0.5 ? -1.0 : 1.0) : rnd_in(g, -1, 1);
            double b = rnd(g) < 0.2 ? (rnd(g) < 0.5 ? -1.0 : 1.0) : rnd_in(g, -1, 1);
            x = f / 2 == 0 ? s : a, y = f / 2 == 1 ? s : (f / 2 == 0 ? a : b), z = f / 2 == 2 ? s : b;
            x *= ax, y *= ay, z *= az;
            break;
        }
        case CLOUD_LATTICE: // integer points: exact coplanarities and collinearities everywhere
            x = rnd_int(g, 0, lattice), y = rnd_int(g, 0, lattice), z = rnd_int(g, 0, lattice);
            break;
        case CLOUD_LATTICE_SURFACE: { // lattice points on the surface of a cube: all of them flat but 8
            int f = rnd_int(g, 0, 5);
            double a = rnd_int(g, 0, 2 * lattice), b = rnd_int(g, 0, 2 * lattice), s = f % 2 ? 2 * lattice : 0;
            x = f / 2 == 0 ? s : a, y = f / 2 == 1 ? s : (f / 2 == 0 ? a : b), z = f / 2 == 2 ? s : b;
            break;
        }
        case CLOUD_NEAR_DUPLICATES: // every other point a copy of an earlier one moved by far less than the weld
            if (i > 0 && rnd(g) < 0.5) {
                int j = rnd_int(g, 0, i - 1);
                p[i] = rb_f3(p[j].x * (float)(1.0 + 1e-7 * rnd_in(g, -1, 1)), p[j].y, p[j].z);
                continue;
            }
            rnd_unit(g, u);
            x = u[0], y = u[1], z = u[2];
            break;
        case CLOUD_PRISM: { // two regular k-gons: coplanar rings, rectangles between them
            int k = 3 + lattice * 2, j = rnd_int(g, 0, k - 1);
            double a = 2.0 * 3.14159265358979 * j / k;
            x = cos(a), y = sin(a), z = rnd(g) < 0.5 ? -az : az;
            if (rnd(g) < 0.2) // a point on a side face
                z = rnd_in(g, -az, az);
            break;
        }
        default: // CLOUD_SLAB: a thin slab, but far thicker than the tolerance
            x = rnd_in(g, -1, 1), y = rnd_in(g, -1, 1), z = rnd_in(g, -1e-2, 1e-2);
            break;
        }
        p[i] = transform(rot, t, x * scale, y * scale, z * scale);
    }
    static const float welds[4] = {0.0f, 1e-6f, 1e-4f, 1e-3f};
    *weld = welds[rnd_int(g, 0, 3)] * (float)scale;
    *max_vertices = rnd(g) < 0.7 ? RB_HULL_MAX_VERTICES : rnd_int(g, 4, RB_HULL_MAX_VERTICES);
    return n;
}

static void test_random_point_clouds_give_valid_convex_half_edge_meshes(void **state)
{
    (void)state;
    // 10,000 clouds of 4 to 200 points, 10 kinds: twins reverse each other, next cycles close after the
    // face's edge count, V - E + F = 2, unit normals, strictly convex planar faces, vertices taken from the
    // cloud, every vertex and (when the cap cannot have cut the hull short) every input point behind every
    // plane within 4 tolerances
    lcg g = {12345};
    rb_float3 p[200];
    rb_hull_mesh m;
    int refused = 0, refused_generic = 0, built = 0;
    clock_t start = clock();
    for (int c = 0; c < 10000; ++c) {
        int kind = c % CLOUD_KINDS, max_vertices;
        float weld;
        int n = make_cloud(&g, kind, p, &weld, &max_vertices);
        char why[256] = "";
        if (!rb_hull_build(p, n, weld, max_vertices, &m, why, sizeof why)) {
            // only clouds that can be flat may be refused, and always with a reason
            assert_true(strlen(why) > 0);
            refused++;
            if (kind == CLOUD_BOX || kind == CLOUD_SPHERE || kind == CLOUD_ELLIPSOID)
                refused_generic++;
            if (!strstr(why, "line") && !strstr(why, "plane") && !strstr(why, "distinct") && !strstr(why, "one point"))
                fail_msg("cloud %d: unexpected refusal: %s", c, why);
            continue;
        }
        built++;
        // a capped hull may leave points outside; with no more points than the cap it cannot be capped
        const char *problem = mesh_problem(&m, p, n, n <= max_vertices, max_vertices, tolerance(p, n, weld, 4.0));
        if (problem)
            fail_msg("cloud %d (kind %d, %d points, weld %g, cap %d): %s", c, kind, n, weld, max_vertices, problem);
    }
    print_message("%d hulls built, %d clouds refused as flat (%d of the generic kinds), %.2f s\n", built, refused,
                  refused_generic, (double)(clock() - start) / CLOCKS_PER_SEC);
    assert_int_equal(refused_generic, 0);
    assert_true(built > 9000);
}

static void test_hull_of_100000_points_on_a_sphere_is_capped_and_valid(void **state)
{
    (void)state;
    // the largest cloud the API takes: work bounded by points x vertices, every vertex on the sphere
    lcg g = {7};
    int n = 100000;
    rb_float3 *p = malloc(sizeof *p * (size_t)n);
    assert_non_null(p);
    for (int i = 0; i < n; ++i) {
        double u[3];
        rnd_unit(&g, u);
        p[i] = rb_f3((float)u[0], (float)u[1], (float)u[2]);
    }
    rb_hull_mesh m;
    clock_t start = clock();
    build_ok(p, n, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    print_message("100,000 points: %.3f s\n", (double)(clock() - start) / CLOCKS_PER_SEC);
    assert_int_equal(m.vertex_count, RB_HULL_MAX_VERTICES);
    const char *problem = mesh_problem(&m, p, n, 0, RB_HULL_MAX_VERTICES, tolerance(p, n, 1e-4f, 4.0));
    if (problem)
        fail_msg("%s", problem);
    free(p);
}

static void test_many_points_inside_a_few_corners_all_lie_inside_the_hull(void **state)
{
    (void)state;
    // 20 clouds: k = 4 .. 40 corners on a sphere, hidden among 5000 points on chords and triangles between
    // them (inside the polytope or on its surface). The hull never reaches the cap, so its vertices are
    // exactly the k corners and every point lies behind every plane within the tolerance.
    lcg g = {17};
    enum { N = 5000 };
    rb_float3 *p = malloc(sizeof *p * N);
    int *corner_at = malloc(sizeof(int) * N);
    assert_non_null(p);
    assert_non_null(corner_at);
    for (int cloud = 0; cloud < 20; ++cloud) {
        int k = 4 + (cloud * 37) % 37;
        double r = pow(10.0, rnd_in(&g, -1.0, 1.0)), c[40][3];
        for (int i = 0; i < k; ++i) {
            rnd_unit(&g, c[i]);
            for (int a = 0; a < 3; ++a)
                c[i][a] *= r;
        }
        for (int i = 0; i < N; ++i)
            corner_at[i] = -1;
        for (int i = 0; i < k; ++i) { // the corners at random places in the cloud
            int at;
            do
                at = rnd_int(&g, 0, N - 1);
            while (corner_at[at] >= 0);
            corner_at[at] = i;
        }
        for (int i = 0; i < N; ++i) {
            if (corner_at[i] >= 0) {
                const double *q = c[corner_at[i]];
                p[i] = rb_f3((float)q[0], (float)q[1], (float)q[2]);
                continue;
            }
            int a = rnd_int(&g, 0, k - 1), b = rnd_int(&g, 0, k - 1), d = rnd_int(&g, 0, k - 1);
            double u = rnd(&g), v = rnd(&g) * (1.0 - u), w = i % 2 ? 0.0 : 1.0 - u - v; // chords and triangles
            double s = u + v + w, x[3];
            for (int j = 0; j < 3; ++j)
                x[j] = (u * c[a][j] + v * c[b][j] + w * c[d][j]) / s;
            p[i] = rb_f3((float)x[0], (float)x[1], (float)x[2]);
        }
        rb_hull_mesh m;
        build_ok(p, N, 1e-4f, RB_HULL_MAX_VERTICES, &m);
        assert_int_equal(m.vertex_count, k);
        for (int v = 0; v < m.vertex_count; ++v) {
            int found = 0;
            for (int i = 0; i < k && !found; ++i)
                found = m.vertex[v].x == (float)c[i][0] && m.vertex[v].y == (float)c[i][1] &&
                        m.vertex[v].z == (float)c[i][2];
            assert_true(found);
        }
        assert_valid_hull(&m, p, N, 1e-4f, RB_HULL_MAX_VERTICES);
    }
    free(p);
    free(corner_at);
}

// ---------------------------------------------------------------------------------------------------------
// Merged faces

// The 8 corners of the cube [-1, 1]^3, then a 5 x 5 grid on each face (which puts points on the edges and
// the corners again) and 20 points inside: 178 points.
static int cube_with_extras(rb_float3 *p)
{
    int n = 0;
    for (int i = 0; i < 8; ++i)
        p[n++] = rb_f3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f);
    static const float s[5] = {-1.0f, -0.5f, 0.0f, 0.25f, 1.0f};
    for (int a = 0; a < 5; ++a)
        for (int b = 0; b < 5; ++b)
            for (int f = 0; f < 6; ++f) { // face grids include the edges and the corners again
                float side = f % 2 ? 1.0f : -1.0f;
                p[n++] = f / 2 == 0 ? rb_f3(side, s[a], s[b])
                                    : (f / 2 == 1 ? rb_f3(s[a], side, s[b]) : rb_f3(s[a], s[b], side));
            }
    for (int i = 0; i < 20; ++i)
        p[n++] = rb_f3(0.1f * (float)(i % 5) - 0.2f, 0.05f * (float)i - 0.5f, 0.3f);
    return n;
}

static void test_cube_with_points_on_faces_and_edges_has_8_vertices_6_faces_24_half_edges(void **state)
{
    (void)state;
    // corners, face grids (which put points on the edges too) and inner points: only the corners stay;
    // the faces are the 6 squares with axis normals and d = 1
    rb_float3 p[8 + 150 + 20];
    int n = cube_with_extras(p);
    rb_hull_mesh m;
    build_ok(p, n, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    assert_int_equal(m.vertex_count, 8);
    assert_int_equal(m.face_count, 6);
    assert_int_equal(m.half_edge_count, 24);
    for (int i = 0; i < 8; ++i)
        assert_true(vertex_at(&m, p[i].x, p[i].y, p[i].z) >= 0);
    for (int f = 0; f < 6; ++f) {
        rb_float4 pl = m.plane[f];
        assert_float_equal(fabsf(pl.x) + fabsf(pl.y) + fabsf(pl.z), 1.0f, 1e-6f);
        assert_float_equal(pl.w, 1.0f, 1e-6f);
        assert_int_equal(m.face_edge_count[f], 4);
    }
    assert_valid_hull(&m, p, n, 1e-4f, RB_HULL_MAX_VERTICES);
}

static void test_turned_and_moved_cube_with_extra_points_still_has_8_vertices(void **state)
{
    (void)state;
    // the same cloud turned and moved: rounded to floats its face points leave the planes by ~1e-7,
    // far inside the weld, so the faces still merge into 6 squares
    lcg g = {99};
    rb_float3 p[8 + 150 + 20];
    int n = cube_with_extras(p);
    for (int trial = 0; trial < 20; ++trial) {
        double r[3][3], t[3] = {rnd_in(&g, -5, 5), rnd_in(&g, -5, 5), rnd_in(&g, -5, 5)};
        rnd_rotation(&g, r);
        rb_float3 q[8 + 150 + 20];
        for (int i = 0; i < n; ++i)
            q[i] = transform(r, t, p[i].x, p[i].y, p[i].z);
        rb_hull_mesh m;
        build_ok(q, n, 1e-4f, RB_HULL_MAX_VERTICES, &m);
        assert_int_equal(m.vertex_count, 8);
        assert_int_equal(m.face_count, 6);
        assert_int_equal(m.half_edge_count, 24);
        assert_valid_hull(&m, q, n, 1e-4f, RB_HULL_MAX_VERTICES);
    }
}

static void test_octahedron_with_extra_points_has_6_vertices_8_faces_24_half_edges(void **state)
{
    (void)state;
    // the 6 tips, then edge midpoints and face centroids (exact in binary: thirds are not, so the centroids
    // land within 1e-8 of their faces) and the centre
    rb_float3 p[64];
    int n = 0;
    for (int k = 0; k < 3; ++k)
        for (int s = -1; s <= 1; s += 2)
            p[n++] = rb_f3(k == 0 ? (float)s : 0.0f, k == 1 ? (float)s : 0.0f, k == 2 ? (float)s : 0.0f);
    for (int i = 0; i < 6; ++i)
        for (int j = i + 1; j < 6; ++j)
            if (j != i + 1 || i % 2) // not opposite tips
                p[n++] = rb_f3(0.5f * (p[i].x + p[j].x), 0.5f * (p[i].y + p[j].y), 0.5f * (p[i].z + p[j].z));
    for (int f = 0; f < 8; ++f)
        p[n++] = rb_f3((f & 1 ? 1.0f : -1.0f) / 3.0f, (f & 2 ? 1.0f : -1.0f) / 3.0f, (f & 4 ? 1.0f : -1.0f) / 3.0f);
    p[n++] = rb_f3(0.0f, 0.0f, 0.0f);
    rb_hull_mesh m;
    build_ok(p, n, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    assert_int_equal(m.vertex_count, 6);
    assert_int_equal(m.face_count, 8);
    assert_int_equal(m.half_edge_count, 24);
    for (int f = 0; f < 8; ++f) // n = (+-1, +-1, +-1) / sqrt(3), d = 1 / sqrt(3)
        assert_float_equal(m.plane[f].w, 0.57735027f, 1e-6f);
    assert_valid_hull(&m, p, n, 1e-4f, RB_HULL_MAX_VERTICES);
}

static void test_tetrahedron_with_extra_points_has_4_vertices_4_faces_12_half_edges(void **state)
{
    (void)state;
    // corners, edge points at 1/4, 1/2, 3/4 (exact), and the centre
    const rb_float3 c[4] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    rb_float3 p[64];
    int n = 0;
    for (int i = 0; i < 4; ++i)
        p[n++] = c[i];
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j)
            for (int k = 1; k < 4; ++k) {
                float t = 0.25f * (float)k;
                p[n++] = rb_f3(c[i].x + t * (c[j].x - c[i].x), c[i].y + t * (c[j].y - c[i].y),
                               c[i].z + t * (c[j].z - c[i].z));
            }
    p[n++] = rb_f3(0.0f, 0.0f, 0.0f);
    rb_hull_mesh m;
    build_ok(p, n, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    assert_int_equal(m.vertex_count, 4);
    assert_int_equal(m.face_count, 4);
    assert_int_equal(m.half_edge_count, 12);
    assert_valid_hull(&m, p, n, 1e-4f, RB_HULL_MAX_VERTICES);
}

static void test_hexagonal_prism_merges_its_triangles_into_two_hexagons_and_six_rectangles(void **state)
{
    (void)state;
    // 12 corners (and the caps' centres, which must go): V = 12, F = 2 + 6, E = 18, 36 half-edges
    rb_float3 p[14];
    for (int i = 0; i < 12; ++i) {
        double a = 2.0 * 3.14159265358979 * (i % 6) / 6.0;
        p[i] = rb_f3((float)cos(a), (float)sin(a), i < 6 ? -0.5f : 0.5f);
    }
    p[12] = rb_f3(0.0f, 0.0f, -0.5f);
    p[13] = rb_f3(0.0f, 0.0f, 0.5f);
    rb_hull_mesh m;
    build_ok(p, 14, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    assert_int_equal(m.vertex_count, 12);
    assert_int_equal(m.face_count, 8);
    assert_int_equal(m.half_edge_count, 36);
    int hexagons = 0, rectangles = 0;
    for (int f = 0; f < 8; ++f) {
        hexagons += m.face_edge_count[f] == 6;
        rectangles += m.face_edge_count[f] == 4;
    }
    assert_int_equal(hexagons, 2);
    assert_int_equal(rectangles, 6);
    assert_valid_hull(&m, p, 14, 1e-4f, RB_HULL_MAX_VERTICES);
}

static void test_faces_within_the_weld_of_a_plane_merge(void **state)
{
    (void)state;
    // a cube whose face grids are lifted off the faces by up to 3e-4 (inside the weld 1e-3): the lifted
    // points lie within the weld of the faces and 6 faces come out; with weld 1e-5 they are real bumps
    rb_float3 p[8 + 150 + 20];
    int n = cube_with_extras(p);
    for (int i = 8; i < 8 + 150; ++i) {
        float lift = 3e-4f * (float)((i * 7) % 5) / 4.0f;
        p[i] = rb_f3(p[i].x * (1.0f + lift * (fabsf(p[i].x) == 1.0f)), p[i].y * (1.0f + lift * (fabsf(p[i].y) == 1.0f)),
                     p[i].z * (1.0f + lift * (fabsf(p[i].z) == 1.0f)));
    }
    rb_hull_mesh m;
    build_ok(p, n, 1e-3f, RB_HULL_MAX_VERTICES, &m);
    assert_int_equal(m.face_count, 6);
    assert_int_equal(m.vertex_count, 8);
    const char *problem = mesh_problem(&m, p, n, 0, RB_HULL_MAX_VERTICES, tolerance(p, n, 1e-3f, 4.0));
    if (problem)
        fail_msg("%s", problem);
    build_ok(p, n, 1e-5f, RB_HULL_MAX_VERTICES, &m);
    assert_true(m.face_count > 6);
    assert_valid_hull(&m, p, n, 1e-5f, RB_HULL_MAX_VERTICES);
}

static void test_hull_smaller_than_the_weld_scales_the_weld_down(void **state)
{
    (void)state;
    // a cube 1 mm across given with the default weld 1e-4 m and extra points 0.25 mm apart on its faces:
    // the weld shrinks to 1/100 of the cloud's extent (1.7e-5 m), so the faces' points stay distinct from
    // the corners and the cube still comes out whole
    rb_float3 p[8 + 150 + 20];
    int n = cube_with_extras(p);
    for (int i = 0; i < n; ++i)
        p[i] = rb_f3(5e-4f * p[i].x, 5e-4f * p[i].y, 5e-4f * p[i].z);
    rb_hull_mesh m;
    build_ok(p, n, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    assert_int_equal(m.vertex_count, 8);
    assert_int_equal(m.face_count, 6);
    assert_int_equal(m.half_edge_count, 24);
    rb_hull_mass mass;
    rb_hull_mass_properties(&m, &mass);
    assert_float_equal(mass.volume, 1e-9, 1e-14); // (1 mm)^3
}

static void test_near_duplicate_points_weld_into_the_first_one(void **state)
{
    (void)state;
    // each corner of a unit tetrahedron given 5 times, moved by up to 1e-4 (weld 1e-3): 4 vertices, each
    // exactly the first copy of its corner
    const rb_float3 c[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    rb_float3 p[20];
    for (int i = 0; i < 20; ++i) {
        float j = i < 4 ? 0.0f : 1e-4f * (float)(i % 3 + 1) / 3.0f;
        p[i] = rb_f3(c[i % 4].x + j, c[i % 4].y - j, c[i % 4].z + 0.5f * j);
    }
    rb_hull_mesh m;
    build_ok(p, 20, 1e-3f, RB_HULL_MAX_VERTICES, &m);
    assert_int_equal(m.vertex_count, 4);
    assert_int_equal(m.face_count, 4);
    for (int i = 0; i < 4; ++i)
        assert_true(vertex_at(&m, c[i].x, c[i].y, c[i].z) >= 0);
    assert_valid_hull(&m, p, 20, 1e-3f, RB_HULL_MAX_VERTICES);
}

// ---------------------------------------------------------------------------------------------------------
// Refusals

static void assert_refused(const rb_float3 *p, int n, float weld, const char *reason)
{
    rb_hull_mesh m;
    char why[256] = "";
    assert_int_equal(rb_hull_build(p, n, weld, RB_HULL_MAX_VERTICES, &m, why, sizeof why), 0);
    if (!strstr(why, reason))
        fail_msg("expected \"%s\" in \"%s\"", reason, why);
}

static void test_non_finite_point_is_refused_by_index_and_value(void **state)
{
    (void)state;
    rb_float3 p[8];
    for (int i = 0; i < 8; ++i)
        p[i] = rb_f3((float)(i & 1), (float)(i >> 1 & 1), (float)(i >> 2 & 1));
    p[5].y = NAN;
    assert_refused(p, 8, 1e-4f, "point 5 is not finite: (1, nan, 1)");
    p[5].y = 0.0f;
    p[2].z = -INFINITY;
    assert_refused(p, 8, 1e-4f, "point 2 is not finite: (0, 1, -inf)");
}

static void test_three_points_are_refused(void **state)
{
    (void)state;
    rb_float3 p[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    assert_refused(p, 3, 1e-4f, "at least 4 points, got 3");
}

static void test_coplanar_cloud_is_refused_as_flat(void **state)
{
    (void)state;
    // 100 points on the plane x + y + z = 1, lifted off it by 1e-7 at most (below the weld 1e-4)
    lcg g = {3};
    rb_float3 p[100];
    for (int i = 0; i < 100; ++i) {
        double a = rnd_in(&g, -1, 1), b = rnd_in(&g, -1, 1), e = rnd_in(&g, -1e-7, 1e-7);
        p[i] = rb_f3((float)(a + e), (float)b, (float)(1.0 - a - b));
    }
    assert_refused(p, 100, 1e-4f, "lie in one plane");
}

static void test_collinear_cloud_is_refused_as_a_line(void **state)
{
    (void)state;
    rb_float3 p[50];
    for (int i = 0; i < 50; ++i)
        p[i] = rb_f3(0.1f * (float)i, 1.0f + 0.2f * (float)i, -0.05f * (float)i);
    assert_refused(p, 50, 1e-4f, "lie on one line");
}

static void test_cloud_within_the_weld_of_one_point_is_refused(void **state)
{
    (void)state;
    // 10 copies of one point; then 10 points spread by 1e-8 about (1, 1, 1), below what floats there resolve
    rb_float3 p[10];
    for (int i = 0; i < 10; ++i)
        p[i] = rb_f3(1.0f, 2.0f, 3.0f);
    assert_refused(p, 10, 1e-4f, "all 10 points lie within");
    for (int i = 0; i < 10; ++i)
        p[i] = rb_f3(1.0f + (i & 1) * 1.2e-7f, 1.0f + (i & 2) * 0.6e-7f, 1.0f);
    assert_refused(p, 10, 1e-4f, "of one point");
}

static void test_cloud_of_three_distinct_points_is_refused(void **state)
{
    (void)state;
    // a triangle's corners given 4 times each, the copies within the weld
    rb_float3 p[12];
    for (int i = 0; i < 12; ++i)
        p[i] = rb_f3(i % 3 == 1 ? 1.0f : 0.0f, i % 3 == 2 ? 1.0f : 0.0f, 1e-5f * (float)(i / 3));
    assert_refused(p, 12, 1e-3f, "only 3 distinct points");
}

// ---------------------------------------------------------------------------------------------------------
// The vertex cap

static void test_sphere_of_1000_points_is_capped_at_64_16_and_4_vertices(void **state)
{
    (void)state;
    // every point of the cloud is a hull vertex; the cap keeps 64 (16, 4) of them, still a valid convex mesh
    lcg g = {11};
    rb_float3 p[1000];
    for (int i = 0; i < 1000; ++i) {
        double u[3];
        rnd_unit(&g, u);
        p[i] = rb_f3((float)u[0], (float)u[1], (float)u[2]);
    }
    const int caps[3] = {64, 16, 4};
    for (int k = 0; k < 3; ++k) {
        rb_hull_mesh m;
        build_ok(p, 1000, 1e-4f, caps[k], &m);
        assert_int_equal(m.vertex_count, caps[k]);
        const char *problem = mesh_problem(&m, p, 1000, 0, caps[k], tolerance(p, 1000, 1e-4f, 4.0));
        if (problem)
            fail_msg("cap %d: %s", caps[k], problem);
        // the farthest-point order spreads the kept vertices: the capped hull holds most of the ball's
        // volume (4/3 pi = 4.19; inscribed in it, a regular icosahedron (12 vertices) has 2.54, a regular
        // tetrahedron 0.51)
        rb_hull_mass mass;
        rb_hull_mass_properties(&m, &mass);
        assert_true(mass.volume > (caps[k] == 64 ? 3.6 : (caps[k] == 16 ? 2.6 : 0.3)));
    }
}

static void test_capped_cube_with_extra_points_keeps_its_corners(void **state)
{
    (void)state;
    // with max_vertices 8 the farthest-point order still reaches the 8 corners before any other point
    rb_float3 p[8 + 150 + 20];
    int n = cube_with_extras(p);
    rb_hull_mesh m;
    build_ok(p, n, 1e-4f, 8, &m);
    assert_int_equal(m.vertex_count, 8);
    assert_int_equal(m.face_count, 6);
    assert_valid_hull(&m, p, n, 1e-4f, 8);
}

static void test_same_cloud_gives_the_same_mesh_bits(void **state)
{
    (void)state;
    lcg g = {5};
    rb_float3 p[300];
    for (int i = 0; i < 300; ++i)
        p[i] = rb_f3((float)rnd_in(&g, -1, 1), (float)rnd_in(&g, -2, 2), (float)rnd_in(&g, -0.5, 0.5));
    rb_hull_mesh *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    memset(a, 0, sizeof *a);
    memset(b, 0xff, sizeof *b);
    build_ok(p, 300, 1e-4f, 32, a);
    build_ok(p, 300, 1e-4f, 32, b);
    rb_float4 ra[RB_HULL_MAX_RECORD], rbuf[RB_HULL_MAX_RECORD];
    assert_int_equal(rb_hull_record_size(a), rb_hull_record_size(b));
    rb_hull_write_record(a, ra);
    rb_hull_write_record(b, rbuf);
    assert_memory_equal(ra, rbuf, sizeof(rb_float4) * (size_t)rb_hull_record_size(a));
    free(a);
    free(b);
}

// ---------------------------------------------------------------------------------------------------------
// Mass properties

static void assert_mass(const rb_hull_mass *m, double volume, const double centroid[3], const double inertia[6],
                        double scale)
{
    // relative 1e-5 of the volume and of the largest inertia (products may be 0)
    assert_float_equal(m->volume, volume, 1e-5 * volume);
    for (int k = 0; k < 3; ++k)
        assert_float_equal(m->centroid[k], centroid[k], 1e-5 * scale);
    double big = 0.0;
    for (int k = 0; k < 6; ++k)
        big = fmax(big, fabs(inertia[k]));
    for (int k = 0; k < 6; ++k)
        assert_float_equal(m->inertia[k], inertia[k], 1e-5 * big);
}

static void corners(rb_float3 *p, double x0, double x1, double y0, double y1, double z0, double z1)
{
    for (int i = 0; i < 8; ++i)
        p[i] = rb_f3((float)(i & 1 ? x1 : x0), (float)(i & 2 ? y1 : y0), (float)(i & 4 ? z1 : z0));
}

static void test_box_mass_properties_follow_the_textbook(void **state)
{
    (void)state;
    // unit cube [0, 1]^3: V = 1, centroid (1/2, 1/2, 1/2), I = (1 + 1) / 12 = 1/6 per unit mass, no products
    rb_float3 p[8];
    rb_hull_mesh m;
    rb_hull_mass mass;
    corners(p, 0, 1, 0, 1, 0, 1);
    build_ok(p, 8, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    rb_hull_mass_properties(&m, &mass);
    const double c1[3] = {0.5, 0.5, 0.5}, i1[6] = {1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 0, 0, 0};
    assert_mass(&mass, 1.0, c1, i1, 1.0);
    // box 2 x 1 x 0.5 about (1, -2, 3): V = 1, Ixx = (1 + 0.25) / 12, Iyy = (4 + 0.25) / 12, Izz = (4 + 1) / 12
    corners(p, 0, 2, -2.5, -1.5, 2.75, 3.25);
    build_ok(p, 8, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    rb_hull_mass_properties(&m, &mass);
    const double c2[3] = {1.0, -2.0, 3.0}, i2[6] = {1.25 / 12.0, 4.25 / 12.0, 5.0 / 12.0, 0, 0, 0};
    assert_mass(&mass, 1.0, c2, i2, 1.0);
    // the unit cube mesh (+-1): V = 8, I = (4 + 4) / 12 = 2/3
    rb_hull_unit_cube(&m);
    rb_hull_mass_properties(&m, &mass);
    const double c3[3] = {0, 0, 0}, i3[6] = {2.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0, 0, 0, 0};
    assert_mass(&mass, 8.0, c3, i3, 1.0);
}

static void test_regular_tetrahedron_mass_properties_follow_the_textbook(void **state)
{
    (void)state;
    // corners (1,1,1), (1,-1,-1), (-1,1,-1), (-1,-1,1): edge a = 2 sqrt 2, V = a^3 / (6 sqrt 2) = 8/3,
    // centroid 0, I = a^2 / 20 = 0.4 per unit mass about every axis, no products
    const rb_float3 p[4] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    rb_hull_mesh m;
    rb_hull_mass mass;
    build_ok(p, 4, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    rb_hull_mass_properties(&m, &mass);
    const double c[3] = {0, 0, 0}, in[6] = {0.4, 0.4, 0.4, 0, 0, 0};
    assert_mass(&mass, 8.0 / 3.0, c, in, 1.0);
}

static void test_regular_octahedron_mass_properties_follow_the_textbook(void **state)
{
    (void)state;
    // tips at distance 1 on the axes: V = 4/3; integral(x^2) = 2 int_0^1 x^2 2 (1 - x)^2 dx = 2/15, so
    // I = (2/15 + 2/15) / V = 1/5 per unit mass, no products
    rb_float3 p[6];
    for (int i = 0; i < 6; ++i)
        p[i] = rb_f3(i / 2 == 0 ? (i % 2 ? 1.0f : -1.0f) : 0.0f, i / 2 == 1 ? (i % 2 ? 1.0f : -1.0f) : 0.0f,
                     i / 2 == 2 ? (i % 2 ? 1.0f : -1.0f) : 0.0f);
    rb_hull_mesh m;
    rb_hull_mass mass;
    build_ok(p, 6, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    rb_hull_mass_properties(&m, &mass);
    const double c[3] = {0, 0, 0}, in[6] = {0.2, 0.2, 0.2, 0, 0, 0};
    assert_mass(&mass, 4.0 / 3.0, c, in, 1.0);
}

static void test_turned_and_moved_box_has_the_rotated_inertia_about_the_moved_centroid(void **state)
{
    (void)state;
    // the 2 x 1 x 0.5 box turned by R and moved by t: V = 1, centroid t, tensor R I R^T with
    // I = diag(1.25, 4.25, 5) / 12 (entries xx yy zz xy xz yz, products of inertia included)
    lcg g = {21};
    for (int trial = 0; trial < 10; ++trial) {
        double r[3][3], t[3] = {rnd_in(&g, -10, 10), rnd_in(&g, -10, 10), rnd_in(&g, -10, 10)};
        rnd_rotation(&g, r);
        rb_float3 p[8];
        for (int i = 0; i < 8; ++i)
            p[i] = transform(r, t, i & 1 ? 1.0 : -1.0, i & 2 ? 0.5 : -0.5, i & 4 ? 0.25 : -0.25);
        rb_hull_mesh m;
        rb_hull_mass mass;
        build_ok(p, 8, 1e-4f, RB_HULL_MAX_VERTICES, &m);
        assert_int_equal(m.face_count, 6);
        rb_hull_mass_properties(&m, &mass);
        const double d[3] = {1.25 / 12.0, 4.25 / 12.0, 5.0 / 12.0};
        double full[3][3];
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                full[a][b] = r[a][0] * d[0] * r[b][0] + r[a][1] * d[1] * r[b][1] + r[a][2] * d[2] * r[b][2];
        const double in[6] = {full[0][0], full[1][1], full[2][2], full[0][1], full[0][2], full[1][2]};
        // the float corners are within 1e-6 of the exact box, so the centroid is within ~1e-6 of t
        assert_float_equal(mass.volume, 1.0, 1e-5);
        for (int k = 0; k < 3; ++k)
            assert_float_equal(mass.centroid[k], t[k], 1e-5 * 10.0);
        for (int k = 0; k < 6; ++k)
            assert_float_equal(mass.inertia[k], in[k], 1e-5 * d[2]);
    }
}

// ---------------------------------------------------------------------------------------------------------
// The record

static void assert_record_matches_mesh(const rb_hull_mesh *m)
{
    // the record written into a buffer with guards after it, read back through core/kernels/hull.h
    int size = rb_hull_record_size(m);
    assert_int_equal(size, RB_HULL_HEADER + m->vertex_count + 2 * m->face_count + m->half_edge_count);
    rb_float4 rec[RB_HULL_MAX_RECORD + 4];
    for (int i = 0; i < RB_HULL_MAX_RECORD + 4; ++i)
        rec[i] = rb_f4(-7.0f, -7.0f, -7.0f, -7.0f);
    rb_hull_write_record(m, rec);
    for (int i = size; i < RB_HULL_MAX_RECORD + 4; ++i)
        assert_float_equal(rec[i].x, -7.0f, 0.0f);
    rb_hull_view h = rb_hull_view_make(rec);
    assert_int_equal(rb_hull_vertex_count(h), m->vertex_count);
    assert_int_equal(rb_hull_face_count(h), m->face_count);
    assert_int_equal(rb_hull_half_edge_count(h), m->half_edge_count);
    assert_float_equal(rec[0].w, 0.0f, 0.0f);
    assert_float_equal(rb_hull_bounding_radius(h), rb_hull_mesh_radius(m), 0.0f);
    for (int v = 0; v < m->vertex_count; ++v) {
        rb_float3 x = rb_hull_vertex(h, v);
        assert_memory_equal(&x, &m->vertex[v], sizeof x);
        assert_int_equal(rb_hull_vertex_edge(h, v), m->vertex_edge[v]);
        assert_true(rb_len(x) <= rb_hull_bounding_radius(h));
    }
    for (int f = 0; f < m->face_count; ++f) {
        rb_float4 pl = rb_hull_plane(h, f);
        assert_memory_equal(&pl, &m->plane[f], sizeof pl);
        assert_int_equal(rb_hull_face_first_edge(h, f), m->face_edge[f]);
        assert_int_equal(rb_hull_face_edge_count(h, f), m->face_edge_count[f]);
    }
    for (int e = 0; e < m->half_edge_count; ++e) {
        assert_int_equal(rb_hull_edge_origin(h, e), m->edge_origin[e]);
        assert_int_equal(rb_hull_edge_twin(h, e), m->edge_twin[e]);
        assert_int_equal(rb_hull_edge_next(h, e), m->edge_next[e]);
        assert_int_equal(rb_hull_edge_face(h, e), m->edge_face[e]);
    }
}

static void test_written_record_reads_back_through_the_kernel_accessors(void **state)
{
    (void)state;
    rb_hull_mesh m;
    rb_float3 p[8 + 150 + 20];
    int n = cube_with_extras(p);
    build_ok(p, n, 1e-4f, RB_HULL_MAX_VERTICES, &m);
    assert_record_matches_mesh(&m);
    lcg g = {8};
    rb_float3 s[500];
    for (int i = 0; i < 500; ++i) {
        double u[3];
        rnd_unit(&g, u);
        s[i] = rb_f3((float)(3.0 * u[0] + 1.0), (float)(2.0 * u[1]), (float)u[2]);
    }
    build_ok(s, 500, 1e-4f, RB_HULL_MAX_VERTICES, &m); // the largest record: 64 vertices
    assert_int_equal(m.vertex_count, RB_HULL_MAX_VERTICES);
    assert_record_matches_mesh(&m);
    build_ok(s, 500, 1e-4f, 16, &m);
    assert_record_matches_mesh(&m);
    // the support index finds the vertex farthest along a direction, as a loop over the mesh does
    rb_float4 rec[RB_HULL_MAX_RECORD];
    rb_hull_write_record(&m, rec);
    rb_float3 dir = rb_f3(0.3f, -0.8f, 0.5f);
    int best = 0;
    for (int v = 1; v < m.vertex_count; ++v)
        if (rb_dot(m.vertex[v], dir) > rb_dot(m.vertex[best], dir))
            best = v;
    assert_int_equal(rb_hull_support_index(rb_hull_view_make(rec), dir), best);
}

static void test_unit_cube_viewed_as_a_box_gives_the_box_vertices_and_planes(void **state)
{
    (void)state;
    // the cube mesh is a valid hull with axis normals and d = 1; viewed at half-extents (0.5, 2, 3) its
    // vertices are (+-0.5, +-2, +-3) and each plane's d is the half-extent along its normal
    rb_hull_mesh m;
    rb_hull_unit_cube(&m);
    assert_int_equal(m.vertex_count, 8);
    assert_int_equal(m.face_count, 6);
    assert_int_equal(m.half_edge_count, 24);
    const char *problem = mesh_problem(&m, NULL, 0, 0, 8, 0.0);
    if (problem)
        fail_msg("%s", problem);
    for (int f = 0; f < 6; ++f) {
        rb_float4 pl = m.plane[f];
        assert_true(fabsf(pl.x) + fabsf(pl.y) + fabsf(pl.z) == 1.0f);
        assert_true(pl.x == 0.0f || pl.y == 0.0f); // two components exactly 0, one exactly +-1
        assert_true((pl.x == 0.0f) + (pl.y == 0.0f) + (pl.z == 0.0f) == 2);
        assert_float_equal(pl.w, 1.0f, 0.0f);
    }
    rb_float4 rec[RB_HULL_CUBE_RECORD];
    assert_int_equal(rb_hull_record_size(&m), RB_HULL_CUBE_RECORD);
    rb_hull_write_record(&m, rec);
    assert_record_matches_mesh(&m);
    rb_hull_view box = rb_hull_view_box(rec, rb_f3(0.5f, 2.0f, 3.0f));
    assert_float_equal(rb_hull_bounding_radius(box), sqrtf(0.25f + 4.0f + 9.0f), 1e-6f);
    for (int v = 0; v < 8; ++v) {
        rb_float3 x = rb_hull_vertex(box, v);
        assert_float_equal(fabsf(x.x), 0.5f, 0.0f);
        assert_float_equal(fabsf(x.y), 2.0f, 0.0f);
        assert_float_equal(fabsf(x.z), 3.0f, 0.0f);
    }
    for (int f = 0; f < 6; ++f) {
        rb_float4 pl = rb_hull_plane(box, f);
        float expect = pl.x != 0.0f ? 0.5f : (pl.y != 0.0f ? 2.0f : 3.0f);
        assert_float_equal(pl.w, expect, 0.0f);
        // every vertex of the face lies on its scaled plane
        int e = rb_hull_face_first_edge(box, f);
        for (int k = 0; k < rb_hull_face_edge_count(box, f); ++k) {
            rb_float3 x = rb_hull_vertex(box, rb_hull_edge_origin(box, e));
            assert_float_equal(rb_dot(rb_xyz(pl), x), pl.w, 0.0f);
            e = rb_hull_edge_next(box, e);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_point_clouds_give_valid_convex_half_edge_meshes),
        cmocka_unit_test(test_hull_of_100000_points_on_a_sphere_is_capped_and_valid),
        cmocka_unit_test(test_many_points_inside_a_few_corners_all_lie_inside_the_hull),
        cmocka_unit_test(test_cube_with_points_on_faces_and_edges_has_8_vertices_6_faces_24_half_edges),
        cmocka_unit_test(test_turned_and_moved_cube_with_extra_points_still_has_8_vertices),
        cmocka_unit_test(test_octahedron_with_extra_points_has_6_vertices_8_faces_24_half_edges),
        cmocka_unit_test(test_tetrahedron_with_extra_points_has_4_vertices_4_faces_12_half_edges),
        cmocka_unit_test(test_hexagonal_prism_merges_its_triangles_into_two_hexagons_and_six_rectangles),
        cmocka_unit_test(test_faces_within_the_weld_of_a_plane_merge),
        cmocka_unit_test(test_hull_smaller_than_the_weld_scales_the_weld_down),
        cmocka_unit_test(test_near_duplicate_points_weld_into_the_first_one),
        cmocka_unit_test(test_non_finite_point_is_refused_by_index_and_value),
        cmocka_unit_test(test_three_points_are_refused),
        cmocka_unit_test(test_coplanar_cloud_is_refused_as_flat),
        cmocka_unit_test(test_collinear_cloud_is_refused_as_a_line),
        cmocka_unit_test(test_cloud_within_the_weld_of_one_point_is_refused),
        cmocka_unit_test(test_cloud_of_three_distinct_points_is_refused),
        cmocka_unit_test(test_sphere_of_1000_points_is_capped_at_64_16_and_4_vertices),
        cmocka_unit_test(test_capped_cube_with_extra_points_keeps_its_corners),
        cmocka_unit_test(test_same_cloud_gives_the_same_mesh_bits),
        cmocka_unit_test(test_box_mass_properties_follow_the_textbook),
        cmocka_unit_test(test_regular_tetrahedron_mass_properties_follow_the_textbook),
        cmocka_unit_test(test_regular_octahedron_mass_properties_follow_the_textbook),
        cmocka_unit_test(test_turned_and_moved_box_has_the_rotated_inertia_about_the_moved_centroid),
        cmocka_unit_test(test_written_record_reads_back_through_the_kernel_accessors),
        cmocka_unit_test(test_unit_cube_viewed_as_a_box_gives_the_box_vertices_and_planes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
