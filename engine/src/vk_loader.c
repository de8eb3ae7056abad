/* The Vulkan loader, opened at run time when the application gives no
 * vkGetInstanceProcAddr (eng_context_desc, eng_existing_device), as volk
 * opens it: the engine names no vk* symbol at all, so a program whose vk*
 * names are volk's function-pointer variables links the static engine
 * without the engine's calls binding to those variables. The names tried
 * are the loader's on each system (MoltenVK's own library last on macOS,
 * where it can stand in for a loader). */
#include "vk_load.h"

#include <stddef.h>
#include <string.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
static const char *const loader_names[] = {"vulkan-1.dll"};
static void *open_library(const char *name) { return (void *)LoadLibraryA(name); }
static void *library_symbol(void *lib, const char *name)
{
    FARPROC f = GetProcAddress((HMODULE)lib, name);
    void *p = NULL;
    memcpy(&p, &f, sizeof p < sizeof f ? sizeof p : sizeof f);
    return p;
}
static void close_library(void *lib) { FreeLibrary((HMODULE)lib); }
#else
#include <dlfcn.h>
#if defined(__APPLE__)
static const char *const loader_names[] = {"libvulkan.1.dylib", "libvulkan.dylib", "libMoltenVK.dylib"};
#else
static const char *const loader_names[] = {"libvulkan.so.1", "libvulkan.so"};
#endif
static void *open_library(const char *name) { return dlopen(name, RTLD_NOW | RTLD_LOCAL); }
static void *library_symbol(void *lib, const char *name) { return dlsym(lib, name); }
static void close_library(void *lib) { dlclose(lib); }
#endif

#define LOADER_COUNT (sizeof loader_names / sizeof loader_names[0])

PFN_vkGetInstanceProcAddr eng__vk_loader_open(void **library)
{
    *library = NULL;
    for (size_t i = 0; i < LOADER_COUNT; i++) {
        void *lib = open_library(loader_names[i]);
        if (!lib)
            continue;
        void *sym = library_symbol(lib, "vkGetInstanceProcAddr");
        if (!sym) {
            close_library(lib);
            continue;
        }
        /* A data pointer to a function pointer: POSIX promises dlsym's
         * result converts; memcpy says so without a cast C forbids. */
        PFN_vkGetInstanceProcAddr gipa;
        memcpy(&gipa, &sym, sizeof gipa);
        *library = lib;
        return gipa;
    }
    return NULL;
}

const char *eng__vk_loader_names(void)
{
#if defined(_WIN32)
    return "vulkan-1.dll";
#elif defined(__APPLE__)
    return "libvulkan.1.dylib, libvulkan.dylib, libMoltenVK.dylib";
#else
    return "libvulkan.so.1, libvulkan.so";
#endif
}

void eng__vk_loader_close(void *library)
{
    if (library)
        close_library(library);
}
