// The state hash of `rubble run --hash`: 64-bit FNV-1a over the raw float32 bytes of every live
// body's position (x, y, z), orientation (x, y, z, w), linear and angular velocity (x, y, z), in slot
// order. Equal hashes mean bitwise-equal states (used to check determinism across thread counts).
#ifndef RUBBLE_CLI_STATE_HASH_H
#define RUBBLE_CLI_STATE_HASH_H

#include <stdint.h>

#include "body_state.h"

uint64_t state_hash(const body_state *s);

#endif
