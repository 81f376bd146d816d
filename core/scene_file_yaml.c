// The input layer of the scene-file loader: the file's bytes, libyaml's document API, and typed reads
// that know where each value is.
#define _POSIX_C_SOURCE 200809L // fileno, fstat

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scene_file_yaml.h"

bool sf_ok(const sf_reader *r) { return r->status == RB_OK; }

static bool vfail_at(sf_reader *r, rb_status status, int line, int column, const char *fmt, va_list args)
{
    if (r->status != RB_OK)
        return false;
    char text[RB_ERROR_SIZE];
    vsnprintf(text, sizeof text, fmt, args);
    rb_format(r->message, sizeof r->message, "%s:%d:%d: %s", r->name, line, column, text);
    r->status = status;
    return false;
}

static bool fail_at(sf_reader *r, rb_status status, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static bool fail_at(sf_reader *r, rb_status status, int line, int column, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vfail_at(r, status, line, column, fmt, args);
    va_end(args);
    return false;
}

bool sf_fail(sf_reader *r, rb_status status, const yaml_node_t *at, const char *fmt, ...)
{
    int line = at ? (int)at->start_mark.line + 1 : 1;
    int column = at ? (int)at->start_mark.column + 1 : 1;
    va_list args;
    va_start(args, fmt);
    vfail_at(r, status, line, column, fmt, args);
    va_end(args);
    return false;
}

// ---- the file ----

rb_status sf_read_file(rb_world *w, const char *path, size_t limit, char **text, size_t *size_out)
{
    *text = NULL;
    *size_out = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return rb_fail(w, RB_ERR_IO, "cannot open scene file '%s': %s", path, strerror(errno));
    struct stat st;
    int stat_error = fstat(fileno(f), &st) != 0 ? errno : 0;
    if (stat_error || S_ISDIR(st.st_mode)) {
        fclose(f);
        return rb_fail(w, RB_ERR_IO, "cannot read scene file '%s': %s", path,
                       strerror(stat_error ? stat_error : EISDIR));
    }
    if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > limit) {
        fclose(f);
        return rb_fail(w, RB_ERR_CAPACITY, "scene file '%s' is %lld bytes, more than the limit of %zu MiB", path,
                       (long long)st.st_size, limit >> 20);
    }
    // read it whole; a pipe has no size up front, so grow as needed, up to the limit
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536, size = 0;
    char *buf = malloc(cap);
    errno = 0;
    for (;;) {
        if (!buf) {
            fclose(f);
            return rb_fail(w, RB_ERR_OUT_OF_MEMORY, "out of memory reading scene file '%s'", path);
        }
        size += fread(buf + size, 1, cap - size, f);
        if (size < cap || size > limit)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    int read_error = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (read_error || size > limit) {
        free(buf);
        if (read_error)
            return rb_fail(w, RB_ERR_IO, "cannot read scene file '%s': %s", path, strerror(read_error));
        return rb_fail(w, RB_ERR_CAPACITY, "scene file '%s' is more than the limit of %zu MiB", path, limit >> 20);
    }
    *text = buf;
    *size_out = size;
    return RB_OK;
}

// ---- the document ----

// Line and column (1-based, column in bytes) of byte `offset` of `text`.
static void locate_offset(const char *text, size_t size, size_t offset, int *line, int *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset && i < size; ++i) {
        if (text[i] == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

static rb_status parser_error(sf_reader *r, const yaml_parser_t *p, const char *text, size_t size)
{
    const char *problem = p->problem ? p->problem : "unknown error";
    switch (p->error) {
    case YAML_MEMORY_ERROR:
        fail_at(r, RB_ERR_OUT_OF_MEMORY, 1, 1, "out of memory while parsing the YAML text");
        break;
    case YAML_READER_ERROR: {
        int line, column;
        locate_offset(text, size, p->problem_offset, &line, &column);
        if (p->problem_value != -1)
            fail_at(r, RB_ERR_PARSE, line, column, "unreadable text: %s (byte 0x%02x); expected UTF-8 text", problem,
                    (unsigned)p->problem_value);
        else
            fail_at(r, RB_ERR_PARSE, line, column, "unreadable text: %s; expected UTF-8 text", problem);
        break;
    }
    default: {
        // libyaml puts errors at the end of the stream one line past a last line without a newline:
        // clamp such marks to the real end of the text
        int end_line, end_column;
        locate_offset(text, size, size, &end_line, &end_column);
        int line = (int)p->problem_mark.line + 1, column = (int)p->problem_mark.column + 1;
        int context_line = (int)p->context_mark.line + 1, context_column = (int)p->context_mark.column + 1;
        bool at_end = line > end_line || (line == end_line && column >= end_column);
        if (at_end)
            line = end_line, column = end_column;
        if (context_line > end_line || (context_line == end_line && context_column > end_column))
            context_line = end_line, context_column = end_column;
        const char *hint = at_end ? "; the text ends here: is the file cut short?" : "";
        if (p->context)
            fail_at(r, RB_ERR_PARSE, line, column, "YAML syntax error: %s (%s that starts at line %d, column %d)%s",
                    problem, p->context, context_line, context_column, hint);
        else
            fail_at(r, RB_ERR_PARSE, line, column, "YAML syntax error: %s%s", problem, hint);
        break;
    }
    }
    return r->status;
}

rb_status sf_open(sf_reader *r, const char *name, const char *text, size_t size)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    r->status = RB_OK;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fail_at(r, RB_ERR_OUT_OF_MEMORY, 1, 1, "out of memory starting the YAML parser");
        return r->status;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, size);
    if (!yaml_parser_load(&parser, &r->doc)) {
        parser_error(r, &parser, text, size);
        yaml_parser_delete(&parser);
        return r->status;
    }
    r->loaded = true;
    if (sf_root(r)) {
        // one document per file: a second one is far more likely a mistake than an intention
        yaml_document_t extra;
        if (!yaml_parser_load(&parser, &extra)) {
            parser_error(r, &parser, text, size);
        } else {
            yaml_node_t *root = yaml_document_get_root_node(&extra);
            if (root)
                fail_at(r, RB_ERR_PARSE, (int)root->start_mark.line + 1, (int)root->start_mark.column + 1,
                        "a second YAML document starts here; expected one document per scene file");
            yaml_document_delete(&extra);
        }
    }
    yaml_parser_delete(&parser);
    return r->status;
}

void sf_close(sf_reader *r)
{
    if (r->loaded)
        yaml_document_delete(&r->doc);
    r->loaded = false;
}

yaml_node_t *sf_root(sf_reader *r) { return r->loaded ? yaml_document_get_root_node(&r->doc) : NULL; }

// ---- scalars ----

static bool is_plain(const yaml_node_t *n)
{
    return n->type == YAML_SCALAR_NODE && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

static const char *scalar_text(const yaml_node_t *n) { return (const char *)n->data.scalar.value; }

bool sf_is_null(const yaml_node_t *n)
{
    if (!is_plain(n))
        return false;
    const char *s = scalar_text(n);
    return s[0] == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
           strcmp(s, "NULL") == 0;
}

static int bool_value(const yaml_node_t *n) // 1, 0, or -1 when not a boolean
{
    if (!is_plain(n))
        return -1;
    const char *s = scalar_text(n);
    if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 || strcmp(s, "TRUE") == 0)
        return 1;
    if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0 || strcmp(s, "FALSE") == 0)
        return 0;
    return -1;
}

