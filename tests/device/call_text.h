/* Vulkan commands' arguments as text, the lines the call-log tests compare
 * (test_rg_recording.c, test_execute_parallel.c): each line goes to
 * out(sink, fmt, ...), ending in a newline, handles as hex. */
#ifndef TEST_CALL_TEXT_H
#define TEST_CALL_TEXT_H

#include <vulkan/vulkan.h>

typedef void test_text_out(void *sink, const char *fmt, ...);

/* "barrier flags ... " then a line per memory, buffer and image barrier. */
void test_text_barrier(test_text_out *out, void *sink, const VkDependencyInfo *d);
/* "  <what> view ... clear ..." for one rendering attachment. */
void test_text_attachment(test_text_out *out, void *sink, const char *what, const VkRenderingAttachmentInfo *a);

#endif
