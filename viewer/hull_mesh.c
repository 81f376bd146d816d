// Meshes of convex hulls (see hull_mesh.h).
#include "hull_mesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_math.h"

// The hull as read through the API: vertices, and each face's plane and vertex loop (counter-clockwise
// seen from outside).
typedef struct hull_data {
    int vertex_count, face_count;
    rb_vec3 *vertex;
    rb_vec3 *normal;   // per face
    int *first, *size; // per face: its loop is loop[first .. + size)
    int *loop;
    int *face_of;      // [a * V + b]: the face whose loop runs a -> b (-1: none)
    int *after;        // [a * V + b]: the vertex that follows b in that loop
} hull_data;

static void hull_data_free(hull_data *h)
{
    free(h->vertex);
    free(h->normal);
    free(h->first);
    free(h->size);
    free(h->loop);
    free(h->face_of);
    free(h->after);
    memset(h, 0, sizeof *h);
}

static bool library_error(char *err, size_t size, const char *what, rb_hull_id hull)
{
    rb_world_id none = rb_null_world_id;
    snprintf(err, size, "cannot read hull %d's %s: %s", (int)hull.index1, what, rb_last_error(none));
    return false;
}

static bool read_hull(rb_hull_id id, hull_data *h, char *err, size_t err_size)
{
    memset(h, 0, sizeof *h);
    rb_hull_info info;
    if (rb_hull_get_info(id, &info) != RB_OK)
        return library_error(err, err_size, "description", id);
    int v = info.vertex_count, f = info.face_count, loops = 2 * info.edge_count; // each edge borders two loops
    h->vertex = malloc(sizeof *h->vertex * (size_t)v);
    h->normal = malloc(sizeof *h->normal * (size_t)f);
    h->first = malloc(sizeof *h->first * (size_t)f);
    h->size = malloc(sizeof *h->size * (size_t)f);
    h->loop = malloc(sizeof *h->loop * (size_t)loops);
    h->face_of = malloc(sizeof *h->face_of * (size_t)v * (size_t)v);
    h->after = malloc(sizeof *h->after * (size_t)v * (size_t)v);
    if (!h->vertex || !h->normal || !h->first || !h->size || !h->loop || !h->face_of || !h->after) {
        hull_data_free(h);
        snprintf(err, err_size, "out of memory reading hull %d", (int)id.index1);
        return false;
    }
    int n = 0;
    if (rb_hull_get_vertices(id, h->vertex, v, &n) != RB_OK || n != v) {
        hull_data_free(h);
        return library_error(err, err_size, "vertices", id);
    }
    for (int i = 0; i < v * v; ++i)
        h->face_of[i] = h->after[i] = -1;
    int used = 0;
    for (int i = 0; i < f; ++i) {
        rb_plane plane;
        int k = 0;
        if (rb_hull_get_face(id, i, &plane, h->loop + used, loops - used, &k) != RB_OK || k < 3 || k > loops - used) {
            hull_data_free(h);
            return library_error(err, err_size, "faces", id);
        }
        h->normal[i] = plane.normal;
        h->first[i] = used;
        h->size[i] = k;
        for (int j = 0; j < k; ++j) {
            int a = h->loop[used + j], b = h->loop[used + (j + 1) % k], c = h->loop[used + (j + 2) % k];
            if (a < 0 || a >= v || b < 0 || b >= v || c < 0 || c >= v) {
                hull_data_free(h);
                snprintf(err, err_size, "hull %d: face %d names vertex %d of %d", (int)id.index1, i, a, v);
                return false;
            }
            h->face_of[a * v + b] = i;
            h->after[a * v + b] = c;
        }
        used += k;
    }
    h->vertex_count = v;
    h->face_count = f;
    return true;
}

// ---- growing the set ----

static bool reserve(hull_mesh_set *s, int vertices, int indices)
{
    if (s->vertex_count + vertices > s->vertex_capacity) {
        int cap = s->vertex_capacity ? s->vertex_capacity : 1024;
        while (cap < s->vertex_count + vertices)
            cap *= 2;
        mesh_vertex *p = realloc(s->vertices, sizeof *p * (size_t)cap);
        if (!p)
            return false;
        s->vertices = p;
        s->vertex_capacity = cap;
    }
    if (s->index_count + indices > s->index_capacity) {
        int cap = s->index_capacity ? s->index_capacity : 4096;
        while (cap < s->index_count + indices)
            cap *= 2;
        uint32_t *p = realloc(s->indices, sizeof *p * (size_t)cap);
        if (!p)
            return false;
        s->indices = p;
        s->index_capacity = cap;
    }
    if (s->mesh_count == s->mesh_capacity) {
        int cap = s->mesh_capacity ? 2 * s->mesh_capacity : 64;
        int *first = realloc(s->first_index, sizeof *first * (size_t)cap);
        if (first)
            s->first_index = first;
        int *counts = realloc(s->index_counts, sizeof *counts * (size_t)cap);
        if (counts)
            s->index_counts = counts;
        if (!first || !counts)
            return false;
        s->mesh_capacity = cap;
    }
    return true;
}

static int vertex(hull_mesh_set *s, rb_vec3 p, rb_vec3 n)
{
    mesh_vertex *v = &s->vertices[s->vertex_count];
    v->position[0] = p.x, v->position[1] = p.y, v->position[2] = p.z;
    v->normal[0] = n.x, v->normal[1] = n.y, v->normal[2] = n.z;
    return s->vertex_count++;
}

static rb_vec3 position(const hull_mesh_set *s, int i)
{
    const float *p = s->vertices[i].position;
    return vm_vec3(p[0], p[1], p[2]);
}