static bool all_digits(const char **p, int base)
{
    const char *s = *p;
    while ((base == 10 && *s >= '0' && *s <= '9') ||
           (base == 16 && ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F'))))
        ++s;
    bool any = s != *p;
    *p = s;
    return any;
}

// YAML 1.2 core schema / JSON decimal number: [-+]? (d+ (. d*)? | . d+) ([eE] [-+]? d+)?
static bool is_decimal(const char *s)
{
    if (*s == '-' || *s == '+')
        ++s;
    bool whole = all_digits(&s, 10);
    bool fraction = false;
    if (*s == '.') {
        ++s;
        fraction = all_digits(&s, 10);
    }
    if (!whole && !fraction)
        return false;
    if (*s == 'e' || *s == 'E') {
        ++s;
        if (*s == '-' || *s == '+')
            ++s;
        if (!all_digits(&s, 10))
            return false;
    }
    return *s == '\0';
}

// [-+]? d+ or 0x h+
static bool is_integer(const char *s)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        return all_digits(&s, 16) && *s == '\0';
    }
    if (*s == '-' || *s == '+')
        ++s;
    return all_digits(&s, 10) && *s == '\0';
}

// YAML's .inf, -.inf, .nan in their three spellings
static bool is_special_float(const char *s)
{
    if (*s == '-' || *s == '+')
        ++s;
    return strcmp(s, ".inf") == 0 || strcmp(s, ".Inf") == 0 || strcmp(s, ".INF") == 0 || strcmp(s, ".nan") == 0 ||
           strcmp(s, ".NaN") == 0 || strcmp(s, ".NAN") == 0;
}

