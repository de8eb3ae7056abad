/* Files for the device-free tests, the same on POSIX and on Windows
 * (MinGW-w64, run under wine by scripts/windows.sh), where neither
 * open_memstream nor mkdtemp exists. Paths the tests make under "/tmp"
 * reach wine's Z: drive, the host's /tmp.
 *   test_text_open()     a stream to print a report into (a temporary file);
 *   test_text_close(f)   closes it and returns what was printed, NUL-ended
 *                        (free() it), or NULL;
 *   test_mkdtemp(tmpl)   mkdtemp: a new directory from "...XXXXXX". */
#ifndef VKG_TEST_FILES_H
#define VKG_TEST_FILES_H

#include <stdio.h>
#include <stdlib.h>

#ifdef _WIN32
#include <io.h>
#include <direct.h>
#endif

static inline FILE *test_text_open(void)
{
    return tmpfile();
}

static inline char *test_text_close(FILE *f)
{
    if (!f)
        return NULL;
    char *text = NULL;
    long len;
    if (fflush(f) == 0 && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)len + 1)) != NULL) {
        size_t got = fread(text, 1, (size_t)len, f);
        text[got] = '\0';
    }
    fclose(f);
    return text;
}

#ifdef _WIN32
static inline char *test_mkdtemp(char *tmpl)
{
    if (!_mktemp(tmpl) || _mkdir(tmpl) != 0)
        return NULL;
    return tmpl;
}
#else
/* POSIX 2008: the file that calls it defines _POSIX_C_SOURCE 200809L. */
#define test_mkdtemp(tmpl) mkdtemp(tmpl)
#endif

#endif
