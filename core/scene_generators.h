// Generators shared by rb_build_standard_scene and the scene-file loader: grids of bodies with the
// seeded jitter and rotations of docs/bench-scenes.md, square pyramids of boxes, the pen of walls, the
// jointed ones: the ragdolls and the chain of docs/bench-scenes.md ("Jointed scenes"), and the rocks of
// its convex scene, each with a random hull of its own.
#ifndef RB_CORE_SCENE_GENERATORS_H
#define RB_CORE_SCENE_GENERATORS_H

#include <stdint.h>

#include "../api/rubble.h"

// docs/bench-scenes.md's generator: state <- state * 6364136223846793005 + 1442695040888963407 (mod 2^64),
// advanced before each draw; u = (state >> 11) * 2^-53 in [0, 1).
typedef struct rb_lcg {
    uint64_t state;
} rb_lcg;

double rb_lcg_next(rb_lcg *g);

// Bodies created so far, so a failed load can remove exactly what it added.
typedef struct rb_body_list {
    rb_body_id *ids;
    int count, capacity;
} rb_body_list;

rb_status rb_body_list_push(rb_body_list *l, rb_body_id id);
void rb_body_list_destroy_all(rb_body_list *l); // destroys the bodies and frees the list
void rb_body_list_free(rb_body_list *l);        // frees the list only

// Joints created so far: a failed load destroys them, newest first, before its bodies, so the joint
// slots are given back in the order they were taken.
typedef struct rb_joint_list {
    rb_joint_id *ids;
    int count, capacity;
} rb_joint_list;

void rb_joint_list_destroy_all(rb_joint_list *l); // destroys the joints and frees the list
void rb_joint_list_free(rb_joint_list *l);        // frees the list only
// Creates a joint and records it.
rb_status rb_generate_joint(rb_world_id w, const rb_joint_def *def, rb_joint_list *created);

// Hulls created so far (rb_compute_hull), so a failed load can remove them: after the bodies whose
// shapes use them are gone (a hull in use cannot be destroyed), newest first.
typedef struct rb_hull_list {
    rb_hull_id *ids;
    int count, capacity;
} rb_hull_list;

void rb_hull_list_destroy_all(rb_hull_list *l); // destroys the hulls and frees the list
void rb_hull_list_free(rb_hull_list *l);        // frees the list only
// Builds a hull (rb_compute_hull) and records it.
rb_status rb_generate_hull(rb_world_id w, const rb_hull_def *def, rb_hull_list *created, rb_hull_id *out);

// The shape every generated body gets.
typedef struct rb_gen_shape {
    rb_shape_type type;  // sphere, capsule, box or convex
    float radius;        // sphere, capsule
    float half_length;   // capsule
    rb_vec3 half_extents;// box
    rb_convex convex;    // convex: the hull (of the world the body is made in) and rounding radius
    rb_shape_def def;    // material, density, local pose
} rb_gen_shape;

// count[0] x count[1] x count[2] bodies (x, y, z), created in loop order y, x, z. Centre of body
// (ix, iy, iz): x = center.x + (ix - (nx-1)/2) sx + jx, y = center.y + iy sy + jy,
// z = center.z + (iz - (nz-1)/2) sz + jz. For each body, in order: one draw per jitter axis whose
// amplitude is > 0 (x, then y, then z; j = (2u - 1) amplitude), then, if random_rotation, three draws
// for the axis (2u - 1 each, x, y, z, normalised) and one for the angle (pi u), then one draw per
// velocity_jitter axis whose amplitude is > 0 (the initial linear velocity, (2u - 1) amplitude).
typedef struct rb_grid_spec {
    int count[3];
    rb_vec3 spacing;
    rb_vec3 center;
    rb_vec3 jitter;
    rb_vec3 velocity_jitter; // m/s
    bool random_rotation;
    rb_body_type body_type;
    float mass;          // body mass, 0 = from density
    rb_gen_shape shape;
} rb_grid_spec;

// Square pyramid of boxes: layer k = 0 .. base-1 is an n x n grid, n = base - k, with cube (i, j)
// centred at x = center.x + (i - (n-1)/2) 2hx, y = center.y + hy + 2 hy k, z = center.z + (j - (n-1)/2) 2hz;
// created in loop order k, i, j.
typedef struct rb_pyramid_spec {
    int base;
    rb_vec3 center;      // centre of the base layer's bottom face
    rb_body_type body_type;
    float mass;
    rb_gen_shape shape;  // must be a box
} rb_pyramid_spec;

// Four static walls around x, z in [-half_width, half_width], from y = floor up to floor + height;
// walls normal to x are 2 half_width + 2 thickness long in z, those normal to z likewise in x.
typedef struct rb_pen_spec {
    float half_width;
    float height;
    float thickness;
    float floor;
    rb_shape_def def;
} rb_pen_spec;

// Ragdolls: Bullet's BenchmarkDemo ragdoll (docs/bench-scenes.md "ragdolls", where scale is 3.5) of
// RB_RAGDOLL_BODIES capsules (along their local y) and RB_RAGDOLL_JOINTS joints (hinges and
// cone-twists with the demo's frames and limits; the anchors of each joint are the demo's two pivots,
// which do not meet at creation). count[0] x count[1] x count[2] ragdolls, created in loop order y, x,
// z, each one's bodies (pelvis, spine, head, left upper and lower leg, right upper and lower leg, left
// upper and lower arm, right upper and lower arm) then its joints. Ragdoll (ix, iy, iz) has its origin
// o at position + R ((ix - (nx-1)/2) sx, iy sy, (iz - (nz-1)/2) sz); each part is at o + R (scale x its
// offset), turned by R. At scale 1 a ragdoll stands 1.76 m tall, from 0.035 m below o (the feet) to
// 1.725 m above (the head), its arms spread 1.73 m wide along x, 0.3 m thick.
#define RB_RAGDOLL_BODIES 11
#define RB_RAGDOLL_JOINTS 10