static bool is_number(const yaml_node_t *n)
{
    if (!is_plain(n))
        return false;
    const char *s = scalar_text(n);
    return is_decimal(s) || is_integer(s) || is_special_float(s);
}

void sf_describe(const yaml_node_t *n, char *buf, size_t size)
{
    switch (n->type) {
    case YAML_MAPPING_NODE: rb_format(buf, size, "a mapping"); return;
    case YAML_SEQUENCE_NODE: rb_format(buf, size, "a sequence"); return;
    case YAML_SCALAR_NODE: break;
    default: rb_format(buf, size, "nothing"); return;
    }
    const char *s = scalar_text(n);
    int len = (int)strlen(s);
    const char *more = len > 40 ? "..." : "";
    if (sf_is_null(n))
        rb_format(buf, size, "null (no value)");
    else if (bool_value(n) >= 0)
        rb_format(buf, size, "the boolean %s", s);
    else if (is_number(n))
        rb_format(buf, size, "the number %.40s%s", s, more);
    else
        rb_format(buf, size, "the string '%.40s%s'", s, more);
}

static bool expected(sf_reader *r, const yaml_node_t *n, const char *what, const char *expectation)
{
    char got[96];
    sf_describe(n, got, sizeof got);
    return sf_fail(r, RB_ERR_PARSE, n, "%s: expected %s, got %s", what, expectation, got);
}

bool sf_float(sf_reader *r, const yaml_node_t *n, const char *what, float *out)
{
    if (!sf_ok(r))
        return false;
    if (!is_number(n))
        return expected(r, n, what, "a number");
    const char *s = scalar_text(n);
    if (is_special_float(s))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, n, "%s must be a finite number, got %s", what, s);
    errno = 0;
    char *end = NULL;
    float v = is_decimal(s) ? strtof(s, &end) : (float)strtoll(s, &end, 16); // else it is 0x...
    if (!isfinite(v) || (errno == ERANGE && fabsf(v) > 1.0f))
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, n, "%s must be a finite 32-bit float, got %s (too large)", what, s);
    *out = v;
    return true;
}

bool sf_int(sf_reader *r, const yaml_node_t *n, const char *what, long long lo, long long hi, rb_status range_status,
            long long *out)
{
    if (!sf_ok(r))
        return false;
    if (!is_plain(n) || !is_integer(scalar_text(n)))
        return expected(r, n, what, "an integer");
    const char *s = scalar_text(n);
    errno = 0;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    long long v = strtoll(s, NULL, hex ? 16 : 10); // base 10 even with leading zeros ("010" is ten)
    rb_status status = range_status != RB_OK ? range_status : RB_ERR_INVALID_ARGUMENT;
    if (errno == ERANGE || v < lo || v > hi)
        return sf_fail(r, status, n, "%s must be in [%lld, %lld], got %s", what, lo, hi, s);
    *out = v;
    return true;
}

