// raycast.c: cast rays at a sphere, a tilted box, a capsule and the ground; check every hit.
//
// rb_world_cast_ray(world, origin, translation, mask, &hit) finds the first shape that the segment
// origin -> origin + translation enters: hit.point = origin + hit.fraction * translation, and
// hit.normal is the outward unit normal there. Each expected distance and normal below is worked out
// by hand from the shapes' places; the program checks them to 1e-4 and exits with 1 if any is off.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <rubble.h>

static rb_world_id world;

#define CHECK(call) do { rb_status s_ = (call); if (s_ != RB_OK) { \
    fprintf(stderr, "%s: %s: %s\n", #call, rb_status_string(s_), rb_last_error(world)); \
    exit(1); } } while (0)

// A static body at `position`, turned by `rotation`; returns it for the shape to go on.
static rb_body_id add_static_body(rb_vec3 position, rb_quat rotation)
{
    rb_body_def bd = rb_default_body_def();
    bd.position = position;
    bd.rotation = rotation;
    rb_body_id body;
    CHECK(rb_create_body(world, &bd, &body));
    return body;
}

static int failures;

// Cast one ray and compare with the expected distance along it and normal (expect_hit false: a miss).
static void cast(const char *what, rb_vec3 origin, rb_vec3 translation, uint32_t mask, bool expect_hit,
                 float distance, rb_vec3 normal, rb_shape_id expected_shape)
{
    rb_ray_hit hit;
    CHECK(rb_world_cast_ray(world, origin, translation, mask, &hit));
    float length = sqrtf(translation.x * translation.x + translation.y * translation.y +
                         translation.z * translation.z);
    bool ok;
    if (!hit.hit) {
        printf("%-34s miss%s\n", what, expect_hit ? "   <- expected a hit" : "");
        ok = !expect_hit;
    } else {
        float d = hit.fraction * length;
        printf("%-34s hit at distance %.6f (expected %.6f), point (%.4f, %.4f, %.4f), "
               "normal (%.4f, %.4f, %.4f) (expected (%.4f, %.4f, %.4f))\n", what, d, distance,
               hit.point.x, hit.point.y, hit.point.z, hit.normal.x, hit.normal.y, hit.normal.z,
               normal.x, normal.y, normal.z);
        ok = expect_hit && rb_shape_equal(hit.shape, expected_shape) && fabsf(d - distance) <= 1e-4f &&
             fabsf(hit.normal.x - normal.x) <= 1e-4f && fabsf(hit.normal.y - normal.y) <= 1e-4f &&
             fabsf(hit.normal.z - normal.z) <= 1e-4f;
    }
    if (!ok) {
        printf("    FAILED\n");
        ++failures;
    }
}

