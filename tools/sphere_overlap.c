// Largest sphere-sphere overlap with a hashed uniform grid (see sphere_overlap.h).
//
// Cell edge = the largest diameter, so two overlapping spheres have centres in the same or
// neighbouring cells. Cells are hashed into a table of buckets (counting sort); different cells
// that share a bucket only add candidates, never hide one.
#include "sphere_overlap.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static int64_t cell_coord(float x, double inv_cell)
{
    double c = floor((double)x * inv_cell);
    // far-away (escaped) spheres share the outermost cells: still correct, only slower
    if (c > 1e9)
        c = 1e9;
    if (c < -1e9)
        c = -1e9;
    return (int64_t)c;
}

static uint32_t cell_bucket(int64_t x, int64_t y, int64_t z, uint32_t mask)
{
    uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)y * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)z * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    return (uint32_t)h & mask;
}

double max_sphere_overlap(const rb_vec3 *centers, const float *radii, int n)
{
    float max_radius = 0.0f;
    int valid = 0;
    for (int i = 0; i < n; ++i) {
        if (isfinite(centers[i].x) && isfinite(centers[i].y) && isfinite(centers[i].z) && isfinite(radii[i]) &&
            radii[i] > 0.0f) {
            ++valid;
            if (radii[i] > max_radius)
                max_radius = radii[i];
        }
    }
    if (valid < 2)
        return 0.0;
    double inv_cell = 1.0 / (2.0 * (double)max_radius);

    uint32_t buckets = 1;
    while (buckets < 2u * (uint32_t)valid && buckets < (1u << 30))
        buckets <<= 1;
    uint32_t mask = buckets - 1;
    uint32_t *start = calloc((size_t)buckets + 1, sizeof *start);
    int *order = malloc((size_t)valid * sizeof *order);
    uint32_t *bucket_of = malloc((size_t)n * sizeof *bucket_of);
    int64_t(*cell)[3] = malloc((size_t)n * sizeof *cell);
    if (!start || !order || !bucket_of || !cell) {
        free(start), free(order), free(bucket_of), free(cell);
        return -1.0;
    }

    // counting sort of the valid spheres by bucket
    for (int i = 0; i < n; ++i) {
        bucket_of[i] = UINT32_MAX;
        if (!(isfinite(centers[i].x) && isfinite(centers[i].y) && isfinite(centers[i].z) && isfinite(radii[i]) &&
              radii[i] > 0.0f))
            continue;
        cell[i][0] = cell_coord(centers[i].x, inv_cell);
        cell[i][1] = cell_coord(centers[i].y, inv_cell);
        cell[i][2] = cell_coord(centers[i].z, inv_cell);
        bucket_of[i] = cell_bucket(cell[i][0], cell[i][1], cell[i][2], mask);
        ++start[bucket_of[i] + 1];
    }
    for (uint32_t b = 0; b < buckets; ++b)
        start[b + 1] += start[b];
    uint32_t *fill = malloc((size_t)buckets * sizeof *fill);
    if (!fill) {
        free(start), free(order), free(bucket_of), free(cell);
        return -1.0;
    }
    for (uint32_t b = 0; b < buckets; ++b)
        fill[b] = start[b];
    for (int i = 0; i < n; ++i)
        if (bucket_of[i] != UINT32_MAX)
            order[fill[bucket_of[i]]++] = i;
    free(fill);

    double best = 0.0;
    for (int i = 0; i < n; ++i) {
        if (bucket_of[i] == UINT32_MAX)
            continue;
        uint32_t seen[27];
        int seen_count = 0;
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dz = -1; dz <= 1; ++dz) {
                    uint32_t b = cell_bucket(cell[i][0] + dx, cell[i][1] + dy, cell[i][2] + dz, mask);
                    int dup = 0;
                    for (int k = 0; k < seen_count; ++k)
                        dup |= seen[k] == b;
                    if (dup)
                        continue;
                    seen[seen_count++] = b;
                    for (uint32_t k = start[b]; k < start[b + 1]; ++k) {
                        int j = order[k];
                        if (j <= i)
                            continue; // each pair once
                        double ex = (double)centers[j].x - centers[i].x;
                        double ey = (double)centers[j].y - centers[i].y;
                        double ez = (double)centers[j].z - centers[i].z;
                        double reach = (double)radii[i] + radii[j];
                        double d2 = ex * ex + ey * ey + ez * ez;
                        if (d2 >= reach * reach)
                            continue;
                        double overlap = reach - sqrt(d2);
                        if (overlap > best)
                            best = overlap;
                    }
                }
    }
    free(start), free(order), free(bucket_of), free(cell);
    return best;
}
