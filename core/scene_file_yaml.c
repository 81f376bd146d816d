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

static void fail_at_mark(sf_reader *r, rb_status status, yaml_mark_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail_at_mark(sf_reader *r, rb_status status, yaml_mark_t at, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vfail_at(r, status, (int)at.line + 1, (int)at.column + 1, fmt, args);
    va_end(args);
}

// "12345" below 10^15, "1.23e+20" above (a billion laughs count no longer fits in digits).
static const char *count_text(char *buf, size_t size, double n)
{
    rb_format(buf, size, n < 1e15 ? "%.0f" : "%.3g", n);
    return buf;
}

// One comparison of an anchor name in look-ups: long names that share a prefix cost more (a 4000-byte
// name about as much as 32 short ones).
static double name_cost(const yaml_char_t *name)
{
    return 1.0 + (double)strlen((const char *)name) / 128.0;
}

// A first pass over libyaml's events, without building the document, that refuses what would make the
// load itself super-linear before the loader sees it: libyaml's scanner spends time proportional to the
// flow nesting depth on every token (3.6 s for 50,000 levels, 185 s for 200,000), and its loader finds
// each anchor and alias by a linear search of the anchors defined so far. The pass stops at the first
// collection that opens deeper than SF_MAX_DEPTH, so up to there the scanner's work per token is
// bounded; it counts anchors and aliases, and stops too once their search would exceed
// SF_MAX_ANCHOR_LOOKUPS. A syntax error ends the pass quietly: the loader reports it, at the same place.
static void prescan(sf_reader *r, const char *text, size_t size)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        fail_at(r, RB_ERR_OUT_OF_MEMORY, 1, 1, "out of memory starting the YAML parser");
        return;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, size);
    int depth = 0;
    double anchors = 0.0, lookups = 0.0; // anchors defined in this document; names compared so far
    for (bool done = false; !done && sf_ok(r);) {
        yaml_event_t e;
        if (!yaml_parser_parse(&parser, &e))
            break;
        const yaml_char_t *anchor = NULL;
        bool opens = false;
        switch (e.type) {
        case YAML_STREAM_END_EVENT: done = true; break;
        case YAML_DOCUMENT_START_EVENT: anchors = 0.0; break; // the loader forgets the anchors per document
        case YAML_SEQUENCE_START_EVENT: anchor = e.data.sequence_start.anchor; opens = true; break;
        case YAML_MAPPING_START_EVENT: anchor = e.data.mapping_start.anchor; opens = true; break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: --depth; break;
        case YAML_SCALAR_EVENT: anchor = e.data.scalar.anchor; break;
        case YAML_ALIAS_EVENT:
            lookups += anchors * name_cost(e.data.alias.anchor);
            r->aliases++;
            break;
        default: break;
        }
        if (anchor) {
            lookups += anchors * name_cost(anchor); // compared with every earlier one (duplicates are errors)
            anchors += 1.0;
        }
        if (opens && ++depth > SF_MAX_DEPTH) {
            fail_at_mark(r, RB_ERR_PARSE, e.start_mark,
                         "nesting deeper than %d levels: a %s opens here inside %d others (the scene format needs 8)",
                         SF_MAX_DEPTH, e.type == YAML_SEQUENCE_START_EVENT ? "sequence" : "mapping", SF_MAX_DEPTH);
        } else if (lookups > SF_MAX_ANCHOR_LOOKUPS) {
            char n[32];
            fail_at_mark(r, RB_ERR_CAPACITY, e.start_mark,
                         "too many anchors and aliases: %.0f anchors (&name) and %.0f aliases (*name) so far would "
                         "take more than %s comparisons of anchor names (libyaml compares each anchor and alias "
                         "with every anchor before it; a name of n bytes counts 1 + n/128); use fewer anchors",
                         anchors, (double)r->aliases,
                         count_text(n, sizeof n, SF_MAX_ANCHOR_LOOKUPS));
        }
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&parser);
}

// The node whose re-use through aliases adds most to the tree, (references - 1) x its tree size, for
// the message; n if there is none or no memory to find it.
static size_t costliest_alias_target(const yaml_document_t *d, const double *tree, size_t n)
{
    double *refs = calloc(n, sizeof *refs);
    if (!refs)
        return n;
    for (size_t i = 0; i < n; ++i) {
        const yaml_node_t *node = &d->nodes.start[i];
        if (node->type == YAML_SEQUENCE_NODE) {
            for (const yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; ++it)
                refs[*it - 1] += 1.0;
        } else if (node->type == YAML_MAPPING_NODE) {
            for (const yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; ++p) {
                refs[p->key - 1] += 1.0;
                refs[p->value - 1] += 1.0;
            }
        }
    }
    size_t at = n;
    double worst = 0.0;
    for (size_t i = 0; i < n; ++i)
        if (refs[i] > 1.0 && (refs[i] - 1.0) * tree[i] > worst)
            worst = (refs[i] - 1.0) * tree[i], at = i;
    free(refs);
    return at;
}

