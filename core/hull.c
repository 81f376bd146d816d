// Convex hulls kept by a world: built once from a point cloud (core/hull_build.c), stored as records in
// the world's hull pool (core/kernels/hull.h), shared by any number of convex shapes.
//
// The pool starts with the unit cube (a box is that record at its half-extents) and holds the live
// hulls' records one after another. Destroying a hull (refused while a shape uses it) closes the gap:
// the records after it move down, and the convex shapes that name them by offset follow.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hull_build.h"
#include "world.h"

#define RB_MAX_HULLS (1 << 20)
#define RB_MAX_HULL_POINTS 100000
// The record offset is kept in a float (shape params): exact below 2^24.
#define RB_MAX_HULL_POOL (1 << 24)
#define RB_HULL_MAX_COORDINATE 1.0e6f

typedef struct rb_hull_slot {
    uint16_t generation;
    bool live;
    int offset, size;     // record in scene.hull_pool
    int users;            // convex shapes using it
    int vertex_count, face_count, edge_count;
    rb_hull_mass mass;
    float radius;         // vertices' bounding radius about the hull origin
    double area;          // surface area, m²
    double edge_term;     // half the sum over edges of length x exterior angle, m (Steiner's formula)
    float inradius;       // largest ball about the hull origin inside the hull
} rb_hull_slot;

rb_hull_def rb_default_hull_def(void)
{
    rb_hull_def d;
    memset(&d, 0, sizeof d);
    d.weld_distance = 1.0e-4f;
    d.max_vertices = RB_HULL_MAX_VERTICES;
    d.internal_value = RB_DEF_COOKIE;
    return d;
}

rb_hull_id rb_make_hull_id(const rb_world *w, int slot)
{
    rb_hull_id id = {slot + 1, (uint16_t)w->index, w->hulls[slot].generation};
    return id;
}

rb_world *rb_get_hull(rb_hull_id id, int *slot, rb_status *status)
{
    rb_world *w = rb_world_of_object(id.index1, id.world0, "hull", status);
    if (!w)
        return NULL;
    int h = id.index1 - 1;
    if (h >= w->hull_slots || !w->hulls[h].live || w->hulls[h].generation != id.generation) {
        *status = rb_fail(w, RB_ERR_STALE_ID, "hull id %d (generation %u) refers to a destroyed hull", id.index1,
                          id.generation);
        return NULL;
    }
    *slot = h;
    *status = RB_OK;
    return w;
}

bool rb_hull_is_valid(rb_hull_id id)
{
    const rb_world *w = rb_world_of_object_quiet(id.index1, id.world0);
    if (!w)
        return false;
    int h = id.index1 - 1;
    return h < w->hull_slots && w->hulls[h].live && w->hulls[h].generation == id.generation;
}

void rb_hull_add_user(rb_world *w, int hull, int delta) { w->hulls[hull].users += delta; }

int rb_hull_offset(const rb_world *w, int hull) { return w->hulls[hull].offset; }

int rb_hull_slot_of_offset(const rb_world *w, int offset)
{
    for (int h = 0; h < w->hull_slots; ++h)
        if (w->hulls[h].live && w->hulls[h].offset == offset)
            return h;
    return -1;
}

// The solid hull grown by `radius`: its volume exactly (Steiner: V + S r + M r² + 4/3 pi r³), its centroid
// as the sharp hull's (exact for the centrally symmetric ones), and its inertia per unit mass as the sharp
// hull's plus a ball's 2/5 r² (exact for r = 0 and for a hull shrunk to a point).
void rb_hull_shape_mass(const rb_world *w, int hull, float radius, double *volume, double centroid[3],
                        double inertia[6])
{
    const rb_hull_slot *s = &w->hulls[hull];
    double r = radius;
    *volume = s->mass.volume + s->area * r + s->edge_term * r * r + 4.0 / 3.0 * 3.14159265358979323846 * r * r * r;
    memcpy(centroid, s->mass.centroid, sizeof s->mass.centroid);
    memcpy(inertia, s->mass.inertia, sizeof s->mass.inertia);
    for (int k = 0; k < 3; ++k)
        inertia[k] += 0.4 * r * r;
}

float rb_hull_slot_radius(const rb_world *w, int hull) { return w->hulls[hull].radius; }
float rb_hull_slot_inradius(const rb_world *w, int hull) { return w->hulls[hull].inradius; }
int rb_hull_of_shape(const rb_world *w, int shape)
{
    return (int)w->scene.hull_pool[(int)w->scene.shape_params[shape].y].w;
}

