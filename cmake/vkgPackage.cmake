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

# vkg_library_abi(TARGET PREFIX): TARGET's version and, when it is built as
# a shared library (BUILD_SHARED_LIBS=ON), what it exports. The file is
# lib<target>.so.MAJOR.MINOR.PATCH with the soname lib<target>.so.MAJOR.MINOR:
# before 1.0 a minor version may break the ABI (and the package's version
# check, SameMinorVersion while the major version is 0, reads it so), so
# the soname carries both numbers;
# from 1.0 on it would be the major version alone. A linker version script
# (cmake/exports.map.in) exports PREFIX_[a-z0-9]* and nothing else, so the
# internal PREFIX__ helpers that other files of the library call stay
# local; scripts/check_symbols.sh (CTest: symbols_rendergraph) checks the
# result with nm. --no-undefined: the library names each library it needs
# (a sanitizer runtime is the program's, so not with VKG_SANITIZE).
# Installed, a library finds the others beside it ($ORIGIN), so a relocated
# prefix works without LD_LIBRARY_PATH.
function(vkg_library_abi target prefix)
  if(PROJECT_VERSION_MAJOR EQUAL 0)
    set(soversion ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  else()
    set(soversion ${PROJECT_VERSION_MAJOR})
  endif()
  set_target_properties(${target} PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${soversion})
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "SHARED_LIBRARY")
    return()
  endif()
  set(VKG_TARGET ${target})
  set(VKG_PREFIX ${prefix})
  set(map ${CMAKE_CURRENT_BINARY_DIR}/${target}.map)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/exports.map.in ${map} @ONLY)
  target_link_options(${target} PRIVATE "LINKER:--version-script=${map}")
  if(NOT VKG_SANITIZE)
    target_link_options(${target} PRIVATE "LINKER:--no-undefined")
  endif()
  set_target_properties(${target} PROPERTIES LINK_DEPENDS ${map} INSTALL_RPATH "$ORIGIN")
endfunction()

# vkg_install_library(TARGET DESCRIPTION text CONFIG file.in [NAMESPACE ns::]
#                     [PC_REQUIRES modules...] [PC_PRIVATE_REQUIRES modules...]
#                     [PC_PRIVATE_LIBS flags...] [CONFIG_FILES files...])
# Installs TARGET's include/ tree, the library, TARGETConfig.cmake (from
# CONFIG), TARGETConfigVersion.cmake (SameMinorVersion before 1.0), the export
# TARGETTargets.cmake with namespace NAMESPACE (default TARGET::; the
# imported name is NAMESPACE plus the target's EXPORT_NAME) and TARGET.pc.
# The .pc file is relocatable (paths from ${pcfiledir}), like the CMake
# files, so `cmake --install --prefix` anywhere works. PC_REQUIRES: modules
# the public header or the user's own calls need. PC_PRIVATE_*: what the
# library alone links; a static library's users link it too, so a plain
# `pkg-config --libs` names it (Requires/Libs), while a shared library has
# it recorded already (Requires.private/Libs.private, for --static).
# Configuring CONFIG, VKG_LIBRARY_TYPE is the target's TYPE.
function(vkg_install_library target)
  cmake_parse_arguments(arg "" "DESCRIPTION;CONFIG;NAMESPACE"
                        "PC_REQUIRES;PC_PRIVATE_REQUIRES;PC_PRIVATE_LIBS;CONFIG_FILES" ${ARGN})
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

  get_target_property(VKG_LIBRARY_TYPE ${target} TYPE)
  configure_package_config_file(${arg_CONFIG} ${CMAKE_CURRENT_BINARY_DIR}/${target}Config.cmake
                                INSTALL_DESTINATION ${cmake_dir})
  # Before 1.0 a minor version may break the ABI: find_package(x 0.1) must
  # not take 0.2 (the soname says the same).
  if(PROJECT_VERSION_MAJOR EQUAL 0)
    set(compatibility SameMinorVersion)
  else()
    set(compatibility SameMajorVersion)
  endif()
  write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/${target}ConfigVersion.cmake
                                   VERSION ${PROJECT_VERSION} COMPATIBILITY ${compatibility})
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
  set(PC_LIBS "")
  set(PC_REQUIRES_PRIVATE "")
  set(PC_LIBS_PRIVATE "")
  if(VKG_LIBRARY_TYPE STREQUAL "SHARED_LIBRARY")
    list(JOIN arg_PC_PRIVATE_REQUIRES " " PC_REQUIRES_PRIVATE)
    list(JOIN arg_PC_PRIVATE_LIBS " " PC_LIBS_PRIVATE)
  else()
    list(APPEND arg_PC_REQUIRES ${arg_PC_PRIVATE_REQUIRES})
    set(PC_LIBS "${arg_PC_PRIVATE_LIBS}")
  endif()
  list(JOIN arg_PC_REQUIRES " " PC_REQUIRES)
  list(JOIN PC_LIBS " " PC_LIBS)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/library.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${target}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${target}.pc DESTINATION ${pc_dir})
endfunction()
