/* Textures from image files, decoded by stb_image. */
#include <engine_files/engine_files.h>

#include <stb_image.h>

eng_result eng_texture_load(eng_context *ctx, const char *path, eng_image **out)
{
    if (!out)
        return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "eng_texture_load: NULL out");
    *out = NULL;
    if (!ctx || !path)
        return eng_set_error(ENG_ERROR_INVALID_ARGUMENT, "eng_texture_load: NULL context or path");
    int w = 0, h = 0, comp = 0;
    stbi_uc *pixels = stbi_load(path, &w, &h, &comp, 4);
    if (!pixels)
        return eng_set_error(ENG_ERROR_IO, "texture '%s': %s", path, stbi_failure_reason());
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
        eng_image_destroy(img); /* the message of the failed call stays */
        return res;
    }
    *out = img;
    return ENG_SUCCESS;
}
