#pragma once
namespace stokesian {
// `git describe --always --dirty --tags` at build time.
const char* git_describe() noexcept;
}  // namespace stokesian