bool sf_uint64(sf_reader *r, const yaml_node_t *n, const char *what, uint64_t *out)
{
    if (!sf_ok(r))
        return false;
    if (!is_plain(n) || !is_integer(scalar_text(n)))
        return expected(r, n, what, "an integer");
    const char *s = scalar_text(n);
    if (s[0] == '+')
        ++s;
    errno = 0;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    unsigned long long v = strtoull(s, NULL, hex ? 16 : 10);
    if (s[0] == '-' || errno == ERANGE)
        return sf_fail(r, RB_ERR_INVALID_ARGUMENT, n, "%s must be in [0, 2^64 - 1], got %s", what, scalar_text(n));
    *out = (uint64_t)v;
    return true;
}

bool sf_bool(sf_reader *r, const yaml_node_t *n, const char *what, bool *out)
{
    if (!sf_ok(r))
        return false;
    int b = bool_value(n);
    if (b < 0)
        return expected(r, n, what, "true or false");
    *out = b == 1;
    return true;
}

bool sf_string(sf_reader *r, const yaml_node_t *n, const char *what, const char **out)
{
    if (!sf_ok(r))
        return false;
    if (n->type != YAML_SCALAR_NODE || sf_is_null(n) || scalar_text(n)[0] == '\0')
        return expected(r, n, what, "a non-empty string");
    *out = scalar_text(n);
    return true;
}

// ---- collections ----

int sf_sequence(sf_reader *r, const yaml_node_t *node, const char *what)
{
    if (!sf_ok(r))
        return -1;
    if (node->type != YAML_SEQUENCE_NODE) {
        expected(r, node, what, "a sequence (a list of '- item' lines or [a, b, ...])");
        return -1;
    }
    return (int)(node->data.sequence.items.top - node->data.sequence.items.start);
}

yaml_node_t *sf_item(sf_reader *r, const yaml_node_t *seq, int i)
{
    return yaml_document_get_node(&r->doc, seq->data.sequence.items.start[i]);
}

int sf_mapping_size(const yaml_node_t *map)
{
    return (int)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
}

yaml_node_t *sf_mapping_key(sf_reader *r, const yaml_node_t *map, int i)
{
    return yaml_document_get_node(&r->doc, map->data.mapping.pairs.start[i].key);
}

yaml_node_t *sf_mapping_value(sf_reader *r, const yaml_node_t *map, int i)
{
    return yaml_document_get_node(&r->doc, map->data.mapping.pairs.start[i].value);
}

bool sf_mapping(sf_reader *r, const yaml_node_t *node, const char *what, const char *const *keys)
{
    if (!sf_ok(r))
        return false;
    if (node->type != YAML_MAPPING_NODE)
        return expected(r, node, what, "a mapping (key: value lines or {key: value, ...})");
    int nkeys = 0;
    while (keys[nkeys])
        ++nkeys;
    uint64_t seen = 0; // key lists are short (< 64)
    int n = sf_mapping_size(node);
    for (int i = 0; i < n; ++i) {
        yaml_node_t *k = sf_mapping_key(r, node, i);
        if (k->type != YAML_SCALAR_NODE) {
            char got[96];
            sf_describe(k, got, sizeof got);
            return sf_fail(r, RB_ERR_PARSE, k, "%s: keys must be plain names, got %s as a key", what, got);
        }
        const char *key = scalar_text(k);
        int found = -1;
        for (int j = 0; j < nkeys && found < 0; ++j)
            if (strcmp(key, keys[j]) == 0)
                found = j;
        if (found < 0) {
            char list[512];
            size_t used = 0;
            list[0] = '\0';
            for (int j = 0; j < nkeys && used < sizeof list; ++j)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "", keys[j]);
            return sf_fail(r, RB_ERR_PARSE, k, "unknown key '%.60s' in %s; expected one of: %s", key, what, list);
        }
        if (seen & (1ull << found))
            return sf_fail(r, RB_ERR_PARSE, k, "duplicate key '%s' in %s; each key may appear only once", key, what);
        seen |= 1ull << found;
    }
    return true;
}

