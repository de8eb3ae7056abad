# rendergraph_frame's private link dependency as an imported target with a
# name of the project's own: vkgraph::cjson (cJSON, Debian: libcjson-dev),
# which reads and writes frame files. The render graph itself needs
# Vulkan's headers alone.
#
# Included by the build (CMakeLists.txt) and, installed next to it, by
# rendergraph_frameConfig.cmake: a static rendergraph_frame's users link
# cJSON too, so the installed package finds it the same way the build did.
# Sets VKG_FRAME_DEPENDENCY_ERROR (empty when everything was found).
set(VKG_FRAME_DEPENDENCY_ERROR "")

if(NOT TARGET vkgraph::cjson)
  find_path(VKGRAPH_CJSON_INCLUDE_DIR cjson/cJSON.h)
  find_library(VKGRAPH_CJSON_LIBRARY cjson)
  if(VKGRAPH_CJSON_INCLUDE_DIR AND VKGRAPH_CJSON_LIBRARY)
    add_library(vkgraph::cjson UNKNOWN IMPORTED)
    set_target_properties(vkgraph::cjson PROPERTIES
      IMPORTED_LOCATION "${VKGRAPH_CJSON_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${VKGRAPH_CJSON_INCLUDE_DIR}")
  else()
    string(APPEND VKG_FRAME_DEPENDENCY_ERROR
           "cJSON not found (cjson/cJSON.h and libcjson; Debian: libcjson-dev). ")
  endif()
endif()
