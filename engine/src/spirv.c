/* SPIR-V from a file (eng_spirv_load): read whole, checked for the magic
 * number and a size in words. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

eng_result eng_spirv_load(const char *path, uint32_t **words, size_t *size_bytes)
{
    if (words)
        *words = NULL;
    if (size_bytes)
        *size_bytes = 0;
    if (!path || !words || !size_bytes)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_spirv_load: NULL argument");
    FILE *f = fopen(path, "rb");
    if (!f)
        return eng__fail(ENG_ERROR_IO, "shader '%s': %s", path, strerror(errno));
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size <= 0 || size % 4 != 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return eng__fail(ENG_ERROR_IO, "shader '%s': size %ld is not a positive multiple of 4 bytes", path, size);
    }
    uint32_t *buf = malloc((size_t)size);
    if (!buf) {
        fclose(f);
        return eng__fail(ENG_ERROR_OUT_OF_MEMORY, "shader '%s': out of host memory", path);
    }
    size_t got = fread(buf, 1, (size_t)size, f);
    fclose(f);
    if (got != (size_t)size) {
        free(buf);
        return eng__fail(ENG_ERROR_IO, "shader '%s': short read", path);
    }
    if (buf[0] != 0x07230203u) {
        uint32_t magic = buf[0];
        free(buf);
        return eng__fail(ENG_ERROR_IO, "shader '%s': not SPIR-V (magic 0x%08x)", path, magic);
    }
    *words = buf;
    *size_bytes = (size_t)size;
    return ENG_SUCCESS;
}
