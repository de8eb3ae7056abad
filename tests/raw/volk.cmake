# vkg_volk_library(OUT NAME WHO): the volk library a program links, into
# OUT. volk's CMake package (volk::volk; Debian 13 ships a static library
# and the package) where it is installed; else volk.c compiled here as the
# static library NAME (Debian 12 ships only volk.h and volk.c, in
# /usr/include). WHO names the program in the error when neither is found.
# Included by tests/raw (device_volk) and tests/consumer (consumer_volk,
# a project of its own).
function(vkg_volk_library out name who)
  find_package(volk CONFIG QUIET)
  if(TARGET volk::volk)
    set(${out} volk::volk PARENT_SCOPE)
    return()
  endif()
  find_path(VKG_VOLK_INCLUDE_DIR volk.h)
  if(NOT VKG_VOLK_INCLUDE_DIR OR NOT EXISTS ${VKG_VOLK_INCLUDE_DIR}/volk.c)
    message(FATAL_ERROR "${who} needs volk: neither its CMake package nor volk.h with volk.c was found "
                        "(Debian: apt-get install libvulkan-volk-dev; ./scripts/run.sh deps does)")
  endif()
  add_library(${name} STATIC ${VKG_VOLK_INCLUDE_DIR}/volk.c)
  target_include_directories(${name} PUBLIC ${VKG_VOLK_INCLUDE_DIR})
  if(TARGET Vulkan::Headers)
    target_link_libraries(${name} PUBLIC Vulkan::Headers)
  endif()
  target_link_libraries(${name} PUBLIC ${CMAKE_DL_LIBS})
  target_compile_options(${name} PRIVATE -w) # another project's file, not held to our warnings
  set(${out} ${name} PARENT_SCOPE)
endfunction()
