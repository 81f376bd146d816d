// The input layer of the scene-file loader (docs/scene-format.md): reads the file, loads one YAML
// document with libyaml's document API and reads typed values from its nodes. Every error it reports starts with
// FILE:LINE:COLUMN (1-based) of the node it is about; the first error is kept, later calls are no-ops.
#ifndef RB_CORE_SCENE_FILE_YAML_H
#define RB_CORE_SCENE_FILE_YAML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "world.h"

// Reads a whole file (at most `limit` bytes) into a malloc'd buffer. RB_ERR_IO with the path and the
// system's reason when it cannot be opened or read (a directory, say); RB_ERR_CAPACITY when too big.
rb_status sf_read_file(rb_world *w, const char *path, size_t limit, char **text, size_t *size);

// Bounds on the YAML text that keep a load linear in its size (docs/scene-format.md, "Limits"):
// - collections nested at most SF_MAX_DEPTH deep (checked before libyaml builds anything; the format
//   needs 8);
// - at most SF_MAX_ANCHOR_LOOKUPS comparisons of anchor names in libyaml's loader, which compares each
//   anchor and alias with every anchor before it (a name of n bytes counts 1 + n / 128);
// - at most max(SF_ALIAS_NODES_MIN, SF_ALIAS_NODES_PER_NODE x the document's nodes) nodes reached
//   again through aliases.
#define SF_MAX_DEPTH 64
#define SF_MAX_ANCHOR_LOOKUPS 1.0e8
#define SF_ALIAS_NODES_MIN 1000000
#define SF_ALIAS_NODES_PER_NODE 4

typedef struct sf_reader {
    yaml_document_t doc;
    bool loaded;                 // doc holds a document that must be freed
    const char *name;            // file name used in messages
    long long aliases;           // aliases (*name) in the text
    rb_status status;            // RB_OK until the first error
    char message[RB_ERROR_SIZE]; // "FILE:LINE:COLUMN: ..." of the first error
} sf_reader;

// Parses `size` bytes of `text` (UTF-8, -16 with a BOM) as exactly one YAML document. On failure the
// reader holds RB_ERR_PARSE and a message; sf_close must be called either way.
rb_status sf_open(sf_reader *r, const char *name, const char *text, size_t size);
void sf_close(sf_reader *r);
// Root node, or NULL for a stream without a document (an empty file, or only comments).
yaml_node_t *sf_root(sf_reader *r);

// Records an error at `at` (NULL: line 1, column 1) unless one is recorded already; returns false so
// callers can write `return sf_fail(...)`.
bool sf_fail(sf_reader *r, rb_status status, const yaml_node_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool sf_ok(const sf_reader *r);

// "a mapping", "a sequence", "null", "the number 2", "the string 'abc'", ...
void sf_describe(const yaml_node_t *n, char *buf, size_t size);
bool sf_is_null(const yaml_node_t *n);

// `node` must be a mapping whose keys are plain scalars taken from the NULL-terminated `keys`, each
// at most once. `what` names the mapping in messages ("sphere", "body", "world").
bool sf_mapping(sf_reader *r, const yaml_node_t *node, const char *what, const char *const *keys);
// Value of `key` in a mapping already checked with sf_mapping, or NULL when the key is absent.
yaml_node_t *sf_get(sf_reader *r, const yaml_node_t *map, const char *key);
// As sf_get, but a missing key is an error ("missing key 'radius' in sphere").
yaml_node_t *sf_require(sf_reader *r, const yaml_node_t *map, const char *key, const char *what);
// The key node of the i-th pair of a mapping and its value (i in [0, sf_mapping_size)).
int sf_mapping_size(const yaml_node_t *map);
yaml_node_t *sf_mapping_key(sf_reader *r, const yaml_node_t *map, int i);
yaml_node_t *sf_mapping_value(sf_reader *r, const yaml_node_t *map, int i);

// `node` must be a sequence; returns its length, or -1 after recording an error.
int sf_sequence(sf_reader *r, const yaml_node_t *node, const char *what);
yaml_node_t *sf_item(sf_reader *r, const yaml_node_t *seq, int i);

// Scalars. Numbers and booleans must be plain (unquoted) scalars. `what` names the value
// ("sphere radius"). Floats must be finite and representable as a 32-bit float.
bool sf_float(sf_reader *r, const yaml_node_t *n, const char *what, float *out);
// The same value in double precision (as strtod reads it): for values that the loader keeps in double.
bool sf_double(sf_reader *r, const yaml_node_t *n, const char *what, double *out);
// Integer in [lo, hi]; out of range is RB_ERR_INVALID_ARGUMENT, or `range_status` if that is not RB_OK.
bool sf_int(sf_reader *r, const yaml_node_t *n, const char *what, long long lo, long long hi, rb_status range_status,
            long long *out);
bool sf_uint64(sf_reader *r, const yaml_node_t *n, const char *what, uint64_t *out);
bool sf_bool(sf_reader *r, const yaml_node_t *n, const char *what, bool *out);
// A non-empty string scalar (any quoting style).
bool sf_string(sf_reader *r, const yaml_node_t *n, const char *what, const char **out);
// A sequence of exactly 3 numbers [x, y, z]; sf_vec4: exactly 4 [x, y, z, w].
bool sf_vec3(sf_reader *r, const yaml_node_t *n, const char *what, rb_vec3 *out);
bool sf_vec4(sf_reader *r, const yaml_node_t *n, const char *what, float out[4]);
// sf_vec3 in double precision (each number read as sf_double reads it).
bool sf_vec3d(sf_reader *r, const yaml_node_t *n, const char *what, double out[3]);


// "sphere" + "radius" -> "sphere radius" (names a value in messages); returns buf.
const char *sf_what(char *buf, size_t size, const char *context, const char *key);
// Values of a mapping checked with sf_mapping. sf_opt_*: an absent key leaves *out unchanged and
// succeeds; sf_req_*: an absent key is an error. `context` names the mapping ("sphere").
bool sf_opt_float(sf_reader *r, const yaml_node_t *map, const char *key, const char *context, float *out);
bool sf_opt_vec3(sf_reader *r, const yaml_node_t *map, const char *key, const char *context, rb_vec3 *out);
bool sf_opt_bool(sf_reader *r, const yaml_node_t *map, const char *key, const char *context, bool *out);
bool sf_req_float(sf_reader *r, const yaml_node_t *map, const char *key, const char *context, float *out);

#endif
