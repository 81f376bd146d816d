// PNG files of rendered frames, written with libpng.
#ifndef RUBBLE_VIEW_SCREENSHOT_H
#define RUBBLE_VIEW_SCREENSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Writes `rgba` (width * height * 4 bytes, bottom row first, as glReadPixels gives them) as an 8-bit
/// RGB PNG with the top row first. Returns false with a sentence in `err`.
bool screenshot_write_png(const char *path, const uint8_t *rgba, int width, int height, char *err, size_t err_size);

/// The first name "rubble-view-NNN.png" (NNN from 001) that does not exist in the current directory.
void screenshot_next_name(char *out, size_t size);

#endif
