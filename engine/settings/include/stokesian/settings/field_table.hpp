#pragma once
// One table of fields per settings struct: the key, the member it fills, the rule its value must
// satisfy, a one-line doc and, where it has one, its command-line spelling. The tables drive the
// scenario reader (unknown keys, types, ranges), the resolved-configuration writer, the command-line
// options and overrides of [run] keys and the key reference in docs/reference/scenario-file.md
// (engine/README.md, "How to add a scenario key").
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "stokesian/numeric/vec3.hpp"

namespace stokesian::settings {

enum class sign_rule { any, positive, non_negative };

// What a value must satisfy beyond its type.
struct value_rule {
    sign_rule sign = sign_rule::any;                              // numbers and the components of vectors
    bool unit_interval = false;                                   // numbers: 0 < x < 1
    std::int64_t min = std::numeric_limits<std::int64_t>::min();  // integers
    std::int64_t max = std::numeric_limits<std::int64_t>::max();
    std::span<const std::string_view> choices{};  // strings: one of these
    std::string_view what{};                      // strings: what is expected ("a string such as ...")
    std::string_view note{};                      // appended to a range message ("(in units of a)")
    std::size_t required_particles = 0;           // booleans: true needs exactly this many particles
};

// A string setting held as another type (an enum, a precision mode): read and written as text.
// `set` throws std::invalid_argument with the expectation for a text it does not accept.
template <class S>
struct text_member {
    std::string (*get)(const S&);
    void (*set)(S&, const std::string&);
};

// A value written into the resolved configuration but not read (a count derived from others).
template <class S>
using derived_count = std::uint64_t (*)(const S&);

// The member a key fills; monostate for a key read only for its effect on others (viscosity).
template <class S>
using field_member = std::variant<std::monostate, double S::*, std::optional<double> S::*, std::uint64_t S::*,
                                  std::optional<std::uint64_t> S::*, std::uint32_t S::*, std::int64_t S::*, bool S::*,
                                  std::string S::*, vec3<double> S::*, std::vector<std::string> S::*,
                                  std::vector<double> S::*, text_member<S>, derived_count<S>>;

// The reference's row: type, default and constraint as a reader of the format wants them.
struct field_doc {
    std::string_view type;
    std::string_view default_text;
    std::string_view constraint;
};

// A key's spelling on the command line. The [run] keys that have one become options of `stokesian
// run` (stokesian/settings/run_overrides.hpp: run_options(); tools/cli/options_run.hpp builds them)
// and are named in the reference's row.
struct cli_spelling {
    std::string_view option{};  // "--dt"; empty: not on the command line
    std::string_view help{};    // empty: the doc's constraint, as plain text
    bool negated = false;       // a boolean key as a flag that sets it false ("--no-trajectory")
};

class field_reader;  // reading context (settings/field_reader.hpp)

template <class S>
struct field {
    std::string_view key;
    field_member<S> member{};
    value_rule rule{};
    field_doc doc{};
    std::string_view missing{};                        // non-empty: required, and what to write
    void (*after)(const field_reader&, S&) = nullptr;  // rules across keys, right after this key
    bool (*written)(const S&) = nullptr;               // written into the resolved configuration when true
    std::string_view excludes{};                       // the key this one replaces (time / steps)
    cli_spelling cli{};                                // its command-line option, if it has one
};

// A logical table of the scenario file: its dotted name, its fields and its sub-tables.
struct table_doc {
    std::string_view name;  // "run", "physics.lubrication"; "" for the top level
    std::span<const std::string_view> tables;
};

}  // namespace stokesian::settings
