/* The path-naming JSON getters of frame_reader.h. */
#include "frame_reader.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rg_result rgf__fail(rgf_error *error, rg_result result, const char *fmt, ...)
{
    if (error) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(error->message, sizeof error->message, fmt, ap);
        va_end(ap);
    }
    return result;
}

bool rgf__failed(const rgf__reader *r) { return r->result != RG_SUCCESS; }

bool rgf__reader_fail(rgf__reader *r, rg_result result, const char *fmt, ...)
{
    if (rgf__failed(r))
        return false;
    r->result = result;
    if (r->error) {
        char what[384];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        /* file: $path: what, each part cut to fit */
        char *m = r->error->message;
        size_t size = sizeof r->error->message, len = 0;
        const char *parts[] = {r->file, ": $", r->path, ": ", what};
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
            size_t n = strlen(parts[i]);
            n = n < size - 1 - len ? n : size - 1 - len;
            memcpy(m + len, parts[i], n);
            len += n;
        }
        m[len] = '\0';
    }
    return false;
}

/* Appends text to the path, cut at its end (a path that long is deep in a
 * hostile file; the message still names where it starts). */
static size_t push(rgf__reader *r, const char *text)
{
    size_t old = r->path_len, n = strlen(text), room = sizeof r->path - 1 - old;
    n = n < room ? n : room;
    memcpy(r->path + old, text, n);
    r->path_len = old + n;
    r->path[r->path_len] = '\0';
    return old;
}

size_t rgf__push_key(rgf__reader *r, const char *key)
{
    size_t at = push(r, ".");
    push(r, key);
    return at;
}

size_t rgf__push_index(rgf__reader *r, uint32_t index)
{
    char text[16];
    snprintf(text, sizeof text, "[%u]", index);
    return push(r, text);
}

void rgf__pop(rgf__reader *r, size_t len)
{
    r->path_len = len;
    r->path[len] = '\0';
}

static const char *type_name(const cJSON *item)
{
    return cJSON_IsNull(item)     ? "null"
           : cJSON_IsBool(item)   ? "a boolean"
           : cJSON_IsNumber(item) ? "a number"
           : cJSON_IsString(item) ? "a string"
           : cJSON_IsArray(item)  ? "an array"
                                  : "an object";
}

bool rgf__object(rgf__reader *r, const cJSON *item, const char *const *allowed)
{
    if (rgf__failed(r))
        return false;
    if (!cJSON_IsObject(item))
        return rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "expected an object, got %s", type_name(item));
    /* cJSON keeps every copy of a key and the getters read the first: a
     * second copy would be a value nobody reads, so it is refused. */
    uint64_t seen = 0;
    for (const cJSON *c = item->child; c; c = c->next) {
        uint32_t known = 0;
        while (allowed[known] && strcmp(allowed[known], c->string) != 0)
            known++;
        bool twice = allowed[known] && (seen >> known & 1);
        if (!allowed[known] || twice) {
            size_t at = rgf__push_key(r, c->string);
            rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, twice ? "a key given twice in one object" : "unknown field");
            rgf__pop(r, at);
            return false;
        }
        seen |= 1ull << known;
    }
    return true;
}

const cJSON *rgf__field(rgf__reader *r, const cJSON *obj, const char *key, bool required, const char *expected)
{
    if (rgf__failed(r))
        return NULL;
    const cJSON *item = obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (!item && required) {
        size_t at = rgf__push_key(r, key);
        rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "missing (expected %s)", expected);
        rgf__pop(r, at);
    }
    return item;
}

/* Runs at key's path: a wrong value's message names it. */
#define AT_KEY(r, key, body)                                                                                       \
    do {                                                                                                           \
        size_t at_ = rgf__push_key((r), (key));                                                                   \
        body;                                                                                                      \
        rgf__pop((r), at_);                                                                                        \
    } while (0)

static bool wrong(rgf__reader *r, const char *key, const char *expected, const cJSON *item)
{
    char got[96];
    if (cJSON_IsString(item))
        snprintf(got, sizeof got, "\"%.80s\"", item->valuestring);
    else if (cJSON_IsNumber(item))
        snprintf(got, sizeof got, "%.17g", item->valuedouble);
    else
        snprintf(got, sizeof got, "%s", type_name(item));
    if (key)
        AT_KEY(r, key, rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "expected %s, got %s", expected, got));
    else
        rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "expected %s, got %s", expected, got);
    return false;
}

