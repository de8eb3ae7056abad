/*
 * engine_files: image files for the engine. Textures decoded from PNG, JPEG,
 * ... files and PNGs written from pixels, through stb_image and
 * stb_image_write, which stay inside this library: a program that includes
 * this header needs no stb headers, and the engine itself needs none.
 *
 * Built on the engine's public API alone (eng_image_create,
 * eng_image_upload): the same errors and threading rules as the engine's own
 * functions. Failures return an eng_result and set the message that
 * eng_last_error() reads on the same thread, and leave output pointers NULL.
 *
 * Threads: eng_write_png may be called from any thread. eng_texture_load
 * submits through the context's queue (eng_context_submit_once): it belongs
 * to the thread that uses the context, like eng_image_upload.
 *
 * Link: engine::files (CMake: find_package(engine_files) or the build's
 * target), or `pkg-config --libs engine_files`.
 */
#ifndef ENGINE_FILES_ENGINE_FILES_H
#define ENGINE_FILES_ENGINE_FILES_H

#include <engine/engine.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads a PNG/JPEG/... file as R8G8B8A8_SRGB (one mip level), uploads it
 * and leaves it SHADER_READ_ONLY_OPTIMAL, visible to fragment shaders. The
 * image is named after path. A file that cannot be read or decoded is
 * ENG_ERROR_IO with the decoder's reason. */
eng_result eng_texture_load(eng_context *ctx, const char *path, eng_image **out);

/* Writes tightly packed RGBA8 pixels (width * height * 4 bytes, rows top to
 * bottom) as a PNG. A file that cannot be written is ENG_ERROR_IO naming it. */
eng_result eng_write_png(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba);

#ifdef __cplusplus
}
#endif
#endif /* ENGINE_FILES_ENGINE_FILES_H */
