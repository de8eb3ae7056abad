/* PNG output, encoded by stb_image_write. */
#include <engine_files/engine_files.h>

#include <errno.h>
#include <stb_image_write.h>
#include <string.h>

eng_result eng_write_png(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba)
{
    if (!path || !rgba || width == 0 || height == 0 || width > INT32_MAX / 4 || height > INT32_MAX)
        return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "eng_write_png: bad path, pixels or size %ux%u", width,
                             height);
    errno = 0;
    if (!stbi_write_png(path, (int)width, (int)height, 4, rgba, (int)(width * 4)))
        return eng_set_error(ENG_ERROR_IO, "eng_write_png: cannot write '%s'%s%s", path, errno ? ": " : "",
                             errno ? strerror(errno) : "");
    return ENG_SUCCESS;
}
