#include "commands.hpp"

#include <map>

namespace stokesian::cli {

namespace {
int saved_argc = 0;
char** saved_argv = nullptr;
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

void set_invocation(int argc, char** argv) {
    saved_argc = argc;
    saved_argv = argv;
}
int invocation_argc() { return saved_argc; }
char** invocation_argv() { return saved_argv; }

void register_commands(CLI::App& app) {
    add(app, register_run);
    add(app, register_analyze);
    add(app, register_mobility_check);
    add(app, register_bench);
    add(app, register_suite);
    add(app, register_reference);
    add(app, register_port_check);
    add(app, register_study);
}

int run_selected([[maybe_unused]] CLI::App& app) {
    for (auto& [sub, act] : actions())
        if (sub->parsed()) return act();
    return 2;
}

}  // namespace stokesian::cli
