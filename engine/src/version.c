/* The library's version as built: the header's macros at build time, so a
 * program compiled against another header can tell (ENG_VERSION_NUMBER vs
 * eng_version()). */
#include <engine/engine.h>

const char *eng_version_string(void)
{
    return ENG_VERSION;
}

uint32_t eng_version(void)
{
    return ENG_VERSION_NUMBER;
}
