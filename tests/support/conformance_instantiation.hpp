#pragma once
// The names the instantiations of the conformance bodies use (each *_conformance.hpp is included by
// a quick and a gpu test file, whose INSTANTIATE_TEST_SUITE_P lines expand at global scope).
#include "support/backend_modes.hpp"

using stokesian::test_support::backend_kernel_mode_name;
using stokesian::test_support::backend_mode_name;
using stokesian::test_support::backend_place;
using stokesian::test_support::batching;
using stokesian::test_support::in_modes;
using stokesian::test_support::kernel_kind;
using stokesian::test_support::registered_backend_kernel_modes;
using stokesian::test_support::registered_backend_modes;
