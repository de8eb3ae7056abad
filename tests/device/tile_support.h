/* Shared by the tests that run under VK_LAYER_VKGRAPH_tile_memory (the
 * device_tile_layer program): contexts with the layer below validation,
 * contexts with an allocation fault armed, and a messenger that counts the
 * layer's own memoryless reports apart from validation's. */
#ifndef TEST_TILE_SUPPORT_H
#define TEST_TILE_SUPPORT_H

#include <engine/engine.h>
#include <stdbool.h>

#define TILE_LAYER "VK_LAYER_VKGRAPH_tile_memory"

/* A validation context with the layer; quiet: messages counted, not printed. */
eng_context *tile_context(bool quiet);
/* The same with the layer's environment variable `variable` (read at
 * vkCreateDevice) set to value while the device is made, e.g.
 * VKGRAPH_TILE_MOLTENVK=1. */
eng_context *tile_context_with(const char *variable, const char *value, bool quiet);
/* The same with VKGRAPH_TILE_FAIL_ALLOC (variable "VKGRAPH_TILE_FAIL_ALLOC")
 * or VKGRAPH_TILE_FAIL_BYTES set to value while the device is made. Skips
 * (or fails, with ENG_REQUIRE_DEVICE) without a device. */
eng_context *tile_faulty_context(const char *variable, unsigned long long value);

/* Counts VKGRAPH-tile-memoryless errors reported to ctx's instance while it
 * lives; tile_rule_counter_end returns the count and the first text. */
typedef struct tile_rule_counter tile_rule_counter;
tile_rule_counter *tile_rule_counter_begin(eng_context *ctx);
int tile_rule_counter_end(tile_rule_counter *counter, char *first, size_t size);
/* The same for the layer's messages of message id `id` at `severities`
 * (ERROR and INFO bits), counted apart: tile_message_counter_end. */
typedef struct tile_message_counts {
    int errors, infos;
} tile_message_counts;
tile_rule_counter *tile_message_counter_begin(eng_context *ctx, const char *id,
                                              VkDebugUtilsMessageSeverityFlagsEXT severities);
tile_message_counts tile_message_counter_end(tile_rule_counter *counter, char *first, size_t size);

#endif
