// The convex standard scene `rocks` of docs/bench-scenes.md ("Convex scene: rocks"), engine-independent:
// the seeded draws of every body (12 points and an orientation), a small convex hull of up to 12 points
// (faces as vertex loops counter-clockwise seen from outside, and their planes), the exact mass
// properties of the uniform solid hull (volume, centroid, full inertia tensor, principal moments and
// axes), and the scene's quality fields. Header only, no engine types; compiles as C99, C11 and C++;
// everything is `static inline` with the prefix rocks_ / ROCKS_. Used by bench_common.h (the ODE and
// Bullet drivers); meant to be used as it is by any other program that runs this scene (rubble's bench).
//
//   uint64_t rng = seed;                                  // 1 for the standard scene
//   for (int b = 0; b < ROCKS_BODIES; ++b) {              // loop order iy, ix, iz
//       double pts[ROCKS_POINTS][3], q[4], c[3];
//       rocks_draw_body(&rng, pts, q);                    // 12 draws for the points, then 4 for q
//       rocks_body_center(b, c);                          // (ix - 7.5, 1 + iy, iz - 7.5)
//       rocks_hull hull;  rocks_mass mass;
//       rocks_hull_build(&pts[0][0], ROCKS_POINTS, &hull); // 1 on success
//       rocks_mass_properties(&hull, 1.0, &mass);         // 1 kg
//       ...a body at c, orientation q (w, x, y, z), shape = the hull of pts (body-local, about the
//          centroid, which is the origin), inertia mass.inertia (body axes) or mass.principal about the
//          axes mass.axes / mass.axes_wxyz...
//   }
//   ...step...
//   rocks_quality q;  rocks_quality_init(&q);
//   for each body b: rocks_quality_add(&q, &pts_b[0][0], ROCKS_POINTS, position, orientation_wxyz, velocity);
//   rocks_report(&q, emit, ctx);                          // escaped, max_ground_penetration, moving_final,
//                                                         // min_y; max_speed_final is q.max_speed
//
// Conventions: SI units, y up, quaternions (w, x, y, z), points body-local. The draws use the LCG of
// bench-scenes.md (the same as bench_common.h's lcg_next): state <- state * 6364136223846793005 +
// 1442695040888963407 before each draw, u = (state >> 11) * 2^-53.
#ifndef ROCKS_SCENE_H
#define ROCKS_SCENE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

enum {
    ROCKS_GRID = 16,          // 16 x 16 x 16 bodies
    ROCKS_BODIES = 4096,
    ROCKS_POINTS = 12,        // per body: +p_0 .. +p_5, then -p_0 .. -p_5
    ROCKS_MAX_VERTICES = 12,  // the hull builder takes 4 .. 12 points
    ROCKS_MAX_FACES = 20,     // 2V - 4 for V = 12 (all faces triangles)
    ROCKS_MAX_LOOP = 60       // sum of the faces' vertex counts = 2E <= 2 (3V - 6)
};
#define ROCKS_PEN_HALF 12.0       // the pen's inner faces at x = +-12, z = +-12 (as boxes)
#define ROCKS_SEMI_X 0.25         // p_j = (0.25 d_x, 0.20 d_y, 0.15 d_z), d uniform on the unit sphere
#define ROCKS_SEMI_Y 0.20
#define ROCKS_SEMI_Z 0.15
#define ROCKS_MOVING_SPEED 0.1    // moving_final counts bodies faster than this, m/s

