# engine_files' private link dependency as an imported target with a name of
# the project's own: vkgraph::stb (stb_image: textures; stb_image_write: PNG
# output). The engine itself needs Vulkan alone.
#
# Included by the build (CMakeLists.txt) and, installed next to it, by
# engine_filesConfig.cmake. engine_files is a static library, so whoever
# links it links stb too: the installed package has to find it on the
# machine where it is used instead of naming paths on the machine that built
# it, and both places must find it the same way. Sets VKG_DEPENDENCY_ERROR
# (empty when everything was found). Needs no more than CMake's own modules.
set(VKG_DEPENDENCY_ERROR "")

if(NOT TARGET vkgraph::stb)
  find_path(VKGRAPH_STB_INCLUDE_DIR stb_image.h PATH_SUFFIXES stb)
  find_library(VKGRAPH_STB_LIBRARY stb)
  if(VKGRAPH_STB_INCLUDE_DIR AND VKGRAPH_STB_LIBRARY)
    add_library(vkgraph::stb UNKNOWN IMPORTED)
    set_target_properties(vkgraph::stb PROPERTIES
      IMPORTED_LOCATION "${VKGRAPH_STB_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${VKGRAPH_STB_INCLUDE_DIR}")
  else()
    string(APPEND VKG_DEPENDENCY_ERROR
           "stb not found (stb_image.h and libstb; Debian: libstb-dev). ")
  endif()
endif()
