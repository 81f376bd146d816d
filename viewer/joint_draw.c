// The joints' lines and points (see joint_draw.h).
#include "joint_draw.h"

#include <stdlib.h>
#include <string.h>

#define MAX_VERTICES_PER_JOINT 96 // a hinge with its limit arc needs 76, a cone-twist 64
#define ARC_SEGMENTS 32           // a whole turn; a limit arc gets its share
#define CONE_SEGMENTS 24          // around the cone's rim
#define SPRING_TEETH 8
#define DETAIL_PIXELS 4.0f        // a joint whose gizmo is smaller than this on screen is drawn as its anchors

const uint8_t joint_colors[JOINT_COLOR_COUNT][3] = {
    [JOINT_COLOR_A] = {255, 40, 255},
    [JOINT_COLOR_B] = {40, 230, 255},
    [JOINT_COLOR_SPRING] = {255, 150, 255},
    [JOINT_COLOR_OFF] = {170, 170, 180},
};

// ---- geometry ---------------------------------------------------------------------------------------

rb_vec3 joint_hinge_arc_point(rb_vec3 center, rb_quat frame, float radius, float angle)
{
    // ŷ turned by `angle` about ẑ: cos θ ŷ + sin θ (ẑ × ŷ) = cos θ ŷ − sin θ x̂
    rb_vec3 local = vm_vec3(-sinf(angle), cosf(angle), 0.0f);
    return vm_mad(center, radius, vm_rotate(frame, local));
}

float joint_cone_swing_limit(float swing_span1, float swing_span2, float ny, float nz)
{
    // the same formula as the solver's rb_cone_swing_limit (core/kernels/joint.h), which the viewer
    // cannot include: it uses only the public API
    if (swing_span1 == swing_span2)
        return swing_span1;
    float q = ny * ny / fmaxf(swing_span2 * swing_span2, 1e-12f) + nz * nz / fmaxf(swing_span1 * swing_span1, 1e-12f);
    return q > 0.0f ? 1.0f / sqrtf(q) : fmaxf(swing_span1, swing_span2);
}

rb_vec3 joint_cone_rim_direction(rb_quat frame, float swing_span1, float swing_span2, float phi)
{
    float c = cosf(phi), s = sinf(phi);
    float limit = joint_cone_swing_limit(swing_span1, swing_span2, c, s);
    // x̂ turned by the limit about n: cos L x̂ + sin L (n × x̂), with n × x̂ = sin φ ŷ − cos φ ẑ
    float sl = sinf(limit);
    return vm_rotate(frame, vm_vec3(cosf(limit), sl * s, -sl * c));
}

int joint_zigzag(rb_vec3 a, rb_vec3 b, rb_vec3 side, float amplitude, int teeth, rb_vec3 *out)
{
    int n = 0;
    rb_vec3 d = vm_sub(b, a);
    out[n++] = a;
    for (int i = 0; i < 2 * teeth; ++i) {
        float t = ((float)i + 0.5f) / (float)(2 * teeth);
        out[n++] = vm_mad(vm_mad(a, t, d), (i & 1) ? -amplitude : amplitude, side);
    }
    out[n++] = b;
    return n;
}

// ---- building the lines --------------------------------------------------------------------------

bool view_reserve(void **p, int *capacity, int n, size_t size)
{
    if (n <= *capacity)
        return true;
    int cap = *capacity ? *capacity : 256;
    while (cap < n)
        cap *= 2;
    void *q = realloc(*p, (size_t)cap * size);
    if (!q)
        return false;
    *p = q;
    *capacity = cap;
    return true;
}

static void set_vertex(line_vertex *v, rb_vec3 p, const uint8_t c[3])
{
    v->position[0] = p.x, v->position[1] = p.y, v->position[2] = p.z;
    v->color[0] = c[0], v->color[1] = c[1], v->color[2] = c[2], v->color[3] = 255;
}

// Room for one joint's vertices is reserved before it is drawn.
static void line(joint_draw *d, rb_vec3 p, rb_vec3 q, const uint8_t c[3])
{
    set_vertex(&d->lines[d->line_count++], p, c);
    set_vertex(&d->lines[d->line_count++], q, c);
}

// A body's origin this frame: from the shape cache's bulk read when it has the slot.
static bool body_origin(const shape_cache *s, rb_body_id b, rb_vec3 *out)
{
    int slot = b.index1 - 1;
    if (slot < 0)
        return false; // the static world
    if (slot < s->body_slots) {
        *out = shape_cache_body_pose(s, slot).p;
        return true;
    }
    return rb_body_get_position(b, out) == RB_OK;
}

// Any unit vector across `v`.
static rb_vec3 any_perpendicular(rb_vec3 v)
{
    rb_vec3 p = vm_cross(v, fabsf(v.x) < 0.6f ? vm_vec3(1, 0, 0) : vm_vec3(0, 1, 0));
    return vm_normalize(p);
}

