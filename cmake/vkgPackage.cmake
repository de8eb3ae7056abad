# Version checks and install rules for the libraries.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# vkg_check_header_version(HEADER PREFIX): the header's
# PREFIX_VERSION_MAJOR/MINOR/PATCH and PREFIX_VERSION string must say the
# project's version, so project(... VERSION) is the one place to bump it and
# a forgotten header fails the configure step (tests/headers/test_version.c
# checks the compiled functions too).
function(vkg_check_header_version header prefix)
  file(STRINGS ${header} lines REGEX "^#define ${prefix}_VERSION(_MAJOR|_MINOR|_PATCH)? ")
  set(found "")
  foreach(part MAJOR MINOR PATCH)
    if(NOT lines MATCHES "#define ${prefix}_VERSION_${part} +([0-9]+)")
      message(FATAL_ERROR "${header}: no ${prefix}_VERSION_${part}")
    endif()
    list(APPEND found ${CMAKE_MATCH_1})
  endforeach()
  list(JOIN found "." numbers)
  if(NOT lines MATCHES "#define ${prefix}_VERSION +\"([^\"]*)\"")
    message(FATAL_ERROR "${header}: no ${prefix}_VERSION string")
  endif()
  set(string ${CMAKE_MATCH_1})
  if(NOT numbers STREQUAL PROJECT_VERSION OR NOT string STREQUAL PROJECT_VERSION)
    message(FATAL_ERROR "${header} says version ${numbers} (\"${string}\"), the project says "
                        "${PROJECT_VERSION}: bump the ${prefix}_VERSION macros with project(VERSION)")
  endif()
endfunction()

# vkg_install_library(TARGET DESCRIPTION text CONFIG file.in [NAMESPACE ns::]
#                     [PC_REQUIRES modules...] [PC_LIBS flags...] [CONFIG_FILES files...])
# Installs TARGET's include/ tree, the library, TARGETConfig.cmake (from
# CONFIG), TARGETConfigVersion.cmake (SameMajorVersion), the export
# TARGETTargets.cmake with namespace NAMESPACE (default TARGET::; the
# imported name is NAMESPACE plus the target's EXPORT_NAME) and TARGET.pc.
# The .pc file is relocatable (paths from ${pcfiledir}), like the CMake
# files, so `cmake --install --prefix` anywhere works.
function(vkg_install_library target)
  cmake_parse_arguments(arg "" "DESCRIPTION;CONFIG;NAMESPACE" "PC_REQUIRES;PC_LIBS;CONFIG_FILES" ${ARGN})
  if(NOT VKG_INSTALL)
    return()
  endif()
  if(NOT arg_NAMESPACE)
    set(arg_NAMESPACE ${target}::)
  endif()
  set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/${target})

  install(TARGETS ${target} EXPORT ${target}Targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT ${target}Targets NAMESPACE ${arg_NAMESPACE} DESTINATION ${cmake_dir})

  configure_package_config_file(${arg_CONFIG} ${CMAKE_CURRENT_BINARY_DIR}/${target}Config.cmake
                                INSTALL_DESTINATION ${cmake_dir})
  write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/${target}ConfigVersion.cmake
                                   VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${target}Config.cmake
                ${CMAKE_CURRENT_BINARY_DIR}/${target}ConfigVersion.cmake
                ${arg_CONFIG_FILES}
          DESTINATION ${cmake_dir})

  # pkg-config: prefix relative to the .pc file's folder.
  set(pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    set(PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
    set(PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
  else()
    file(RELATIVE_PATH rel "/root/${pc_dir}" "/root")
    string(REGEX REPLACE "/$" "" rel "${rel}")
    set(PC_PREFIX "\${pcfiledir}/${rel}")
    set(PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  endif()
  if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
    set(PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
  else()
    set(PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
  endif()
  set(PC_NAME ${target})
  set(PC_DESCRIPTION "${arg_DESCRIPTION}")
  list(JOIN arg_PC_REQUIRES " " PC_REQUIRES)
  list(JOIN arg_PC_LIBS " " PC_LIBS)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/library.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${target}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${target}.pc DESTINATION ${pc_dir})
endfunction()
