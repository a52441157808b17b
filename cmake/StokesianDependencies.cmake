# Third-party dependencies, all from Debian packages (installed by ci/setup).
# HDF5 (with libsz/libaec/zlib) is linked statically so that the binaries run on GPU hosts
# that have no HDF5 installed (see ../shared/notes in the project history and ci/README.md).
find_package(Threads REQUIRED)

# STOKESIAN_STATIC_DEPENDENCIES (CMakeLists.txt) is off only for the Python module, a shared object:
# the static archives are not position independent, so it links the shared HDF5 and LAPACK, which
# the host that builds it has anyway.
if(STOKESIAN_STATIC_DEPENDENCIES)
  set(HDF5_USE_STATIC_LIBRARIES ON)
endif()
find_package(HDF5 REQUIRED COMPONENTS C)
add_library(stokesian_hdf5 INTERFACE)
target_include_directories(stokesian_hdf5 SYSTEM INTERFACE ${HDF5_INCLUDE_DIRS})
add_library(stokesian_lapack INTERFACE)
if(STOKESIAN_STATIC_DEPENDENCIES)
  # The imported HDF5 target drags in shared libsz/libz/libcurl/libcrypto; we only need the
  # include directories and link the static archives ourselves (curl/crypto serve the S3 driver,
  # which nothing here uses).
  find_library(STOKESIAN_HDF5_STATIC NAMES libhdf5.a
               HINTS /usr/lib/x86_64-linux-gnu/hdf5/serial ${HDF5_LIBRARY_DIRS} REQUIRED)
  find_library(STOKESIAN_SZ_STATIC NAMES libsz.a REQUIRED)
  find_library(STOKESIAN_AEC_STATIC NAMES libaec.a REQUIRED)
  find_library(STOKESIAN_Z_STATIC NAMES libz.a REQUIRED)
  target_link_libraries(stokesian_hdf5 INTERFACE ${STOKESIAN_HDF5_STATIC} ${STOKESIAN_SZ_STATIC}
                        ${STOKESIAN_AEC_STATIC} ${STOKESIAN_Z_STATIC} Threads::Threads
                        ${CMAKE_DL_LIBS} m)

  # LAPACK/BLAS (reference implementations, Debian liblapack-dev/libblas-dev) for the mobility
  # positive-definiteness check (dpotrf, dsyevr). Linked statically, with gfortran's runtime, for the
  # same reason as HDF5: the GPU hosts have no liblapack/libblas/libgfortran shared libraries.
  # `ldd build-*/bin/stokesian` must list none of them.
  find_library(STOKESIAN_LAPACK_STATIC NAMES liblapack.a
               HINTS /usr/lib/x86_64-linux-gnu/lapack /usr/lib/x86_64-linux-gnu REQUIRED)
  find_library(STOKESIAN_BLAS_STATIC NAMES libblas.a
               HINTS /usr/lib/x86_64-linux-gnu/blas /usr/lib/x86_64-linux-gnu REQUIRED)
  # gfortran's runtime archives sit in the compiler's private directory (.../gcc/x86_64-linux-gnu/12).
  file(GLOB STOKESIAN_GCC_LIBRARY_DIRS LIST_DIRECTORIES true /usr/lib/gcc/x86_64-linux-gnu/*)
  find_library(STOKESIAN_GFORTRAN_STATIC NAMES libgfortran.a HINTS ${STOKESIAN_GCC_LIBRARY_DIRS} REQUIRED)
  find_library(STOKESIAN_QUADMATH_STATIC NAMES libquadmath.a HINTS ${STOKESIAN_GCC_LIBRARY_DIRS} REQUIRED)
  # Order matters for static archives: LAPACK calls BLAS, both call the Fortran runtime.
  target_link_libraries(stokesian_lapack INTERFACE ${STOKESIAN_LAPACK_STATIC} ${STOKESIAN_BLAS_STATIC}
                        ${STOKESIAN_GFORTRAN_STATIC} ${STOKESIAN_QUADMATH_STATIC} m)
else()
  target_link_libraries(stokesian_hdf5 INTERFACE ${HDF5_C_LIBRARIES} Threads::Threads ${CMAKE_DL_LIBS} m)
  find_package(LAPACK REQUIRED)
  target_link_libraries(stokesian_lapack INTERFACE LAPACK::LAPACK m)
endif()

# Boost.Math (header-only use: special functions, distributions, float_distance).
find_package(Boost 1.74 REQUIRED)

# toml++ is used header-only so no shared libtomlplusplus is needed at run time.
find_path(STOKESIAN_TOMLPP_INCLUDE toml++/toml.h REQUIRED)
add_library(stokesian_tomlpp INTERFACE)
target_include_directories(stokesian_tomlpp SYSTEM INTERFACE ${STOKESIAN_TOMLPP_INCLUDE})
target_compile_definitions(stokesian_tomlpp INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)

# nlohmann-json (header-only): every JSON document the tools write (stokesian/io/json_text.hpp).
find_package(nlohmann_json 3.10 REQUIRED)

# CLI11 is header-only (the command-line tool's only).
if(STOKESIAN_BUILD_TOOLS)
  find_path(STOKESIAN_CLI11_INCLUDE CLI/CLI.hpp REQUIRED)
  add_library(stokesian_cli11 INTERFACE)
  target_include_directories(stokesian_cli11 SYSTEM INTERFACE ${STOKESIAN_CLI11_INCLUDE})
endif()

if(STOKESIAN_BUILD_TESTS OR STOKESIAN_RECIPE_PROOF)
  # Debian's GoogleTest is built as static archives.
  find_package(GTest CONFIG REQUIRED)
  include(GoogleTest)
endif()
