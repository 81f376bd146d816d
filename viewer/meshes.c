// The unit meshes (see meshes.h).
#include "meshes.h"

#include <math.h>
#include <string.h>

static void vertex(mesh *m, float px, float py, float pz, float nx, float ny, float nz)
{
    mesh_vertex *v = &m->vertices[m->vertex_count++];
    v->position[0] = px, v->position[1] = py, v->position[2] = pz;
    v->normal[0] = nx, v->normal[1] = ny, v->normal[2] = nz;
}

static void triangle(mesh *m, int a, int b, int c)
{
    m->indices[m->index_count++] = (uint16_t)a;
    m->indices[m->index_count++] = (uint16_t)b;
    m->indices[m->index_count++] = (uint16_t)c;
}

void mesh_cube(mesh *m)
{
    memset(m, 0, sizeof *m);
    // each face: normal n, and two in-face axes u, v with u x v = n, so (−u−v, u−v, u+v, −u+v) is
    // counter-clockwise seen from outside
    static const float faces[6][3][3] = {
        {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},  {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
        {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},  {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
        {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
    };
    static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int f = 0; f < 6; ++f) {
        const float *n = faces[f][0], *u = faces[f][1], *v = faces[f][2];
        int base = m->vertex_count;
        for (int k = 0; k < 4; ++k) {
            float a = corners[k][0], b = corners[k][1];
            vertex(m, n[0] + a * u[0] + b * v[0], n[1] + a * u[1] + b * v[1], n[2] + a * u[2] + b * v[2], n[0], n[1], n[2]);
        }
        triangle(m, base, base + 1, base + 2);
        triangle(m, base, base + 2, base + 3);
    }
}

void mesh_cylinder(mesh *m)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i <= CYLINDER_SEGMENTS; ++i) {
        float a = 2.0f * 3.14159265f * (float)i / CYLINDER_SEGMENTS;
        float x = sinf(a), z = cosf(a);
        vertex(m, x, -1.0f, z, x, 0.0f, z);
        vertex(m, x, 1.0f, z, x, 0.0f, z);
    }
    for (int i = 0; i < CYLINDER_SEGMENTS; ++i) {
        int b = 2 * i; // bottom, top of this column; +2 the next column (counter-clockwise from outside)
        triangle(m, b, b + 2, b + 1);
        triangle(m, b + 1, b + 2, b + 3);
    }
}

void mesh_plane_quad(mesh *m)
{
    memset(m, 0, sizeof *m);
    vertex(m, -1.0f, 0.0f, -1.0f, 0.0f, 1.0f, 0.0f);
    vertex(m, -1.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f);
    vertex(m, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f);
    vertex(m, 1.0f, 0.0f, -1.0f, 0.0f, 1.0f, 0.0f);
    triangle(m, 0, 1, 2);
    triangle(m, 0, 2, 3);
}

void mesh_impostor_quad(mesh *m)
{
    memset(m, 0, sizeof *m);
    vertex(m, -1.0f, -1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
    vertex(m, 1.0f, -1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
    vertex(m, -1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
    vertex(m, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f);
}
