// The JSON documents of the CLI against their reference page, docs/reference/json.md: every key a
// command prints is in the page's table with the type it has, and every key the table does not
// mark optional is printed; so the page and the output cannot drift apart.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "stokesian/io/json_text.hpp"
#include "support/build_paths.hpp"
#include "support/cli_process.hpp"
#include "support/scratch_directory.hpp"

namespace fs = std::filesystem;
using stokesian::io::json;
using stokesian::test_support::run_cli;

namespace {

struct documented_key {
    std::string type;  // as the page writes it: "integer or null", "string, optional", ...
    bool optional = false;
};

// The rows `| `key` | type | meaning |` of the first table after the heading `heading`.
std::map<std::string, documented_key> schema_table(const std::string& heading) {
    std::ifstream page(stokesian::test_support::checkout_file("docs/reference/json.md"));
    std::map<std::string, documented_key> keys;
    std::string line;
    bool in_section = false;
    while (std::getline(page, line)) {
        if (line.rfind("## ", 0) == 0) {
            if (in_section) break;
            in_section = line == heading;
            continue;
        }
        if (!in_section || line.rfind("| `", 0) != 0) continue;
        const std::size_t key_end = line.find('`', 3);
        const std::size_t type_begin = line.find('|', key_end) + 1;
        const std::size_t type_end = line.find('|', type_begin);
        std::string type = line.substr(type_begin, type_end - type_begin);
        type = type.substr(type.find_first_not_of(' '), type.find_last_not_of(' ') - type.find_first_not_of(' ') + 1);
        keys[line.substr(3, key_end - 3)] = {type, type.find("optional") != std::string::npos};
    }
    return keys;
}

// Whether `value` has the documented type: "number" takes integers and doubles, "integer" only
// integers, null only where the page says "or null".
bool has_documented_type(const json& value, const std::string& type) {
    const std::string base = type.substr(0, type.find_first_of(" ,"));
    if (value.is_null()) return type.find("or null") != std::string::npos;
    if (base == "integer") return value.is_number_integer();
    if (base == "number") return value.is_number();
    if (base == "string") return value.is_string();
    if (base == "boolean") return value.is_boolean();
    if (base == "array") return value.is_array();
    if (base == "object") return value.is_object();
    return false;
}

// `document`'s keys against `table`: each printed key documented with its type, each key the
// table does not mark optional printed.
void expect_documented(const json& document, const std::map<std::string, documented_key>& table,
                       const std::string& what) {
    ASSERT_FALSE(table.empty()) << what << ": no table in docs/reference/json.md";
    for (const auto& [key, value] : document.items()) {
        const auto row = table.find(key);
        if (row == table.end()) {
            ADD_FAILURE() << what << " prints `" << key << "`, not in docs/reference/json.md";
            continue;
        }
        EXPECT_TRUE(has_documented_type(value, row->second.type))
            << what << " `" << key << "` is " << value.dump() << ", documented as " << row->second.type;
    }
    for (const auto& [key, row] : table)
        EXPECT_TRUE(row.optional || document.contains(key)) << what << " lacks the documented `" << key << "`";
}

class JsonSchema : public stokesian::test_support::scratch_directory_test {
protected:
    JsonSchema() : scratch_directory_test("stokesian_json_schema") {}
};

}  // namespace

TEST_F(JsonSchema, RunAndAnalyzeDocumentsAreTheTablesOfDocsReferenceJson) {
    const fs::path file = dir_ / "t.h5";
    const auto ran = run_cli({"run", stokesian::test_support::tetrahedron_toml, "--time", "2100", "--no-trajectory",
                              "-o", file.string(), "--json"},
                             dir_);
    ASSERT_EQ(ran.exit_code, 0) << ran.err;
    const auto analyzed = run_cli({"analyze", file.string(), "--json"}, dir_);
    ASSERT_EQ(analyzed.exit_code, 0) << analyzed.err;
    const json analysis = json::parse(analyzed.out);
    const auto analyze_table = schema_table("## `stokesian analyze FILE --json`");
    expect_documented(analysis, analyze_table, "analyze --json");

    // run --json: the analyze table and the run's own.
    auto run_table = schema_table("## `stokesian run SCENARIO --json`");
    run_table.insert(analyze_table.begin(), analyze_table.end());
    expect_documented(json::parse(ran.out), run_table, "run --json");

    // The observables: each printed one documented with its type (the tetrahedron has only some:
    // none is required).
    auto observables_table = schema_table("## `observables`");
    for (auto& [key, row] : observables_table) row.optional = true;
    expect_documented(analysis["observables"], observables_table, "observables");
    EXPECT_GE(analysis["observables"].size(), 20u) << analyzed.out;
}

// reference show --json: its keys as documented, counts as integers (periods found, windows).
TEST_F(JsonSchema, ReferenceShowCountsAreJsonIntegers) {
    const fs::path file = dir_ / "t.h5";
    const auto ran = run_cli(
        {"run", stokesian::test_support::tetrahedron_toml, "--time", "2100", "--no-trajectory", "-o", file.string()},
        dir_);
    ASSERT_EQ(ran.exit_code, 0) << ran.err;
    const auto shown = run_cli({"reference", "show", file.string(), "--json"}, dir_);
    ASSERT_EQ(shown.exit_code, 0) << shown.err;
    const json result = json::parse(shown.out).at(0);
    expect_documented(result, schema_table("## `stokesian reference show RESULT... --json`"), "reference show --json");
    const json observables = result.at("observables");
    for (const char* name : {"cycle.periods_found", "cycle.regular_cycles", "cycle.windows"}) {
        ASSERT_TRUE(observables.contains(name)) << name << ": " << shown.out;
        const json& values = observables[name]["values"];
        ASSERT_EQ(values.size(), 1u) << name;
        EXPECT_TRUE(values[0].is_number_integer()) << name << ": " << values.dump();
    }
    EXPECT_EQ(observables["cycle.periods_found"]["values"][0], 3);
    EXPECT_TRUE(observables["cycle.period_drift"]["values"][0].is_number_float()) << shown.out;
}
