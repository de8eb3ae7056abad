/* What a device-free test reads back from a graph besides its queries:
 * the DOT text rg_write_dot writes, and the INFO notices its log function
 * gets (culling, transient attachments). */
#ifndef RG_UNIT_OUTPUT_H
#define RG_UNIT_OUTPUT_H

#include <rendergraph/rendergraph.h>
#include <stdbool.h>
#include <stdint.h>

/* The DOT text of g, compiled, written through a temporary file (asserted
 * to succeed); the caller frees it. */
char *test_dot_text(rg_graph *g);

/* INFO notices kept in order, the first 8; with a filter, only those that
 * contain it. Zero-initialized, then given as rg_graph_desc.log_user with
 * .log = test_keep_notice. */
typedef struct test_notices {
    const char *filter;
    uint32_t count;
    char text[8][512];
} test_notices;

void test_keep_notice(void *user, rg_log_level level, const char *object, const char *message);
/* Whether a kept notice is text, whole. */
bool test_noticed(const test_notices *n, const char *text);

#endif
