// The slots of one kind of object (bodies, shapes, joints) and their ids: each slot's generation, bumped
// when an object is created in it and again when it is destroyed, so an id (slot + generation) kept
// after its object died names nothing; and the free slots, a stack, the last freed reused first.
#ifndef RB_CORE_ID_POOL_H
#define RB_CORE_ID_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rb_id_pool {
    uint16_t *generation; // per slot
    int *free;            // free slots below the kind's slot count, a stack
    int free_count;
    int capacity;         // slots the arrays hold
} rb_id_pool;

// realloc to new_n elements of `size` bytes, the new ones zeroed; NULL (p untouched) when out of memory.
void *rb_grow_zeroed(void *p, int old_n, int new_n, size_t size);

// Room for `capacity` slots; new slots start at generation `base` (world.h: id_generation_base).
// Returns false, changing nothing that was there, when out of memory.
bool rb_id_pool_grow(rb_id_pool *p, int capacity, uint16_t base);

// The slot the next object takes from the free list, or -1 when none is free (it then takes a new one).
int rb_id_pool_next_free(const rb_id_pool *p);

// An object is created in `slot` (from the free list when it was rb_id_pool_next_free's answer).
void rb_id_pool_issue(rb_id_pool *p, int slot);

// The object in `slot` is destroyed: its ids go stale and the slot is free.
void rb_id_pool_release(rb_id_pool *p, int slot);

// Whether generation matches the slot's (the caller checks the slot is in range and holds an object).
static inline bool rb_id_pool_matches(const rb_id_pool *p, int slot, uint16_t generation)
{
    return p->generation[slot] == generation;
}

// Forgets the free slots at or above `slots` (the kind's slot count shrinks back to it).
void rb_id_pool_trim(rb_id_pool *p, int slots);

// How far past `base` the newest generation issued lies (wrapping at 65,536).
uint16_t rb_id_pool_span(const rb_id_pool *p, uint16_t base);

void rb_id_pool_free(rb_id_pool *p);

#endif
