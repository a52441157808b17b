# The engine's layers (engine/README.md, "Layers"), lowest first, and the layers each one builds on
# directly: the edges its code uses. A layer's library links exactly those; it may include them and,
# through them, every layer further down, never one above or beside it (cpu and cuda do not see each
# other). Each layer is a folder, engine/<layer>/: its public headers in include/stokesian/<layer>/
# (on the include path of the layers above), its sources and internal headers beside them (seen by
# the layer alone). CheckLayerIncludes.cmake runs before each layer compiles and fails the build on
# an include against this table or out of the layer's folder.
set(STOKESIAN_LAYERS numeric physics core cpu cuda mpi backends observables io settings run regression port study)
set(STOKESIAN_LAYER_numeric_BUILDS_ON "")
set(STOKESIAN_LAYER_physics_BUILDS_ON numeric)
set(STOKESIAN_LAYER_core_BUILDS_ON physics)
set(STOKESIAN_LAYER_cpu_BUILDS_ON core)
set(STOKESIAN_LAYER_cuda_BUILDS_ON core)
set(STOKESIAN_LAYER_mpi_BUILDS_ON core)
set(STOKESIAN_LAYER_backends_BUILDS_ON cpu cuda)
set(STOKESIAN_LAYER_observables_BUILDS_ON backends)
set(STOKESIAN_LAYER_io_BUILDS_ON observables)
# settings reads H5MD files of particle positions ([particles.file]) through io's reader.
set(STOKESIAN_LAYER_settings_BUILDS_ON backends io)
set(STOKESIAN_LAYER_run_BUILDS_ON settings io)
set(STOKESIAN_LAYER_regression_BUILDS_ON run)
set(STOKESIAN_LAYER_port_BUILDS_ON io)
set(STOKESIAN_LAYER_study_BUILDS_ON regression)

set(STOKESIAN_ENGINE_DIR ${PROJECT_SOURCE_DIR}/engine)

# Backends a build adds without editing this table (cmake/StokesianExtensions.cmake): each folder
# <dir>/<name> is a layer <name> on core, below backends, at STOKESIAN_LAYER_<name>_DIR.
set(STOKESIAN_EXTRA_BACKENDS "" CACHE STRING "Folders <dir>/<name>, each a backend's layer (engine/README.md)")
foreach(folder IN LISTS STOKESIAN_EXTRA_BACKENDS)
  get_filename_component(folder ${folder} ABSOLUTE BASE_DIR ${PROJECT_SOURCE_DIR})
  get_filename_component(name ${folder} NAME)
  list(INSERT STOKESIAN_LAYERS 5 ${name})  # after cpu and cuda, below backends
  set(STOKESIAN_LAYER_${name}_BUILDS_ON core)
  set(STOKESIAN_LAYER_${name}_DIR ${folder})
  list(APPEND STOKESIAN_LAYER_backends_BUILDS_ON ${name})
endforeach()

# The folder of `layer`: engine/<layer>, or an added backend's own.
function(stokesian_layer_dir layer out)
  if(DEFINED STOKESIAN_LAYER_${layer}_DIR)
    set(${out} ${STOKESIAN_LAYER_${layer}_DIR} PARENT_SCOPE)
  else()
    set(${out} ${STOKESIAN_ENGINE_DIR}/${layer} PARENT_SCOPE)
  endif()
endfunction()

# Every layer below `layer` (the closure of BUILDS_ON), into `out`.
function(stokesian_layers_below layer out)
  set(below "")
  set(pending ${STOKESIAN_LAYER_${layer}_BUILDS_ON})
  while(pending)
    list(POP_FRONT pending next)
    if(NOT next IN_LIST below)
      list(APPEND below ${next})
      list(APPEND pending ${STOKESIAN_LAYER_${next}_BUILDS_ON})
    endif()
  endwhile()
  set(${out} ${below} PARENT_SCOPE)
endfunction()

