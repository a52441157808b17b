#pragma once
// Where an observable writes its results. The H5MD writer (io::h5md_writer) is the one
// implementation; the interface lives here so that observables sit below io (engine/README.md,
// "Layers").
#include <cstdint>
#include <map>
#include <span>
#include <string>

namespace stokesian {

class result_sink {
public:
    // A time series of scalars (written in one go).
    virtual void write_time_series(const std::string& name, std::span<const std::uint64_t> step,
                                   std::span<const double> time, std::span<const double> value) = 0;
    // A time-independent result (scalar or 1-D) with string attributes.
    virtual void write_result(const std::string& name, std::span<const double> value,
                              const std::map<std::string, std::string>& attributes = {}) = 0;
    virtual void write_result(const std::string& name, double value,
                              const std::map<std::string, std::string>& attributes = {}) = 0;

protected:
    ~result_sink() = default;
};

}  // namespace stokesian
