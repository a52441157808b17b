#include "usage_errors.hpp"

#include <algorithm>
#include <numeric>

#include "stokesian/core/errors.hpp"

namespace stokesian::cli {

namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbours (the commonest typing slip, "--trheads") each count one.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

std::string without_dashes(std::string_view s) {
    return std::string(s.substr(std::min(s.find_first_not_of('-'), s.size())));
}

// The subcommand the parse reached: the deepest one selected (option groups are not commands).
CLI::App* reached(CLI::App& app) {
    CLI::App* at = &app;
    for (bool deeper = true; deeper;) {
        deeper = false;
        for (CLI::App* sub : at->get_subcommands())
            if (!sub->get_name().empty()) {
                at = sub;
                deeper = true;
                break;
            }
    }
    return at;
}

// "stokesian suite run": the command as typed, for "see ... --help".
std::string command_path(const CLI::App* cmd) {
    std::vector<std::string> names;
    for (const CLI::App* at = cmd; at->get_parent() != nullptr; at = at->get_parent()) names.push_back(at->get_name());
    std::string path = "stokesian";
    for (auto it = names.rbegin(); it != names.rend(); ++it) path += " " + *it;
    return path;
}

// "suite run": the command's words after "stokesian".
std::string words_after_program(const CLI::App* cmd) {
    const std::string path = command_path(cmd);
    const std::size_t space = path.find(' ');
    return space == std::string::npos ? "" : path.substr(space + 1);
}

// The command's own subcommands (named) and its option groups (nameless).
std::vector<CLI::App*> children(CLI::App* cmd, bool named) {
    return cmd->get_subcommands([named](CLI::App* sub) { return sub->get_name().empty() != named; });
}

// The options of `cmd` and of its option groups (the [run] keys are one).
std::vector<const CLI::Option*> options_of(CLI::App* cmd) {
    std::vector<const CLI::Option*> options;
    for (const CLI::Option* o : cmd->get_options()) options.push_back(o);
    for (CLI::App* group : children(cmd, false))
        for (const CLI::Option* o : options_of(group)) options.push_back(o);
    return options;
}

std::vector<std::string> option_spellings(CLI::App* cmd) {
    std::vector<std::string> names;
    for (const CLI::Option* o : options_of(cmd)) {
        for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
        for (const std::string& n : o->get_snames()) names.push_back("-" + n);
    }
    return names;
}

std::string suggestion(const std::string& typed, const std::vector<std::string>& candidates,
                       const std::string& prefix) {
    const std::string near = nearest_spelling(typed, candidates);
    return near.empty() ? "" : " (did you mean '" + prefix + near + "'?)";
}

// An argument the parser left over: an unknown option, an unknown command where the command
// expects one, or a surplus argument.
std::string left_over_line(CLI::App* cmd, const std::vector<std::string>& left) {
    const std::string see = "; see " + command_path(cmd) + " --help";
    const auto option = std::find_if(left.begin(), left.end(), [](const std::string& a) {
        return a.size() > 1 && a[0] == '-' && !std::isdigit(static_cast<unsigned char>(a[1])) && a[1] != '.';
    });
    if (option != left.end()) {
        const std::string typed = option->substr(0, option->find('='));
        return "unknown option '" + typed + "'" + suggestion(typed, option_spellings(cmd), "") + see;
    }
    const std::vector<CLI::App*> commands = children(cmd, true);
    const std::string& first = left.front();
    if (!commands.empty()) {
        std::vector<std::string> names;
        for (const CLI::App* sub : commands) names.push_back(sub->get_name());
        const std::string before = words_after_program(cmd);
        const std::string lead = before.empty() ? "" : before + " ";
        return "unknown command '" + lead + first + "'" + suggestion(first, names, lead) + see;
    }
    return "unexpected argument '" + echoed(first) + "'" + see;
}

// CLI11's "Could not convert: --dt = x" as the house's "command line: key '--dt' = x: expected a number".
std::string conversion_line(CLI::App* cmd, const std::string& message) {
    const std::string head = "Could not convert: ";
    const std::size_t equals = message.find(" = ");
    if (message.rfind(head, 0) != 0 || equals == std::string::npos) return message;
    const std::string name = message.substr(head.size(), equals - head.size());
    const std::string value = message.substr(equals + 3);
    std::string type;
    for (const CLI::Option* o : options_of(cmd))
        if (o->check_name(name)) type = o->get_type_name();
    const std::string expected = type.rfind("FLOAT", 0) == 0  ? "a number"
                                 : type.rfind("UINT", 0) == 0 ? "a whole number >= 0"
                                 : type.rfind("INT", 0) == 0  ? "a whole number"
                                 : type.empty()               ? "another value"
                                                              : "a value of type " + type;
    return input_error("command line", name, value, "expected " + expected).what();
}

}  // namespace

std::string nearest_spelling(std::string_view typed, const std::vector<std::string>& candidates) {
    const std::string bare = without_dashes(typed);
    if (bare.empty()) return "";
    // Near: about one slip in three characters, at most three.
    const std::size_t allowed = std::clamp<std::size_t>(bare.size() / 3, 1, 3);
    std::string best;
    std::size_t best_distance = allowed + 1;
    std::vector<std::string> beginning;
    for (const std::string& c : candidates) {
        const std::size_t d = edit_distance(bare, without_dashes(c));
        if (d < best_distance) {
            best = c;
            best_distance = d;
        }
        if (bare.size() >= 3 && without_dashes(c).rfind(bare, 0) == 0 &&
            std::find(beginning.begin(), beginning.end(), c) == beginning.end())
            beginning.push_back(c);
    }
    if (best.empty() && beginning.size() == 1) return beginning.front();
    return best;
}

std::string usage_error_line(CLI::App& app, const CLI::ParseError& e) {
    CLI::App* cmd = reached(app);
    if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr) return conversion_line(cmd, e.what());
    // What is left over belongs to the command it was typed after (an option before the
    // subcommand is the program's).
    for (CLI::App* at = cmd; at != nullptr; at = at->get_parent())
        if (const std::vector<std::string> left = at->remaining(); !left.empty()) return left_over_line(at, left);
    const std::string see = "; see " + command_path(cmd) + " --help";
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
        if (!children(cmd, true).empty() && std::string(e.what()).find("subcommand") != std::string::npos)
            return "a command is required" + see;
        return std::string(e.what()) + see;
    }
    return e.what();
}

}  // namespace stokesian::cli
