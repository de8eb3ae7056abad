/* A libFuzzer harness for rendergraph_frame's reader (rendergraph_frame.h):
 * the input is a frame file's text. Every input either is refused with a
 * message naming the file, or loads; a loaded frame is compiled and placed
 * over the memory model (RGF_MEMORY_MODEL, whatever either returns), saved,
 * and the saved text must load and save to itself. Aborts (a crash for
 * libFuzzer) otherwise; the sanitizers catch the rest.
 *
 * Built with -DFUZZ_STANDALONE it has a main instead:
 *   fuzz_frame_standalone FILE...              runs inputs (the corpus, a crash)
 *   fuzz_frame_standalone --write-seeds DIR    writes the valid seeds
 *                                              (frame_seeds.c)
 */
#include <rendergraph_frame/rendergraph_frame.h>
#include "run_files.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ff_silent(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)user, (void)level, (void)object, (void)message;
}

#define FF_CHECK(cond, ...)                                            \
    do {                                                               \
        if (!(cond)) {                                                 \
            fprintf(stderr, "fuzz_frame: check failed: " __VA_ARGS__); \
            fputc('\n', stderr);                                       \
            abort();                                                   \
        }                                                              \
    } while (0)

/* Saves the frame's graph; the text must load back and save to itself. */
static void ff_round_trip(const rgf_frame *frame)
{
    rgf_error error = {{0}};
    char *text = NULL, *again = NULL;
    rg_result r = rgf_save_text(rgf_frame_graph(frame), NULL, &text, &error);
    FF_CHECK(r == RG_SUCCESS, "a loaded frame does not save: %s: %s", rg_result_string(r), error.message);
    rgf_frame *reloaded = NULL;
    r = rgf_load_text(text, strlen(text), "saved", &(rgf_load_desc){.log = ff_silent}, &reloaded, &error);
    FF_CHECK(r == RG_SUCCESS, "the saved text does not load: %s: %s\n%s", rg_result_string(r), error.message, text);
    r = rgf_save_text(rgf_frame_graph(reloaded), NULL, &again, &error);
    FF_CHECK(r == RG_SUCCESS, "the reloaded frame does not save: %s: %s", rg_result_string(r), error.message);
    FF_CHECK(strcmp(text, again) == 0, "saving the reloaded frame gives another text:\n%s\n--- then ---\n%s", text,
             again);
    rgf_free(again);
    rgf_frame_destroy(reloaded);
    rgf_free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rgf_frame *frame = NULL;
    rgf_error error = {{0}};
    rg_result r = rgf_load_text((const char *)data, size, "input", &(rgf_load_desc){.log = ff_silent}, &frame, &error);
    if (r != RG_SUCCESS) {
        FF_CHECK(frame == NULL, "a refused load left a frame");
        FF_CHECK(strncmp(error.message, "input", 5) == 0, "a refusal's message does not name the file: \"%s\"",
                 error.message);
        return 0;
    }
    /* Compile and place: either may refuse (the declaration compiles to an
     * error, the sizes are beyond placement), never crash. */
    rgf_memory used;
    r = rgf_frame_place(frame, RGF_MEMORY_MODEL, &used, &error);
    FF_CHECK(r == RG_SUCCESS || error.message[0] != '\0', "rgf_frame_place failed without a message");
    ff_round_trip(frame);
    rgf_frame_destroy(frame);
    return 0;
}

#ifdef FUZZ_STANDALONE
int ff_write_seeds(const char *dir);

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-seeds") == 0)
        return ff_write_seeds(argv[2]);
    return fuzz_run_files(argc, argv);
}
#endif