// ---- draws -------------------------------------------------------------------------------------
static inline double rocks_lcg_next(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

// a * b rounded on its own. The volatile keeps a compiler from fusing the product into a multiply-add
// (floating-point contraction: GCC's default in its GNU modes, -std=gnu11, on a target with FMA), so
// that the draws are the same bits whatever the flags (-ffast-math aside).
static inline double rocks_product(double a, double b)
{
    volatile double p = a * b;
    return p;
}

// Centre of body b (0 .. 4095, loop order iy, ix, iz): (ix - 7.5, 1 + iy, iz - 7.5), as boxes.
static inline void rocks_body_center(int b, double c[3])
{
    int iy = b / (ROCKS_GRID * ROCKS_GRID), ix = b / ROCKS_GRID % ROCKS_GRID, iz = b % ROCKS_GRID;
    c[0] = ix - 7.5, c[1] = 1.0 + iy, c[2] = iz - 7.5;
}

// The next body's draws: for j = 0..5, u1 then u2 -> c = 2 u1 - 1, s = sqrt(1 - c^2), phi = 2 pi u2,
// d = (s cos phi, s sin phi, c), p_j = (0.25 d_x, 0.20 d_y, 0.15 d_z); pts[j] = +p_j and
// pts[6 + j] = -p_j. Then four draws give the orientation exactly as in boxes: axis =
// normalize(2u - 1, 2u - 1, 2u - 1) (x, y, z), angle = pi u; q = (w, x, y, z) (identity if the axis
// is 0). 16 draws per body.
static inline void rocks_draw_body(uint64_t *state, double pts[ROCKS_POINTS][3], double q[4])
{
    for (int j = 0; j < ROCKS_POINTS / 2; ++j) {
        double u1 = rocks_lcg_next(state);
        double u2 = rocks_lcg_next(state);
        double c = 2.0 * u1 - 1.0, s = sqrt(1.0 - rocks_product(c, c)), phi = 2.0 * 3.14159265358979323846 * u2;
        double d[3] = {s * cos(phi), s * sin(phi), c};
        pts[j][0] = ROCKS_SEMI_X * d[0], pts[j][1] = ROCKS_SEMI_Y * d[1], pts[j][2] = ROCKS_SEMI_Z * d[2];
        for (int k = 0; k < 3; ++k)
            pts[ROCKS_POINTS / 2 + j][k] = -pts[j][k];
    }
    // the same arithmetic as bench_common.h's boxes (compiled there without contraction: -std=c99)
    double ax = 2.0 * rocks_lcg_next(state) - 1.0;
    double ay = 2.0 * rocks_lcg_next(state) - 1.0;
    double az = 2.0 * rocks_lcg_next(state) - 1.0;
    double angle = 3.14159265358979323846 * rocks_lcg_next(state);
    double len = sqrt(rocks_product(ax, ax) + rocks_product(ay, ay) + rocks_product(az, az));
    q[0] = 1.0, q[1] = q[2] = q[3] = 0.0;
    if (len > 0.0) {
        double sn = sin(0.5 * angle) / len;
        q[0] = cos(0.5 * angle), q[1] = ax * sn, q[2] = ay * sn, q[3] = az * sn;
    }
}

// ---- small helpers -----------------------------------------------------------------------------
static inline double rocks_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static inline void rocks_cross(const double a[3], const double b[3], double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    out[0] = x, out[1] = y, out[2] = z;
}

// out = R(q) v, q = (w, x, y, z) unit
static inline void rocks_rotate(const double q[4], const double v[3], double out[3])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double ww = w * w, xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y,
           wz = w * z;
    double r0 = (ww + xx - yy - zz) * v[0] + 2.0 * (xy - wz) * v[1] + 2.0 * (xz + wy) * v[2];
    double r1 = 2.0 * (xy + wz) * v[0] + (ww - xx + yy - zz) * v[1] + 2.0 * (yz - wx) * v[2];
    double r2 = 2.0 * (xz - wy) * v[0] + 2.0 * (yz + wx) * v[1] + (ww - xx - yy + zz) * v[2];
    out[0] = r0, out[1] = r1, out[2] = r2;
}

// a b (Hamilton product), (w, x, y, z)
static inline void rocks_qmul(const double a[4], const double b[4], double out[4])
{
    double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    out[0] = w, out[1] = x, out[2] = y, out[3] = z;
}

