/* A small handle -> value map for the tile-memory layer: VkImage -> usage and
 * lazy binding, VkImageView -> VkImage, VkDeviceMemory -> lazy. Handles are
 * 64-bit on every platform the layer is built for. Not thread-safe: the
 * layer guards every map with its device's mutex. */
#ifndef TILE_MAP_H
#define TILE_MAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct tile_map_entry {
    uint64_t key;
    uint64_t value;
    struct tile_map_entry *next;
} tile_map_entry;

#define TILE_MAP_BUCKETS 256

typedef struct tile_map {
    tile_map_entry *buckets[TILE_MAP_BUCKETS];
} tile_map;

/* false only when out of host memory. */
bool tile_map_put(tile_map *map, uint64_t key, uint64_t value);
bool tile_map_get(const tile_map *map, uint64_t key, uint64_t *value);
void tile_map_remove(tile_map *map, uint64_t key);
void tile_map_clear(tile_map *map);

#endif
