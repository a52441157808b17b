# `cmake --install BUILD --prefix PREFIX`: what a program outside this tree needs to build on the
# engine with find_package(stokesian), and the CLI.
#   PREFIX/include/stokesian/<layer>/...     every layer's public headers (engine/<layer>/include and
#                                            the generated ones)
#   PREFIX/lib/libstokesian_<layer>.a        the layers' static libraries
#   PREFIX/lib/cmake/stokesian/              stokesianConfig.cmake, its version file and the targets:
#                                            stokesian::<layer>, stokesian::engine (every layer),
#                                            stokesian::cli (the installed `stokesian` executable)
#   PREFIX/bin/stokesian                     the CLI (when built)
# HDF5 and LAPACK are linked by the absolute paths this build found (cmake/StokesianDependencies.cmake):
# the installed tree serves programs built on the same machine (or one with the same packages).
# Components: `development` (libraries, headers, package files) and `cli`; the Python module
# installs as `python` alone (tools/python/CMakeLists.txt), which pip's build asks for.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
include(StokesianLayers)  # STOKESIAN_LAYERS, STOKESIAN_ENGINE_DIR (engine/CMakeLists.txt includes it in its own scope)

set(STOKESIAN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/stokesian)
# Every layer, and every target of this build that a layer links (PRIVATE too: static libraries pass
# their links on): a new one goes into this list, else CMake stops at generation ("... requires
# target X that is not in any export set"). Imported targets (Boost::boost, ...) need a
# find_dependency() in stokesianConfig.cmake.in instead.
set(STOKESIAN_EXPORTED_TARGETS stokesian_engine stokesian_hdf5 stokesian_lapack stokesian_tomlpp)
set_target_properties(stokesian_engine PROPERTIES EXPORT_NAME engine)
set_target_properties(stokesian_hdf5 PROPERTIES EXPORT_NAME hdf5)
set_target_properties(stokesian_lapack PROPERTIES EXPORT_NAME lapack)
set_target_properties(stokesian_tomlpp PROPERTIES EXPORT_NAME tomlpp)
foreach(layer IN LISTS STOKESIAN_LAYERS)
  list(APPEND STOKESIAN_EXPORTED_TARGETS stokesian_${layer})
  set_target_properties(stokesian_${layer} PROPERTIES EXPORT_NAME ${layer})
  stokesian_layer_dir(${layer} dir)
  install(DIRECTORY ${dir}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          COMPONENT development)
endforeach()
# The headers the build generates (cmake/StokesianExtensions.cmake), beside the layers' own.
install(DIRECTORY ${PROJECT_BINARY_DIR}/generated/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT development)
install(TARGETS ${STOKESIAN_EXPORTED_TARGETS} EXPORT stokesianTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET stokesian)
  set_target_properties(stokesian PROPERTIES EXPORT_NAME cli)
  install(TARGETS stokesian EXPORT stokesianTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
endif()
install(EXPORT stokesianTargets NAMESPACE stokesian:: DESTINATION ${STOKESIAN_INSTALL_CMAKEDIR}
        COMPONENT development)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/stokesianConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/stokesianConfig.cmake
                              INSTALL_DESTINATION ${STOKESIAN_INSTALL_CMAKEDIR})
# 0.x: a consumer built against 0.1 takes 0.1.y only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/stokesianConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/stokesianConfig.cmake
              ${PROJECT_BINARY_DIR}/package/stokesianConfigVersion.cmake
        DESTINATION ${STOKESIAN_INSTALL_CMAKEDIR} COMPONENT development)