// ---- convex hull of 4 .. 12 points -------------------------------------------------------------
typedef struct rocks_hull {
    int vertex_count;                       // points that are hull vertices, in input order
    double vertex[ROCKS_MAX_VERTICES][3];
    int source[ROCKS_MAX_VERTICES];         // vertex[i] is input point source[i]
    int face_count;
    double plane[ROCKS_MAX_FACES][4];       // unit outward normal n and d: n . x = d on the face
    int face_first[ROCKS_MAX_FACES];        // the face's loop is index[face_first .. + face_size)
    int face_size[ROCKS_MAX_FACES];         // >= 3
    int index[ROCKS_MAX_LOOP];              // into vertex[], counter-clockwise seen from outside
    int edge_count;                         // V - E + F = 2 is checked
} rocks_hull;

// The hull of xyz[0 .. 3n) (n = 4 .. 12 points): brute force over point triples; a triple whose plane
// has every point on one side (within a tolerance of 1e-9 times the largest coordinate) spans a face,
// and the points on that plane (within the tolerance) are one face: coplanar faces merge. A face's
// loop is the 2D hull of its points in its plane (collinear and interior points dropped), its plane
// from the loop by Newell's method, with d the largest n . p over all points (no point outside).
// Returns 1 and fills *h, or 0: a non-finite point, n out of range, all points on a plane or a line,
// or a result that is not a closed 2-manifold with V - E + F = 2 (a tolerance conflict; not seen on
// the scene's bodies).
static inline int rocks_hull_build(const double *xyz, int n, rocks_hull *h)
{
    enum { MAX_TRIPLES = 220 }; // C(12, 3)
    unsigned masks[MAX_TRIPLES];
    double normals[MAX_TRIPLES][3];
    int candidates = 0;
    memset(h, 0, sizeof *h);
    if (n < 4 || n > ROCKS_MAX_VERTICES)
        return 0;
    double scale = 0.0, ref[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < 3 * n; ++i) {
        if (!isfinite(xyz[i]))
            return 0;
        scale = fabs(xyz[i]) > scale ? fabs(xyz[i]) : scale;
        ref[i % 3] += xyz[i] / n;
    }
    if (scale == 0.0)
        return 0;
    const double eps = 1e-9 * scale;
    const double *p = xyz;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            for (int k = j + 1; k < n; ++k) {
                double e1[3], e2[3], c[3];
                for (int a = 0; a < 3; ++a)
                    e1[a] = p[3 * j + a] - p[3 * i + a], e2[a] = p[3 * k + a] - p[3 * i + a];
                rocks_cross(e1, e2, c);
                double len = sqrt(rocks_dot(c, c));
                if (len <= 1e-12 * scale * scale)
                    continue; // (nearly) collinear triple
                for (int a = 0; a < 3; ++a)
                    c[a] /= len;
                double d = rocks_dot(c, p + 3 * i);
                int above = 0, below = 0;
                unsigned on = 0;
                for (int l = 0; l < n; ++l) {
                    double t = rocks_dot(c, p + 3 * l) - d;
                    if (t > eps)
                        ++above;
                    else if (t < -eps)
                        ++below;
                    else
                        on |= 1u << l;
                }
                if (above && below)
                    continue;
                if (!above && !below)
                    return 0; // every point on one plane: flat
                if (above)
                    c[0] = -c[0], c[1] = -c[1], c[2] = -c[2];
                int dup = 0;
                for (int f = 0; f < candidates && !dup; ++f)
                    dup = masks[f] == on;
                if (!dup) {
                    masks[candidates] = on;
                    memcpy(normals[candidates], c, sizeof c);
                    ++candidates;
                }
            }
    // a face whose points are a strict subset of another face's is the same face seen by a tolerance
    int loop_total = 0, vertex_of[ROCKS_MAX_VERTICES];
    unsigned used = 0;
    int loops[MAX_TRIPLES][ROCKS_MAX_VERTICES], loop_size[MAX_TRIPLES], faces = 0;
    double face_normal[MAX_TRIPLES][3];
    for (int f = 0; f < candidates; ++f) {
        int subset = 0;
        for (int g = 0; g < candidates && !subset; ++g)
            subset = g != f && (masks[f] & masks[g]) == masks[f] && masks[g] != masks[f];
        if (subset)
            continue;
        // 2D hull in the plane: basis (u, v, normal) right-handed, so counter-clockwise in (u, v) is
        // counter-clockwise seen from outside; Andrew's monotone chain, strict turns only
        const double *nf = normals[f];
        double u[3] = {0.0, 0.0, 0.0}, v[3];
        int axis = 0; // the normal's smallest component
        for (int a = 1; a < 3; ++a)
            axis = fabs(nf[a]) < fabs(nf[axis]) ? a : axis;
        u[axis] = 1.0;
        double t = rocks_dot(u, nf);
        for (int a = 0; a < 3; ++a)
            u[a] -= t * nf[a];
        t = sqrt(rocks_dot(u, u));
        for (int a = 0; a < 3; ++a)
            u[a] /= t;
        rocks_cross(nf, u, v);
        int idx[ROCKS_MAX_VERTICES], m = 0;
        double px[ROCKS_MAX_VERTICES], py[ROCKS_MAX_VERTICES];
        for (int l = 0; l < n; ++l)
            if (masks[f] >> l & 1u)
                idx[m++] = l;
        for (int a = 1; a < m; ++a) // insertion sort by (u, v)
            for (int b = a; b > 0; --b) {
                double xa = rocks_dot(u, p + 3 * idx[b]), xb = rocks_dot(u, p + 3 * idx[b - 1]);
                double ya = rocks_dot(v, p + 3 * idx[b]), yb = rocks_dot(v, p + 3 * idx[b - 1]);
                if (xa < xb || (xa == xb && ya < yb)) {
                    int s = idx[b];
                    idx[b] = idx[b - 1], idx[b - 1] = s;
                } else {
                    break;
                }
            }
        for (int a = 0; a < m; ++a)
            px[a] = rocks_dot(u, p + 3 * idx[a]), py[a] = rocks_dot(v, p + 3 * idx[a]);
        int chain[2 * ROCKS_MAX_VERTICES], cs = 0;
        const double turn_eps = 1e-12 * scale * scale;
        for (int pass = 0; pass < 2; ++pass) { // lower chain left to right, then upper right to left
            int start = cs;
            for (int s = 0; s < m; ++s) {
                int a = pass == 0 ? s : m - 1 - s;
                while (cs - start >= 2) {
                    int o = chain[cs - 2], b = chain[cs - 1];
                    double cr = (px[b] - px[o]) * (py[a] - py[o]) - (py[b] - py[o]) * (px[a] - px[o]);
                    if (cr > turn_eps)
                        break;
                    --cs;
                }
                chain[cs++] = a;
            }
            --cs; // the last point starts the other chain
        }
        if (cs < 3)
            return 0;
        if (faces >= MAX_TRIPLES)
            return 0;
        double nw[3] = {0.0, 0.0, 0.0}; // Newell's normal of the loop
        for (int a = 0; a < cs; ++a) {
            const double *c0 = p + 3 * idx[chain[a]], *c1 = p + 3 * idx[chain[(a + 1) % cs]];
            nw[0] += (c0[1] - c1[1]) * (c0[2] + c1[2]);
            nw[1] += (c0[2] - c1[2]) * (c0[0] + c1[0]);
            nw[2] += (c0[0] - c1[0]) * (c0[1] + c1[1]);
            loops[faces][a] = idx[chain[a]];
            used |= 1u << idx[chain[a]];
        }
        t = sqrt(rocks_dot(nw, nw));
        if (!(t > 0.0) || rocks_dot(nw, nf) <= 0.0)
            return 0;
        for (int a = 0; a < 3; ++a)
            face_normal[faces][a] = nw[a] / t;
        loop_size[faces++] = cs;
        loop_total += cs;
    }
    if (faces > ROCKS_MAX_FACES || loop_total > ROCKS_MAX_LOOP)
        return 0;
    for (int l = 0; l < n; ++l)
        if (used >> l & 1u) {
            vertex_of[l] = h->vertex_count;
            h->source[h->vertex_count] = l;
            memcpy(h->vertex[h->vertex_count++], p + 3 * l, 3 * sizeof(double));
        }
    for (int f = 0; f < faces; ++f) {
        double d = -INFINITY;
        for (int l = 0; l < n; ++l) {
            double t = rocks_dot(face_normal[f], p + 3 * l);
            d = t > d ? t : d;
        }
        memcpy(h->plane[f], face_normal[f], 3 * sizeof(double));
        h->plane[f][3] = d;
        if (rocks_dot(face_normal[f], ref) >= d)
            return 0; // the mean of the points must lie inside
        h->face_first[f] = h->face_count ? h->face_first[f - 1] + h->face_size[f - 1] : 0;
        h->face_size[f] = loop_size[f];
        for (int a = 0; a < loop_size[f]; ++a)
            h->index[h->face_first[f] + a] = vertex_of[loops[f][a]];
        h->face_count = f + 1;
    }
    // closed 2-manifold: every directed edge once, its reverse once; Euler V - E + F = 2
    h->edge_count = loop_total / 2;
    for (int f = 0; f < faces; ++f)
        for (int a = 0; a < h->face_size[f]; ++a) {
            int v0 = h->index[h->face_first[f] + a], v1 = h->index[h->face_first[f] + (a + 1) % h->face_size[f]];
            int same = 0, reverse = 0;
            for (int g = 0; g < faces; ++g)
                for (int b = 0; b < h->face_size[g]; ++b) {
                    const int *lg = h->index + h->face_first[g];
                    int w0 = lg[b], w1 = lg[(b + 1) % h->face_size[g]];
                    same += w0 == v0 && w1 == v1;
                    reverse += w0 == v1 && w1 == v0;
                }
            if (same != 1 || reverse != 1)
                return 0;
        }
    if (loop_total % 2 || h->vertex_count - h->edge_count + h->face_count != 2)
        return 0;
    return 1;
}

