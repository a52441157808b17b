// The strided download of a device buffer (engine/cuda/device_rows.hpp; label gpu, skipped without
// a device): rows of a slice land where they lie on the device and nowhere else, and a request that
// does not fit either side is refused before anything is copied.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "cuda/device_rows.hpp"
#include "support/require_device.hpp"

using stokesian::cuda::device_buffer;
using stokesian::cuda::download_rows;

TEST(DeviceRowsGpu, RowsOfASliceLandWhereTheyLie) {
    REQUIRE_DEVICE();
    std::vector<int> values(30);
    for (int k = 0; k < 30; ++k) values[static_cast<std::size_t>(k)] = k;
    device_buffer<int> buffer;
    buffer.upload(values);
    std::vector<int> host(30, -1);
    download_rows(buffer, host, 2, 5, 3, 10);  // [2, 7), [12, 17), [22, 27)
    for (std::size_t k = 0; k < host.size(); ++k) {
        const bool in_a_row = k % 10 >= 2 && k % 10 < 7;
        EXPECT_EQ(host[k], in_a_row ? static_cast<int>(k) : -1) << k;
    }
}

TEST(DeviceRowsGpu, RowsThatDoNotFitAreRefused) {
    REQUIRE_DEVICE();
    device_buffer<int> buffer(30);
    std::vector<int> host(30, -1);
    EXPECT_THROW(download_rows(buffer, host, 2, 5, 4, 10), std::out_of_range);   // past the device's 30
    EXPECT_THROW(download_rows(buffer, host, 0, 12, 2, 10), std::out_of_range);  // rows overlap
    std::vector<int> small(20, -1);
    EXPECT_THROW(download_rows(buffer, small, 2, 5, 3, 10), std::out_of_range);  // past the host's 20
    for (const int v : small) EXPECT_EQ(v, -1);
}
