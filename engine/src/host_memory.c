/* The engine's host memory: through the application's rg_allocator
 * (eng_context_desc.allocator, eng_existing_device.allocator), or malloc's
 * family where it gave none (a zeroed allocator). */
#include "context.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *eng__host_alloc(const rg_allocator *a, size_t size)
{
    if (size == 0)
        size = 1; /* malloc(0) may return NULL: not a failure here */
    return a && a->alloc ? a->alloc(a->user, size) : malloc(size);
}

void *eng__host_calloc(const rg_allocator *a, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    size_t bytes = count * size;
    if (bytes == 0)
        bytes = 1;
    void *p = eng__host_alloc(a, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

void *eng__host_realloc(const rg_allocator *a, void *p, size_t size)
{
    if (size == 0)
        size = 1;
    return a && a->alloc ? a->realloc(a->user, p, size) : realloc(p, size);
}

void eng__host_free(const rg_allocator *a, void *p)
{
    if (!p)
        return;
    if (a && a->alloc)
        a->free(a->user, p);
    else
        free(p);
}

const rg_allocator *eng__host_of(const eng_context *ctx) { return &ctx->host; }

void *eng__new_object(eng_context *ctx, size_t size, const char *kind, const char *name)
{
    void *p = eng__calloc(ctx, 1, size);
    if (p)
        return p;
    if (name)
        eng__fail(ENG_ERROR_OUT_OF_MEMORY, "%s '%s': out of host memory", kind, name);
    else
        eng__fail(ENG_ERROR_OUT_OF_MEMORY, "%s: out of host memory", kind);
    return NULL;
}
