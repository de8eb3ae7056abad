# The Vulkan loader's import library (libvulkan-1.dll.a) for a MinGW-w64
# cross build that has the Vulkan headers but no Windows Vulkan SDK
# (cmake/mingw-w64-x86_64.cmake): made at configure time with dlltool from
# the prototypes in vulkan_core.h and vulkan_win32.h, so that the engine's
# programs link against vulkan-1.dll as they would with the SDK's
# vulkan-1.lib. The DLL itself comes with the GPU driver on Windows (and is
# built into wine). A program imports it only when it calls a Vulkan
# function; the device-free tests run without one.
#
# In: Vulkan_INCLUDE_DIR. Out: Vulkan_LIBRARY (cache) names the file.
find_program(VKG_DLLTOOL NAMES ${CMAKE_C_COMPILER_TARGET}-dlltool x86_64-w64-mingw32-dlltool dlltool REQUIRED)
set(def ${CMAKE_BINARY_DIR}/vulkan-1/vulkan-1.def)
set(lib ${CMAKE_BINARY_DIR}/vulkan-1/libvulkan-1.dll.a)
set(text "LIBRARY vulkan-1.dll\nEXPORTS\n")
foreach(header vulkan_core.h vulkan_win32.h)
  file(STRINGS ${Vulkan_INCLUDE_DIR}/vulkan/${header} lines REGEX "^VKAPI_ATTR .* VKAPI_CALL vk[A-Za-z0-9]+\\(")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "vk[A-Za-z0-9]+\\(" name "${line}")
    string(REPLACE "(" "" name "${name}")
    string(APPEND text "    ${name}\n")
  endforeach()
endforeach()
file(CONFIGURE OUTPUT ${def} CONTENT "${text}" @ONLY)
if(NOT EXISTS ${lib} OR ${def} IS_NEWER_THAN ${lib})
  execute_process(COMMAND ${VKG_DLLTOOL} -d ${def} -l ${lib} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${VKG_DLLTOOL} could not make ${lib} from ${def}")
  endif()
endif()
message(STATUS "Vulkan loader import library made from the headers: ${lib}")
set(Vulkan_LIBRARY ${lib} CACHE FILEPATH "Vulkan loader library" FORCE)
unset(def)
unset(lib)
unset(text)
