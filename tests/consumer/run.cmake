# Drives the consumer tests (cmake -P; tests/package.cmake passes the -D's):
#   MODE=subdir      configure tests/consumer with add_subdirectory(SOURCE_DIR),
#                    build it (the libraries too, static or shared as SHARED
#                    says), run it (consumer, consumer_render, consumer_files and
#                    consumer_volk: the engine linked with volk, a frame
#                    on volk's device, given volk's vkGetInstanceProcAddr
#                    and given none)
#   MODE=install     cmake --install BINARY_DIR --prefix WORK/prefix, then check
#                    the installed files name no path of the build machine's
#                    source or build tree; shared: the versioned libraries
#                    and their links are there and find each other there
#   MODE=package     configure tests/consumer with CMAKE_PREFIX_PATH=PREFIX
#                    (find_package), build, run
#   MODE=pkgconfig   compile consumer.c with C_COMPILER and
#                    `pkg-config --cflags --libs rendergraph` (PKG_CONFIG_PATH
#                    into PREFIX), consumer_files.c with engine_files', run them
#   MODE=vulkan_only the installed engine and rendergraph need Vulkan alone:
#                    consumer.c compiled and linked through pkg-config, then
#                    through find_package, where pkg-config knows only PREFIX
#                    and Vulkan, CMake cannot find stb, the consumer's
#                    configure step checks what the packages bring in
#                    (vulkan_only.cmake), and GLFW and stb headers that #error
#                    are searched first. Fails if engine.pc or
#                    engineConfig.cmake required glfw3 or stb again.
#   MODE=graph_only  the installed rendergraph alone, on a machine with Vulkan's
#                    headers and no loader: consumer_graph.c (only
#                    rendergraph.h) compiled and linked through pkg-config
#                    that knows PREFIX alone (no vulkan.pc), then through
#                    find_package with the loader's folder hidden from CMake
#                    (CMAKE_IGNORE_PATH), so rendergraphConfig.cmake falls
#                    back to the headers; engine, GLFW and stb headers #error.
#                    The link lines and the programs' runtime dependencies
#                    must name neither libvulkan nor the engine.
# Also: SOURCE_DIR, BINARY_DIR, WORK (a folder of its own, emptied first),
# PREFIX, GENERATOR, MAKE_PROGRAM, C_COMPILER, BUILD_TYPE, SANITIZE, PKG_CONFIG,
# SHARED (1: the libraries are shared, BUILD_SHARED_LIBS), VULKAN_LIBRARY
# (the loader the build found: graph_only hides its folder).
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

function(configure_consumer build_dir)
  run(${CMAKE_COMMAND} -S ${consumer_src} -B ${build_dir} -G ${GENERATOR}
      -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_C_COMPILER=${C_COMPILER}
      -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCONSUMER_SANITIZE=${SANITIZE} ${ARGN})
endfunction()

function(configure_build_run build_dir)
  configure_consumer(${build_dir} ${ARGN})
  run(${CMAKE_COMMAND} --build ${build_dir} --parallel 2)
  run(${build_dir}/consumer)
  run(${build_dir}/consumer_render)
  if(EXISTS ${build_dir}/consumer_files)
    run(${build_dir}/consumer_files ${build_dir})
  endif()
  if(EXISTS ${build_dir}/consumer_frame)
    run(${build_dir}/consumer_frame)
  endif()
  if(EXISTS ${build_dir}/consumer_volk)
    run(${build_dir}/consumer_volk)
    run(${build_dir}/consumer_volk --loader)
  endif()
endfunction()

