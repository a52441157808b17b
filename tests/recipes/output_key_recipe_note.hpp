#pragma once
// The recipe proof's test-only scenario key (engine/README.md, "How to add a scenario key"):
// [output] recipe_note, appended to the [output] table by CMake's STOKESIAN_EXTRA_OUTPUT_KEY_HEADERS,
// no engine file edited. Its member (output_settings derives from recipe_note_key) and its entry
// (a template of the entry's type: core, which holds the member, sees no settings header).
#include <string>

namespace stokesian {

struct recipe_note_key {
    std::string recipe_note;

    template <class Field>
    static Field entry() {
        return {.key = "recipe_note",
                .member = &recipe_note_key::recipe_note,
                .doc = {"string", "none", "a note of the recipe proof, written into the resolved configuration"},
                .written = [](const auto& output) { return !output.recipe_note.empty(); }};
    }
};

}  // namespace stokesian
