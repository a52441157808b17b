#include "commands.hpp"

#include <map>

namespace stokesian::cli {

namespace {
std::map<CLI::App*, action>& actions() {
    static std::map<CLI::App*, action> table;
    return table;
}
void add(CLI::App& app, action (*registrar)(CLI::App&)) {
    const std::size_t before = app.get_subcommands({}).size();
    action a = registrar(app);
    auto subs = app.get_subcommands({});
    if (subs.size() > before) actions()[subs.back()] = std::move(a);
}
}  // namespace

void register_commands(CLI::App& app) {
    add(app, register_run);
}

int run_selected(CLI::App& app) {
    for (auto& [sub, act] : actions())
        if (sub->parsed()) return act();
    return 2;
}

}  // namespace stokesian::cli
