#include "options_backend.hpp"

#include <algorithm>
#include <functional>
#include <memory>

#include "option_values.hpp"
#include "stokesian/backends/registry.hpp"
#include "stokesian/core/errors.hpp"

namespace stokesian::cli {

namespace {

// "HI summation kernel (cpu: auto | fast | all-pairs | symmetric; cuda: auto | fast | tiling | ...)": the
// registry's names, the requests first (stokesian/backends/hi_kernel_choice.hpp).
std::string kernel_help() {
    std::string text;
    for (const backends::backend& b : backends::backend_registry().all()) {
        if (b.can.hi_kernels.empty()) continue;
        text += (text.empty() ? "" : "; ") + b.name + ":";
        for (std::size_t k = 0; k < b.can.hi_kernels.size(); ++k) text += (k ? " | " : " ") + b.can.hi_kernels[k];
    }
    return "HI summation kernel (" + text +
           "); auto: the fastest exact path for N, precision, box and device (bit for bit whatever it picks), "
           "fast: the fastest fast-math kernel";
}

void add_once(std::vector<std::string>& list, const std::string& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

void check_backend(const std::string& name, const std::string& option) {
    const backends::registry& registry = backends::backend_registry();
    if (!registry.accepts(name))
        throw CLI::ValidationError(input_error("command line", option, name, registry.refusal_of(name)).what());
}

// "cpu | cuda | auto".
std::string backend_alternatives() {
    std::string text;
    for (const std::string& name : backend_names()) text += (text.empty() ? "" : " | ") + name;
    return text;
}

// Option values given as lists: comma-separated, or the option given again. The first occurrence
// replaces the default; `each_item` checks one item and adds it.
CLI::Option* add_list_option(CLI::App& cmd, const std::string& name, std::vector<std::string>& list,
                             const std::string& help,
                             const std::function<void(const std::string&, std::vector<std::string>&)>& each_item) {
    return cmd
        .add_option_function<std::vector<std::string>>(
            name,
            [&list, name, each_item](const std::vector<std::string>& texts) {
                list.clear();
                for (const std::string& text : texts)
                    for (const std::string& item : split_list(text, ", \t")) each_item(item, list);
                if (list.empty())
                    throw CLI::ValidationError(input_error("command line", name, "", "empty list").what());
            },
            help)
        ->type_size(1)
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->allow_extra_args(false);
}

}  // namespace

const std::vector<std::string>& backend_names() {
    static const std::vector<std::string> names = backends::backend_registry().choices();
    return names;
}

CLI::Option* add_backend_option(CLI::App& cmd, std::string& backend, const std::string& default_help) {
    return cmd.add_option_function<std::string>(
        "--backend",
        [&backend](const std::string& name) {
            check_backend(name, "--backend");
            backend = name;
        },
        backend_alternatives() + " (auto: " + backends::backend_registry().automatic_order() + ") (" + default_help +
            ")");
}

CLI::Option* add_backend_list_option(CLI::App& cmd, std::vector<std::string>& backends,
                                     const std::string& default_help) {
    return add_list_option(cmd, "--backend", backends,
                           backend_alternatives() + ", or several, comma-separated (cpu,cuda) (" + default_help + ")",
                           [](const std::string& name, std::vector<std::string>& list) {
                               check_backend(name, "--backend");
                               add_once(list, name);
                           });
}

CLI::Option* add_hi_kernel_option(CLI::App& cmd, std::string& kernel, const std::string& default_help) {
    return cmd.add_option("--hi-kernel", kernel, kernel_help() + " (" + default_help + ")");
}

CLI::Option* add_hi_kernel_list_option(CLI::App& cmd, std::vector<std::string>& kernels,
                                       const std::string& default_help) {
    return add_list_option(cmd, "--hi-kernel", kernels,
                           kernel_help() + ", several comma-separated (" + default_help + ")",
                           [](const std::string& item, std::vector<std::string>& list) { add_once(list, item); });
}

}  // namespace stokesian::cli
