# Drives the consumer tests (cmake -P; tests/package.cmake passes the -D's):
#   MODE=subdir      configure tests/consumer with add_subdirectory(SOURCE_DIR),
#                    build it (the libraries too), run it
#   MODE=install     cmake --install BINARY_DIR --prefix WORK/prefix, then check
#                    the installed files name no path of the build machine's
#                    source or build tree
#   MODE=package     configure tests/consumer with CMAKE_PREFIX_PATH=PREFIX
#                    (find_package), build, run
#   MODE=pkgconfig   compile consumer.c with C_COMPILER and
#                    `pkg-config --cflags --libs rendergraph` (PKG_CONFIG_PATH
#                    into PREFIX), run it
# Also: SOURCE_DIR, BINARY_DIR, WORK (a folder of its own, emptied first),
# PREFIX, GENERATOR, MAKE_PROGRAM, C_COMPILER, BUILD_TYPE, SANITIZE, PKG_CONFIG.
cmake_minimum_required(VERSION 3.20)

function(run)
  string(JOIN " " shown ${ARGN})
  message(STATUS "run: ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${shown}")
  endif()
endfunction()

set(consumer_src ${SOURCE_DIR}/tests/consumer)
set(sanitize_flags "")
if(SANITIZE)
  set(sanitize_flags -fsanitize=address,undefined -fno-omit-frame-pointer)
endif()

function(configure_build_run build_dir)
  run(${CMAKE_COMMAND} -S ${consumer_src} -B ${build_dir} -G ${GENERATOR}
      -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_C_COMPILER=${C_COMPILER}
      -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCONSUMER_SANITIZE=${SANITIZE} ${ARGN})
  run(${CMAKE_COMMAND} --build ${build_dir} --parallel 2)
  run(${build_dir}/consumer)
endfunction()

if(MODE STREQUAL "subdir")
  file(REMOVE_RECURSE ${WORK})
  configure_build_run(${WORK}/build -DVKGRAPH_SOURCE_DIR=${SOURCE_DIR} -DVKG_SANITIZE=${SANITIZE})

elseif(MODE STREQUAL "install")
  file(REMOVE_RECURSE ${PREFIX})
  run(${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${PREFIX} --config ${BUILD_TYPE})
  foreach(f include/engine/engine.h include/rendergraph/rendergraph.h)
    if(NOT EXISTS ${PREFIX}/${f})
      message(FATAL_ERROR "not installed: ${f}")
    endif()
  endforeach()
  file(GLOB_RECURSE installed LIST_DIRECTORIES false ${PREFIX}/*)
  set(seen "")
  foreach(f IN LISTS installed)
    file(RELATIVE_PATH rel ${PREFIX} ${f})
    list(APPEND seen ${rel})
    if(f MATCHES "\\.(cmake|pc|h)$")
      file(READ ${f} text)
      foreach(tree ${SOURCE_DIR} ${BINARY_DIR})
        string(FIND "${text}" "${tree}" at)
        if(NOT at EQUAL -1)
          message(FATAL_ERROR "${rel} names ${tree}: the package would not work elsewhere")
        endif()
      endforeach()
    endif()
  endforeach()
  list(SORT seen)
  string(JOIN "\n  " listing ${seen})
  message(STATUS "installed into ${PREFIX}:\n  ${listing}")
  foreach(want "libengine.a" "librendergraph.a" "cmake/engine/engineConfig.cmake"
               "cmake/engine/engineConfigVersion.cmake" "cmake/engine/engineTargets.cmake"
               "cmake/engine/engineDependencies.cmake" "cmake/rendergraph/rendergraphConfig.cmake"
               "cmake/rendergraph/rendergraphConfigVersion.cmake" "cmake/rendergraph/rendergraphTargets.cmake"
               "pkgconfig/engine.pc" "pkgconfig/rendergraph.pc")
    if(NOT listing MATCHES "/${want}")
      message(FATAL_ERROR "not installed: ${want}")
    endif()
  endforeach()

elseif(MODE STREQUAL "package")
  file(REMOVE_RECURSE ${WORK})
  configure_build_run(${WORK}/build -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)

elseif(MODE STREQUAL "pkgconfig")
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK})
  file(GLOB_RECURSE pcs ${PREFIX}/*/rendergraph.pc)
  if(NOT pcs)
    message(FATAL_ERROR "no rendergraph.pc under ${PREFIX}")
  endif()
  list(GET pcs 0 pc)
  get_filename_component(pc_dir ${pc} DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
  execute_process(COMMAND ${PKG_CONFIG} --modversion rendergraph engine
                  OUTPUT_VARIABLE versions RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  message(STATUS "pkg-config --modversion rendergraph engine: ${versions}")
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs rendergraph
                  OUTPUT_VARIABLE flags RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config --cflags --libs rendergraph failed (PKG_CONFIG_PATH=${pc_dir})")
  endif()
  message(STATUS "pkg-config --cflags --libs rendergraph: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(${C_COMPILER} -std=c11 -Wall -Wextra -Werror ${sanitize_flags} -o ${WORK}/consumer
      ${consumer_src}/consumer.c ${flags})
  run(${WORK}/consumer)

else()
  message(FATAL_ERROR "MODE must be subdir, install, package or pkgconfig (got '${MODE}')")
endif()