yaml_node_t *sf_get(sf_reader *r, const yaml_node_t *map, const char *key)
{
    int n = sf_mapping_size(map);
    for (int i = 0; i < n; ++i) {
        yaml_node_t *k = sf_mapping_key(r, map, i);
        if (k->type == YAML_SCALAR_NODE && strcmp(scalar_text(k), key) == 0)
            return sf_mapping_value(r, map, i);
    }
    return NULL;
}

yaml_node_t *sf_require(sf_reader *r, const yaml_node_t *map, const char *key, const char *what)
{
    if (!sf_ok(r))
        return NULL;
    yaml_node_t *v = sf_get(r, map, key);
    if (!v)
        sf_fail(r, RB_ERR_PARSE, map, "missing key '%s' in %s", key, what);
    return v;
}

bool sf_vec4(sf_reader *r, const yaml_node_t *n, const char *what, float out[4])
{
    if (!sf_ok(r))
        return false;
    if (n->type != YAML_SEQUENCE_NODE)
        return expected(r, n, what, "a sequence of 4 numbers [x, y, z, w]");
    int len = sf_sequence(r, n, what);
    if (len != 4)
        return sf_fail(r, RB_ERR_PARSE, n, "%s: expected a sequence of 4 numbers [x, y, z, w], got %d item%s", what,
                       len, len == 1 ? "" : "s");
    char item[160];
    static const char axis[4] = {'x', 'y', 'z', 'w'};
    for (int i = 0; i < 4; ++i) {
        rb_format(item, sizeof item, "%s.%c", what, axis[i]);
        if (!sf_float(r, sf_item(r, n, i), item, &out[i]))
            return false;
    }
    return true;
}

bool sf_vec3(sf_reader *r, const yaml_node_t *n, const char *what, rb_vec3 *out)
{
    if (!sf_ok(r))
        return false;
    if (n->type != YAML_SEQUENCE_NODE)
        return expected(r, n, what, "a sequence of 3 numbers [x, y, z]");
    int len = sf_sequence(r, n, what);
    if (len != 3)
        return sf_fail(r, RB_ERR_PARSE, n, "%s: expected a sequence of 3 numbers [x, y, z], got %d item%s", what, len,
                       len == 1 ? "" : "s");
    char item[160];
    float v[3];
    static const char axis[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; ++i) {
        rb_format(item, sizeof item, "%s.%c", what, axis[i]);
        if (!sf_float(r, sf_item(r, n, i), item, &v[i]))
            return false;
    }
    *out = (rb_vec3){v[0], v[1], v[2]};
    return true;
}

// ---- keyed values ----

const char *sf_what(char *buf, size_t size, const char *context, const char *key)
{
    rb_format(buf, size, "%s %s", context, key);
    return buf;
}

bool sf_opt_float(sf_reader *r, const yaml_node_t *map, const char *key, const char *context, float *out)
{
    yaml_node_t *v = sf_get(r, map, key);
    char what[128];
    return !v || sf_float(r, v, sf_what(what, sizeof what, context, key), out);
}

bool sf_opt_vec3(sf_reader *r, const yaml_node_t *map, const char *key, const char *context, rb_vec3 *out)
{
    yaml_node_t *v = sf_get(r, map, key);
    char what[128];
    return !v || sf_vec3(r, v, sf_what(what, sizeof what, context, key), out);
}

bool sf_opt_bool(sf_reader *r, const yaml_node_t *map, const char *key, const char *context, bool *out)
{
    yaml_node_t *v = sf_get(r, map, key);
    char what[128];
    return !v || sf_bool(r, v, sf_what(what, sizeof what, context, key), out);
}

bool sf_req_float(sf_reader *r, const yaml_node_t *map, const char *key, const char *context, float *out)
{
    yaml_node_t *v = sf_require(r, map, key, context);
    char what[128];
    return v && sf_float(r, v, sf_what(what, sizeof what, context, key), out);
}