const cJSON *rgf__array(rgf__reader *r, const cJSON *obj, const char *key, bool required, uint32_t *count)
{
    *count = 0;
    const cJSON *a = rgf__field(r, obj, key, required, "an array");
    if (!a)
        return NULL;
    if (!cJSON_IsArray(a)) {
        wrong(r, key, "an array", a);
        return NULL;
    }
    *count = (uint32_t)cJSON_GetArraySize(a);
    return a;
}

/* An integer in [lo, hi]: a whole number, or for 64-bit values beyond
 * 2^53 a string of digits (frame_write.c writes them so). */
static bool integer(rgf__reader *r, const cJSON *obj, const char *key, bool required, double lo, double hi,
                    const char *expected, int64_t *ival, uint64_t *uval)
{
    const cJSON *item = rgf__field(r, obj, key, required, expected);
    if (!item)
        return !rgf__failed(r);
    if (uval && cJSON_IsString(item) && item->valuestring[0] >= '0' && item->valuestring[0] <= '9') {
        char *end;
        unsigned long long v = strtoull(item->valuestring, &end, 10);
        if (*end == '\0' && strlen(item->valuestring) <= 20)
            return (*uval = v), true;
    }
    if (!cJSON_IsNumber(item) || !(item->valuedouble >= lo && item->valuedouble <= hi) ||
        item->valuedouble != floor(item->valuedouble))
        return wrong(r, key, expected, item);
    if (ival)
        *ival = (int64_t)item->valuedouble;
    if (uval)
        *uval = (uint64_t)item->valuedouble;
    return true;
}

bool rgf__u32(rgf__reader *r, const cJSON *obj, const char *key, bool required, uint32_t *out)
{
    int64_t v = *out;
    if (!integer(r, obj, key, required, 0, UINT32_MAX, "an integer from 0 to 4294967295", &v, NULL))
        return false;
    *out = (uint32_t)v;
    return true;
}

bool rgf__i32(rgf__reader *r, const cJSON *obj, const char *key, bool required, int32_t *out)
{
    int64_t v = *out;
    if (!integer(r, obj, key, required, INT32_MIN, INT32_MAX, "a 32-bit integer", &v, NULL))
        return false;
    *out = (int32_t)v;
    return true;
}

bool rgf__u64(rgf__reader *r, const cJSON *obj, const char *key, bool required, uint64_t *out)
{
    return integer(r, obj, key, required, 0, 9007199254740992.0,
                   "an integer from 0 (beyond 2^53 as a string of digits)", NULL, out);
}

bool rgf__bool(rgf__reader *r, const cJSON *obj, const char *key, bool *out)
{
    const cJSON *item = rgf__field(r, obj, key, false, "true or false");
    if (!item)
        return !rgf__failed(r);
    if (!cJSON_IsBool(item))
        return wrong(r, key, "true or false", item);
    *out = cJSON_IsTrue(item);
    return true;
}

bool rgf__string(rgf__reader *r, const cJSON *obj, const char *key, bool required, const char **out)
{
    const cJSON *item = rgf__field(r, obj, key, required, "a string");
    if (!item)
        return !rgf__failed(r);
    if (!cJSON_IsString(item))
        return wrong(r, key, "a string", item);
    *out = item->valuestring;
    return true;
}

bool rgf__float(rgf__reader *r, const cJSON *item, float *out)
{
    if (cJSON_IsNumber(item) && isfinite(item->valuedouble) && fabs(item->valuedouble) <= 3.4028234663852886e38)
        return (*out = (float)item->valuedouble), true;
    if (cJSON_IsString(item)) {
        const char *s = item->valuestring;
        if (strcmp(s, "nan") == 0)
            return (*out = NAN), true;
        if (strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0)
            return (*out = s[0] == '-' ? -INFINITY : INFINITY), true;
    }
    return wrong(r, NULL, "a 32-bit float (or \"nan\", \"inf\", \"-inf\")", item);
}

