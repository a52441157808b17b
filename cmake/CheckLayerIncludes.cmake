# Fails when a source of one engine layer includes a layer it may not (engine/README.md, "Layers").
# Run by the build before a layer's library compiles (StokesianLayers.cmake), and by a test on a
# fixture tree (tests/harness/layer_check_test.cpp):
#
#   cmake -DLAYER=core -DMAY_INCLUDE=numeric,physics -DLAYERS=numeric,physics,core,...
#         -DDIRS=<dir>,<dir> [-DROOT=<dir>] [-DSTAMP=<file>] -P CheckLayerIncludes.cmake
#
# LAYERS: every layer's name; MAY_INCLUDE: the layers LAYER may include besides itself; DIRS: the
# folders holding LAYER's sources and headers (searched recursively); ROOT: messages name files
# relative to it; STAMP: touched when the check passes (the build's output of the check).
# Lists are comma-separated: a semicolon would split the build's command line.
#
# An include names a layer as "stokesian/<layer>/..." (its public headers); every other quoted
# include is a header beside the including file, of its own layer: one that climbs out of the
# layer's folder ("../...") or names another layer's folder ("<layer>/...") reaches another layer's
# internals and fails. Each include against the layers is one line, FILE:LINE: layer A may not
# include layer B.
cmake_minimum_required(VERSION 3.25)
foreach(argument LAYER LAYERS DIRS)
  if(NOT DEFINED ${argument})
    message(FATAL_ERROR "CheckLayerIncludes.cmake: -D${argument}=... is missing")
  endif()
endforeach()
string(REPLACE "," ";" layers "${LAYERS}")
string(REPLACE "," ";" allowed "${MAY_INCLUDE}")
list(APPEND allowed ${LAYER})
string(REPLACE "," ";" directories "${DIRS}")

set(files "")
foreach(directory IN LISTS directories)
  file(GLOB_RECURSE found ${directory}/*.hpp ${directory}/*.cpp ${directory}/*.cuh ${directory}/*.cu
       ${directory}/*.h)
  list(APPEND files ${found})
endforeach()
list(SORT files)

set(violations 0)
foreach(file IN LISTS files)
  file(READ ${file} text)
  # One list element per line: the characters a CMake list treats specially go first.
  string(REPLACE ";" "" text "${text}")
  string(REPLACE "[" "" text "${text}")
  string(REPLACE "]" "" text "${text}")
  string(REPLACE "\\" "" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*(\"[^\"]+\"|<stokesian/[^>]+>)")
      continue()
    endif()
    set(included "${CMAKE_MATCH_1}")
    set(fault "")
    if(included MATCHES "^[\"<]stokesian/([a-z_]+)/")
      set(layer "${CMAKE_MATCH_1}")
      if(layer IN_LIST layers AND NOT layer IN_LIST allowed)
        set(fault "may not include layer ${layer}")
      endif()
    elseif(included MATCHES "^\"\\.\\./")
      set(fault "may not include a file outside its folder")
    elseif(included MATCHES "^\"([a-z_]+)/")
      set(folder "${CMAKE_MATCH_1}")
      if(folder IN_LIST layers)
        set(fault "may not include the internals of layer ${folder}")
      endif()
    endif()
    if(fault)
      set(shown ${file})
      if(DEFINED ROOT)
        file(RELATIVE_PATH shown ${ROOT} ${file})
      endif()
      message(NOTICE "${shown}:${number}: layer ${LAYER} ${fault} (#include ${included})")
      math(EXPR violations "${violations} + 1")
    endif()
  endforeach()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "layer ${LAYER}: ${violations} include(s) against the layers (engine/README.md, \"Layers\")")
endif()
if(DEFINED STAMP)
  file(TOUCH ${STAMP})
endif()
