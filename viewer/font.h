// A built-in 5 x 7 pixel bitmap font for the heads-up text: printable ASCII (32..126). Data, drawn
// with the rest of the viewer's GL (no font library, no font file to find at run time).
#ifndef RUBBLE_VIEW_FONT_H
#define RUBBLE_VIEW_FONT_H

#include <stdbool.h>

#define FONT_FIRST 32
#define FONT_LAST 126
#define FONT_GLYPH_W 5
#define FONT_GLYPH_H 7

/// Whether pixel (x, y) of character `c` is set (y = 0 is the top row). Characters outside
/// 32..126 are drawn as '?'.
bool font_pixel(char c, int x, int y);

/// Checks the table: every glyph has 7 rows of 5 cells, each '#' or '.'. Returns the first bad
/// character, or 0 if all are well formed.
int font_check(void);

#endif
