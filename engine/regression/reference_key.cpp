// Reference keys: the group path of an entry in a reference file (reference_key.hpp).
#include "stokesian/regression/reference_key.hpp"

#include <charconv>
#include <stdexcept>
#include <vector>

#include "stokesian/backends/registry.hpp"

namespace stokesian::regression {

std::string dt_text(double dt) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, dt);
    return std::string(buffer, result.ptr);
}

std::string reference_key::group_path() const {
    std::string path;
    if (!case_name.empty()) path += "/" + case_name;
    path += "/" + precision + "/dt=" + dt_text(dt) + "/" + integrator + "/" + backend_class;
    return path;
}

std::string backend_class_of(const std::string& backend) {
    const backends::registry& registry = backends::backend_registry();
    if (registry.find(backend) == nullptr) {
        std::string names;
        for (const backends::backend& b : registry.all()) names += (names.empty() ? "" : ", ") + b.name;
        throw std::invalid_argument("unknown backend '" + backend + "' (expected one of " + names + ")");
    }
    return backends::computes_on_device(backend) ? "gpu" : "cpu";
}

reference_key parse_group_path(const std::string& scenario, const std::string& path) {
    std::vector<std::string> parts;
    std::size_t begin = 0;
    while (begin < path.size()) {
        std::size_t end = path.find('/', begin);
        if (end == std::string::npos) end = path.size();
        if (end > begin) parts.push_back(path.substr(begin, end - begin));
        begin = end + 1;
    }
    if (parts.size() != 4 && parts.size() != 5)
        throw std::invalid_argument("'" + path + "' is not [/CASE]/PRECISION/dt=DT/INTEGRATOR/CLASS");
    reference_key key;
    key.scenario = scenario;
    const std::size_t offset = parts.size() - 4;
    if (offset == 1) key.case_name = parts[0];
    key.precision = parts[offset];
    const std::string& dt = parts[offset + 1];
    if (!dt.starts_with("dt=")) throw std::invalid_argument("'" + path + "': expected dt=DT, found '" + dt + "'");
    const char* first = dt.data() + 3;
    const char* last = dt.data() + dt.size();
    const auto parsed = std::from_chars(first, last, key.dt);
    if (parsed.ec != std::errc() || parsed.ptr != last || !(key.dt > 0.0))
        throw std::invalid_argument("'" + path + "': '" + dt + "' is not dt=<positive number>");
    key.integrator = parts[offset + 2];
    key.backend_class = parts[offset + 3];
    if (key.backend_class != "cpu" && key.backend_class != "gpu")
        throw std::invalid_argument("'" + path + "': backend class '" + key.backend_class + "' (expected cpu or gpu)");
    std::string canonical;
    for (const std::string& part : parts) canonical.append("/").append(part);
    if (key.group_path() != canonical)
        throw std::invalid_argument("'" + path + "' is not in canonical form (expected '" + key.group_path() + "')");
    return key;
}

}  // namespace stokesian::regression
