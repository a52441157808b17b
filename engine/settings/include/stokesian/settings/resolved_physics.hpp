#pragma once
// The physics of a system as the resolved configuration writes it ([physics], its subtables and
// [box], through the field tables: every key, exact), for comparing systems: runs batch together
// only when this text is equal (run/batched_runs.hpp). A key added to a field table is compared
// without any change here.
#include <string>

#include "stokesian/core/system.hpp"

namespace stokesian::settings {

std::string resolved_physics(const system_parameters& system);

}  // namespace stokesian::settings
