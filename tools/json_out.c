// A minimal JSON writer (see json_out.h).
#include "json_out.h"

#include <math.h>

void json_init(json_out *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->has_member[0] = false;
}

static void write_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f); // UTF-8 passes through unchanged
        }
    }
    fputc('"', f);
}

// Comma and key before a member (nothing before the outermost value).
static void member(json_out *j, const char *key)
{
    if (j->depth == 0)
        return;
    if (j->has_member[j->depth])
        fputc(',', j->f);
    j->has_member[j->depth] = true;
    if (key) {
        write_escaped(j->f, key);
        fputc(':', j->f);
    }
}

void json_begin_object(json_out *j, const char *key)
{
    member(j, key);
    fputc('{', j->f);
    if (j->depth + 1 < JSON_MAX_DEPTH)
        ++j->depth;
    j->has_member[j->depth] = false;
}

void json_end_object(json_out *j)
{
    fputc('}', j->f);
    if (j->depth > 0)
        --j->depth;
}

void json_string(json_out *j, const char *key, const char *value)
{
    member(j, key);
    if (value)
        write_escaped(j->f, value);
    else
        fputs("null", j->f);
}

void json_int(json_out *j, const char *key, long long value)
{
    member(j, key);
    fprintf(j->f, "%lld", value);
}

void json_number(json_out *j, const char *key, double value)
{
    member(j, key);
    if (isfinite(value))
        fprintf(j->f, "%.6g", value);
    else
        fputs("null", j->f);
}

void json_bool(json_out *j, const char *key, bool value)
{
    member(j, key);
    fputs(value ? "true" : "false", j->f);
}
