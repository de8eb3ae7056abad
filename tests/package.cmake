# Packaging checks (included from tests/CMakeLists.txt; the version test,
# unit_version, is there with the other device-free programs): public
# headers as C11 and C++, the libraries' symbols, the three ways another
# project takes the libraries (add_subdirectory, the installed CMake
# package, pkg-config), that the installed engine and rendergraph need
# Vulkan alone, and rendergraph Vulkan's headers alone. Static or shared
# (BUILD_SHARED_LIBS) alike.

# The public headers as strict C11 and as C++: built with everything else, so
# a header that either rejects fails the build; the programs run as tests.
add_executable(headers_c11 headers/headers_c11.c)
target_compile_options(headers_c11 PRIVATE -pedantic -Wstrict-prototypes -Wmissing-prototypes)
target_link_libraries(headers_c11 PRIVATE rendergraph engine engine_files rendergraph_frame)
add_test(NAME headers_c11 COMMAND headers_c11)
set_tests_properties(headers_c11 PROPERTIES LABELS unit ENVIRONMENT "${VKG_TEST_ENV}"
                     FAIL_REGULAR_EXPRESSION "ERROR: (Leak|Address)Sanitizer;runtime error:")

include(CheckLanguage)
check_language(CXX)
if(CMAKE_CXX_COMPILER)
  enable_language(CXX)
  add_executable(headers_cxx headers/headers.cpp)
  set_target_properties(headers_cxx PROPERTIES CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
  target_compile_options(headers_cxx PRIVATE -pedantic)
  target_link_libraries(headers_cxx PRIVATE rendergraph engine engine_files rendergraph_frame)
  add_test(NAME headers_cxx COMMAND headers_cxx)
  set_tests_properties(headers_cxx PROPERTIES LABELS unit ENVIRONMENT "${VKG_TEST_ENV}"
                       FAIL_REGULAR_EXPRESSION "ERROR: (Leak|Address)Sanitizer;runtime error:")
elseif("$ENV{CI}" STREQUAL "true")
  message(FATAL_ERROR "No C++ compiler: the public headers' C++ check (headers_cxx) cannot be built, "
                      "and CI=true requires it. Install g++ (Debian: build-essential).")
else()
  message(STATUS "No C++ compiler: the public headers' C++ check (headers_cxx) is not built")
endif()

# The libraries' symbols (scripts/check_symbols.sh): the render graph calls
# neither the engine nor Vulkan directly, and each library defines (static)
# or exports (shared: the version script, vkg_library_abi) its own prefix
# alone, no internal rg__/eng__ helper.
set(VKG_CHECK_SYMBOLS ${PROJECT_SOURCE_DIR}/scripts/check_symbols.sh)
set(symbols_args --graph $<TARGET_FILE:rendergraph> --exports rg $<TARGET_FILE:rendergraph>
                 --engine $<TARGET_FILE:engine> --exports eng $<TARGET_FILE:engine>)
if(TARGET engine_files)
  list(APPEND symbols_args --exports eng $<TARGET_FILE:engine_files>)
endif()
if(TARGET rendergraph_frame)
  list(APPEND symbols_args --exports rgf $<TARGET_FILE:rendergraph_frame>)
endif()
add_test(NAME symbols_rendergraph COMMAND ${VKG_CHECK_SYMBOLS} ${symbols_args})
# The same check on a library built to break each rule, static and shared
# the way the project's libraries are built: it must report every one.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/symbols_bad.c [[
/* scripts/check_symbols.sh must reject this library (symbols_selftest). */
void vkCmdDraw(void);
void vkGetInstanceProcAddr(void);
void eng_context_device(void);
void rg__helper(void);
void stray(void);
void rg__helper(void) {}
void stray(void) {}
void rg_public(void) { vkCmdDraw(); vkGetInstanceProcAddr(); eng_context_device(); rg__helper(); stray(); }
]])
add_library(symbols_bad ${CMAKE_CURRENT_BINARY_DIR}/symbols_bad.c)
add_test(NAME symbols_selftest COMMAND ${VKG_CHECK_SYMBOLS} --graph $<TARGET_FILE:symbols_bad>
         --engine $<TARGET_FILE:symbols_bad> --exports rg $<TARGET_FILE:symbols_bad>)
get_target_property(type symbols_bad TYPE)
if(type STREQUAL "SHARED_LIBRARY")
  set(expected "exports rg__helper.*exports stray")
else()
  set(expected "defines stray") # an archive cannot hide rg__helper
endif()
set_tests_properties(symbols_selftest PROPERTIES PASS_REGULAR_EXPRESSION
  "calls eng_context_device.*calls vkCmdDraw.*calls vkGetInstanceProcAddr.*3 of them eng_.*calls vkCmdDraw directly.*calls vkGetInstanceProcAddr directly.*2 undefined vk.*${expected}.*FAILED")
set_tests_properties(symbols_rendergraph symbols_selftest PROPERTIES LABELS unit)

# Consumers (label package). Each configures and builds tests/consumer in a
# folder of its own under package/ and runs it; package_install installs this
# build into package/prefix first (a fixture for the others).
set(VKG_PACKAGE_DIR ${CMAKE_BINARY_DIR}/package)
set(VKG_PACKAGE_ARGS
  -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DBINARY_DIR=${CMAKE_BINARY_DIR}
  -DPREFIX=${VKG_PACKAGE_DIR}/prefix
  -DGENERATOR=${CMAKE_GENERATOR} -DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}
  -DC_COMPILER=${CMAKE_C_COMPILER} -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
  -DSANITIZE=${VKG_SANITIZE} -DPKG_CONFIG=${PKG_CONFIG_EXECUTABLE}
  -DSHARED=$<STREQUAL:$<TARGET_PROPERTY:rendergraph,TYPE>,SHARED_LIBRARY>
  -DVERSION=$<TARGET_PROPERTY:rendergraph,VERSION> -DSOVERSION=$<TARGET_PROPERTY:rendergraph,SOVERSION>
  -DVULKAN_LIBRARY=${Vulkan_LIBRARY})
set(modes subdir)
if(VKG_INSTALL)
  list(APPEND modes install package pkgconfig vulkan_only graph_only)
endif()
foreach(mode IN LISTS modes)
  set(name package_${mode})
  if(mode STREQUAL "subdir")
    set(name package_add_subdirectory)
  elseif(mode STREQUAL "package")
    set(name package_find_package)
  elseif(mode STREQUAL "pkgconfig")
    set(name package_pkg_config)
  elseif(mode STREQUAL "vulkan_only")
    set(name package_vulkan_only)
  elseif(mode STREQUAL "graph_only")
    set(name package_graph_only)
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DMODE=${mode} -DWORK=${VKG_PACKAGE_DIR}/${mode} ${VKG_PACKAGE_ARGS}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/consumer/run.cmake)
  set_tests_properties(${name} PROPERTIES LABELS package TIMEOUT 600 ENVIRONMENT "${VKG_TEST_ENV}"
                       FAIL_REGULAR_EXPRESSION "ERROR: (Leak|Address)Sanitizer;runtime error:")
endforeach()
if(VKG_INSTALL)
  set_tests_properties(package_install PROPERTIES FIXTURES_SETUP vkg_installed)
  set_tests_properties(package_find_package package_pkg_config package_vulkan_only package_graph_only
                       PROPERTIES FIXTURES_REQUIRED vkg_installed)
endif()
