// Secondary outputs (secondary_output.hpp).
#include "secondary_output.hpp"

#include "stokesian/core/errors.hpp"
#include "stokesian/io/output_target.hpp"

namespace stokesian::cli {

secondary_output::secondary_output(const std::filesystem::path& path, bool force,
                                   const std::vector<std::filesystem::path>& inputs, const std::string& option)
    : path_(path), option_(option) {
    // Its temporary (io::write_file_atomically) is the longest name it creates.
    if (!path_.empty()) io::check_output_target(path_, force, inputs, option, io::temporary_suffix());
}

void secondary_output::write(std::string_view content) const { io::write_file_atomically(path_, content); }

void require_distinct(const std::vector<const secondary_output*>& outputs) {
    for (std::size_t i = 0; i < outputs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (*outputs[i] && *outputs[j] && io::same_file(outputs[i]->path(), outputs[j]->path()))
                throw input_error(outputs[i]->path().string(), "", "",
                                  outputs[i]->option() + " names the file of " + outputs[j]->option() +
                                      ": each output of a command needs its own file");
}

}  // namespace stokesian::cli
