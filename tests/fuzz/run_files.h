/* The standalone harnesses' last step (built with -DFUZZ_STANDALONE, no
 * libFuzzer): each input file of argv[1..] read and given to
 * LLVMFuzzerTestOneInput, as libFuzzer gives a crash reproducer. */
#ifndef FUZZ_RUN_FILES_H
#define FUZZ_RUN_FILES_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 2 without a file, 1 when one cannot be read, else 0 (a failed check
 * aborts inside). */
static inline int fuzz_run_files(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s --write-seeds DIR | FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
            return 1;
        }
        static uint8_t buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        fprintf(stderr, "%s: %zu bytes\n", argv[i], n);
        LLVMFuzzerTestOneInput(buf, n);
    }
    return 0;
}

#endif