// Surface area and Steiner's edge term of a record, in double.
static void steiner_terms(rb_hull_view v, double *area, double *edge_term)
{
    double a = 0.0, m = 0.0;
    for (int f = 0; f < rb_hull_face_count(v); ++f) {
        int e0 = rb_hull_face_first_edge(v, f), n = rb_hull_face_edge_count(v, f);
        rb_float3 p0 = rb_hull_vertex(v, rb_hull_edge_origin(v, e0)), nf = rb_xyz(rb_hull_plane(v, f));
        int e = rb_hull_edge_next(v, e0);
        for (int i = 1; i + 1 < n; ++i, e = rb_hull_edge_next(v, e)) { // fan triangles
            rb_float3 p1 = rb_hull_vertex(v, rb_hull_edge_origin(v, e));
            rb_float3 p2 = rb_hull_vertex(v, rb_hull_edge_origin(v, rb_hull_edge_next(v, e)));
            double ux = (double)p1.x - p0.x, uy = (double)p1.y - p0.y, uz = (double)p1.z - p0.z;
            double wx = (double)p2.x - p0.x, wy = (double)p2.y - p0.y, wz = (double)p2.z - p0.z;
            a += 0.5 * ((uy * wz - uz * wy) * nf.x + (uz * wx - ux * wz) * nf.y + (ux * wy - uy * wx) * nf.z);
        }
    }
    for (int e = 0; e < rb_hull_half_edge_count(v); e += 2) {
        rb_float3 p = rb_hull_vertex(v, rb_hull_edge_origin(v, e));
        rb_float3 q = rb_hull_vertex(v, rb_hull_edge_origin(v, e + 1));
        rb_float3 n1 = rb_xyz(rb_hull_plane(v, rb_hull_edge_face(v, e)));
        rb_float3 n2 = rb_xyz(rb_hull_plane(v, rb_hull_edge_face(v, e + 1)));
        double c = (double)n1.x * n2.x + (double)n1.y * n2.y + (double)n1.z * n2.z;
        double len = sqrt(((double)q.x - p.x) * ((double)q.x - p.x) + ((double)q.y - p.y) * ((double)q.y - p.y) +
                          ((double)q.z - p.z) * ((double)q.z - p.z));
        m += 0.5 * len * acos(c < -1.0 ? -1.0 : (c > 1.0 ? 1.0 : c));
    }
    *area = a;
    *edge_term = m;
}

uint16_t rb_hull_generation_span(const rb_world *w, uint16_t base)
{
    uint16_t span = 0;
    for (int h = 0; h < w->hull_capacity; ++h)
        if ((uint16_t)(w->hulls[h].generation - base) > span)
            span = (uint16_t)(w->hulls[h].generation - base);
    return span;
}

void rb_free_hulls(rb_world *w)
{
    free(w->hulls);
    w->hulls = NULL;
    w->hull_slots = w->hull_capacity = w->hull_count = 0;
}

// Room for `more` rb_float4 in the pool; the unit cube goes in first.
static rb_status reserve_pool(rb_world *w, int more)
{
    rb_scene *sc = &w->scene;
    int base = sc->hull_pool ? sc->hull_pool_size : RB_HULL_CUBE_RECORD;
    if (more > RB_MAX_HULL_POOL - base)
        return rb_fail(w, RB_ERR_CAPACITY, "the hull pool is full: at most %d float4 of hull records per world",
                       RB_MAX_HULL_POOL);
    int need = base + more;
    if (need > sc->hull_pool_capacity) {
        int cap = sc->hull_pool_capacity > 0 ? sc->hull_pool_capacity : 1024;
        while (cap < need)
            cap = cap <= RB_MAX_HULL_POOL / 2 ? cap * 2 : RB_MAX_HULL_POOL;
        rb_float4 *p = realloc(sc->hull_pool, sizeof *p * (size_t)cap);
        if (!p)
            return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing the hull pool to %d float4", cap);
        sc->hull_pool = p;
        sc->hull_pool_capacity = cap;
    }
    if (sc->hull_pool_size == 0) {
        rb_hull_mesh cube;
        rb_hull_unit_cube(&cube);
        rb_hull_write_record(&cube, sc->hull_pool);
        sc->hull_pool_size = RB_HULL_CUBE_RECORD;
    }
    return RB_OK;
}

static rb_status reserve_slot(rb_world *w, int *slot)
{
    for (int h = 0; h < w->hull_slots; ++h)
        if (!w->hulls[h].live) {
            *slot = h;
            return RB_OK;
        }
    if (w->hull_slots >= RB_MAX_HULLS)
        return rb_fail(w, RB_ERR_CAPACITY, "too many hulls: at most %d per world", RB_MAX_HULLS);
    if (w->hull_slots == w->hull_capacity) {
        int cap = w->hull_capacity > 0 ? 2 * w->hull_capacity : 16;
        rb_hull_slot *p = realloc(w->hulls, sizeof *p * (size_t)cap);
        if (!p)
            return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory growing hulls to %d", cap);
        memset(p + w->hull_capacity, 0, sizeof *p * (size_t)(cap - w->hull_capacity));
        for (int h = w->hull_capacity; h < cap; ++h)
            p[h].generation = w->id_generation_base;
        w->hulls = p;
        w->hull_capacity = cap;
    }
    *slot = w->hull_slots;
    return RB_OK;
}

