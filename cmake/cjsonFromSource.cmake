# cJSON built from its sources, for a build where no cJSON library is
# installed for the target (Debian packages cJSON for Linux only, so the
# Windows cross build, docs/windows.md): VKG_CJSON_SOURCE_DIR names a folder
# holding cJSON.c and cJSON.h (Debian's source package, whose
# cjson_*.orig.tar.gz scripts/windows.sh fetches, or a cJSON release).
# Makes vkgraph::cjson as cmake/rendergraph_frameDependencies.cmake would
# from an installed cJSON, and installs the library (libcjson) and its
# header (cjson/cJSON.h) beside the frame library, where that file finds
# them again for the installed package.
if(NOT EXISTS ${VKG_CJSON_SOURCE_DIR}/cJSON.c OR NOT EXISTS ${VKG_CJSON_SOURCE_DIR}/cJSON.h)
  message(FATAL_ERROR "VKG_CJSON_SOURCE_DIR (${VKG_CJSON_SOURCE_DIR}) holds no cJSON.c and cJSON.h")
endif()
set(include_dir ${CMAKE_BINARY_DIR}/cjson-include)
file(COPY ${VKG_CJSON_SOURCE_DIR}/cJSON.h DESTINATION ${include_dir}/cjson)
add_library(vkgraph_cjson STATIC ${VKG_CJSON_SOURCE_DIR}/cJSON.c)
set_target_properties(vkgraph_cjson PROPERTIES OUTPUT_NAME cjson POSITION_INDEPENDENT_CODE ON
                      ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/cjson-lib)
# Imported, like an installed cJSON, so that the frame library's exported
# link interface names vkgraph::cjson and the installed package makes it
# again (rendergraph/frame/CMakeLists.txt orders the build after it).
add_library(vkgraph::cjson STATIC IMPORTED GLOBAL)
set_target_properties(vkgraph::cjson PROPERTIES
  IMPORTED_LOCATION ${CMAKE_BINARY_DIR}/cjson-lib/${CMAKE_STATIC_LIBRARY_PREFIX}cjson${CMAKE_STATIC_LIBRARY_SUFFIX}
  INTERFACE_INCLUDE_DIRECTORIES ${include_dir})
if(VKG_INSTALL)
  include(GNUInstallDirs)
  install(TARGETS vkgraph_cjson ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${include_dir}/cjson/cJSON.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cjson)
endif()
unset(include_dir)