// ---- mass properties of the uniform solid hull -------------------------------------------------
typedef struct rocks_mass {
    double mass;             // kg, as given
    double volume;           // m^3
    double centroid[3];      // body-local (0 for the scene's centrally symmetric hulls, to rounding)
    double inertia[3][3];    // kg m^2 about the centroid in body axes: the tensor, off-diagonal entries
                             // -integral(rho x y) etc. (ODE's dMassSetParameters I12, I13, I23)
    double principal[3];     // its eigenvalues, ascending
    double axes[3][3];       // columns: the principal axes in body coordinates, right-handed (det +1);
                             // inertia = axes diag(principal) axes^T
    double axes_wxyz[4];     // the rotation `axes` (principal frame -> body frame) as a quaternion, w >= 0
} rocks_mass;

// Jacobi rotations of a symmetric 3 x 3: w the eigenvalues (ascending), V the eigenvectors (columns,
// det +1), A = V diag(w) V^T.
static inline void rocks_jacobi(double A[3][3] /* read only */, double w[3], double V[3][3])
{
    double a[3][3];
    memcpy(a, A, sizeof a);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            V[i][j] = i == j;
    for (int sweep = 0; sweep < 50; ++sweep) {
        double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        if (off == 0.0 || off <= 1e-34 * diag)
            break;
        for (int pq = 0; pq < 3; ++pq) {
            int P = pq == 2 ? 1 : 0, Q = pq == 0 ? 1 : 2;
            if (a[P][Q] == 0.0)
                continue;
            double theta = (a[Q][Q] - a[P][P]) / (2.0 * a[P][Q]);
            double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
            double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
            for (int k = 0; k < 3; ++k) { // a <- a J
                double kp = a[k][P], kq = a[k][Q];
                a[k][P] = c * kp - s * kq, a[k][Q] = s * kp + c * kq;
            }
            for (int k = 0; k < 3; ++k) { // a <- J^T a
                double pk = a[P][k], qk = a[Q][k];
                a[P][k] = c * pk - s * qk, a[Q][k] = s * pk + c * qk;
            }
            for (int k = 0; k < 3; ++k) { // V <- V J
                double kp = V[k][P], kq = V[k][Q];
                V[k][P] = c * kp - s * kq, V[k][Q] = s * kp + c * kq;
            }
        }
    }
    for (int i = 0; i < 3; ++i)
        w[i] = a[i][i];
    for (int i = 0; i < 3; ++i) // ascending, columns with them
        for (int j = i + 1; j < 3; ++j)
            if (w[j] < w[i]) {
                double s = w[i];
                w[i] = w[j], w[j] = s;
                for (int k = 0; k < 3; ++k)
                    s = V[k][i], V[k][i] = V[k][j], V[k][j] = s;
            }
    double c0[3] = {V[0][0], V[1][0], V[2][0]}, c1[3] = {V[0][1], V[1][1], V[2][1]}, c01[3];
    rocks_cross(c0, c1, c01);
    if (c01[0] * V[0][2] + c01[1] * V[1][2] + c01[2] * V[2][2] < 0.0)
        for (int k = 0; k < 3; ++k)
            V[k][2] = -V[k][2];
}

