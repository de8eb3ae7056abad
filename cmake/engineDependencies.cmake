# engine's private link dependencies as imported targets with names of the
# project's own: vkgraph::glfw (GLFW 3: window surfaces, framebuffer size)
# and vkgraph::stb (stb_image: textures; stb_image_write: PNG output).
#
# Included by the build (CMakeLists.txt) and, installed next to it, by
# engineConfig.cmake. engine is a static library, so whoever links it links
# these too: the installed package has to find them on the machine where it
# is used instead of naming paths on the machine that built it, and both
# places must find them the same way. Sets VKG_DEPENDENCY_ERROR (empty when
# everything was found). Needs no more than CMake's own modules.
set(VKG_DEPENDENCY_ERROR "")

if(NOT TARGET vkgraph::glfw)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(VKGRAPH_GLFW QUIET IMPORTED_TARGET glfw3)
  endif()
  if(TARGET PkgConfig::VKGRAPH_GLFW)
    add_library(vkgraph::glfw INTERFACE IMPORTED)
    set_target_properties(vkgraph::glfw PROPERTIES INTERFACE_LINK_LIBRARIES PkgConfig::VKGRAPH_GLFW)
  else()
    string(APPEND VKG_DEPENDENCY_ERROR
           "GLFW 3 not found through pkg-config (glfw3.pc; Debian: libglfw3-dev). ")
  endif()
endif()

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
