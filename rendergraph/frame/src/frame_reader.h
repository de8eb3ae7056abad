/* Reading a frame file's JSON with a path: every getter names where it
 * looked ("$.commands[3].accesses[0].usage") and what it expected when the
 * value is missing or wrong (frame_reader.c). After the first failure
 * every call returns false and nothing more is recorded. Not installed.
 */
#ifndef RGF_FRAME_READER_H
#define RGF_FRAME_READER_H

#include "frame_internal.h"

#include <cjson/cJSON.h>

typedef struct rgf__reader {
    const char *file;
    rgf_error *error;
    rg_result result;                 /* the first failure's, else RG_SUCCESS */
    char path[384];
    size_t path_len;
} rgf__reader;

bool rgf__failed(const rgf__reader *r);
/* Records the failure at the current path: "file: $.a.b: message". */
bool rgf__reader_fail(rgf__reader *r, rg_result result, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Descend into a key or an index; rgf__pop returns to the length pushed. */
size_t rgf__push_key(rgf__reader *r, const char *key);
size_t rgf__push_index(rgf__reader *r, uint32_t index);
void rgf__pop(rgf__reader *r, size_t len);

/* An object whose keys must all be among allowed (NULL-terminated, at
 * most 64), each once. */
bool rgf__object(rgf__reader *r, const cJSON *item, const char *const *allowed);
/* The field key of obj; NULL when absent (a failure when required). */
const cJSON *rgf__field(rgf__reader *r, const cJSON *obj, const char *key, bool required, const char *expected);
/* An array field: its length in *count (0 when absent and not required). */
const cJSON *rgf__array(rgf__reader *r, const cJSON *obj, const char *key, bool required, uint32_t *count);

/* Typed fields: absent and not required leaves *out as it is (the
 * default the caller set). */
bool rgf__u32(rgf__reader *r, const cJSON *obj, const char *key, bool required, uint32_t *out);
bool rgf__i32(rgf__reader *r, const cJSON *obj, const char *key, bool required, int32_t *out);
bool rgf__u64(rgf__reader *r, const cJSON *obj, const char *key, bool required, uint64_t *out);
bool rgf__bool(rgf__reader *r, const cJSON *obj, const char *key, bool *out);
bool rgf__string(rgf__reader *r, const cJSON *obj, const char *key, bool required, const char **out);
bool rgf__float(rgf__reader *r, const cJSON *item, float *out);
bool rgf__enum(rgf__reader *r, const cJSON *obj, const char *key, bool required, const rgf__names *e, uint32_t *out);
bool rgf__flags(rgf__reader *r, const cJSON *obj, const char *key, bool required, rgf__flag_kind kind, uint64_t *out);
bool rgf__format(rgf__reader *r, const cJSON *obj, const char *key, VkFormat *out);
bool rgf__layout(rgf__reader *r, const cJSON *obj, const char *key, bool required, VkImageLayout *out);
/* A size read at key (an extent, a buffer's bytes) that must not be 0:
 * false, failed at key's path, when it is. */
bool rgf__nonzero(rgf__reader *r, const char *key, uint64_t value);
/* [a, b] of two uint32 (layers: base and count). */
bool rgf__pair(rgf__reader *r, const cJSON *obj, const char *key, bool required, uint32_t *a, uint32_t *b);

/* The file's resources and commands declared into g (frame_declare.c):
 * textures and areas of extent resize_from get resize_to. */
bool rgf__declare(rgf__reader *r, rg_graph *g, const cJSON *root, const uint32_t resize_from[2],
                  const uint32_t resize_to[2]);

#endif
