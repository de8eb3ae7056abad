/* The swapchain's state (swapchain.c), shared with its capture
 * (swapchain_capture.c). Not installed. */
#ifndef ENGINE_SWAPCHAIN_H
#define ENGINE_SWAPCHAIN_H

#include "internal.h"

#define MAX_SLOTS 4
#define MAX_IMAGES 8

struct eng_swapchain {
    eng_context *ctx;
    eng_swapchain_desc desc;
    VkSwapchainKHR swapchain;
    VkSurfaceFormatKHR format;
    VkPresentModeKHR present_mode;
    VkExtent2D extent;
    VkImageUsageFlags usage;
    uint32_t image_count;
    VkImage images[MAX_IMAGES];
    VkImageView views[MAX_IMAGES];
    VkSemaphore render_done[MAX_IMAGES];
    eng_image *offscreen[MAX_SLOTS]; /* desc.offscreen: the images, one per slot */

    uint32_t slots;
    eng__frame_commands commands[MAX_SLOTS];
    eng__chunk_commands chunks[MAX_SLOTS]; /* eng_frame_chunk_command_buffer's */
    VkFence fences[MAX_SLOTS];
    VkSemaphore acquired[MAX_SLOTS];

    uint64_t frame_number;
    bool dirty;
    uint32_t wanted_width, wanted_height;
    bool unsized;             /* the surface left the size to us, and none was given */
    uint32_t recreate_count;

    bool capture_requested;   /* for the next finish_image */
    bool capture_recorded;    /* recorded into capture_slot's commands */
    uint32_t capture_slot;
    eng_buffer *capture;
    VkExtent2D capture_extent;
};

#endif