static void draw_hinge(joint_draw *d, rb_joint_id id, rb_vec3 pa, rb_quat qa, float size, const uint8_t *ca,
                       const uint8_t *cb)
{
    rb_vec3 z = vm_rotate(qa, vm_vec3(0, 0, 1));
    line(d, vm_mad(pa, -size, z), vm_mad(pa, size, z), ca);
    bool limited = false;
    float lower = 0.0f, upper = 0.0f, angle = 0.0f;
    rb_joint_get_limits(id, &limited, &lower, &upper);
    if (!limited) {
        // no range: the whole circle, for the tick to turn on
        lower = -VM_PI;
        upper = VM_PI;
    }
    float span = fminf(fmaxf(upper - lower, 0.0f), 2.0f * VM_PI); // 0: a locked hinge, one spoke
    int n = (int)ceilf(span / (2.0f * VM_PI) * ARC_SEGMENTS);
    n = n < 1 ? 1 : n;
    rb_vec3 prev = joint_hinge_arc_point(pa, qa, size, lower);
    if (limited)
        line(d, pa, prev, ca);
    for (int i = 1; i <= n; ++i) {
        rb_vec3 p = joint_hinge_arc_point(pa, qa, size, lower + span * (float)i / (float)n);
        line(d, prev, p, ca);
        prev = p;
    }
    if (limited)
        line(d, pa, prev, ca);
    if (rb_joint_get_coordinate(id, &angle) == RB_OK)
        line(d, pa, joint_hinge_arc_point(pa, qa, 1.25f * size, angle), cb);
}

static void draw_cone(joint_draw *d, rb_joint_id id, rb_vec3 pa, rb_vec3 pb, rb_quat qa, rb_quat qb, float size,
                      const uint8_t *ca, const uint8_t *cb)
{
    float s1 = 0.0f, s2 = 0.0f;
    if (rb_joint_get_cone_limits(id, &s1, &s2, NULL) != RB_OK)
        return;
    line(d, pa, vm_mad(pa, size, vm_rotate(qa, vm_vec3(1, 0, 0))), ca);
    rb_vec3 rim[CONE_SEGMENTS];
    for (int i = 0; i < CONE_SEGMENTS; ++i) {
        float phi = 2.0f * VM_PI * (float)i / CONE_SEGMENTS;
        rim[i] = vm_mad(pa, size, joint_cone_rim_direction(qa, s1, s2, phi));
    }
    for (int i = 0; i < CONE_SEGMENTS; ++i) {
        line(d, rim[i], rim[(i + 1) % CONE_SEGMENTS], ca);
        if (i % (CONE_SEGMENTS / 4) == 0)
            line(d, pa, rim[i], ca); // from the apex at the ends of the two spans
    }
    line(d, pb, vm_mad(pb, 1.25f * size, vm_rotate(qb, vm_vec3(1, 0, 0))), cb);
}

static void draw_slider(joint_draw *d, rb_joint_id id, rb_vec3 pa, rb_vec3 pb, rb_quat qa, float size,
                        const uint8_t *ca, const uint8_t *cb)
{
    rb_vec3 x = vm_rotate(qa, vm_vec3(1, 0, 0)), y = vm_rotate(qa, vm_vec3(0, 1, 0));
    bool limited = false;
    float lower = 0.0f, upper = 0.0f;
    rb_joint_get_limits(id, &limited, &lower, &upper);
    float tick = 0.3f * size;
    if (limited) {
        rb_vec3 lo = vm_mad(pa, lower, x), hi = vm_mad(pa, upper, x);
        line(d, lo, hi, ca);
        line(d, vm_mad(lo, -tick, y), vm_mad(lo, tick, y), ca);
        line(d, vm_mad(hi, -tick, y), vm_mad(hi, tick, y), ca);
    } else {
        line(d, vm_mad(pa, -2.0f * size, x), vm_mad(pa, 2.0f * size, x), ca);
    }
    // where B is along the axis: its coordinate
    rb_vec3 at = vm_mad(pa, vm_dot(vm_sub(pb, pa), x), x);
    line(d, vm_mad(at, -tick, y), vm_mad(at, tick, y), cb);
}

static void draw_spring(joint_draw *d, rb_vec3 pa, rb_vec3 pb, rb_vec3 eye, float size, const uint8_t *c)
{
    rb_vec3 along = vm_sub(pb, pa), mid = vm_mad(pa, 0.5f, along);
    float length = vm_len(along);
    if (length < 1e-6f)
        return;
    // teeth across the line of sight, so that they are seen whatever the spring's direction
    rb_vec3 side = vm_cross(along, vm_sub(eye, mid));
    side = vm_dot(side, side) > 1e-12f ? vm_normalize(side) : any_perpendicular(vm_scale(along, 1.0f / length));
    rb_vec3 pts[2 * SPRING_TEETH + 2];
    int n = joint_zigzag(pa, pb, side, fminf(0.08f * length, 0.5f * size), SPRING_TEETH, pts);
    for (int i = 1; i < n; ++i)
        line(d, pts[i - 1], pts[i], c);
}

