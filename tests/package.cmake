# Packaging checks (included from tests/CMakeLists.txt): version, public
# headers as C11 and C++, the three ways another project takes the
# libraries (add_subdirectory, the installed CMake package, pkg-config), and
# that the installed engine and rendergraph need Vulkan alone.

# The version functions agree with the header macros and the project version.
vkg_add_test(unit_version unit headers/test_version.c)
target_link_libraries(unit_version PRIVATE rendergraph)
target_compile_definitions(unit_version PRIVATE
  VKG_PROJECT_VERSION="${PROJECT_VERSION}"
  VKG_PROJECT_VERSION_MAJOR=${PROJECT_VERSION_MAJOR}
  VKG_PROJECT_VERSION_MINOR=${PROJECT_VERSION_MINOR}
  VKG_PROJECT_VERSION_PATCH=${PROJECT_VERSION_PATCH})

# The public headers as strict C11 and as C++: built with everything else, so
# a header that either rejects fails the build; the programs run as tests.
add_executable(headers_c11 headers/headers_c11.c)
target_compile_options(headers_c11 PRIVATE -pedantic -Wstrict-prototypes -Wmissing-prototypes)
target_link_libraries(headers_c11 PRIVATE rendergraph engine engine_files)
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
  target_link_libraries(headers_cxx PRIVATE rendergraph engine engine_files)
  add_test(NAME headers_cxx COMMAND headers_cxx)
  set_tests_properties(headers_cxx PROPERTIES LABELS unit ENVIRONMENT "${VKG_TEST_ENV}"
                       FAIL_REGULAR_EXPRESSION "ERROR: (Leak|Address)Sanitizer;runtime error:")
elseif("$ENV{CI}" STREQUAL "true")
  message(FATAL_ERROR "No C++ compiler: the public headers' C++ check (headers_cxx) cannot be built, "
                      "and CI=true requires it. Install g++ (Debian: build-essential).")
else()
  message(STATUS "No C++ compiler: the public headers' C++ check (headers_cxx) is not built")
endif()

# Consumers (label package). Each configures and builds tests/consumer in a
# folder of its own under package/ and runs it; package_install installs this
# build into package/prefix first (a fixture for the other two).
set(VKG_PACKAGE_DIR ${CMAKE_BINARY_DIR}/package)
set(VKG_PACKAGE_ARGS
  -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DBINARY_DIR=${CMAKE_BINARY_DIR}
  -DPREFIX=${VKG_PACKAGE_DIR}/prefix
  -DGENERATOR=${CMAKE_GENERATOR} -DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}
  -DC_COMPILER=${CMAKE_C_COMPILER} -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
  -DSANITIZE=${VKG_SANITIZE} -DPKG_CONFIG=${PKG_CONFIG_EXECUTABLE})
set(modes subdir)
if(VKG_INSTALL)
  list(APPEND modes install package pkgconfig vulkan_only)
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
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DMODE=${mode} -DWORK=${VKG_PACKAGE_DIR}/${mode} ${VKG_PACKAGE_ARGS}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/consumer/run.cmake)
  set_tests_properties(${name} PROPERTIES LABELS package TIMEOUT 600 ENVIRONMENT "${VKG_TEST_ENV}"
                       FAIL_REGULAR_EXPRESSION "ERROR: (Leak|Address)Sanitizer;runtime error:")
endforeach()
if(VKG_INSTALL)
  set_tests_properties(package_install PROPERTIES FIXTURES_SETUP vkg_installed)
  set_tests_properties(package_find_package package_pkg_config package_vulkan_only
                       PROPERTIES FIXTURES_REQUIRED vkg_installed)
endif()