# The folder of PREFIX's .pc files.
function(find_pc_dir out)
  file(GLOB_RECURSE pcs ${PREFIX}/*/rendergraph.pc)
  if(NOT pcs)
    message(FATAL_ERROR "no rendergraph.pc under ${PREFIX}")
  endif()
  list(GET pcs 0 pc)
  get_filename_component(dir ${pc} DIRECTORY)
  set(${out} ${dir} PARENT_SCOPE)
endfunction()

# pkg-config --cflags --libs MODULES into out (a list), or a fatal error.
function(pkg_flags out)
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs ${ARGN}
                  OUTPUT_VARIABLE flags ERROR_VARIABLE why RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config --cflags --libs ${ARGN} failed (PKG_CONFIG_LIBDIR=$ENV{PKG_CONFIG_LIBDIR}, "
                        "PKG_CONFIG_PATH=$ENV{PKG_CONFIG_PATH}): ${why}")
  endif()
  message(STATUS "pkg-config --cflags --libs ${ARGN}: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  # Shared libraries: the program finds them where pkg-config says they are
  # (the installed libraries find each other beside themselves, $ORIGIN).
  if(SHARED)
    list(GET ARGN 0 module)
    execute_process(COMMAND ${PKG_CONFIG} --variable=libdir ${module}
                    OUTPUT_VARIABLE libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND flags -Wl,-rpath,${libdir})
  endif()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

# Fails if the program's runtime dependencies, transitively, include
# libvulkan or the engine (graph_only); prints them.
function(check_runtime_dependencies exe)
  file(GET_RUNTIME_DEPENDENCIES EXECUTABLES ${exe} RESOLVED_DEPENDENCIES_VAR resolved
       UNRESOLVED_DEPENDENCIES_VAR unresolved)
  set(all ${resolved} ${unresolved})
  list(JOIN all "\n  " shown)
  message(STATUS "${exe} loads:\n  ${shown}")
  if(unresolved)
    message(FATAL_ERROR "${exe}: not found at run time: ${unresolved}")
  endif()
  foreach(lib IN LISTS all)
    get_filename_component(name ${lib} NAME)
    if(name MATCHES "^lib(vulkan|engine)")
      message(FATAL_ERROR "${exe} loads ${name}: rendergraph alone must need neither the loader nor the engine")
    endif()
  endforeach()
endfunction()

# Fails if a link line (a string) names libvulkan or the engine.
function(check_link_line what line)
  if(line MATCHES "(-l|/lib)(vulkan|engine)[^ ]*")
    message(FATAL_ERROR "${what} names ${CMAKE_MATCH_0}: rendergraph alone must link neither the loader "
                        "nor the engine:\n${line}")
  endif()
  message(STATUS "${what}: neither libvulkan nor the engine: ${line}")
endfunction()

if(MODE STREQUAL "subdir")
  file(REMOVE_RECURSE ${WORK})
  # Static or shared as this build is.
  configure_build_run(${WORK}/build -DVKGRAPH_SOURCE_DIR=${SOURCE_DIR} -DVKG_SANITIZE=${SANITIZE}
                      -DBUILD_SHARED_LIBS=${SHARED})

elseif(MODE STREQUAL "install")
  file(REMOVE_RECURSE ${PREFIX})
  run(${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${PREFIX} --config ${BUILD_TYPE})
  foreach(f include/engine/engine.h include/engine_files/engine_files.h include/rendergraph/rendergraph.h
            include/rendergraph_frame/rendergraph_frame.h bin/rgtool)
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
  set(libs "")
  foreach(lib engine engine_files rendergraph rendergraph_frame)
    if(SHARED)
      list(APPEND libs lib${lib}.so lib${lib}.so.${SOVERSION} lib${lib}.so.${VERSION})
    else()
      list(APPEND libs lib${lib}.a)
    endif()
  endforeach()
  foreach(want ${libs} "cmake/engine/engineConfig.cmake"
               "cmake/engine/engineConfigVersion.cmake" "cmake/engine/engineTargets.cmake"
               "cmake/engine_files/engine_filesConfig.cmake" "cmake/engine_files/engine_filesConfigVersion.cmake"
               "cmake/engine_files/engine_filesTargets.cmake" "cmake/engine_files/engine_filesDependencies.cmake"
               "cmake/rendergraph/rendergraphConfig.cmake"
               "cmake/rendergraph/rendergraphConfigVersion.cmake" "cmake/rendergraph/rendergraphTargets.cmake"
               "cmake/rendergraph_frame/rendergraph_frameConfig.cmake"
               "cmake/rendergraph_frame/rendergraph_frameDependencies.cmake"
               "pkgconfig/engine.pc" "pkgconfig/engine_files.pc" "pkgconfig/rendergraph.pc"
               "pkgconfig/rendergraph_frame.pc")
    if(NOT listing MATCHES "/${want}(\n|$)")
      message(FATAL_ERROR "not installed: ${want}")
    endif()
  endforeach()
  # Shared: the installed libraries find each other in the prefix
  # ($ORIGIN), not in the build tree.
  if(SHARED)
    file(GLOB_RECURSE files_so ${PREFIX}/*/libengine_files.so)
    file(GET_RUNTIME_DEPENDENCIES LIBRARIES ${files_so} RESOLVED_DEPENDENCIES_VAR resolved
         UNRESOLVED_DEPENDENCIES_VAR unresolved)
    foreach(lib engine rendergraph)
      set(found "")
      foreach(dep IN LISTS resolved)
        if(dep MATCHES "/lib${lib}\\.so")
          set(found ${dep})
        endif()
      endforeach()
      file(REAL_PATH "${PREFIX}" real_prefix)
      if(NOT found OR NOT found MATCHES "^(${PREFIX}|${real_prefix})/")
        message(FATAL_ERROR "installed libengine_files.so does not find lib${lib}.so in ${PREFIX} "
                            "(found: '${found}', unresolved: ${unresolved})")
      endif()
    endforeach()
    message(STATUS "installed libengine_files.so finds engine and rendergraph beside it")
  endif()