bool joint_draw_update(joint_draw *d, rb_world_id world, const shape_cache *shapes, const camera *cam)
{
    d->line_count = d->anchor_count = d->joints = d->inactive = 0;
    d->marker_size = 0.0f;
    int count = 0;
    if (rb_world_get_joints(world, d->ids, d->id_capacity, &count) != RB_OK)
        return false;
    if (count > d->id_capacity) {
        // joints were added: read them again into a larger array
        if (!view_reserve((void **)&d->ids, &d->id_capacity, count, sizeof *d->ids) ||
            rb_world_get_joints(world, d->ids, d->id_capacity, &count) != RB_OK)
            return false;
    }
    if (count == 0)
        return true;
    // A's anchors in the first half of one array, B's in the second
    if (!view_reserve((void **)&d->anchors, &d->anchor_capacity, 2 * count, sizeof *d->anchors))
        return false;
    d->anchors_a = d->anchors;
    d->anchors_b = d->anchors + count;
    rb_vec3 eye = camera_eye(cam);
    // gizmos are sized by the bodies they join, at most a seventh of the view's distance (a joint of
    // large bodies does not swamp the scene), and left out where that is too small to see
    float largest = 0.15f * cam->distance, size_sum = 0.0f;
    float pixels_per_m = (float)cam->height / (2.0f * tanf(0.5f * cam->fov_y)); // at 1 m from the eye
    for (int k = 0; k < count; ++k) {
        rb_joint_id id = d->ids[k];
        rb_joint_type type;
        rb_body_id body_a, body_b;
        rb_vec3 pa, pb, ca = {0, 0, 0}, cb = {0, 0, 0};
        rb_quat qa, qb;
        bool on = true;
        if (rb_joint_get_type(id, &type) != RB_OK || rb_joint_get_bodies(id, &body_a, &body_b) != RB_OK ||
            rb_joint_get_anchors(id, &pa, &pb) != RB_OK || rb_joint_get_frames(id, &qa, &qb) != RB_OK ||
            rb_joint_is_enabled(id, &on) != RB_OK)
            continue;
        if (!view_reserve((void **)&d->lines, &d->line_capacity, d->line_count + MAX_VERTICES_PER_JOINT, sizeof *d->lines))
            return false;
        d->joints++;
        if (!on)
            d->inactive++;
        const uint8_t *col_a = joint_colors[on ? JOINT_COLOR_A : JOINT_COLOR_OFF];
        const uint8_t *col_b = joint_colors[on ? JOINT_COLOR_B : JOINT_COLOR_OFF];
        set_vertex(&d->anchors_a[d->anchor_count], pa, col_a);
        set_vertex(&d->anchors_b[d->anchor_count++], pb, col_b);

        bool has_a = body_origin(shapes, body_a, &ca), has_b = body_origin(shapes, body_b, &cb);
        float reach_a = has_a ? vm_len(vm_sub(pa, ca)) : 0.0f, reach_b = has_b ? vm_len(vm_sub(pb, cb)) : 0.0f;
        float reach = fmaxf(reach_a, reach_b); // the larger body: a door on a thin post gets a door-sized arc
        float size = reach > 1e-4f ? fminf(0.5f * reach, largest) : 0.1f * largest; // anchors at the centres
        size_sum += size;
        // far away a joint is its anchors: thousands of lines over small bodies would hide them (and
        // cost time for nothing)
        if (size * pixels_per_m < DETAIL_PIXELS * vm_len(vm_sub(pa, eye)))
            continue;
        if (has_a)
            line(d, ca, pa, col_a);
        if (has_b)
            line(d, cb, pb, col_b);

        switch (type) {
        case RB_JOINT_HINGE:
            draw_hinge(d, id, pa, qa, size, col_a, col_b);
            break;
        case RB_JOINT_CONE_TWIST:
            draw_cone(d, id, pa, pb, qa, qb, size, col_a, col_b);
            break;
        case RB_JOINT_SLIDER:
            draw_slider(d, id, pa, pb, qa, size, col_a, col_b);
            break;
        case RB_JOINT_DISTANCE:
            line(d, pa, pb, col_a);
            break;
        case RB_JOINT_SPRING:
            draw_spring(d, pa, pb, eye, size, joint_colors[on ? JOINT_COLOR_SPRING : JOINT_COLOR_OFF]);
            break;
        default: // ball, fixed: the anchors and links say it all
            break;
        }
    }
    d->marker_size = d->joints > 0 ? 0.5f * size_sum / (float)d->joints : 0.0f;
    return true;
}

void joint_draw_free(joint_draw *d)
{
    free(d->ids);
    free(d->lines);
    free(d->anchors);
    memset(d, 0, sizeof *d);
}
