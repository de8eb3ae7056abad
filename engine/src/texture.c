/* Textures from image files (stb_image) and PNG output (stb_image_write). */
#include "internal.h"

#include <errno.h>
#include <stb_image.h>
#include <stb_image_write.h>
#include <string.h>

eng_result eng_texture_load(eng_context *ctx, const char *path, eng_image **out)
{
    if (!out)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_texture_load: NULL out");
    *out = NULL;
    if (!ctx || !path)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_texture_load: NULL context or path");
    int w = 0, h = 0, comp = 0;
    stbi_uc *pixels = stbi_load(path, &w, &h, &comp, 4);
    if (!pixels)
        return eng__fail(ENG_ERROR_IO, "texture '%s': %s", path, stbi_failure_reason());
    eng_image_desc d = {
        .name = path,
        .format = VK_FORMAT_R8G8B8A8_SRGB,
        .width = (uint32_t)w,
        .height = (uint32_t)h,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
    };
    eng_image *img = NULL;
    eng_result res = eng_image_create(ctx, &d, &img);
    if (res == ENG_SUCCESS)
        res = eng_image_upload(ctx, img, pixels, (size_t)w * (size_t)h * 4, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    stbi_image_free(pixels);
    if (res != ENG_SUCCESS) {
        eng_image_destroy(img);
        return res;
    }
    *out = img;
    return ENG_SUCCESS;
}

eng_result eng_write_png(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba)
{
    if (!path || !rgba || width == 0 || height == 0 || width > INT32_MAX / 4 || height > INT32_MAX)
        return eng__fail(ENG_ERROR_INVALID_ARGUMENT, "eng_write_png: bad path, pixels or size %ux%u", width, height);
    errno = 0;
    if (!stbi_write_png(path, (int)width, (int)height, 4, rgba, (int)(width * 4)))
        return eng__fail(ENG_ERROR_IO, "eng_write_png: cannot write '%s'%s%s", path, errno ? ": " : "",
                         errno ? strerror(errno) : "");
    return ENG_SUCCESS;
}
