/* The library's version as built: the header's macros at build time, so a
 * program compiled against another header can tell (RG_VERSION_NUMBER vs
 * rg_version()). */
#include <rendergraph/rendergraph.h>

const char *rg_version_string(void)
{
    return RG_VERSION;
}

uint32_t rg_version(void)
{
    return RG_VERSION_NUMBER;
}
