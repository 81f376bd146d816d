// Volume, centre and inertia of the solid shapes (uniform density), about the shape's own centre
// in the shape's frame. The core composes them into a body's mass properties.
#ifndef RB_KERNELS_MASS_PROPERTIES_H
#define RB_KERNELS_MASS_PROPERTIES_H

#include "shape_geom.h"

RB_FN float rb_geom_volume(int type, rb_float4 p)
{
    if (type == RB_GEOM_SPHERE)
        return (4.0f / 3.0f) * RB_PI * p.x * p.x * p.x;
    if (type == RB_GEOM_CAPSULE)
        return RB_PI * p.y * p.y * (2.0f * p.x) + (4.0f / 3.0f) * RB_PI * p.y * p.y * p.y;
    if (type == RB_GEOM_BOX)
        return 8.0f * p.x * p.y * p.z;
    return 0.0f;
}

// Diagonal of the inertia tensor of a shape of mass `mass` about its centre, in the shape frame
// (the shape axes are principal axes for all three shapes).
RB_FN rb_float3 rb_geom_inertia(int type, rb_float4 p, float mass)
{
    if (type == RB_GEOM_SPHERE) {
        float i = 0.4f * mass * p.x * p.x;
        return rb_f3(i, i, i);
    }
    if (type == RB_GEOM_BOX) {
        float x2 = 4.0f * p.x * p.x, y2 = 4.0f * p.y * p.y, z2 = 4.0f * p.z * p.z;
        float k = mass / 12.0f;
        return rb_f3(k * (y2 + z2), k * (x2 + z2), k * (x2 + y2));
    }
    if (type == RB_GEOM_CAPSULE) {
        // cylinder of length 2h plus two hemispheres, axis y
        float h = p.x, r = p.y;
        float vc = RB_PI * r * r * 2.0f * h;
        float vs = (4.0f / 3.0f) * RB_PI * r * r * r;
        float vol = vc + vs;
        if (vol <= 0.0f)
            return rb_f3(0.0f, 0.0f, 0.0f);
        float mc = mass * vc / vol;  // cylinder
        float ms = mass * vs / vol;  // both hemispheres together = one sphere
        float iy = 0.5f * mc * r * r + 0.4f * ms * r * r;
        // hemisphere about its own centroid (3r/8 from the flat face), moved to the capsule centre
        float d = h + 0.375f * r;
        float ix_hemis = ms * (0.4f * r * r - (9.0f / 64.0f) * r * r + d * d);
        float ix = mc * (3.0f * r * r + 4.0f * h * h) / 12.0f + ix_hemis;
        return rb_f3(ix, iy, ix);
    }
    return rb_f3(0.0f, 0.0f, 0.0f);
}

#endif
