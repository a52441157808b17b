#include "stokesian/core/communicator.hpp"

#include <cstdlib>

namespace stokesian {

void single_process::abort(int code) { std::exit(code); }

void broadcast_string(communicator& ranks, std::string& text, unsigned root) {
    std::vector<char> bytes(text.begin(), text.end());
    broadcast_vector(ranks, bytes, root);
    text.assign(bytes.begin(), bytes.end());
}

}  // namespace stokesian
