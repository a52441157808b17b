#include "options_deprecated.hpp"

#include <ostream>
#include <utility>

namespace stokesian::cli {

namespace {
std::vector<std::pair<std::string, std::string>>& notes() {
    static std::vector<std::pair<std::string, std::string>> recorded;
    return recorded;
}
}  // namespace

void note_deprecated(const std::string& old_spelling, const std::string& new_spelling) {
    for (const auto& n : notes())
        if (n.first == old_spelling && n.second == new_spelling) return;
    notes().emplace_back(old_spelling, new_spelling);
}

void print_deprecation_notes(std::ostream& out) {
    for (const auto& [old_spelling, new_spelling] : notes())
        out << "stokesian: note: " << old_spelling << " is deprecated and goes in the next release; use "
            << new_spelling << "\n";
}

CLI::Option* add_with_deprecated_aliases(const std::string& name, const std::vector<std::string>& old_spellings,
                                         const std::function<CLI::Option*(const std::string&)>& add) {
    CLI::Option* current = add(name);
    for (const std::string& old_spelling : old_spellings) {
        CLI::Option* alias = add(old_spelling);
        alias->group("Deprecated spellings (one more release)")->excludes(current);
        alias->description("the old spelling of " + name);
        alias->each([old_spelling, name](const std::string&) { note_deprecated(old_spelling, name); });
    }
    return current;
}

}  // namespace stokesian::cli
