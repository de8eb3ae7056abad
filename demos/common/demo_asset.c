#define _POSIX_C_SOURCE 200809L /* readlink */
#include "demo_asset.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool demo_asset_path(const char *argv0, const char *name, char *out, size_t size)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0)
        exe[n] = '\0';
    else
        snprintf(exe, sizeof exe, "%s", argv0 ? argv0 : "");
    const char *slash = strrchr(exe, '/');
    int dir_len = slash ? (int)(slash - exe) : 1;
    const char *dir = slash ? exe : ".";
    int len = snprintf(out, size, "%.*s/assets/%s", dir_len, dir, name);
    return len > 0 && (size_t)len < size;
}
