#include "path_limits.hpp"

#include <climits>
#include <string>

#include "stokesian/core/errors.hpp"

namespace stokesian::io {

void check_path_lengths(const std::filesystem::path& path, std::string_view suffix) {
    const std::string text = path.string();
    const std::string with = suffix.empty() ? "" : " with '" + std::string(suffix) + "'";
    // PATH_MAX counts the terminating NUL.
    if (text.size() + suffix.size() >= PATH_MAX)
        throw input_error(echoed(text), "", "",
                          "the path is " + std::to_string(text.size()) + " bytes;" + with + " it exceeds the " +
                              std::to_string(PATH_MAX - 1) + " bytes (PATH_MAX) a path may have");
    const std::string file_name = path.filename().string();
    if (file_name.size() + suffix.size() > NAME_MAX)
        throw input_error(echoed(text), "", "",
                          "the file name is " + std::to_string(file_name.size()) + " bytes;" + with +
                              " it exceeds the " + std::to_string(NAME_MAX) + " bytes (NAME_MAX) a name may have");
    for (const auto& part : path.parent_path())
        if (part.string().size() > NAME_MAX)
            throw input_error(echoed(text), "", "",
                              "the directory name '" + echoed(part.string()) + "' is " +
                                  std::to_string(part.string().size()) + " bytes, more than the " +
                                  std::to_string(NAME_MAX) + " bytes (NAME_MAX) a name may have");
}

}  // namespace stokesian::io
