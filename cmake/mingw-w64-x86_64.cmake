# Cross-building for 64-bit Windows with MinGW-w64 on Debian/Ubuntu
# (packages gcc-mingw-w64-x86-64-posix, g++-mingw-w64-x86-64-posix; the
# -posix compilers, whose runtime has winpthreads, as the win32 ones have
# no C11/C++11 threads):
#
#   cmake -S . -B build-mingw -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
#         -DVKG_BUILD_TESTS=OFF -DVKG_BUILD_DEMOS=OFF -DVKG_BUILD_BENCHMARKS=OFF -DVKG_WERROR=ON
#   cmake --build build-mingw
#
# The render graph needs Vulkan's headers alone; the engine links the
# Vulkan loader (vulkan-1.dll). Debian packages neither for MinGW, and the
# headers are the same for every platform, so unless VKG_MINGW_VULKAN_INCLUDE
# names a folder with vulkan/vulkan.h (a Windows Vulkan SDK's Include, say),
# this file points the build at the host's /usr/include/vulkan and
# /usr/include/vk_video (and GLFW's headers, /usr/include/GLFW, when there)
# through a folder of links of their own, so that the rest of /usr/include
# (glibc's headers) stays out of the Windows build. Without a loader
# library (VKG_MINGW_VULKAN_LIBRARY: a vulkan-1.lib or libvulkan-1.dll.a),
# the top-level CMakeLists.txt makes the loader's import library from the
# headers (cmake/mingwVulkanImport.cmake).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(VKG_MINGW_TRIPLE x86_64-w64-mingw32)

find_program(CMAKE_C_COMPILER NAMES ${VKG_MINGW_TRIPLE}-gcc-posix ${VKG_MINGW_TRIPLE}-gcc REQUIRED)
find_program(CMAKE_CXX_COMPILER NAMES ${VKG_MINGW_TRIPLE}-g++-posix ${VKG_MINGW_TRIPLE}-g++)
find_program(CMAKE_RC_COMPILER NAMES ${VKG_MINGW_TRIPLE}-windres windres)
find_program(CMAKE_AR NAMES ${VKG_MINGW_TRIPLE}-gcc-ar-posix ${VKG_MINGW_TRIPLE}-ar)
find_program(CMAKE_RANLIB NAMES ${VKG_MINGW_TRIPLE}-gcc-ranlib-posix ${VKG_MINGW_TRIPLE}-ranlib)

# Libraries and headers from the MinGW-w64 root only; programs (glslc, a
# host pkg-config) from the host.
# A prefix the application names (CMAKE_PREFIX_PATH: where it installed
# these libraries for Windows, say) is a root too, so that its packages and
# libraries are found there as given instead of re-rooted under the MinGW
# root.
set(CMAKE_FIND_ROOT_PATH /usr/${VKG_MINGW_TRIPLE} ${CMAKE_PREFIX_PATH})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Programs the build makes run under wine (CTest, add_custom_command), when
# it is installed.
find_program(VKG_MINGW_WINE NAMES wine64 wine)
if(VKG_MINGW_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${VKG_MINGW_WINE})
endif()

# The Vulkan (and GLFW) headers. The toolchain file is read again for every
# try_compile: the folder is made once per build folder.
if(NOT VKG_MINGW_VULKAN_INCLUDE)
  set(dir ${CMAKE_BINARY_DIR}/mingw-host-headers)
  foreach(name vulkan vk_video GLFW)
    if(IS_DIRECTORY /usr/include/${name} AND NOT EXISTS ${dir}/${name})
      file(MAKE_DIRECTORY ${dir})
      file(CREATE_LINK /usr/include/${name} ${dir}/${name} SYMBOLIC)
    endif()
  endforeach()
  if(EXISTS ${dir}/vulkan/vulkan.h)
    set(VKG_MINGW_VULKAN_INCLUDE ${dir})
  endif()
  unset(dir)
endif()
if(VKG_MINGW_VULKAN_INCLUDE)
  # FindVulkan's own search is re-rooted under CMAKE_FIND_ROOT_PATH: name
  # the folder outright.
  set(Vulkan_INCLUDE_DIR ${VKG_MINGW_VULKAN_INCLUDE} CACHE PATH "Vulkan headers for the Windows build")
endif()
if(VKG_MINGW_VULKAN_LIBRARY)
  set(Vulkan_LIBRARY ${VKG_MINGW_VULKAN_LIBRARY} CACHE FILEPATH "Vulkan loader import library for the Windows build")
endif()
