/* What the swapchain's transient attachments got from the memory-type
 * choice, and what they cost: the point of TRANSIENT + LAZILY_ALLOCATED. */
#ifndef DEMO_MEMORY_REPORT_H
#define DEMO_MEMORY_REPORT_H

#include <engine/engine.h>

/* One line per attachment (MSAA color, depth) to stdout. */
void demo_print_swapchain_memory(const eng_context *ctx, const eng_swapchain *swapchain);

#endif