bool rgf__enum(rgf__reader *r, const cJSON *obj, const char *key, bool required, const rgf__names *e, uint32_t *out)
{
    const char *name = NULL;
    if (!rgf__string(r, obj, key, required, &name) || !name)
        return !rgf__failed(r);
    int64_t v;
    if (!rgf__enum_value(e, name, &v)) {
        char names[192], expected[256];
        snprintf(expected, sizeof expected, "%s (%s)", e->what, rgf__enum_names(e, ", ", names, sizeof names));
        return wrong(r, key, expected, rgf__field(r, obj, key, true, ""));
    }
    *out = (uint32_t)v;
    return true;
}

bool rgf__flags(rgf__reader *r, const cJSON *obj, const char *key, bool required, rgf__flag_kind kind, uint64_t *out)
{
    static const char *const expected[] = {
        [RGF_STAGES] = "pipeline stage names joined by '|' (rg_flag_names, RG_FLAGS_STAGE)",
        [RGF_ACCESS] = "access names joined by '|' (rg_flag_names, RG_FLAGS_ACCESS)",
        [RGF_IMAGE_USAGE] = "image usage names joined by '|' (rg_flag_names, RG_FLAGS_IMAGE_USAGE)",
        [RGF_BUFFER_USAGE] = "buffer usage names joined by '|' (rg_flag_names, RG_FLAGS_BUFFER_USAGE)",
        [RGF_ASPECT] = "aspects joined by '|'"};
    const char *text = NULL;
    if (!rgf__string(r, obj, key, required, &text) || !text)
        return !rgf__failed(r);
    if (!rgf__flags_value(kind, text, out)) {
        char names[64], aspects[128];
        snprintf(aspects, sizeof aspects, "%s (%s)", expected[kind], rgf__enum_names(rgf__aspect, ", ", names,
                                                                                      sizeof names));
        return wrong(r, key, kind == RGF_ASPECT ? aspects : expected[kind], rgf__field(r, obj, key, true, ""));
    }
    return true;
}

bool rgf__format(rgf__reader *r, const cJSON *obj, const char *key, VkFormat *out)
{
    const char *name = NULL;
    if (!rgf__string(r, obj, key, true, &name))
        return false;
    int64_t v;
    if (!rgf__vk_value(&rgf__formats, name, &v))
        return wrong(r, key, "a format name as rg_format_name writes it (\"R8G8B8A8_UNORM\")",
                     rgf__field(r, obj, key, true, ""));
    *out = (VkFormat)v;
    return true;
}

bool rgf__layout(rgf__reader *r, const cJSON *obj, const char *key, bool required, VkImageLayout *out)
{
    const char *name = NULL;
    if (!rgf__string(r, obj, key, required, &name) || !name)
        return !rgf__failed(r);
    int64_t v;
    if (!rgf__vk_value(&rgf__layouts, name, &v))
        return wrong(r, key, "a layout name as rg_layout_name writes it (\"SHADER_READ_ONLY_OPTIMAL\")",
                     rgf__field(r, obj, key, true, ""));
    *out = (VkImageLayout)v;
    return true;
}

bool rgf__nonzero(rgf__reader *r, const char *key, uint64_t value)
{
    if (rgf__failed(r) || value != 0)
        return !rgf__failed(r);
    AT_KEY(r, key, rgf__reader_fail(r, RG_ERROR_INVALID_ARGUMENT, "expected at least 1, got 0"));
    return false;
}

bool rgf__pair(rgf__reader *r, const cJSON *obj, const char *key, bool required, uint32_t *a, uint32_t *b)
{
    const cJSON *item = rgf__field(r, obj, key, required, "[base, count]");
    if (!item)
        return !rgf__failed(r);
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 2)
        return wrong(r, key, "an array of two integers", item);
    uint32_t v[2];
    for (int i = 0; i < 2; i++) {
        const cJSON *e = cJSON_GetArrayItem(item, i);
        if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0 && e->valuedouble <= UINT32_MAX) ||
            e->valuedouble != floor(e->valuedouble)) {
            size_t at = rgf__push_key(r, key);
            rgf__push_index(r, (uint32_t)i);
            wrong(r, NULL, "an integer from 0 to 4294967295", e);
            rgf__pop(r, at);
            return false;
        }
        v[i] = (uint32_t)e->valuedouble;
    }
    *a = v[0];
    *b = v[1];
    return true;
}
