/* Helpers of the tile-memory layer tests (tile_support.h). */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "tile_support.h"

#include "device_fixture.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

eng_context *tile_context(bool quiet)
{
    const char *layers[] = { TILE_LAYER };
    eng_context_desc desc = { .app_name = "tests-tile", .validation = true, .quiet = quiet,
                              .get_instance_proc_addr = vkGetInstanceProcAddr,
                              .extra_layers = layers, .extra_layer_count = 1 };
    eng_context *ctx = NULL;
    eng_result r = eng_context_create(&desc, &ctx);
    if (r != ENG_SUCCESS && !device_required())
        cr_skip_test("no Vulkan device with validation and %s: %s", TILE_LAYER, eng_last_error());
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    return ctx;
}

eng_context *tile_context_with(const char *variable, const char *value, bool quiet)
{
    setenv(variable, value, 1); /* read by the layer at vkCreateDevice */
    eng_context *ctx = tile_context(quiet);
    unsetenv(variable);
    return ctx;
}

eng_context *tile_faulty_context(const char *variable, unsigned long long value)
{
    char v[32];
    snprintf(v, sizeof v, "%llu", value);
    return tile_context_with(variable, v, false);
}

struct tile_rule_counter {
    eng_context *ctx;
    VkDebugUtilsMessengerEXT messenger;
    const char *id;
    tile_message_counts counts;
    char first[1024];
};

static VKAPI_ATTR VkBool32 VKAPI_CALL count_rule(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)type;
    tile_rule_counter *c = user;
    if (!data->pMessageIdName || strcmp(data->pMessageIdName, c->id) != 0)
        return VK_FALSE;
    if (c->counts.errors + c->counts.infos == 0)
        snprintf(c->first, sizeof c->first, "%s", data->pMessage ? data->pMessage : "");
    *(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? &c->counts.errors : &c->counts.infos) += 1;
    return VK_FALSE;
}

tile_rule_counter *tile_rule_counter_begin(eng_context *ctx)
{
    return tile_message_counter_begin(ctx, "VKGRAPH-tile-memoryless", VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT);
}

tile_rule_counter *tile_message_counter_begin(eng_context *ctx, const char *id,
                                              VkDebugUtilsMessageSeverityFlagsEXT severities)
{
    tile_rule_counter *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    c->ctx = ctx;
    c->id = id;
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = severities,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .pfnUserCallback = count_rule,
        .pUserData = c,
    };
    VkInstance inst = eng_context_instance(ctx);
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(inst, "vkCreateDebugUtilsMessengerEXT");
    cr_assert_not_null(create);
    cr_assert_eq(create(inst, &mci, NULL, &c->messenger), VK_SUCCESS);
    return c;
}

int tile_rule_counter_end(tile_rule_counter *c, char *first, size_t size)
{
    tile_message_counts n = tile_message_counter_end(c, first, size);
    return n.errors + n.infos;
}

tile_message_counts tile_message_counter_end(tile_rule_counter *c, char *first, size_t size)
{
    VkInstance inst = eng_context_instance(c->ctx);
    PFN_vkDestroyDebugUtilsMessengerEXT destroy =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(inst, "vkDestroyDebugUtilsMessengerEXT");
    destroy(inst, c->messenger, NULL);
    tile_message_counts n = c->counts;
    if (first)
        snprintf(first, size, "%s", c->first);
    free(c);
    return n;
}
