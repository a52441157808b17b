// run.devices / --devices (core/device_selection.hpp) and where a selection is checked against the
// backend and the devices present (backends::device_context_for): each bad input is one message
// naming what is wrong.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "stokesian/backends/registry.hpp"
#include "stokesian/core/device_selection.hpp"
#include "stokesian/core/errors.hpp"

using namespace stokesian;

namespace {

std::string refusal_of_parse(const std::string& text) {
    try {
        (void)parse_device_selection(text);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

// A test-only backend that drives up to two devices of the three its probe reports.
const backends::backend& two_of_three_devices() {
    static const backends::backend& b = []() -> const backends::backend& {
        backends::backend t;
        t.name = "test-devices";
        t.title = "the test-devices backend";
        t.can.devices = 2;
        t.probe = [] {
            backends::availability a;
            a.devices_present = 3;
            return a;
        };
        t.make_engine = [](const engine_config&, const device_context&, const initial_state&) {
            return std::unique_ptr<engine>();
        };
        backends::backend_registry().add(std::move(t));
        return *backends::backend_registry().find("test-devices");
    }();
    return b;
}

std::string refusal_of(const std::string& backend, const std::string& selection) {
    engine_config config;
    config.backend = backend;
    try {
        (void)backends::device_context_for(*backends::backend_registry().resolve(config, 4, "the run").chosen,
                                           parse_device_selection(selection), nullptr);
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(DeviceSelection, ReadsOrdinalListsAndAll) {
    EXPECT_EQ(parse_device_selection("0,1,2,3").ordinals, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(parse_device_selection(" 2, 0 ").ordinals, (std::vector<int>{2, 0}));  // order kept: 2 is the primary
    EXPECT_TRUE(parse_device_selection("all").all);
    EXPECT_FALSE(device_selection{}.given());
    for (const char* text : {"0,1,2,3", "2,0", "all", "7"}) EXPECT_EQ(to_string(parse_device_selection(text)), text);
}

TEST(DeviceSelection, RefusesRepeatsNegativesAndWhatIsNoOrdinal) {
    EXPECT_NE(refusal_of_parse("0,1,0").find("device 0 is named twice"), std::string::npos);
    EXPECT_NE(refusal_of_parse("-1").find("device -1 is negative"), std::string::npos);
    EXPECT_NE(refusal_of_parse("0,,1").find("an empty item"), std::string::npos);
    EXPECT_NE(refusal_of_parse("").find("an empty list"), std::string::npos);
    EXPECT_NE(refusal_of_parse("gpu0").find("'gpu0' is not a whole number"), std::string::npos);
    EXPECT_NE(refusal_of_parse("1.5").find("'1.5' is not a whole number"), std::string::npos);
    EXPECT_NE(refusal_of_parse("99999999999999999999").find("not a whole number"), std::string::npos);
}

TEST(DeviceSelection, ResolvesAgainstTheDevicesPresent) {
    EXPECT_EQ(resolve_devices({}, 0), (std::vector<int>{0}));  // not given: one device, as before the key
    EXPECT_EQ(resolve_devices(parse_device_selection("all"), 3), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(resolve_devices(parse_device_selection("1"), 2), (std::vector<int>{1}));
    EXPECT_THROW((void)resolve_devices(parse_device_selection("2"), 2), std::invalid_argument);
    EXPECT_THROW((void)resolve_devices(parse_device_selection("all"), 0), std::invalid_argument);
}

TEST(DeviceSelection, TheCpuBackendRefusesADeviceList) {
    const std::string why = refusal_of("cpu", "0,1");
    EXPECT_NE(why.find("key 'run.devices' = 0,1"), std::string::npos) << why;
    EXPECT_NE(why.find("the CPU backend runs on the host"), std::string::npos) << why;
}

TEST(DeviceSelection, MoreDevicesThanTheBackendDrivesAreRefusedNamingIt) {
    (void)two_of_three_devices();
    const std::string why = refusal_of("test-devices", "0,1,2");
    EXPECT_NE(why.find("the test-devices backend drives at most 2 devices per run; 3 are selected"), std::string::npos)
        << why;
    // "all" is every device present (3): also more than it drives.
    EXPECT_NE(refusal_of("test-devices", "all").find("3 are selected"), std::string::npos);
}

TEST(DeviceSelection, ADeviceThatIsNotPresentIsRefused) {
    (void)two_of_three_devices();
    const std::string why = refusal_of("test-devices", "0,5");
    EXPECT_NE(why.find("device 5 is not present (3 here: ordinals 0 to 2)"), std::string::npos) << why;
}

TEST(DeviceSelection, AFittingSelectionBecomesTheContextsOrdinals) {
    (void)two_of_three_devices();
    engine_config config;
    config.backend = "test-devices";
    EXPECT_EQ(backends::device_context_for(*backends::backend_registry().resolve(config, 4, "the run").chosen,
                                           parse_device_selection("2,1"), nullptr)
                  .ordinals,
              (std::vector<int>{2, 1}));
    EXPECT_EQ(
        backends::device_context_for(*backends::backend_registry().resolve(config, 4, "the run").chosen, {}, nullptr)
            .ordinals,
        (std::vector<int>{0}));
}
