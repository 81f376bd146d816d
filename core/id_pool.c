// Slots and ids of bodies, shapes and joints (id_pool.h).
#include "id_pool.h"

#include <stdlib.h>
#include <string.h>

void *rb_grow_zeroed(void *p, int old_n, int new_n, size_t size)
{
    void *q = realloc(p, (size_t)new_n * size);
    if (q && new_n > old_n)
        memset((char *)q + (size_t)old_n * size, 0, (size_t)(new_n - old_n) * size);
    return q;
}

bool rb_id_pool_grow(rb_id_pool *p, int capacity, uint16_t base)
{
    if (capacity <= p->capacity)
        return true;
    uint16_t *gen = rb_grow_zeroed(p->generation, p->capacity, capacity, sizeof *gen);
    if (!gen)
        return false;
    p->generation = gen;
    int *free_list = rb_grow_zeroed(p->free, p->capacity, capacity, sizeof *free_list);
    if (!free_list)
        return false; // the generations grew, the capacity did not: a later grow redoes both
    p->free = free_list;
    for (int i = p->capacity; i < capacity; ++i)
        p->generation[i] = base;
    p->capacity = capacity;
    return true;
}

int rb_id_pool_next_free(const rb_id_pool *p) { return p->free_count > 0 ? p->free[p->free_count - 1] : -1; }

void rb_id_pool_issue(rb_id_pool *p, int slot)
{
    if (p->free_count > 0 && p->free[p->free_count - 1] == slot)
        p->free_count--;
    p->generation[slot]++;
}

void rb_id_pool_release(rb_id_pool *p, int slot)
{
    p->generation[slot]++;
    p->free[p->free_count++] = slot;
}

void rb_id_pool_trim(rb_id_pool *p, int slots)
{
    int kept = 0;
    for (int i = 0; i < p->free_count; ++i)
        if (p->free[i] < slots)
            p->free[kept++] = p->free[i];
    p->free_count = kept;
}

uint16_t rb_id_pool_span(const rb_id_pool *p, uint16_t base)
{
    uint16_t span = 0;
    for (int i = 0; i < p->capacity; ++i)
        if ((uint16_t)(p->generation[i] - base) > span)
            span = (uint16_t)(p->generation[i] - base);
    return span;
}

void rb_id_pool_free(rb_id_pool *p)
{
    free(p->generation);
    free(p->free);
    memset(p, 0, sizeof *p);
}
