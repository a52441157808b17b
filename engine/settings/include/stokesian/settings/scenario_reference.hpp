#pragma once
// The key reference of docs/reference/scenario-file.md, generated from the field tables of the scenario format
// so that the documentation cannot drift from the reader. In the reference each table sits between
//   <!-- scenario-keys: NAME -->   and   <!-- end scenario-keys -->
// and ScenarioReference.ReferenceTablesAreTheGeneratedOnes (tests/settings/scenario_field_table_test.cpp)
// fails when one differs from the generated text.
#include <string>
#include <string_view>
#include <vector>

namespace stokesian::settings {

// The logical tables of the format, in the order of the reference ("run", "physics.lubrication", ...).
std::vector<std::string> scenario_table_names();
// One Markdown table, "| key | type | default | constraint |" and a row per key; throws
// std::invalid_argument for an unknown table name.
std::string scenario_key_table(std::string_view table_name);
// `readme` with every generated block replaced by the current table (unchanged where up to date).
std::string with_generated_key_tables(const std::string& readme);

}  // namespace stokesian::settings
