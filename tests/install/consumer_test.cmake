# CTest Install.FindPackageConsumerBuildsAndComputesTheMobilityProduct (label quick):
#   cmake -DBUILD=<build tree> -DWORK=<scratch folder> -DSOURCE=<tests/install> -DGENERATOR=<generator>
#         -DCXX=<C++ compiler> -DC=<C compiler> [-DCXX_FLAGS=... -DC_FLAGS=... -DLINKER_FLAGS=...]
#         -P consumer_test.cmake
# (the flags: the build's CMAKE_CXX_FLAGS, CMAKE_C_FLAGS and CMAKE_EXE_LINKER_FLAGS, which a program
# linking its libraries needs too: a sanitizer build's runtimes)
# Installs the build tree into WORK/prefix (`cmake --install`), configures and builds
# tests/install/consumer against it with find_package(stokesian) and nothing else of this tree, runs
# the program (M F of three spheres against the Rotne-Prager sum) and the installed CLI.
cmake_minimum_required(VERSION 3.25)
foreach(argument BUILD WORK SOURCE GENERATOR CXX C)
  if(NOT DEFINED ${argument})
    message(FATAL_ERROR "consumer_test.cmake: -D${argument}=... is missing")
  endif()
endforeach()

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
run_step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
foreach(installed include/stokesian/config.hpp include/stokesian/run/run.hpp lib/libstokesian_core.a
        lib/cmake/stokesian/stokesianConfig.cmake lib/cmake/stokesian/stokesianConfigVersion.cmake bin/stokesian)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "cmake --install left out ${installed}")
  endif()
endforeach()
run_step("configure the consumer" ${CMAKE_COMMAND} -S ${SOURCE}/consumer -B ${WORK}/consumer -G ${GENERATOR}
         -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_C_COMPILER=${C}
         -DCMAKE_PREFIX_PATH=${prefix} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_C_FLAGS=${C_FLAGS}"
         "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
run_step("build the consumer" ${CMAKE_COMMAND} --build ${WORK}/consumer)
run_step("run the consumer" ${WORK}/consumer/mobility_product)
message("${step_output}")
run_step("run the installed CLI" ${prefix}/bin/stokesian --version)
message("${step_output}")
