// Helpers shared by the scene-file tests (tests/test_scene_*.c, test_load_bounds.c): tolerance and message assertions, a
// one-thread CPU world, the scene directory, and loading scene text that must succeed. Everything is
// `static inline`: a test compiles in only what it uses, without warnings. Include after cmocka.h and
// rubble.h.
#ifndef RUBBLE_TESTS_SCENE_TEST_UTIL_H
#define RUBBLE_TESTS_SCENE_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

#define assert_near(actual, expected, tol) assert_near_at((actual), (expected), (tol), __FILE__, __LINE__)

static inline void assert_near_at(double actual, double expected, double tol, const char *file, int line)
{
    if (!(fabs(actual - expected) <= tol))
        fail_msg("%s:%d: got %.9g, expected %.9g (tolerance %g)", file, line, actual, expected, tol);
}

#define assert_contains(text, part) assert_contains_at((text), (part), __FILE__, __LINE__)

static inline void assert_contains_at(const char *text, const char *part, const char *file, int line)
{
    if (!strstr(text, part))
        fail_msg("%s:%d: message \"%s\" does not contain \"%s\"", file, line, text, part);
}

// A world on the CPU with one thread: the figures of these tests do not depend on the backend.
static inline rb_world_id new_world(void)
{
    rb_world_def def = rb_default_world_def();
    def.backend = RB_BACKEND_CPU;
    def.threads = 1;
    rb_world_id w;
    assert_int_equal(rb_create_world(&def, &w), RB_OK);
    return w;
}

// data/scenes/ (RUBBLE_SCENE_DIR, which meson sets, else relative to the source root).
static inline const char *scene_dir(void)
{
    const char *dir = getenv("RUBBLE_SCENE_DIR");
    return dir ? dir : "data/scenes";
}

static inline void load_ok(rb_world_id w, const char *text)
{
    if (rb_load_scene_text(w, text, "inline") != RB_OK)
        fail_msg("load failed: %s", rb_last_error(w));
}

#endif
