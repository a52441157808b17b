# The version recorded in every output file: `git describe --always --dirty`, refreshed at
# every build (not only at configure time) so provenance never names a stale commit.
set(STOKESIAN_VERSION_CPP ${PROJECT_BINARY_DIR}/generated/version.cpp)
add_custom_target(stokesian_version_stamp
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${STOKESIAN_VERSION_CPP}
          -DFALLBACK=${PROJECT_VERSION} -P ${PROJECT_SOURCE_DIR}/cmake/WriteVersion.cmake
  BYPRODUCTS ${STOKESIAN_VERSION_CPP}
  COMMENT "Stamping the git version" VERBATIM)
