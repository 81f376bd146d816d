// png_stats: what tests/test_viewer.sh needs to know about a PNG, read with libpng (the tests use no
// Python). Prints, one per line:
//   size W H
//   colours N              distinct RGB colours
//   dominant F             fraction of the pixels that have the most common colour
//   range R0-R1,G0-G1,B0-B1 F   for each range given: fraction of the pixels inside it (inclusive)
//   range R0-R1,G0-G1,B0-B1@X,Y,W,H F   the same within the W x H rectangle whose top-left corner is
//                                       pixel (X, Y) (y = 0 is the top row), clipped to the image
// usage: png_stats FILE [R0-R1,G0-G1,B0-B1[@X,Y,W,H] ...]. Exit status 1 (with a message) if the file
// is not a readable PNG, 2 for a bad range.
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rgb_range {
    int lo[3], hi[3];
    long x0, y0, x1, y1; ///< the rectangle counted, [x0, x1) x [y0, y1); x1 < 0: the whole image
} rgb_range;

static int parse_range(const char *text, rgb_range *r)
{
    int used = 0;
    if (sscanf(text, "%d-%d,%d-%d,%d-%d%n", &r->lo[0], &r->hi[0], &r->lo[1], &r->hi[1], &r->lo[2], &r->hi[2],
               &used) != 6)
        return 0;
    r->x0 = r->y0 = 0;
    r->x1 = r->y1 = -1;
    if (text[used] == '@') {
        long x, y, w, h;
        int end = 0;
        if (sscanf(text + used + 1, "%ld,%ld,%ld,%ld%n", &x, &y, &w, &h, &end) != 4 || text[used + 1 + end] ||
            x < 0 || y < 0 || w <= 0 || h <= 0)
            return 0;
        r->x0 = x, r->y0 = y, r->x1 = x + w, r->y1 = y + h;
    } else if (text[used]) {
        return 0;
    }
    for (int c = 0; c < 3; ++c)
        if (r->lo[c] < 0 || r->hi[c] > 255 || r->lo[c] > r->hi[c])
            return 0;
    return 1;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: png_stats FILE [R0-R1,G0-G1,B0-B1 ...]\n");
        return 2;
    }
    int nranges = argc - 2;
    rgb_range *ranges = calloc((size_t)(nranges > 0 ? nranges : 1), sizeof *ranges);
    long *inside = calloc((size_t)(nranges > 0 ? nranges : 1), sizeof *inside);
    long *counted = calloc((size_t)(nranges > 0 ? nranges : 1), sizeof *counted);
    if (!ranges || !inside || !counted)
        return 1;
    for (int i = 0; i < nranges; ++i)
        if (!parse_range(argv[2 + i], &ranges[i])) {
            fprintf(stderr, "png_stats: bad range '%s': expected R0-R1,G0-G1,B0-B1 within 0-255, optionally @X,Y,W,H\n",
                    argv[2 + i]);
            return 2;
        }

    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, argv[1])) {
        fprintf(stderr, "png_stats: cannot read '%s': %s\n", argv[1], image.message);
        return 1;
    }
    image.format = PNG_FORMAT_RGB;
    size_t bytes = PNG_IMAGE_SIZE(image);
    uint8_t *pixels = malloc(bytes);
    uint32_t *seen = calloc((1u << 24) / 32, sizeof *seen); // one bit per 24-bit colour
    uint32_t *counts = NULL;
    if (!pixels || !seen || !png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        fprintf(stderr, "png_stats: cannot decode '%s': %s\n", argv[1], pixels ? image.message : "out of memory");
        return 1;
    }
    long n = (long)image.width * (long)image.height, colours = 0;
    for (long i = 0; i < n; ++i) {
        const uint8_t *p = pixels + 3 * i;
        uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        if (!(seen[c >> 5] & (1u << (c & 31)))) {
            seen[c >> 5] |= 1u << (c & 31);
            ++colours;
        }
        for (int k = 0; k < nranges; ++k) {
            const rgb_range *r = &ranges[k];
            long x = i % (long)image.width, y = i / (long)image.width;
            if (r->x1 >= 0 && (x < r->x0 || x >= r->x1 || y < r->y0 || y >= r->y1))
                continue;
            counted[k]++;
            if (p[0] >= r->lo[0] && p[0] <= r->hi[0] && p[1] >= r->lo[1] && p[1] <= r->hi[1] && p[2] >= r->lo[2] &&
                p[2] <= r->hi[2])
                inside[k]++;
        }
    }
    // the most common colour: the longest run in a sorted copy of the packed colours
    counts = malloc((size_t)n * sizeof *counts);
    long dominant = 0;
    if (counts) {
        for (long i = 0; i < n; ++i) {
            const uint8_t *p = pixels + 3 * i;
            counts[i] = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        }
        qsort(counts, (size_t)n, sizeof *counts, compare_u32);
        for (long i = 0, run = 0; i < n; ++i) {
            run = (i > 0 && counts[i] == counts[i - 1]) ? run + 1 : 1;
            if (run > dominant)
                dominant = run;
        }
    }
    printf("size %u %u\n", image.width, image.height);
    printf("colours %ld\n", colours);
    printf("dominant %.6f\n", n > 0 ? (double)dominant / (double)n : 0.0);
    for (int k = 0; k < nranges; ++k)
        printf("range %s %.6f\n", argv[2 + k], counted[k] > 0 ? (double)inside[k] / (double)counted[k] : 0.0);
    free(pixels);
    free(seen);
    free(counts);
    free(ranges);
    free(inside);
    free(counted);
    return 0;
}
