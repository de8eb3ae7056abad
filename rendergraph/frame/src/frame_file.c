/* rgf_load and rgf_save: a frame file's bytes, read whole into
 * rgf_load_text (frame_load.c) and written from rgf_save_text
 * (frame_write.c) with the newline a text file ends in.
 */
#include "frame_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rg_result rgf_load(const char *path, const rgf_load_desc *desc, rgf_frame **out, rgf_error *error)
{
    if (out)
        *out = NULL;
    if (!path)
        return rgf__fail(error, RG_ERROR_INVALID_ARGUMENT, "rgf_load: NULL path");
    FILE *file = fopen(path, "rb");
    if (!file)
        return rgf__fail(error, RG_ERROR_IO, "%s: cannot open the file", path);
    size_t cap = 1 << 16, size = 0;
    char *text = malloc(cap);
    for (size_t n = 1; text && n > 0;) {
        if (size == cap) {
            char *bigger = realloc(text, cap * 2);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
        n = fread(text + size, 1, cap - size, file);
        size += n;
    }
    bool read_error = ferror(file) != 0;
    fclose(file);
    if (!text)
        return rgf__fail(error, RG_ERROR_OUT_OF_MEMORY, "%s: out of host memory reading the file", path);
    if (read_error) {
        free(text);
        return rgf__fail(error, RG_ERROR_IO, "%s: cannot read the file", path);
    }
    rg_result res = rgf_load_text(text, size, path, desc, out, error);
    free(text);
    return res;
}

rg_result rgf_save(const rg_graph *graph, const rgf_save_desc *desc, const char *path, rgf_error *error)
{
    if (!path)
        return rgf__fail(error, RG_ERROR_INVALID_ARGUMENT, "rgf_save: NULL path");
    char *text;
    rg_result res = rgf_save_text(graph, desc, &text, error);
    if (res != RG_SUCCESS)
        return res;
    FILE *f = fopen(path, "wb");
    size_t n = strlen(text);
    bool ok = f && fwrite(text, 1, n, f) == n && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0)
        ok = false;
    rgf_free(text);
    if (!ok)
        return rgf__fail(error, RG_ERROR_IO, "rgf_save: %s: cannot write the file", path);
    return RG_SUCCESS;
}
