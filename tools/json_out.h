// A minimal JSON writer for one-line records (`rubble bench`): objects, strings (escaped), whole
// numbers, booleans, and numbers printed with %.6g or `null` when not finite.
#ifndef RUBBLE_CLI_JSON_OUT_H
#define RUBBLE_CLI_JSON_OUT_H

#include <stdbool.h>
#include <stdio.h>

enum { JSON_MAX_DEPTH = 8 };

typedef struct json_out {
    FILE *f;
    int depth;
    bool has_member[JSON_MAX_DEPTH]; ///< per open object: a comma is needed before the next member
} json_out;

void json_init(json_out *j, FILE *f);
/// Opens an object; `key` is NULL for the outermost one.
void json_begin_object(json_out *j, const char *key);
void json_end_object(json_out *j);
void json_string(json_out *j, const char *key, const char *value); ///< NULL value writes null
void json_int(json_out *j, const char *key, long long value);
void json_number(json_out *j, const char *key, double value);
void json_bool(json_out *j, const char *key, bool value);

#endif
