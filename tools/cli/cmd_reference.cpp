// `stokesian reference record|check|show`: the reference store of the regression suite
// (reference_data/README.md).
#include "reference_commands.hpp"

namespace stokesian::cli {

action register_reference(CLI::App& app) {
    auto* reference = app.add_subcommand("reference", "Record results as references, or check results against them");
    reference->require_subcommand(1);
    const action record = register_reference_record(*reference);
    CLI::App* record_app = reference->get_subcommands({}).back();
    const action check = register_reference_check(*reference);
    CLI::App* check_app = reference->get_subcommands({}).back();
    const action show = register_reference_show(*reference);
    CLI::App* show_app = reference->get_subcommands({}).back();
    return [=] {
        if (record_app->parsed()) return record();
        if (check_app->parsed()) return check();
        if (show_app->parsed()) return show();
        return 2;
    };
}

}  // namespace stokesian::cli