rb_status rb_compute_hull(rb_world_id world, const rb_hull_def *def, rb_hull_id *out)
{
    rb_status s;
    rb_world *w = rb_get_world(world, &s);
    if (!w)
        return s;
    if (!def || !out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_compute_hull: def and out must not be NULL");
    if (def->internal_value != RB_DEF_COOKIE)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "hull def was not initialised with rb_default_hull_def()");
    if (def->count < 4 || def->count > RB_MAX_HULL_POINTS)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "a hull needs 4 to %d points, got %d", RB_MAX_HULL_POINTS,
                       def->count);
    if (!def->points)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "hull points must not be NULL (count %d)", def->count);
    if (!(def->weld_distance >= 0.0f) || !(def->weld_distance <= 1.0f))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "hull weld_distance must be in [0, 1] m, got %g", def->weld_distance);
    if (def->max_vertices < 4 || def->max_vertices > RB_HULL_MAX_VERTICES)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "hull max_vertices must be in [4, %d], got %d", RB_HULL_MAX_VERTICES,
                       def->max_vertices);
    rb_float3 *pts = malloc(sizeof *pts * (size_t)def->count);
    if (!pts)
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory copying %d hull points", def->count);
    for (int i = 0; i < def->count; ++i) {
        rb_vec3 p = def->points[i];
        if (!rb_finite_vec3(p) || fabsf(p.x) > RB_HULL_MAX_COORDINATE || fabsf(p.y) > RB_HULL_MAX_COORDINATE ||
            fabsf(p.z) > RB_HULL_MAX_COORDINATE) {
            free(pts);
            return rb_fail(w, RB_ERR_INVALID_ARGUMENT,
                           "hull point %d must be finite and within %g m of the hull origin, got (%g, %g, %g)", i,
                           RB_HULL_MAX_COORDINATE, p.x, p.y, p.z);
        }
        pts[i] = rb_f3(p.x, p.y, p.z);
    }
    rb_hull_mesh *mesh = malloc(sizeof *mesh);
    if (!mesh) {
        free(pts);
        return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory building a hull");
    }
    char why[512];
    int ok = rb_hull_build(pts, def->count, def->weld_distance, def->max_vertices, mesh, why, sizeof why);
    free(pts);
    if (!ok) {
        free(mesh);
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "no hull: %s", why);
    }
    rb_hull_mass mass;
    rb_hull_mass_properties(mesh, &mass);
    if (!(mass.volume > 0.0) || !isfinite(mass.volume)) {
        free(mesh);
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "no hull: its volume is %g m^3", mass.volume);
    }
    int size = rb_hull_record_size(mesh), slot = -1;
    if ((s = rb_sync_from_backend(w)) != RB_OK || (s = reserve_pool(w, size)) != RB_OK ||
        (s = reserve_slot(w, &slot)) != RB_OK) {
        free(mesh);
        return s;
    }
    rb_scene *sc = &w->scene;
    rb_hull_slot *h = &w->hulls[slot];
    h->live = true;
    h->generation++;
    h->offset = sc->hull_pool_size;
    h->size = size;
    h->users = 0;
    h->vertex_count = mesh->vertex_count;
    h->face_count = mesh->face_count;
    h->edge_count = mesh->half_edge_count / 2;
    h->mass = mass;
    h->radius = rb_hull_mesh_radius(mesh);
    rb_hull_write_record(mesh, sc->hull_pool + h->offset);
    rb_float4 *rec = sc->hull_pool + h->offset;
    rec[0].w = (float)slot; // the host finds a shape's hull from its record
    float inradius = RB_FLT_MAX;
    for (int f = 0; f < mesh->face_count; ++f)
        inradius = rb_minf(inradius, mesh->plane[f].w);
    rec[1].x = rb_maxf(inradius, 0.0f);
    h->inradius = rec[1].x;
    steiner_terms(rb_hull_view_make(sc->hull_pool + h->offset), &h->area, &h->edge_term);
    free(mesh);
    sc->hull_pool_size += size;
    sc->dirty |= RB_DIRTY_HULLS;
    if (slot == w->hull_slots)
        w->hull_slots++;
    w->hull_count++;
    *out = rb_make_hull_id(w, slot);
    return RB_OK;
}

