// PNG writing with libpng (see screenshot.h).
#include "screenshot.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct png_error_context {
    char *err;
    size_t err_size;
} png_error_context;

static void on_png_error(png_structp png, png_const_charp message)
{
    png_error_context *ctx = png_get_error_ptr(png);
    snprintf(ctx->err, ctx->err_size, "libpng: %s", message);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message;
}

bool screenshot_write_png(const char *path, const uint8_t *rgba, int width, int height, char *err, size_t err_size)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, err_size, "cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    png_error_context ctx = {err, err_size};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    // volatile: modified between setjmp and a longjmp back to it
    uint8_t *volatile rgb = malloc((size_t)width * 3 * (size_t)height);
    if (!png || !info || !rgb) {
        snprintf(err, err_size, "out of memory writing '%s'", path);
        png_destroy_write_struct(&png, &info);
        free(rgb);
        fclose(f);
        remove(path);
        return false;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rgb);
        fclose(f);
        remove(path);
        return false;
    }
    // top row first, alpha dropped
    for (int y = 0; y < height; ++y) {
        const uint8_t *src = rgba + (size_t)(height - 1 - y) * (size_t)width * 4;
        uint8_t *dst = rgb + (size_t)y * (size_t)width * 3;
        for (int x = 0; x < width; ++x) {
            dst[3 * x] = src[4 * x];
            dst[3 * x + 1] = src[4 * x + 1];
            dst[3 * x + 2] = src[4 * x + 2];
        }
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 9);
    png_write_info(png, info);
    for (int y = 0; y < height; ++y)
        png_write_row(png, rgb + (size_t)y * (size_t)width * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(rgb);
    if (fclose(f) != 0) {
        snprintf(err, err_size, "cannot write '%s': %s", path, strerror(errno));
        remove(path);
        return false;
    }
    return true;
}

void screenshot_next_name(char *out, size_t size)
{
    for (int i = 1; i < 1000; ++i) {
        snprintf(out, size, "rubble-view-%03d.png", i);
        if (access(out, F_OK) != 0)
            return;
    }
    snprintf(out, size, "rubble-view-999.png");
}
