# consumer_check_vulkan_only(TARGET): fails the configure step unless
# everything TARGET's link interface brings in, transitively, is one of the
# project's two libraries, Vulkan, threads (rg_workers) or libm, and every include directory on
# the way is the installed prefix's or Vulkan's. The engine links no window
# system (GLFW) and no image-file library (stb): those are the programs'
# and engine_files'.
function(consumer_check_vulkan_only target)
  consumer_check_needs(${target} rendergraph::rendergraph engine::engine Vulkan::Vulkan Vulkan::Headers Threads::Threads m)
endfunction()

# consumer_check_needs(TARGET ALLOWED...): the same with the given list of
# what may be brought in (graph_only: rendergraph::rendergraph and
# Vulkan::Headers, the headers alone).
function(consumer_check_needs target)
  set(allowed ${ARGN})
  # <prefix>/lib/cmake/rendergraph -> <prefix>/include
  file(REAL_PATH "${rendergraph_DIR}/../../../include" prefix_include)
  get_target_property(vulkan_dirs Vulkan::Headers INTERFACE_INCLUDE_DIRECTORIES)
  set(allowed_dirs ${prefix_include})
  foreach(dir IN LISTS vulkan_dirs)
    file(REAL_PATH "${dir}" dir)
    list(APPEND allowed_dirs ${dir})
  endforeach()
  set(queue ${target})
  set(seen "")
  while(queue)
    list(POP_FRONT queue item)
    # A static library's private dependencies are exported as $<LINK_ONLY:...>.
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" item "${item}")
    if(item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${item})
    if(NOT item IN_LIST allowed)
      message(FATAL_ERROR "${target} brings in '${item}', not one of: ${allowed} "
                          "(GLFW belongs to the programs, stb to engine_files, the loader to the engine)")
    endif()
    if(NOT TARGET ${item})
      continue()
    endif()
    get_target_property(dirs ${item} INTERFACE_INCLUDE_DIRECTORIES)
    foreach(dir IN LISTS dirs)
      if(dir)
        file(REAL_PATH "${dir}" dir)
      endif()
      if(dir AND NOT dir IN_LIST allowed_dirs)
        message(FATAL_ERROR "${item} puts '${dir}' on the include path: only the prefix's and Vulkan's belong there")
      endif()
    endforeach()
    get_target_property(libs ${item} INTERFACE_LINK_LIBRARIES)
    if(libs)
      list(APPEND queue ${libs})
    endif()
  endwhile()
  list(JOIN seen ", " shown)
  message(STATUS "${target} needs: ${shown}")
endfunction()