elseif(MODE STREQUAL "package")
  file(REMOVE_RECURSE ${WORK})
  configure_build_run(${WORK}/build -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)

elseif(MODE STREQUAL "pkgconfig")
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK})
  find_pc_dir(pc_dir)
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
  execute_process(COMMAND ${PKG_CONFIG} --modversion rendergraph engine engine_files
                  OUTPUT_VARIABLE versions RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  message(STATUS "pkg-config --modversion rendergraph engine engine_files: ${versions}")
  pkg_flags(flags engine)
  run(${C_COMPILER} -std=c11 -Wall -Wextra -Werror ${sanitize_flags} -o ${WORK}/consumer
      ${consumer_src}/consumer.c ${flags})
  run(${WORK}/consumer)
  pkg_flags(flags engine_files)
  run(${C_COMPILER} -std=c11 -Wall -Wextra -Werror ${sanitize_flags} -o ${WORK}/consumer_files
      ${consumer_src}/consumer_files.c ${flags})
  run(${WORK}/consumer_files ${WORK})
  pkg_flags(flags rendergraph_frame)
  run(${C_COMPILER} -std=c11 -Wall -Wextra -Werror ${sanitize_flags} -o ${WORK}/consumer_frame
      ${consumer_src}/consumer_frame.c ${flags})
  run(${WORK}/consumer_frame)

elseif(MODE STREQUAL "vulkan_only")
  file(REMOVE_RECURSE ${WORK})
  # Where stb's headers are, asked before pkg-config is fenced in: CMake is
  # told to ignore that folder.
  execute_process(COMMAND ${PKG_CONFIG} --cflags-only-I stb
                  OUTPUT_VARIABLE stb_dirs OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  string(REPLACE "-I" "" stb_dirs "${stb_dirs}")
  separate_arguments(stb_dirs UNIX_COMMAND "${stb_dirs}")
  # GLFW and stb headers that stop any compilation that includes them.
  set(poison ${WORK}/poison)
  foreach(h GLFW/glfw3.h GLFW/glfw3native.h stb_image.h stb_image_write.h stb/stb_image.h stb/stb_image_write.h)
    file(WRITE ${poison}/${h} "#error \"${h} included: engine.h and rendergraph.h must need Vulkan alone\"\n")
  endforeach()
  # pkg-config that knows PREFIX and Vulkan and nothing else: a .pc file
  # that requires glfw3 or stb cannot be resolved.
  execute_process(COMMAND ${PKG_CONFIG} --variable=pcfiledir vulkan
                  OUTPUT_VARIABLE vulkan_pc_dir RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${vulkan_pc_dir}/vulkan.pc)
    message(FATAL_ERROR "pkg-config finds no vulkan.pc (Debian: libvulkan-dev)")
  endif()
  file(COPY ${vulkan_pc_dir}/vulkan.pc DESTINATION ${WORK}/pkgconfig-vulkan)
  find_pc_dir(pc_dir)
  set(ENV{PKG_CONFIG_LIBDIR} "${pc_dir}:${WORK}/pkgconfig-vulkan")
  unset(ENV{PKG_CONFIG_PATH})
  foreach(module engine rendergraph)
    execute_process(COMMAND ${PKG_CONFIG} --print-requires ${module}
                    OUTPUT_VARIABLE requires OUTPUT_STRIP_TRAILING_WHITESPACE)
    string(REPLACE "\n" ", " requires "${requires}")
    message(STATUS "${module}.pc requires: ${requires}")
  endforeach()
  pkg_flags(flags engine)
  string(TOLOWER "${flags}" lower)
  if(lower MATCHES "glfw|stb")
    message(FATAL_ERROR "pkg-config --cflags --libs engine names GLFW or stb: ${flags}")
  endif()
  file(MAKE_DIRECTORY ${WORK}/pkgconfig-build)
  run(${C_COMPILER} -std=c11 -Wall -Wextra -Werror ${sanitize_flags} -I${poison} -o ${WORK}/pkgconfig-build/consumer
      ${consumer_src}/consumer.c ${flags})
  run(${WORK}/pkgconfig-build/consumer)
  # find_package in the same fence: pkg_check_modules(glfw3) and
  # find_path(stb_image.h) fail, and vulkan_only.cmake checks the rest.
  configure_build_run(${WORK}/cmake-build -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
                      -DCONSUMER_VULKAN_ONLY=ON -DCONSUMER_POISON_DIR=${poison} "-DCMAKE_IGNORE_PATH=${stb_dirs}")

elseif(MODE STREQUAL "graph_only")
  file(REMOVE_RECURSE ${WORK})
  # Headers that stop any compilation that includes them: the engine's,
  # GLFW's and stb's.
  set(poison ${WORK}/poison)
  foreach(h engine/engine.h engine_files/engine_files.h GLFW/glfw3.h stb_image.h stb/stb_image.h)
    file(WRITE ${poison}/${h} "#error \"${h} included: rendergraph.h must need Vulkan's headers alone\"\n")
  endforeach()
  # pkg-config that knows PREFIX alone: no vulkan.pc, so rendergraph.pc
  # cannot require the loader.
  find_pc_dir(pc_dir)
  set(ENV{PKG_CONFIG_LIBDIR} "${pc_dir}")
  unset(ENV{PKG_CONFIG_PATH})
  pkg_flags(flags rendergraph)
  file(MAKE_DIRECTORY ${WORK}/pkgconfig-build)
  set(exe ${WORK}/pkgconfig-build/consumer_graph)
  set(cmd ${C_COMPILER} -std=c11 -Wall -Wextra -Werror -pedantic ${sanitize_flags} -I${poison} -o ${exe}
      ${consumer_src}/consumer_graph.c ${flags})
  string(JOIN " " line ${cmd})
  check_link_line("pkg-config link line" "${line}")
  run(${cmd})
  run(${exe})
  check_runtime_dependencies(${exe})

  # find_package with the loader's folder hidden: FindVulkan fails, the
  # config finds vulkan/vulkan.h itself (the consumer's configure step fails
  # if the loader was found anyway). /lib and /usr/lib are one folder on
  # merged-/usr systems, so both spellings are hidden.
  if(NOT VULKAN_LIBRARY)
    message(FATAL_ERROR "graph_only needs VULKAN_LIBRARY (the loader the build found)")
  endif()
  set(hide "")
  get_filename_component(dir ${VULKAN_LIBRARY} DIRECTORY)
  file(REAL_PATH ${VULKAN_LIBRARY} real)
  get_filename_component(real_dir ${real} DIRECTORY)
  foreach(d ${dir} ${real_dir})
    list(APPEND hide ${d})
    if(d MATCHES "^/usr(/.*)$")
      list(APPEND hide ${CMAKE_MATCH_1})
    else()
      list(APPEND hide /usr${d})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES hide)
  # A list: through an initial-cache script, which keeps it one value.
  file(WRITE ${WORK}/hide_loader.cmake "set(CMAKE_IGNORE_PATH \"${hide}\" CACHE STRING \"The loader's folders\")\n")
  message(STATUS "hidden from CMake: ${hide}")
  set(build_dir ${WORK}/cmake-build)
  configure_consumer(${build_dir} -C ${WORK}/hide_loader.cmake -DCMAKE_PREFIX_PATH=${PREFIX}
                     -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON -DCONSUMER_GRAPH_ONLY=ON
                     -DCONSUMER_POISON_DIR=${poison})
  # The build, verbose: the link command is checked.
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${build_dir} --verbose
                  OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the consumer failed:\n${out}")
  endif()
  string(REGEX MATCHALL "[^\n]* -o [^ ]*consumer_graph [^\n]*" links "${out}")
  if(NOT links)
    message(FATAL_ERROR "no link command for consumer_graph in the build's output:\n${out}")
  endif()
  foreach(line IN LISTS links)
    check_link_line("CMake link line" "${line}")
  endforeach()
  run(${build_dir}/consumer_graph)
  check_runtime_dependencies(${build_dir}/consumer_graph)

else()
  message(FATAL_ERROR "MODE must be subdir, install, package, pkgconfig, vulkan_only or graph_only (got '${MODE}')")
endif()
