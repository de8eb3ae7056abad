/* rg_unit_output.h: the DOT text and the notices of a graph. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "rg_unit_output.h"

#include "rg_unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

char *test_dot_text(rg_graph *g)
{
    char path[] = "/tmp/rg_dot_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(rg_write_dot(g, path), RG_SUCCESS, "%s", rg_graph_error_message(g));
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    cr_assert_eq(fseek(f, 0, SEEK_END), 0);
    long len = ftell(f);
    cr_assert_geq(len, 0);
    rewind(f);
    char *text = malloc((size_t)len + 1);
    cr_assert_not_null(text);
    size_t got = fread(text, 1, (size_t)len, f);
    text[got] = '\0';
    fclose(f);
    remove(path);
    return text;
}

void test_keep_notice(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)object;
    test_notices *n = user;
    if (level == RG_LOG_INFO && (!n->filter || strstr(message, n->filter)) && n->count < 8)
        snprintf(n->text[n->count++], sizeof n->text[0], "%s", message);
}

bool test_noticed(const test_notices *n, const char *text)
{
    for (uint32_t i = 0; i < n->count; i++)
        if (strcmp(n->text[i], text) == 0)
            return true;
    return false;
}
