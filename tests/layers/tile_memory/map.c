#include "map.h"

#include <stdlib.h>

static unsigned bucket(uint64_t key)
{
    key ^= key >> 33; /* handles are often aligned pointers: mix the high bits in */
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (unsigned)(key % TILE_MAP_BUCKETS);
}

bool tile_map_put(tile_map *map, uint64_t key, uint64_t value)
{
    tile_map_entry **head = &map->buckets[bucket(key)];
    for (tile_map_entry *e = *head; e; e = e->next) {
        if (e->key == key) {
            e->value = value;
            return true;
        }
    }
    tile_map_entry *e = malloc(sizeof *e);
    if (!e)
        return false;
    *e = (tile_map_entry){ .key = key, .value = value, .next = *head };
    *head = e;
    return true;
}

bool tile_map_get(const tile_map *map, uint64_t key, uint64_t *value)
{
    for (const tile_map_entry *e = map->buckets[bucket(key)]; e; e = e->next) {
        if (e->key == key) {
            if (value)
                *value = e->value;
            return true;
        }
    }
    return false;
}

void tile_map_remove(tile_map *map, uint64_t key)
{
    for (tile_map_entry **p = &map->buckets[bucket(key)]; *p; p = &(*p)->next) {
        if ((*p)->key == key) {
            tile_map_entry *dead = *p;
            *p = dead->next;
            free(dead);
            return;
        }
    }
}

void tile_map_clear(tile_map *map)
{
    for (unsigned i = 0; i < TILE_MAP_BUCKETS; i++) {
        while (map->buckets[i]) {
            tile_map_entry *dead = map->buckets[i];
            map->buckets[i] = dead->next;
            free(dead);
        }
    }
}
