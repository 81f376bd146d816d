// Largest overlap among a set of spheres, found with a hashed uniform grid (O(n) for a pile, not
// O(n^2)): max over pairs of r_a + r_b - |c_a - c_b|, or 0 when no two spheres overlap.
#ifndef RUBBLE_CLI_SPHERE_OVERLAP_H
#define RUBBLE_CLI_SPHERE_OVERLAP_H

#include "rubble.h"

/// Spheres with a non-finite centre or radius are left out. Returns a negative value if memory ran out.
double max_sphere_overlap(const rb_vec3 *centers, const float *radii, int n);

#endif
