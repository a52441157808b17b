// Secondary outputs (secondary_output.hpp).
#include "secondary_output.hpp"

#include "stokesian/io/output_target.hpp"

namespace stokesian::cli {

secondary_output::secondary_output(const std::filesystem::path& path, bool force,
                                   const std::vector<std::filesystem::path>& inputs, const std::string& option)
    : path_(path) {
    if (!path_.empty()) io::check_output_target(path_, force, inputs, option);
}

void secondary_output::write(std::string_view content) const { io::write_file_atomically(path_, content); }

}  // namespace stokesian::cli