int main(void)
{
    rb_world_def wd = rb_default_world_def();
    CHECK(rb_create_world(&wd, &world));
    rb_shape_def sd = rb_default_shape_def();
    const rb_quat identity = {0, 0, 0, 1};

    // The ground: the half-space y <= 0.
    rb_plane ground = {{0, 1, 0}, 0};
    rb_shape_id ground_shape;
    CHECK(rb_create_plane_shape(add_static_body((rb_vec3){0, 0, 0}, identity), &sd, &ground, &ground_shape));

    // A ball of radius 0.5 at (0, 2, 0), in collision category 2 (for the mask below).
    rb_shape_def ball_def = rb_default_shape_def();
    ball_def.category_bits = 2;
    rb_sphere ball = {0.5f};
    rb_shape_id ball_shape;
    CHECK(rb_create_sphere_shape(add_static_body((rb_vec3){0, 2, 0}, identity), &ball_def, &ball, &ball_shape));

    // A box 2 x 0.5 x 1 at (4, 1, 0), turned 30° about z: its local +y axis (the top face's normal)
    // points along n = (-sin 30°, cos 30°, 0).
    const float pi = 3.14159265358979f;
    rb_box box = {{1, 0.25f, 0.5f}};
    rb_shape_id box_shape;
    CHECK(rb_create_box_shape(add_static_body((rb_vec3){4, 1, 0}, rb_quat_from_axis_angle((rb_vec3){0, 0, 1}, pi / 6)),
                              &sd, &box, &box_shape));
    rb_vec3 n = {-0.5f, sqrtf(3.0f) / 2, 0};

    // A capsule at (-4, 1, 0): the segment from y = 0.5 to 1.5 swept by radius 0.25.
    rb_capsule capsule = {0.5f, 0.25f};
    rb_shape_id capsule_shape;
    CHECK(rb_create_capsule_shape(add_static_body((rb_vec3){-4, 1, 0}, identity), &sd, &capsule, &capsule_shape));

    // Rays. No step is needed: a query sees the bodies where they were created.
    // Down onto the ball 0.3 m off its axis: the surface at y = 2 + sqrt(0.5² - 0.3²) = 2.4, 2.6 m
    // below the start, with the normal (0.3, 0.4, 0) / 0.5.
    cast("ball, 0.3 m off centre", (rb_vec3){0.3f, 5, 0}, (rb_vec3){0, -10, 0}, 0xffffffffu, true, 2.6f,
         (rb_vec3){0.6f, 0.8f, 0}, ball_shape);
    // Towards the box's top face along -n from 3 m above its centre: 3 - 0.25 = 2.75 m, normal n.
    cast("tilted box, onto its top face", (rb_vec3){4 + 3 * n.x, 1 + 3 * n.y, 0},
         (rb_vec3){-10 * n.x, -10 * n.y, 0}, 0xffffffffu, true, 2.75f, n, box_shape);
    // Sideways into the capsule's cylinder at y = 1.2: x = -4.25, 2.75 m from x = -7, normal -x.
    cast("capsule, side", (rb_vec3){-7, 1.2f, 0}, (rb_vec3){10, 0, 0}, 0xffffffffu, true, 2.75f,
         (rb_vec3){-1, 0, 0}, capsule_shape);
    // Down onto its top cap (centre (-4, 1.5, 0)) 0.1 m off the axis in z: y = 1.5 + sqrt(0.25² - 0.1²),
    // normal (0, sqrt(0.0525), 0.1) / 0.25.
    float cap = sqrtf(0.0525f);
    cast("capsule, top cap", (rb_vec3){-4, 5, 0.1f}, (rb_vec3){0, -10, 0}, 0xffffffffu, true, 3.5f - cap,
         (rb_vec3){0, cap / 0.25f, 0.4f}, capsule_shape);
    // At 45° down onto the ground from 3 m up: 3 sqrt(2) m, normal +y.
    cast("ground, at 45 degrees", (rb_vec3){10, 3, 0}, (rb_vec3){8, -8, 0}, 0xffffffffu, true,
         3 * sqrtf(2.0f), (rb_vec3){0, 1, 0}, ground_shape);
    // Up into the sky: nothing.
    cast("up, into the sky", (rb_vec3){10, 3, 0}, (rb_vec3){0, 2, 0}, 0xffffffffu, false, 0, (rb_vec3){0, 0, 0},
         rb_null_shape_id);
    // Straight down through the ball's centre: its top at 2.5 m below; with category 2 masked out,
    // the ray goes through it to the ground, 5 m below.
    cast("down through the ball", (rb_vec3){0, 5, 0}, (rb_vec3){0, -10, 0}, 0xffffffffu, true, 2.5f,
         (rb_vec3){0, 1, 0}, ball_shape);
    cast("same, ball's category masked out", (rb_vec3){0, 5, 0}, (rb_vec3){0, -10, 0}, ~2u, true, 5,
         (rb_vec3){0, 1, 0}, ground_shape);
    // From inside the ball: a hit at fraction 0 with the normal against the ray's direction.
    cast("from inside the ball", (rb_vec3){0, 2, 0}, (rb_vec3){1, 0, 0}, 0xffffffffu, true, 0,
         (rb_vec3){-1, 0, 0}, ball_shape);

    // A ray needs a direction: a zero translation is refused, with a message.
    rb_ray_hit hit;
    rb_status s = rb_world_cast_ray(world, (rb_vec3){0, 5, 0}, (rb_vec3){0, 0, 0}, 0xffffffffu, &hit);
    printf("zero translation: %s: %s\n", rb_status_string(s), rb_last_error(world));
    failures += s != RB_ERR_INVALID_ARGUMENT;

    CHECK(rb_destroy_world(world));
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