// rotation matrix (rows) -> unit quaternion (w, x, y, z), w >= 0
static inline void rocks_matrix_to_quat(double m[3][3] /* read only */, double q[4])
{
    double tr = m[0][0] + m[1][1] + m[2][2], s;
    if (tr > 0.0) {
        s = 2.0 * sqrt(tr + 1.0);
        q[0] = 0.25 * s, q[1] = (m[2][1] - m[1][2]) / s, q[2] = (m[0][2] - m[2][0]) / s, q[3] = (m[1][0] - m[0][1]) / s;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
        q[0] = (m[2][1] - m[1][2]) / s, q[1] = 0.25 * s, q[2] = (m[0][1] + m[1][0]) / s, q[3] = (m[0][2] + m[2][0]) / s;
    } else if (m[1][1] > m[2][2]) {
        s = 2.0 * sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]);
        q[0] = (m[0][2] - m[2][0]) / s, q[1] = (m[0][1] + m[1][0]) / s, q[2] = 0.25 * s, q[3] = (m[1][2] + m[2][1]) / s;
    } else {
        s = 2.0 * sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]);
        q[0] = (m[1][0] - m[0][1]) / s, q[1] = (m[0][2] + m[2][0]) / s, q[2] = (m[1][2] + m[2][1]) / s, q[3] = 0.25 * s;
    }
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (q[0] < 0.0)
        len = -len;
    for (int i = 0; i < 4; ++i)
        q[i] /= len;
}