// With aliases, a document of n nodes describes a tree of up to ~2^n (a "billion laughs"): the tree that
// the scene reader walks. Its size is counted on the node graph, each node once, and refused when the
// nodes reached through aliases exceed max(SF_ALIAS_NODES_MIN, SF_ALIAS_NODES_PER_NODE x n). An alias
// inside the node it names (a cycle) is refused too.
static void check_alias_expansion(sf_reader *r)
{
    yaml_document_t *d = &r->doc;
    size_t n = (size_t)(d->nodes.top - d->nodes.start);
    if (n == 0 || r->aliases == 0)
        return;
    double *size = malloc(n * sizeof *size);         // nodes in the tree below each node, itself included
    unsigned char *state = calloc(n, 1);              // 0 unseen, 1 on the path, 2 done
    size_t cap = 64, depth = 0;
    struct frame {
        size_t node;
        size_t child;
    } *stack = malloc(cap * sizeof *stack);
    if (!size || !state || !stack) {
        fail_at(r, RB_ERR_OUT_OF_MEMORY, 1, 1, "out of memory counting the YAML aliases");
        goto done;
    }
    stack[depth++] = (struct frame){0, 0}; // the root
    state[0] = 1;
    size[0] = 1.0;
    while (depth > 0) {
        struct frame *f = &stack[depth - 1];
        yaml_node_t *node = &d->nodes.start[f->node];
        size_t children = node->type == YAML_SEQUENCE_NODE
                              ? (size_t)(node->data.sequence.items.top - node->data.sequence.items.start)
                          : node->type == YAML_MAPPING_NODE
                              ? 2 * (size_t)(node->data.mapping.pairs.top - node->data.mapping.pairs.start)
                              : 0;
        if (f->child == children) {
            state[f->node] = 2;
            --depth;
            if (depth > 0)
                size[stack[depth - 1].node] += size[f->node];
            continue;
        }
        size_t k = f->child++;
        int id = node->type == YAML_SEQUENCE_NODE ? node->data.sequence.items.start[k]
                 : (k & 1)                         ? node->data.mapping.pairs.start[k / 2].value
                                                   : node->data.mapping.pairs.start[k / 2].key;
        size_t c = (size_t)id - 1;
        if (state[c] == 2) {
            size[f->node] += size[c];
        } else if (state[c] == 1) {
            sf_fail(r, RB_ERR_PARSE, &d->nodes.start[c], "an alias refers to the node that contains it (a "
                    "recursive alias); the node starts here");
            goto done;
        } else {
            if (depth == cap) {
                struct frame *bigger = realloc(stack, 2 * cap * sizeof *stack);
                if (!bigger) {
                    fail_at(r, RB_ERR_OUT_OF_MEMORY, 1, 1, "out of memory counting the YAML aliases");
                    goto done;
                }
                stack = bigger;
                cap *= 2;
            }
            state[c] = 1;
            size[c] = 1.0;
            stack[depth++] = (struct frame){c, 0};
        }
    }
    double reached = size[0] - (double)n; // nodes read more than once
    double budget = fmax(SF_ALIAS_NODES_MIN, SF_ALIAS_NODES_PER_NODE * (double)n);
    if (reached > budget) {
        size_t at = costliest_alias_target(d, size, n);
        char a[32], b[32], c[32];
        sf_fail(r, RB_ERR_CAPACITY, at < n ? &d->nodes.start[at] : NULL,
                "aliases expand the document's %zu nodes by %s more (the node here is the one most used again "
                "through aliases), more than the limit of %s (the larger of %s and %d per node in the file)",
                n, count_text(a, sizeof a, reached), count_text(b, sizeof b, budget),
                count_text(c, sizeof c, SF_ALIAS_NODES_MIN), SF_ALIAS_NODES_PER_NODE);
    }
done:
    free(size);
    free(state);
    free(stack);
}

rb_status sf_open(sf_reader *r, const char *name, const char *text, size_t size)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    r->status = RB_OK;
    prescan(r, text, size);
    if (!sf_ok(r))
        return r->status;
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
    check_alias_expansion(r);
    if (sf_ok(r) && sf_root(r)) {
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

bool sf_double(sf_reader *r, const yaml_node_t *n, const char *what, double *out)
{
    float f; // the same rules, and the value must fit a float too
    if (!sf_float(r, n, what, &f))
        return false;
    const char *s = scalar_text(n);
    *out = is_decimal(s) ? strtod(s, NULL) : (double)strtoll(s, NULL, 16);
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

bool sf_vec3d(sf_reader *r, const yaml_node_t *n, const char *what, double out[3])
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
    double v[3];
    static const char axis[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; ++i) {
        rb_format(item, sizeof item, "%s.%c", what, axis[i]);
        if (!sf_double(r, sf_item(r, n, i), item, &v[i]))
            return false;
    }
    memcpy(out, v, sizeof v);
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
