// The viewer's copy of the scene's shapes, and the per-frame instance records (see shape_cache.h).
#include "shape_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_math.h"

// ---- colours ----------------------------------------------------------------------------------

static uint32_t hash_u32(uint32_t x)
{
    // a 32-bit integer mix (lowbias32): neighbouring slots get unrelated values
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// h in degrees, s and v in [0, 1]
static void hsv_to_rgb(float h, float s, float v, uint8_t out[3])
{
    h = fmodf(h, 360.0f);
    if (h < 0.0f)
        h += 360.0f;
    float c = v * s, x = c * (1.0f - fabsf(fmodf(h / 60.0f, 2.0f) - 1.0f)), m = v - c;
    float r, g, b;
    if (h < 60.0f)
        r = c, g = x, b = 0.0f;
    else if (h < 120.0f)
        r = x, g = c, b = 0.0f;
    else if (h < 180.0f)
        r = 0.0f, g = c, b = x;
    else if (h < 240.0f)
        r = 0.0f, g = x, b = c;
    else if (h < 300.0f)
        r = x, g = 0.0f, b = c;
    else
        r = c, g = 0.0f, b = x;
    out[0] = (uint8_t)lroundf((r + m) * 255.0f);
    out[1] = (uint8_t)lroundf((g + m) * 255.0f);
    out[2] = (uint8_t)lroundf((b + m) * 255.0f);
}

void shape_color(shape_kind kind, int slot, rb_body_type type, uint8_t out[3])
{
    uint32_t hsh = hash_u32((uint32_t)slot);
    float u0 = (float)(hsh & 0xffu) / 255.0f, u1 = (float)((hsh >> 8) & 0xffu) / 255.0f,
          u2 = (float)((hsh >> 16) & 0xffu) / 255.0f;
    if (type == RB_BODY_STATIC) {
        float v = 0.52f + 0.08f * u2;
        hsv_to_rgb(220.0f, 0.06f, v, out);
        return;
    }
    if (type == RB_BODY_KINEMATIC) {
        hsv_to_rgb(285.0f + 20.0f * u0, 0.45f, 0.85f, out);
        return;
    }
    switch (kind) {
    case KIND_BOX:
        hsv_to_rgb(12.0f + 30.0f * u0, 0.70f + 0.15f * u1, 0.85f + 0.12f * u2, out);
        break;
    case KIND_SPHERE:
        hsv_to_rgb(192.0f + 32.0f * u0, 0.55f + 0.15f * u1, 0.80f + 0.15f * u2, out);
        break;
    case KIND_CAPSULE:
        hsv_to_rgb(92.0f + 50.0f * u0, 0.50f + 0.15f * u1, 0.72f + 0.18f * u2, out);
        break;
    case KIND_CONVEX: // between the capsules' green and the spheres' blue
        hsv_to_rgb(160.0f + 16.0f * u0, 0.55f + 0.15f * u1, 0.72f + 0.18f * u2, out);
        break;
    default:
        hsv_to_rgb(0.0f, 0.0f, 0.6f, out);
        break;
    }
}

void sleeping_tint(const uint8_t in[3], uint8_t out[3])
{
    // 40% of the way to its own grey, then 20% darker: the hue stays recognisable
    float luma = 0.299f * in[0] + 0.587f * in[1] + 0.114f * in[2];
    for (int i = 0; i < 3; ++i)
        out[i] = (uint8_t)lroundf((0.6f * in[i] + 0.4f * luma) * 0.8f);
}

// ---- building -----------------------------------------------------------------------------------

static bool fail(char *err, size_t size, const char *what, rb_world_id world)
{
    snprintf(err, size, "%s: %s", what, rb_last_error(world));
    return false;
}

static bool push_shape(shape_cache *c, shape_kind kind, const cached_shape *s, int *capacity)
{
    if (c->counts[kind] == capacity[kind]) {
        int n = capacity[kind] ? capacity[kind] * 2 : 64;
        cached_shape *p = realloc(c->shapes[kind], (size_t)n * sizeof *p);
        if (!p)
            return false;
        c->shapes[kind] = p;
        capacity[kind] = n;
    }
    c->shapes[kind][c->counts[kind]++] = *s;
    return true;
}

static bool read_shape(rb_shape_id id, int slot, rb_body_type body_type, cached_shape *s, shape_kind *kind)
{
    rb_shape_type type;
    if (rb_shape_get_type(id, &type) != RB_OK || rb_shape_get_local_transform(id, &s->local) != RB_OK)
        return false;
    s->body_slot = slot;
    memset(s->params, 0, sizeof s->params);
    switch (type) {
    case RB_SHAPE_SPHERE: {
        rb_sphere g;
        if (rb_shape_get_sphere(id, &g) != RB_OK)
            return false;
        s->params[0] = g.radius;
        *kind = KIND_SPHERE;
        break;
    }
    case RB_SHAPE_CAPSULE: {
        rb_capsule g;
        if (rb_shape_get_capsule(id, &g) != RB_OK)
            return false;
        s->params[0] = g.half_length;
        s->params[1] = g.radius;
        *kind = KIND_CAPSULE;
        break;
    }
    case RB_SHAPE_BOX: {
        rb_box g;
        if (rb_shape_get_box(id, &g) != RB_OK)
            return false;
        s->params[0] = g.half_extents.x;
        s->params[1] = g.half_extents.y;
        s->params[2] = g.half_extents.z;
        *kind = KIND_BOX;
        break;
    }
    case RB_SHAPE_CONVEX: {
        rb_convex g;
        if (rb_shape_get_convex(id, &g) != RB_OK)
            return false;
        s->params[0] = g.radius;
        s->hull = g.hull;
        *kind = KIND_CONVEX;
        break;
    }
    case RB_SHAPE_PLANE: {
        rb_plane g;
        if (rb_shape_get_plane(id, &g) != RB_OK)
            return false;
        s->params[0] = g.normal.x;
        s->params[1] = g.normal.y;
        s->params[2] = g.normal.z;
        s->params[3] = g.offset;
        *kind = KIND_PLANE;
        break;
    }
    default:
        return false; // a shape type this viewer does not know yet: not drawn
    }
    shape_color(*kind, slot, body_type, s->color);
    return true;
}

// Convex shapes in mesh order: by hull, then rounding radius.
static int convex_cmp(const void *a, const void *b)
{
    const cached_shape *x = a, *y = b;
    if (x->hull.index1 != y->hull.index1)
        return x->hull.index1 < y->hull.index1 ? -1 : 1;
    if (x->hull.generation != y->hull.generation)
        return x->hull.generation < y->hull.generation ? -1 : 1;
    if (x->params[0] != y->params[0])
        return x->params[0] < y->params[0] ? -1 : 1;
    return (x->body_slot > y->body_slot) - (x->body_slot < y->body_slot);
}

static bool same_mesh(const cached_shape *a, const cached_shape *b)
{
    return a->hull.index1 == b->hull.index1 && a->hull.generation == b->hull.generation && a->params[0] == b->params[0];
}

// One mesh per hull and radius, read once however many shapes share it; the shapes sorted by it.
static bool build_convex_meshes(shape_cache *c, char *err, size_t err_size)
{
    static unsigned builds;
    if (++builds == 0)
        ++builds; // never 0: the renderer's "nothing uploaded"
    c->mesh_version = builds;
    int n = c->counts[KIND_CONVEX];
    if (n == 0)
        return true;
    cached_shape *s = c->shapes[KIND_CONVEX];
    qsort(s, (size_t)n, sizeof *s, convex_cmp);
    c->mesh_first = malloc(sizeof *c->mesh_first * (size_t)n);
    c->mesh_instances = malloc(sizeof *c->mesh_instances * (size_t)n);
    if (!c->mesh_first || !c->mesh_instances) {
        snprintf(err, err_size, "out of memory for %d convex shapes", n);
        return false;
    }
    for (int i = 0; i < n; ++i) {
        if (i == 0 || !same_mesh(&s[i - 1], &s[i])) {
            int m = c->hulls.mesh_count;
            if (!hull_mesh_set_add(&c->hulls, s[i].hull, s[i].params[0], err, err_size))
                return false;
            c->mesh_first[m] = i;
            c->mesh_instances[m] = 0;
        }
        s[i].mesh = c->hulls.mesh_count - 1;
        c->mesh_instances[s[i].mesh]++;
    }
    return true;
}

// A convex shape's box for the framing: its hull's bounding sphere (about the hull origin), grown by the
// rounding radius, where the body is now.
static bool convex_bounds(rb_body_id body, const cached_shape *s, rb_vec3 *lo, rb_vec3 *hi)
{
    rb_transform pose;
    rb_hull_info info;
    if (rb_body_get_transform(body, &pose) != RB_OK || rb_hull_get_info(s->hull, &info) != RB_OK)
        return false;
    rb_vec3 centre = vm_transform_mul(pose, s->local).p;
    float r = info.bounding_radius + s->params[0];
    *lo = vm_sub(centre, vm_vec3(r, r, r));
    *hi = vm_add(centre, vm_vec3(r, r, r));
    return true;
}

static void grow_bounds(shape_cache *c, bool *has, rb_vec3 lo, rb_vec3 hi)
{
    c->bounds_lo = *has ? vm_min(c->bounds_lo, lo) : lo;
    c->bounds_hi = *has ? vm_max(c->bounds_hi, hi) : hi;
    *has = true;
}

bool shape_cache_build(shape_cache *c, rb_world_id world, char *err, size_t err_size)
{
    memset(c, 0, sizeof *c);
    rb_counters counters;
    if (rb_world_get_counters(world, &counters) != RB_OK)
        return fail(err, err_size, "cannot read the world's counters", world);
    int n = counters.body_slots;
    c->body_slots = n;
    size_t slots = n > 0 ? (size_t)n : 1;
    c->runs = malloc(2 * slots * sizeof *c->runs);
    c->body_pose = calloc(slots, sizeof *c->body_pose);
    c->body_awake = calloc(slots, sizeof *c->body_awake);
    c->body_dynamic = calloc(slots, sizeof *c->body_dynamic);
    if (!c->runs || !c->body_pose || !c->body_awake || !c->body_dynamic) {
        shape_cache_free(c);
        snprintf(err, err_size, "out of memory for %d bodies", n);
        return false;
    }
    int capacity[KIND_COUNT] = {0};
    int max_shapes = 0;
    rb_shape_id *ids = NULL;
    bool has_dynamic = false, has_any = false;
    rb_vec3 any_lo = {0, 0, 0}, any_hi = {0, 0, 0};
    for (int slot = 0; slot < n; ++slot) {
        rb_body_id body;
        if (rb_world_get_body_id(world, slot, &body) != RB_OK)
            continue; // a freed slot
        if (c->run_count > 0 && c->runs[2 * (c->run_count - 1)] + c->runs[2 * (c->run_count - 1) + 1] == slot) {
            c->runs[2 * (c->run_count - 1) + 1]++;
        } else {
            c->runs[2 * c->run_count] = slot;
            c->runs[2 * c->run_count + 1] = 1;
            c->run_count++;
        }
        rb_body_type type;
        int count;
        if (rb_body_get_type(body, &type) != RB_OK || rb_body_get_shape_count(body, &count) != RB_OK)
            goto library_error;
        c->body_dynamic[slot] = type == RB_BODY_DYNAMIC;
        if (count > max_shapes) {
            rb_shape_id *p = realloc(ids, (size_t)count * sizeof *p);
            if (!p)
                goto out_of_memory;
            ids = p;
            max_shapes = count;
        }
        if (count > 0 && rb_body_get_shapes(body, ids, count, NULL) != RB_OK)
            goto library_error;
        for (int i = 0; i < count; ++i) {
            cached_shape s;
            shape_kind kind;
            if (!read_shape(ids[i], slot, type, &s, &kind))
                continue;
            if (!push_shape(c, kind, &s, capacity))
                goto out_of_memory;
            rb_vec3 lo, hi;
            if (kind == KIND_CONVEX ? convex_bounds(body, &s, &lo, &hi)
                                    : kind != KIND_PLANE && rb_shape_get_aabb(ids[i], &lo, &hi) == RB_OK) {
                if (type == RB_BODY_DYNAMIC)
                    grow_bounds(c, &has_dynamic, lo, hi);
                any_lo = has_any ? vm_min(any_lo, lo) : lo;
                any_hi = has_any ? vm_max(any_hi, hi) : hi;
                has_any = true;
            }
        }
    }
    free(ids);
    if (!has_dynamic) {
        c->bounds_lo = has_any ? any_lo : vm_vec3(-5, 0, -5);
        c->bounds_hi = has_any ? any_hi : vm_vec3(5, 5, 5);
    }
    if (!build_convex_meshes(c, err, err_size)) {
        shape_cache_free(c);
        return false;
    }
    int spheres = c->counts[KIND_SPHERE] + 2 * c->counts[KIND_CAPSULE];
    c->boxes = malloc((size_t)(c->counts[KIND_BOX] + 1) * sizeof *c->boxes);
    c->convexes = malloc((size_t)(c->counts[KIND_CONVEX] + 1) * sizeof *c->convexes);
    c->cylinders = malloc((size_t)(c->counts[KIND_CAPSULE] + 1) * sizeof *c->cylinders);
    c->planes = malloc((size_t)(c->counts[KIND_PLANE] + 1) * sizeof *c->planes);
    c->spheres = malloc((size_t)(spheres + 1) * sizeof *c->spheres);
    if (!c->boxes || !c->cylinders || !c->planes || !c->spheres || !c->convexes) {
        shape_cache_free(c);
        snprintf(err, err_size, "out of memory for the instance records");
        return false;
    }
    return true;

library_error:
    free(ids);
    shape_cache_free(c);
    return fail(err, err_size, "cannot read the scene's bodies", world);
out_of_memory:
    free(ids);
    shape_cache_free(c);
    snprintf(err, err_size, "out of memory reading the scene's shapes");
    return false;
}

void shape_cache_free(shape_cache *c)
{
    for (int k = 0; k < KIND_COUNT; ++k)
        free(c->shapes[k]);
    free(c->runs);
    free(c->body_pose);
    free(c->body_awake);
    free(c->body_dynamic);
    free(c->boxes);
    free(c->cylinders);
    free(c->planes);
    free(c->spheres);
    free(c->convexes);
    free(c->mesh_first);
    free(c->mesh_instances);
    hull_mesh_set_free(&c->hulls);
    memset(c, 0, sizeof *c);
}

// ---- per frame ------------------------------------------------------------------------------------

static void set_color(uint8_t dst[4], const cached_shape *s, bool asleep)
{
    uint8_t c[3];
    if (asleep)
        sleeping_tint(s->color, c);
    else
        memcpy(c, s->color, 3);
    dst[0] = c[0], dst[1] = c[1], dst[2] = c[2], dst[3] = 255;
}

static void set_mesh(mesh_instance *m, rb_transform xf, rb_vec3 scale)
{
    m->position[0] = xf.p.x, m->position[1] = xf.p.y, m->position[2] = xf.p.z;
    m->rotation[0] = xf.q.x, m->rotation[1] = xf.q.y, m->rotation[2] = xf.q.z, m->rotation[3] = xf.q.w;
    m->scale[0] = scale.x, m->scale[1] = scale.y, m->scale[2] = scale.z;
}

static void set_sphere(sphere_instance *s, rb_vec3 center, float radius, const cached_shape *shape, bool asleep)
{
    s->center[0] = center.x, s->center[1] = center.y, s->center[2] = center.z;
    s->radius = radius;
    set_color(s->color, shape, asleep);
}

bool shape_cache_update(shape_cache *c, rb_world_id world, float plane_half_size, char *err, size_t err_size)
{
    for (int r = 0; r < c->run_count; ++r) {
        int first = c->runs[2 * r], count = c->runs[2 * r + 1];
        if (rb_world_get_transforms(world, first, count, c->body_pose + first) != RB_OK ||
            rb_world_get_awake(world, first, count, c->body_awake + first) != RB_OK)
            return fail(err, err_size, "cannot read the bodies' poses", world);
    }
    c->awake_bodies = 0;
    for (int r = 0; r < c->run_count; ++r)
        for (int i = c->runs[2 * r]; i < c->runs[2 * r] + c->runs[2 * r + 1]; ++i)
            c->awake_bodies += c->body_awake[i];
    c->sphere_count = c->box_count = c->cylinder_count = c->plane_count = c->convex_count = 0;

    const cached_shape *s = c->shapes[KIND_SPHERE];
    for (int i = 0; i < c->counts[KIND_SPHERE]; ++i, ++s) {
        rb_transform xf = vm_transform_mul(c->body_pose[s->body_slot], s->local);
        bool asleep = c->body_dynamic[s->body_slot] && !c->body_awake[s->body_slot];
        set_sphere(&c->spheres[c->sphere_count++], xf.p, s->params[0], s, asleep);
    }
    s = c->shapes[KIND_BOX];
    for (int i = 0; i < c->counts[KIND_BOX]; ++i, ++s) {
        rb_transform xf = vm_transform_mul(c->body_pose[s->body_slot], s->local);
        mesh_instance *m = &c->boxes[c->box_count++];
        set_mesh(m, xf, vm_vec3(s->params[0], s->params[1], s->params[2]));
        set_color(m->color, s, c->body_dynamic[s->body_slot] && !c->body_awake[s->body_slot]);
    }
    s = c->shapes[KIND_CONVEX];
    for (int i = 0; i < c->counts[KIND_CONVEX]; ++i, ++s) { // in mesh order, as the renderer draws them
        rb_transform xf = vm_transform_mul(c->body_pose[s->body_slot], s->local);
        mesh_instance *m = &c->convexes[c->convex_count++];
        set_mesh(m, xf, vm_vec3(1.0f, 1.0f, 1.0f));
        set_color(m->color, s, c->body_dynamic[s->body_slot] && !c->body_awake[s->body_slot]);
    }
    s = c->shapes[KIND_CAPSULE];
    for (int i = 0; i < c->counts[KIND_CAPSULE]; ++i, ++s) {
        // the side: a cylinder along the shape's local y axis; the ends: two spheres
        rb_transform xf = vm_transform_mul(c->body_pose[s->body_slot], s->local);
        float half = s->params[0], radius = s->params[1];
        bool asleep = c->body_dynamic[s->body_slot] && !c->body_awake[s->body_slot];
        mesh_instance *m = &c->cylinders[c->cylinder_count++];
        set_mesh(m, xf, vm_vec3(radius, half, radius));
        set_color(m->color, s, asleep);
        rb_vec3 axis = vm_rotate(xf.q, vm_vec3(0.0f, half, 0.0f));
        set_sphere(&c->spheres[c->sphere_count++], vm_add(xf.p, axis), radius, s, asleep);
        set_sphere(&c->spheres[c->sphere_count++], vm_sub(xf.p, axis), radius, s, asleep);
    }
    s = c->shapes[KIND_PLANE];
    for (int i = 0; i < c->counts[KIND_PLANE]; ++i, ++s) {
        // the surface { x : n·x = offset } in the shape frame, moved to the world; the quad's local +y
        // is the normal, its origin the point n * offset (the shader slides it under the camera)
        rb_transform xf = vm_transform_mul(c->body_pose[s->body_slot], s->local);
        rb_vec3 n_local = vm_vec3(s->params[0], s->params[1], s->params[2]);
        rb_vec3 n = vm_normalize(vm_rotate(xf.q, n_local));
        rb_vec3 anchor = vm_transform_point(xf, vm_scale(n_local, s->params[3]));
        rb_transform quad = {anchor, vm_quat_from_to(vm_vec3(0.0f, 1.0f, 0.0f), n)};
        mesh_instance *m = &c->planes[c->plane_count++];
        set_mesh(m, quad, vm_vec3(plane_half_size, 1.0f, plane_half_size));
        set_color(m->color, s, false);
    }
    return true;
}