// Volume, centroid and inertia of the uniform solid hull of the given mass, by the divergence theorem:
// each face is fanned into triangles (v0, v_a, v_a+1), each triangle with a reference point r inside
// (the mean of the vertices) is a tetrahedron of signed volume det/6 (det = a.(b x c), a, b, c relative
// to r), first moment det/24 (a + b + c) and second moment integral(x x^T) = det/120 (a a^T + b b^T +
// c c^T + s s^T), s = a + b + c. The second moment is moved to the centroid, and inertia = (mass /
// volume) (trace(C) 1 - C). Then the tensor is diagonalised (rocks_jacobi).
static inline void rocks_mass_properties(const rocks_hull *h, double mass, rocks_mass *out)
{
    double r[3] = {0.0, 0.0, 0.0}, vol = 0.0, m1[3] = {0.0, 0.0, 0.0}, C[3][3] = {{0.0}};
    memset(out, 0, sizeof *out);
    out->mass = mass;
    for (int i = 0; i < h->vertex_count; ++i)
        for (int k = 0; k < 3; ++k)
            r[k] += h->vertex[i][k] / h->vertex_count;
    for (int f = 0; f < h->face_count; ++f) {
        const int *loop = h->index + h->face_first[f];
        for (int a = 1; a + 1 < h->face_size[f]; ++a) {
            double A[3], B[3], Cc[3], bc[3], s[3];
            for (int k = 0; k < 3; ++k) {
                A[k] = h->vertex[loop[0]][k] - r[k];
                B[k] = h->vertex[loop[a]][k] - r[k];
                Cc[k] = h->vertex[loop[a + 1]][k] - r[k];
                s[k] = A[k] + B[k] + Cc[k];
            }
            rocks_cross(B, Cc, bc);
            double det = rocks_dot(A, bc);
            vol += det / 6.0;
            for (int k = 0; k < 3; ++k)
                m1[k] += det / 24.0 * s[k];
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    C[i][j] += det / 120.0 * (A[i] * A[j] + B[i] * B[j] + Cc[i] * Cc[j] + s[i] * s[j]);
        }
    }
    out->volume = vol;
    double g[3];
    for (int k = 0; k < 3; ++k)
        g[k] = m1[k] / vol, out->centroid[k] = r[k] + g[k];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            C[i][j] -= vol * g[i] * g[j];
    double tr = C[0][0] + C[1][1] + C[2][2], rho = mass / vol;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            out->inertia[i][j] = rho * ((i == j ? tr : 0.0) - C[i][j]);
    for (int i = 0; i < 3; ++i) // exactly symmetric
        for (int j = i + 1; j < 3; ++j)
            out->inertia[j][i] = out->inertia[i][j] = 0.5 * (out->inertia[i][j] + out->inertia[j][i]);
    rocks_jacobi(out->inertia, out->principal, out->axes);
    rocks_matrix_to_quat(out->axes, out->axes_wxyz);
}