# Links `target` to the libraries of the layers `layer` builds on (those this build has: no
# stokesian_cuda without nvcc).
function(stokesian_link_layers_below target layer scope)
  foreach(below IN LISTS STOKESIAN_LAYER_${layer}_BUILDS_ON)
    if(TARGET stokesian_${below})
      target_link_libraries(${target} ${scope} stokesian_${below})
    endif()
  endforeach()
endfunction()

# The include check of `layer` (its folder engine/<layer>), a target that `target` depends on: it
# runs before `target` compiles and again whenever a source or header of the layer changes.
function(stokesian_check_layer_includes layer target)
  stokesian_layer_dir(${layer} directories)
  file(GLOB_RECURSE files CONFIGURE_DEPENDS ${directories}/*.hpp ${directories}/*.cpp ${directories}/*.cuh
       ${directories}/*.cu ${directories}/*.h)
  stokesian_layers_below(${layer} below)
  list(JOIN below "," may_include)
  list(JOIN STOKESIAN_LAYERS "," layers)
  list(JOIN directories "," dirs)
  set(script ${PROJECT_SOURCE_DIR}/cmake/CheckLayerIncludes.cmake)
  set(stamp ${PROJECT_BINARY_DIR}/layer_checks/${layer}.checked)
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DLAYER=${layer} -DMAY_INCLUDE=${may_include} -DLAYERS=${layers} -DDIRS=${dirs}
            -DROOT=${PROJECT_SOURCE_DIR} -DSTAMP=${stamp} -P ${script}
    DEPENDS ${files} ${script} ${PROJECT_SOURCE_DIR}/cmake/StokesianLayers.cmake
    COMMENT "Checking that layer ${layer} includes only the layers below it" VERBATIM)
  add_custom_target(stokesian_${layer}_includes DEPENDS ${stamp})
  add_dependencies(${target} stokesian_${layer}_includes)
endfunction()

# A header-only layer: an INTERFACE library on engine/<layer>/include.
function(stokesian_add_header_layer layer)
  add_library(stokesian_${layer} INTERFACE)
  stokesian_layer_dir(${layer} dir)
  target_include_directories(stokesian_${layer} INTERFACE $<BUILD_INTERFACE:${dir}/include>)
  stokesian_link_layers_below(stokesian_${layer} ${layer} INTERFACE)
  stokesian_check_layer_includes(${layer} stokesian_${layer})
endfunction()

# A host layer: a static library of engine/<layer>/*.cpp (and `ARGN`), its public headers in
# engine/<layer>/include; its internal headers sit beside its sources, included by their names.
function(stokesian_add_layer layer)
  stokesian_layer_dir(${layer} dir)
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  add_library(stokesian_${layer} STATIC ${sources} ${ARGN})
  target_include_directories(stokesian_${layer} PUBLIC $<BUILD_INTERFACE:${dir}/include>)
  target_compile_options(stokesian_${layer} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${STOKESIAN_HOST_WARNINGS}>)
  stokesian_link_layers_below(stokesian_${layer} ${layer} PUBLIC)
  stokesian_check_layer_includes(${layer} stokesian_${layer})
endfunction()

# The compile settings of every library of device code (the cuda layer, its fast-math object
# library): `flags` are the device floating-point flags.
# --default-stream per-thread: each host thread launches on its own stream, so the concurrent
# runs of `stokesian suite run` (one host thread each) do not serialise on the legacy stream.
function(stokesian_cuda_settings target flags)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${STOKESIAN_ENGINE_DIR}/cuda/include>)
  target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:${flags} --expt-relaxed-constexpr --default-stream=per-thread -Xcompiler=-ffp-contract=off>
      $<$<COMPILE_LANGUAGE:CXX>:${STOKESIAN_HOST_FP_FLAGS}>)
  target_compile_definitions(${target} PRIVATE
      STOKESIAN_CUDA_FP_FLAGS_STRING="${STOKESIAN_CUDA_FP_FLAGS_STRING}"
      STOKESIAN_CUDA_FP_PROFILE="${STOKESIAN_CUDA_FP_PROFILE}"
      STOKESIAN_CUDA_ARCHITECTURES="${STOKESIAN_CUDA_ARCHITECTURES_STRING}")
  set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
endfunction()