// A triangle turned so that it is counter-clockwise seen from `outward`'s side.
static void triangle(hull_mesh_set *s, int a, int b, int c, rb_vec3 outward)
{
    rb_vec3 pa = position(s, a), n = vm_cross(vm_sub(position(s, b), pa), vm_sub(position(s, c), pa));
    bool flip = vm_dot(n, outward) < 0.0f;
    s->indices[s->index_count++] = (uint32_t)a;
    s->indices[s->index_count++] = (uint32_t)(flip ? c : b);
    s->indices[s->index_count++] = (uint32_t)(flip ? b : c);
}

// The unit normal a fraction t of the way from n0 to n1 along the arc between them (the two normals of
// an edge's faces are never opposite on a hull).
static rb_vec3 arc(rb_vec3 n0, rb_vec3 n1, float t)
{
    return vm_normalize(vm_add(vm_scale(n0, 1.0f - t), vm_scale(n1, t)));
}

bool hull_mesh_set_add(hull_mesh_set *s, rb_hull_id id, float radius, char *err, size_t err_size)
{
    hull_data h;
    if (!read_hull(id, &h, err, err_size))
        return false;
    int loops = 0;
    for (int f = 0; f < h.face_count; ++f)
        loops += h.size[f];
    const int S = HULL_ARC_SEGMENTS;
    bool round = radius > 0.0f;
    // faces: a vertex per loop corner, a fan of size - 2 triangles; rounded: per edge (loops / 2 of them) a
    // strip of 2 (S + 1) vertices and 2 S triangles; per corner a centre and, per face around it (loops
    // in all), S + 1 vertices and S triangles
    int vertices = loops + (round ? 2 * loops * (S + 1) + h.vertex_count : 0);
    int indices = 3 * (loops - 2 * h.face_count) + (round ? 3 * (loops * S + loops * S) : 0);
    if (!reserve(s, vertices, indices)) {
        hull_data_free(&h);
        snprintf(err, err_size, "out of memory for the mesh of hull %d", (int)id.index1);
        return false;
    }
    int first_index = s->index_count;
    for (int f = 0; f < h.face_count; ++f) {
        rb_vec3 n = h.normal[f], lift = vm_scale(n, radius);
        int base = s->vertex_count;
        for (int j = 0; j < h.size[f]; ++j)
            vertex(s, vm_add(h.vertex[h.loop[h.first[f] + j]], lift), n);
        for (int j = 1; j + 1 < h.size[f]; ++j)
            triangle(s, base, base + j, base + j + 1, n);
    }
    if (round) {
        int v = h.vertex_count;
        // each edge once (a < b): the cylinder strip from the face of a -> b to the face of b -> a
        for (int a = 0; a < v; ++a)
            for (int b = a + 1; b < v; ++b) {
                int f0 = h.face_of[a * v + b], f1 = h.face_of[b * v + a];
                if (f0 < 0 || f1 < 0)
                    continue;
                int base = s->vertex_count;
                for (int k = 0; k <= S; ++k) {
                    rb_vec3 n = arc(h.normal[f0], h.normal[f1], (float)k / (float)S);
                    vertex(s, vm_mad(h.vertex[a], radius, n), n);
                    vertex(s, vm_mad(h.vertex[b], radius, n), n);
                }
                for (int k = 0; k < S; ++k) {
                    rb_vec3 out = arc(h.normal[f0], h.normal[f1], ((float)k + 0.5f) / (float)S);
                    int q = base + 2 * k;
                    triangle(s, q, q + 1, q + 3, out);
                    triangle(s, q, q + 3, q + 2, out);
                }
            }
        // each corner: the sphere patch between the normals of the faces around it, in order, as a fan
        // from their mean
        for (int a = 0; a < v; ++a) {
            int start = -1;
            for (int b = 0; b < v && start < 0; ++b)
                if (h.face_of[a * v + b] >= 0)
                    start = b;
            if (start < 0)
                continue;
            rb_vec3 mean = vm_vec3(0.0f, 0.0f, 0.0f);
            int b = start, guard = 0;
            do { // around a: the face of a -> b, then the face of b -> a, whose loop goes on a -> after
                mean = vm_add(mean, h.normal[h.face_of[a * v + b]]);
                int back = h.face_of[b * v + a];
                b = back >= 0 ? h.after[b * v + a] : -1;
            } while (b >= 0 && b != start && ++guard < v);
            rb_vec3 centre_n = vm_normalize(mean);
            int centre = vertex(s, vm_mad(h.vertex[a], radius, centre_n), centre_n);
            b = start, guard = 0;
            do {
                int back = h.face_of[b * v + a];
                if (back < 0)
                    break;
                rb_vec3 n0 = h.normal[h.face_of[a * v + b]], n1 = h.normal[back];
                int prev = -1;
                rb_vec3 prev_n = n0;
                for (int k = 0; k <= S; ++k) {
                    rb_vec3 n = arc(n0, n1, (float)k / (float)S);
                    int cur = vertex(s, vm_mad(h.vertex[a], radius, n), n);
                    if (prev >= 0)
                        triangle(s, centre, prev, cur, vm_add(vm_add(centre_n, prev_n), n));
                    prev = cur;
                    prev_n = n;
                }
                b = h.after[b * v + a];
            } while (b >= 0 && b != start && ++guard < v);
        }
    }
    s->first_index[s->mesh_count] = first_index;
    s->index_counts[s->mesh_count] = s->index_count - first_index;
    s->mesh_count++;
    hull_data_free(&h);
    return true;
}

void hull_mesh_set_free(hull_mesh_set *s)
{
    free(s->vertices);
    free(s->indices);
    free(s->first_index);
    free(s->index_counts);
    memset(s, 0, sizeof *s);
}
