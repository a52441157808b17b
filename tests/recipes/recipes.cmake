# The recipe proof's additions, through the extension points the recipes of engine/README.md name
# (included by the top-level CMakeLists.txt before the engine when STOKESIAN_RECIPE_PROOF is ON).
set(STOKESIAN_EXTRA_PRECISION_HEADERS ${CMAKE_CURRENT_LIST_DIR}/precision_t64.hpp)
set(STOKESIAN_EXTRA_TENSOR_HEADERS ${CMAKE_CURRENT_LIST_DIR}/tensor_recipe_squared_distance.hpp)
set(STOKESIAN_EXTRA_BACKENDS ${CMAKE_CURRENT_LIST_DIR}/recipe)
set(STOKESIAN_EXTRA_OUTPUT_KEY_HEADERS ${CMAKE_CURRENT_LIST_DIR}/output_key_recipe_note.hpp)
