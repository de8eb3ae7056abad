/* A program of another project that uses engine_files, the image-file
 * library beside the engine, through its installed header only: writes a
 * small PNG into the folder given (no device needed) and checks what is on
 * disk, and that a bad call fails with the engine's error reporting. Exit 0
 * when everything agrees. */
#include <engine_files/engine_files.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FOLDER\n", argv[0]);
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/consumer_files.png", argv[1]);
    const uint8_t rgba[2 * 2 * 4] = { 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255 };
    eng_result r = eng_write_png(path, 2, 2, rgba);
    if (r != ENG_SUCCESS) {
        fprintf(stderr, "consumer_files: eng_write_png: %s: %s\n", eng_result_string(r), eng_last_error());
        return 1;
    }
    unsigned char magic[8] = { 0 };
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(magic, 1, sizeof magic, f) : 0;
    if (f)
        fclose(f);
    if (n != sizeof magic || memcmp(magic, "\x89PNG\r\n\x1a\n", sizeof magic) != 0) {
        fprintf(stderr, "consumer_files: %s is not a PNG\n", path);
        return 1;
    }
    r = eng_write_png(path, 0, 2, rgba);
    if (r != ENG_ERROR_INVALID_ARGUMENT || !strstr(eng_last_error(), "eng_write_png")) {
        fprintf(stderr, "consumer_files: a zero width gave %s: '%s'\n", eng_result_string(r), eng_last_error());
        return 1;
    }
    printf("consumer_files: wrote %s; ok\n", path);
    return 0;
}