rb_status rb_destroy_hull(rb_hull_id id)
{
    rb_status s;
    int slot;
    rb_world *w = rb_get_hull(id, &slot, &s);
    if (!w)
        return s;
    rb_hull_slot *h = &w->hulls[slot];
    if (h->users > 0)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "hull %d is used by %d convex shape%s; destroy them first", id.index1,
                       h->users, h->users == 1 ? "" : "s");
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;
    rb_scene *sc = &w->scene;
    int lo = h->offset, size = h->size;
    memmove(sc->hull_pool + lo, sc->hull_pool + lo + size, sizeof(rb_float4) * (size_t)(sc->hull_pool_size - lo - size));
    sc->hull_pool_size -= size;
    for (int k = 0; k < w->hull_slots; ++k)
        if (w->hulls[k].live && w->hulls[k].offset > lo)
            w->hulls[k].offset -= size;
    // the convex shapes of the hulls that moved name them by offset
    for (int sh = 0; sh < sc->shape_slots; ++sh)
        if (sc->shape_body[sh] >= 0 && sc->shape_type[sh] == RB_GEOM_CONVEX && (int)sc->shape_params[sh].y > lo) {
            sc->shape_params[sh].y -= (float)size;
            rb_scene_mark_shape(sc, sh);
        }
    h->live = false;
    w->hull_count--;
    while (w->hull_slots > 0 && !w->hulls[w->hull_slots - 1].live)
        w->hull_slots--;
    sc->dirty |= RB_DIRTY_HULLS;
    return RB_OK;
}

rb_status rb_hull_get_info(rb_hull_id id, rb_hull_info *out)
{
    rb_status s;
    int slot;
    rb_world *w = rb_get_hull(id, &slot, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "hull info output must not be NULL");
    const rb_hull_slot *h = &w->hulls[slot];
    out->vertex_count = h->vertex_count;
    out->edge_count = h->edge_count;
    out->face_count = h->face_count;
    out->volume = (float)h->mass.volume;
    out->centroid = (rb_vec3){(float)h->mass.centroid[0], (float)h->mass.centroid[1], (float)h->mass.centroid[2]};
    out->inertia_diag = (rb_vec3){(float)h->mass.inertia[0], (float)h->mass.inertia[1], (float)h->mass.inertia[2]};
    out->inertia_offdiag = (rb_vec3){(float)h->mass.inertia[3], (float)h->mass.inertia[4], (float)h->mass.inertia[5]};
    out->bounding_radius = h->radius;
    return RB_OK;
}

rb_status rb_world_get_hull_count(rb_world_id id, int *out)
{
    rb_status s;
    rb_world *w = rb_get_world(id, &s);
    if (!w)
        return s;
    if (!out)
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "rb_world_get_hull_count: out must not be NULL");
    *out = w->hull_count;
    return RB_OK;
}

// The hull's record, read through the kernels' accessors.
static rb_hull_view view_of(const rb_world *w, int slot)
{
    return rb_hull_view_make(w->scene.hull_pool + w->hulls[slot].offset);
}

rb_status rb_hull_get_vertices(rb_hull_id id, rb_vec3 *out, int capacity, int *count)
{
    rb_status s;
    int slot;
    rb_world *w = rb_get_hull(id, &slot, &s);
    if (!w)
        return s;
    if (capacity < 0 || (capacity > 0 && !out))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "hull vertices: capacity must be >= 0 with room in out, got %d",
                       capacity);
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;
    rb_hull_view v = view_of(w, slot);
    int n = rb_hull_vertex_count(v);
    for (int i = 0; i < n && i < capacity; ++i) {
        rb_float3 p = rb_hull_vertex(v, i);
        out[i] = (rb_vec3){p.x, p.y, p.z};
    }
    if (count)
        *count = n;
    return RB_OK;
}

rb_status rb_hull_get_face(rb_hull_id id, int face, rb_plane *plane, int *vertices, int capacity, int *count)
{
    rb_status s;
    int slot;
    rb_world *w = rb_get_hull(id, &slot, &s);
    if (!w)
        return s;
    if ((s = rb_sync_from_backend(w)) != RB_OK)
        return s;
    rb_hull_view v = view_of(w, slot);
    if (face < 0 || face >= rb_hull_face_count(v))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "hull face %d out of range [0, %d)", face, rb_hull_face_count(v));
    if (capacity < 0 || (capacity > 0 && !vertices))
        return rb_fail(w, RB_ERR_INVALID_ARGUMENT, "hull face: capacity must be >= 0 with room in vertices, got %d",
                       capacity);
    if (plane) {
        rb_float4 p = rb_hull_plane(v, face);
        plane->normal = (rb_vec3){p.x, p.y, p.z};
        plane->offset = p.w;
    }
    int n = rb_hull_face_edge_count(v, face), e = rb_hull_face_first_edge(v, face);
    for (int i = 0; i < n; ++i, e = rb_hull_edge_next(v, e))
        if (i < capacity)
            vertices[i] = rb_hull_edge_origin(v, e);
    if (count)
        *count = n;
    return RB_OK;
}
