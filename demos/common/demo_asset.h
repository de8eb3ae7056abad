/* Finds the files the build puts next to a demo's executable. */
#ifndef DEMO_ASSET_H
#define DEMO_ASSET_H

#include <stdbool.h>
#include <stddef.h>

/* Writes "<directory of this executable>/assets/<name>" to out. The
 * directory comes from /proc/self/exe, or from argv0 where there is no
 * /proc (macOS), so a copied build folder still finds its assets.
 * False when the path does not fit. */
bool demo_asset_path(const char *argv0, const char *name, char *out, size_t size);

#endif