typedef struct rb_ragdoll_spec {
    rb_vec3 position;        // m, origin of the middle ragdoll of the bottom layer
    rb_quat rotation;        // of every ragdoll about its origin
    float scale;             // > 0: 1 is the demo's size, 3.5 the bench scene's
    int count[3];            // ragdolls along x, y, z
    rb_vec3 spacing;         // m between neighbouring origins
    float mass;              // kg, each part (> 0)
    float linear_damping;    // 1/s, each part
    float angular_damping;   // 1/s, each part
    rb_shape_def def;        // material of the capsules
} rb_ragdoll_spec;

// A chain hung from `anchor`: `links` capsules of overall length link_length (joint to joint) and
// radius link_radius, laid end to end from the anchor along `direction` (each along its local y), then
// a sphere of end_radius (when > 0) whose surface touches the last link's free end. Ball joints at
// anchor + k link_length direction: joint 0 holds link 0 to the static world, joint k (k < links)
// link k to link k - 1, and joint `links` the sphere to the last link. Bodies and joints are created
// in that order: the links, the sphere, then the joints.
typedef struct rb_chain_spec {
    rb_vec3 anchor;          // m, the fixed end
    rb_vec3 direction;       // from the anchor along the chain at creation (any length > 0)
    int links;               // >= 1
    float link_length;       // m, >= 2 link_radius
    float link_radius;       // m
    float link_mass;         // kg, each link; 0: from the density
    float end_radius;        // m, the weight at the end; 0: none
    float end_mass;          // kg; 0: from the density
    rb_shape_def def;        // material of the links and the weight
} rb_chain_spec;

// Rocks: count[0] x count[1] x count[2] bodies, each with a convex hull of its own drawn from the LCG,
// created in loop order y, x, z and placed as a grid's bodies (without jitter). For each body, in
// order: for j = 0 .. points/2 - 1, draws u1 then u2 -> c = 2 u1 - 1, s = sqrt(1 - c^2), phi = 2 pi u2,
// d = (s cos phi, s sin phi, c) (uniform on the unit sphere), p_j = (ex d_x, ey d_y, ez d_z) in
// double; the rock's points are +p_j (j = 0 .. points/2 - 1) then -p_j, rounded to float. Then, with
// random_rotation, four draws give the orientation as the grid's random_rotation does. With count
// 16 x 16 x 16, spacing 1, center (0, 1, 0), 12 points, extents (0.25, 0.20, 0.15) and random_rotation
// these are the bodies of docs/bench-scenes.md's `rocks` (bench/compare/rocks_scene.h's rocks_draw_body).
// The hull of each rock is centrally symmetric: its centroid is the body origin.
#define RB_ROCK_MIN_POINTS 4
#define RB_ROCK_MAX_POINTS 256

typedef struct rb_rocks_spec {
    int count[3];
    rb_vec3 spacing;         // m between neighbouring centres
    rb_vec3 center;          // x, z: the grid's centre; y: the bottom layer's centres
    int points;              // even, RB_ROCK_MIN_POINTS .. RB_ROCK_MAX_POINTS
    double extents[3];       // m, the semi-axes (ex, ey, ez) of the ellipsoid the points lie on (double:
                             // the scene's 0.20 is not a float)
    float radius;            // m, rounding radius of every rock (rb_convex.radius)
    bool random_rotation;
    rb_body_type body_type;
    float mass;              // kg each, 0 = from density
    rb_shape_def def;        // material and density of every rock
} rb_rocks_spec;

// One rock's points (spec->points of them, into `out`), drawn as rb_generate_rocks draws them.
void rb_draw_rock_points(rb_lcg *rng, int points, const double extents[3], rb_vec3 *out);
rb_status rb_generate_rocks(rb_world_id w, const rb_rocks_spec *spec, rb_lcg *rng, rb_body_list *bodies,
                            rb_hull_list *hulls);

// Largest number of bodies one generator may create (a typo in a count must not eat the machine).
#define RB_MAX_GENERATED_BODIES 20000000

rb_status rb_generate_grid(rb_world_id w, const rb_grid_spec *spec, rb_lcg *rng, rb_body_list *created);
rb_status rb_generate_pyramid(rb_world_id w, const rb_pyramid_spec *spec, rb_body_list *created);
rb_status rb_generate_pen(rb_world_id w, const rb_pen_spec *spec, rb_body_list *created);
// A static ground plane y = height.
rb_status rb_generate_ground(rb_world_id w, float height, const rb_shape_def *def, rb_body_list *created);
rb_status rb_generate_ragdolls(rb_world_id w, const rb_ragdoll_spec *spec, rb_body_list *bodies,
                               rb_joint_list *joints);
rb_status rb_generate_chain(rb_world_id w, const rb_chain_spec *spec, rb_body_list *bodies, rb_joint_list *joints);
// One body with one shape.
rb_status rb_generate_body(rb_world_id w, const rb_body_def *body, const rb_gen_shape *shape, rb_body_list *created);

#endif
