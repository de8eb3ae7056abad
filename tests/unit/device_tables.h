/* Memory-type tables of real Vulkan devices, transcribed from
 * ../shared/devices/memory-types.md (the source line is kept as a comment
 * above each table in device_tables.c), with the indices the engine's
 * memory-type choice must pick on each, derived by hand from the table. */
#ifndef TEST_DEVICE_TABLES_H
#define TEST_DEVICE_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

/* Hand-derived expected choices; -1 = no type qualifies. */
typedef struct device_table {
    const char *name;
    VkPhysicalDeviceMemoryProperties props;
    int device_local;  /* buffer or persistent image, required flags 0 (= DEVICE_LOCAL) */
    int transient;     /* transient attachment image, required flags 0 */
    int staging;       /* HOST_VISIBLE | HOST_COHERENT (upload staging) */
    int readback;      /* HOST_VISIBLE | HOST_CACHED */
    int upload;        /* DEVICE_LOCAL | HOST_VISIBLE (written by the CPU, read by the GPU) */
    bool has_lazy;     /* the table has a LAZILY_ALLOCATED type */
} device_table;

extern const device_table device_tables[];
extern const size_t device_table_count;

/* memoryTypeBits as real drivers report them (MoltenVK, the spec's rule):
 * buffers and images without TRANSIENT_ATTACHMENT usage never see LAZY
 * types; transient images see every type. */
uint32_t table_buffer_bits(const VkPhysicalDeviceMemoryProperties *p);
uint32_t table_image_bits(const VkPhysicalDeviceMemoryProperties *p, bool transient);
/* Every type of the table, LAZY ones included (what a buggy table offers). */
uint32_t table_all_bits(const VkPhysicalDeviceMemoryProperties *p);

#endif
