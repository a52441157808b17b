#pragma once
// toml++ for the tests that read a TOML document themselves (a resolved configuration, a scenario the
// engine wrote): header-only with exceptions, as the engine compiles it (cmake/StokesianDependencies.cmake,
// stokesian_tomlpp).
#ifndef TOML_HEADER_ONLY
#define TOML_HEADER_ONLY 1
#endif
#ifndef TOML_EXCEPTIONS
#define TOML_EXCEPTIONS 1
#endif
#include <toml++/toml.h>
