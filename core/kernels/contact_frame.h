// The contact frame: two unit tangents completing the normal to a right-handed basis.
#ifndef RB_KERNELS_CONTACT_FRAME_H
#define RB_KERNELS_CONTACT_FRAME_H

#include "vec_math.h"

// Branchless-style basis of Duff et al. (2017), "Building an orthonormal basis, revisited": continuous
// except across n.z = 0's sign flip, exact for unit n, and cheap. t1 x t2 = n.
RB_FN void rb_contact_basis(rb_float3 n, rb_float3 *t1, rb_float3 *t2)
{
    float sign = n.z >= 0.0f ? 1.0f : -1.0f;
    float a = -1.0f / (sign + n.z);
    float b = n.x * n.y * a;
    *t1 = rb_f3(1.0f + sign * n.x * n.x * a, sign * b, -sign * n.x);
    *t2 = rb_f3(b, sign + n.y * n.y * a, -n.y);
}

#endif
