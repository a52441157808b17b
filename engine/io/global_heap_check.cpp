#include "stokesian/io/global_heap_check.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string_view>

namespace stokesian::io {

namespace {

// The file mapped read-only (a scan touches every page once; nothing is copied).
class mapped_file {
public:
    explicit mapped_file(const std::filesystem::path& path) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        struct stat info {};
        if (::fstat(fd, &info) == 0 && info.st_size > 0) {
            void* data = ::mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
            if (data != MAP_FAILED) {
                data_ = static_cast<const unsigned char*>(data);
                size_ = static_cast<std::size_t>(info.st_size);
            }
        }
        ::close(fd);
    }
    ~mapped_file() {
        if (data_ != nullptr) ::munmap(const_cast<unsigned char*>(data_), size_);
    }
    mapped_file(const mapped_file&) = delete;
    mapped_file& operator=(const mapped_file&) = delete;

    const unsigned char* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    const unsigned char* data_ = nullptr;
    std::size_t size_ = 0;
};

std::uint64_t little_endian(const unsigned char* p, std::size_t bytes) {
    std::uint64_t value = 0;
    for (std::size_t k = bytes; k > 0; --k) value = (value << 8) | p[k - 1];
    return value;
}

// "Size of lengths" from the superblock, searched at 0, 512, 1024, ... as HDF5 does (user blocks);
// 0 when there is none.
std::size_t size_of_lengths(const mapped_file& f) {
    static constexpr unsigned char signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    for (std::size_t at = 0; at + 16 <= f.size(); at = at == 0 ? 512 : 2 * at) {
        if (std::memcmp(f.data() + at, signature, sizeof signature) != 0) continue;
        const unsigned version = f.data()[at + 8];
        const std::size_t lengths = version <= 1 ? f.data()[at + 14] : f.data()[at + 10];
        return lengths >= 2 && lengths <= 8 ? lengths : 0;
    }
    return 0;
}

// H5HG__cache_heap_deserialize's walk over the objects of the collection at `begin` of `size`
// bytes: the first object that would stop the cursor (HDF5 then loops forever) or carry it past
// the collection's end, or nothing.
std::optional<std::string> walk_collection(const unsigned char* begin, std::uint64_t size, std::size_t lengths) {
    const std::uint64_t header = 4 + 1 + 3 + lengths, object_header = 2 + 2 + 4 + lengths;
    std::uint64_t p = header;
    while (p < size) {
        if (p + object_header > size) break;  // too small for an object: free space to the end
        const std::uint64_t index = little_endian(begin + p, 2);
        const std::uint64_t object_size = little_endian(begin + p + 8, lengths);
        if (object_size > size)
            return "object " + std::to_string(index) + " claims " + std::to_string(object_size) +
                   " bytes, more than the " + std::to_string(size) + " of its collection";
        const std::uint64_t need = index > 0 ? object_header + ((object_size + 7) & ~std::uint64_t{7}) : object_size;
        if (need == 0) return "object " + std::to_string(index) + " claims 0 bytes";
        if (need > size - p) return "object " + std::to_string(index) + " runs past the end of its collection";
        p += need;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> damaged_global_heap(const std::filesystem::path& path) {
    const mapped_file f(path);
    if (f.data() == nullptr) return std::nullopt;
    const std::size_t lengths = size_of_lengths(f);
    if (lengths == 0) return std::nullopt;
    const std::string_view bytes(reinterpret_cast<const char*>(f.data()), f.size());
    constexpr std::uint64_t minimum_collection = 4096;  // H5HG_MINSIZE
    for (std::size_t at = bytes.find("GCOL"); at != std::string_view::npos; at = bytes.find("GCOL", at + 1)) {
        const std::size_t header = 4 + 1 + 3 + lengths;
        if (at + header > f.size()) break;
        const unsigned char* c = f.data() + at;
        if (c[4] != 1 || c[5] != 0 || c[6] != 0 || c[7] != 0) continue;  // not a collection header
        const std::uint64_t size = little_endian(c + 8, lengths);
        if (size < minimum_collection || size > f.size() - at) continue;  // HDF5 cannot read it either
        if (auto problem = walk_collection(c, size, lengths))
            return "global heap collection at byte " + std::to_string(at) + ": " + *problem;
    }
    return std::nullopt;
}

}  // namespace stokesian::io
