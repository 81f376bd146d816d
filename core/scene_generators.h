// Generators shared by rb_build_standard_scene and the scene-file loader: grids of bodies with the
// seeded jitter and rotations of docs/bench-scenes.md, square pyramids of boxes, the pen of walls.
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

// The shape every generated body gets.
typedef struct rb_gen_shape {
    rb_shape_type type;  // sphere, capsule or box
    float radius;        // sphere, capsule
    float half_length;   // capsule
    rb_vec3 half_extents;// box
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

// Largest number of bodies one generator may create (a typo in a count must not eat the machine).
#define RB_MAX_GENERATED_BODIES 20000000

rb_status rb_generate_grid(rb_world_id w, const rb_grid_spec *spec, rb_lcg *rng, rb_body_list *created);
rb_status rb_generate_pyramid(rb_world_id w, const rb_pyramid_spec *spec, rb_body_list *created);
rb_status rb_generate_pen(rb_world_id w, const rb_pen_spec *spec, rb_body_list *created);
// A static ground plane y = height.
rb_status rb_generate_ground(rb_world_id w, float height, const rb_shape_def *def, rb_body_list *created);
// One body with one shape.
rb_status rb_generate_body(rb_world_id w, const rb_body_def *body, const rb_gen_shape *shape, rb_body_list *created);

#endif
