// A snapshot of every live body of a world, in slot order, read through the bulk API: what the
// CSV output, the state hash, the run summary and the quality metrics look at.
#ifndef RUBBLE_CLI_BODY_STATE_H
#define RUBBLE_CLI_BODY_STATE_H

#include "rubble.h"

typedef struct body_state {
    int count;              ///< live bodies
    int *slot;              ///< body slot of entry i
    rb_body_type *type;
    rb_transform *transform; ///< body origin and rotation
    rb_vec3 *linear;        ///< m/s, of the centre of mass
    rb_vec3 *angular;       ///< rad/s, world frame
} body_state;

/// Reads every live body. On failure returns the status (rb_last_error(world) says why, or
/// RB_ERR_OUT_OF_MEMORY with nothing set) and leaves `out` empty.
rb_status body_state_read(rb_world_id world, body_state *out);
void body_state_free(body_state *s);

/// Number of entries of the given type.
int body_state_count_type(const body_state *s, rb_body_type type);

/// The convex shapes of the bodies in `s` and the distinct hulls they use (many shapes may share one).
/// On failure returns the status (rb_last_error(world) says why, or RB_ERR_OUT_OF_MEMORY).
rb_status body_state_count_hulls(rb_world_id world, const body_state *s, int *hulls, int *convex_shapes);

/// "static", "kinematic", "dynamic".
const char *body_type_name(rb_body_type type);

#endif