// ---- quality -----------------------------------------------------------------------------------
typedef struct rocks_quality {
    int bodies;
    int escaped;                   // non-finite position, |x| > 12, |z| > 12 or y < 0 (of the centre), as boxes
    double max_ground_penetration; // m, max(0, -lowest world-space hull vertex y); NaN if a pose is non-finite
    double max_speed;              // m/s (max_speed_final); NaN if a velocity is non-finite
    int moving;                    // bodies faster than 0.1 m/s (a non-finite velocity counts)
    double min_y;                  // m, lowest centre; NaN if a position is non-finite
} rocks_quality;

static inline void rocks_quality_init(rocks_quality *q)
{
    memset(q, 0, sizeof *q);
    q->min_y = (double)INFINITY;
}

static inline double rocks_nanmax(double a, double b) // NaN wins
{
    return (a != a || b != b) ? (double)NAN : (a > b ? a : b);
}

// One body at the end: its body-local points (the hull's vertices, or the 12 drawn points: the lowest
// is the same), its centre, orientation (w, x, y, z) and linear velocity.
static inline void rocks_quality_add(rocks_quality *q, const double *xyz, int n, const double pos[3],
                                     const double rot[4], const double vel[3])
{
    ++q->bodies;
    double speed = sqrt(rocks_dot(vel, vel));
    q->max_speed = rocks_nanmax(q->max_speed, isfinite(speed) ? speed : (double)NAN);
    q->moving += !(speed <= ROCKS_MOVING_SPEED);
    if (!isfinite(pos[0]) || !isfinite(pos[1]) || !isfinite(pos[2]) || !isfinite(rot[0]) || !isfinite(rot[1]) ||
        !isfinite(rot[2]) || !isfinite(rot[3])) {
        ++q->escaped;
        q->min_y = q->max_ground_penetration = (double)NAN;
        return;
    }
    if (fabs(pos[0]) > ROCKS_PEN_HALF || fabs(pos[2]) > ROCKS_PEN_HALF || pos[1] < 0.0)
        ++q->escaped;
    q->min_y = pos[1] < q->min_y ? pos[1] : q->min_y;
    double len = sqrt(rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2] + rot[3] * rot[3]);
    double u[4] = {rot[0] / len, rot[1] / len, rot[2] / len, rot[3] / len};
    for (int i = 0; i < n; ++i) {
        double w[3];
        rocks_rotate(u, xyz + 3 * i, w);
        q->max_ground_penetration = rocks_nanmax(q->max_ground_penetration, -(pos[1] + w[1]));
    }
}

// The scene's quality fields of the JSON line, in order, as (key, value) calls; max_speed_final (q->max_speed),
// common to every scene, is left to the caller.
static inline void rocks_report(const rocks_quality *q, void (*emit)(void *ctx, const char *key, double value),
                                void *ctx)
{
    emit(ctx, "escaped", q->escaped);
    emit(ctx, "max_ground_penetration", q->max_ground_penetration);
    emit(ctx, "moving_final", q->moving);
    emit(ctx, "min_y", q->bodies ? q->min_y : (double)NAN);
}

#endif
