#include "stokesian/io/frame_journal.hpp"
#include "stokesian/io/hdf5_failure.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "stokesian/core/errors.hpp"
#include "stokesian/io/checkpoint.hpp"

namespace stokesian::io {

namespace fs = std::filesystem;

namespace {

constexpr std::array<char, 8> magic{'S', 'T', 'K', 'F', 'R', 'M', 'S', '2'};
constexpr std::uint64_t byte_order_mark = 0x0102030405060708ull;
constexpr std::uint64_t header_bytes = 32;
constexpr std::uint64_t checksum_bytes = 8;
// Records are gathered up to this size before a write(2): few system calls for small systems.
constexpr std::size_t pending_limit = std::size_t{1} << 20;

std::uint64_t fields_of(const journal_layout& l) {
    return (l.image ? 1u : 0u) | (l.velocity ? 2u : 0u) | (l.force ? 4u : 0u);
}

std::uint64_t record_bytes_of(const journal_layout& l) {
    const std::uint64_t n = l.particles;
    return 3 * 8 + n * 3 * sizeof(double) + (l.image ? n * 3 * sizeof(std::int32_t) : 0) +
           (l.velocity ? n * 3 * sizeof(double) : 0) + (l.force ? n * 3 * sizeof(double) : 0) + checksum_bytes;
}

// The checksum of a record's contents (every byte before the checksum).
std::uint64_t checksum_of(const unsigned char* contents, std::size_t bytes) {
    return digest_builder().bytes(contents, bytes).value();
}

std::array<unsigned char, header_bytes> header_of(const journal_layout& l) {
    std::array<unsigned char, header_bytes> h{};
    const std::uint64_t words[3] = {byte_order_mark, l.particles, fields_of(l)};
    std::memcpy(h.data(), magic.data(), magic.size());
    std::memcpy(h.data() + magic.size(), words, sizeof words);
    return h;
}

void put(std::vector<unsigned char>& out, const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    out.insert(out.end(), p, p + bytes);
}

// pread(2) of exactly `bytes` at `offset`; false at end of file.
bool read_exactly(int fd, void* data, std::size_t bytes, std::uint64_t offset) {
    auto* p = static_cast<unsigned char*>(data);
    while (bytes > 0) {
        const ssize_t got = ::pread(fd, p, bytes, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        p += got, bytes -= std::size_t(got), offset += std::uint64_t(got);
    }
    return true;
}

}  // namespace

fs::path frame_journal_path_for(const fs::path& output) { return fs::path(output) += ".frames"; }

void remove_frame_journal(const fs::path& path) noexcept {
    std::error_code ignored;
    fs::remove(path, ignored);
}

frame_journal::frame_journal(const fs::path& path, const journal_layout& layout)
    : path_(path), layout_(layout), record_bytes_(record_bytes_of(layout)) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) fail(std::string("cannot create it: ") + std::strerror(errno));
    const auto header = header_of(layout);
    if (::pwrite(fd_, header.data(), header.size(), 0) != static_cast<ssize_t>(header.size()))
        fail(std::string("cannot write: ") + std::strerror(errno));
}

frame_journal::frame_journal(const fs::path& path, const journal_layout& layout, std::uint64_t frames,
                             const std::string& last_frame_digest)
    : path_(path), layout_(layout), record_bytes_(record_bytes_of(layout)), frames_(frames), written_frames_(frames) {
    const std::string name = path.string();
    auto refuse = [&](const std::string& why) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
        throw input_error(name, "", "", "cannot resume: " + why);
    };
    fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd_ < 0)
        refuse(std::string("the frame journal the checkpoint counts on cannot be opened: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) refuse("not a regular file");
    std::array<unsigned char, header_bytes> header{};
    const bool whole_header = read_exactly(fd_, header.data(), header.size(), 0);
    if (!whole_header || header != header_of(layout))
        refuse("not the frame journal of this run (header: format, byte order, particle count or fields differ)");
    if (frames > (std::numeric_limits<std::uint64_t>::max() - header_bytes) / record_bytes_ ||
        std::uint64_t(st.st_size) < record_offset(frames))
        refuse("holds fewer than the " + std::to_string(frames) + " frames the checkpoint counts (truncated)");
    frame f;
    std::vector<unsigned char> record;
    for (std::uint64_t k = 0; k < frames; ++k) {
        const bool intact = read_intact_record(k, record);
        std::uint64_t index = 0;
        std::memcpy(&index, record.data(), sizeof index);
        if (index != k) refuse("record " + std::to_string(k) + " is numbered " + std::to_string(index) + " (damaged)");
        if (!intact) refuse("record " + std::to_string(k) + " is damaged (its checksum does not match its contents)");
    }
    if (frames > 0) {
        read(frames - 1, f);
        std::vector<double> flat;
        flat.reserve(3 * f.position.size());
        for (const auto& r : f.position) flat.insert(flat.end(), {r.x, r.y, r.z});
        if (trajectory_digest(static_cast<std::int64_t>(f.step), f.time, flat) != last_frame_digest)
            refuse("frame " + std::to_string(frames - 1) +
                   " differs from the one the checkpoint recorded (damaged, or another run's journal)");
    }
}

frame_journal::~frame_journal() {
    if (fd_ >= 0) ::close(fd_);
}

std::uint64_t frame_journal::record_offset(std::uint64_t index) const { return header_bytes + index * record_bytes_; }

void frame_journal::fail(const std::string& why) const {
    // A full device or a file size limit is the environment's (exit 2, what is kept: cmd_run.cpp).
    hdf5::throw_if_out_of_space(errno, path_.string(), "frame journal: " + why);
    throw std::runtime_error("frame journal '" + path_.string() + "': " + why);
}

bool frame_journal::read_intact_record(std::uint64_t index, std::vector<unsigned char>& record) const {
    record.assign(record_bytes_, 0);
    if (!read_exactly(fd_, record.data(), record.size(), record_offset(index))) return false;
    std::uint64_t checksum = 0;
    std::memcpy(&checksum, record.data() + record.size() - checksum_bytes, checksum_bytes);
    return checksum == checksum_of(record.data(), record.size() - checksum_bytes);
}

void frame_journal::read(std::uint64_t index, frame& f) const {
    if (index >= written_frames_) throw std::logic_error("frame_journal::read: record not in the file");
    std::vector<unsigned char> record;
    if (!read_intact_record(index, record))
        throw input_error(path_.string(), "", "",
                          "cannot resume: record " + std::to_string(index) +
                              " is damaged (short, or its checksum does not match its contents)");
    const unsigned char* p = record.data() + 8;
    std::int64_t step = 0;
    std::memcpy(&step, p, 8), p += 8;
    std::memcpy(&f.time, p, 8), p += 8;
    f.step = static_cast<std::uint64_t>(step);
    auto take = [&](auto& values, bool present) {
        values.resize(present ? layout_.particles : 0);
        const std::size_t bytes = values.size() * sizeof(values[0]);
        if (bytes > 0) std::memcpy(values.data(), p, bytes);
        p += bytes;
    };
    take(f.position, true);
    take(f.image, layout_.image);
    take(f.velocity, layout_.velocity);
    take(f.force, layout_.force);
}

void frame_journal::cut_to_frames() {
    write_pending();
    if (::ftruncate(fd_, static_cast<off_t>(record_offset(written_frames_))) != 0)
        fail(std::string("cannot cut it back to the checkpoint: ") + std::strerror(errno));
}

void frame_journal::append(const frame& f) {
    auto require = [&](std::size_t size, const char* what) {
        if (size != layout_.particles)
            throw std::invalid_argument("frame_journal: frame " + std::to_string(f.step) + " has " +
                                        std::to_string(size) + " " + what + " entries, expected " +
                                        std::to_string(layout_.particles));
    };
    require(f.position.size(), "position");
    if (layout_.image) require(f.image.size(), "image");
    if (layout_.velocity) require(f.velocity.size(), "velocity");
    if (layout_.force) require(f.force.size(), "force");
    const std::uint64_t index = frames_;
    const auto step = static_cast<std::int64_t>(f.step);
    const std::size_t start = pending_.size();
    put(pending_, &index, 8);
    put(pending_, &step, 8);
    put(pending_, &f.time, 8);
    put(pending_, f.position.data(), f.position.size() * sizeof(f.position[0]));
    if (layout_.image) put(pending_, f.image.data(), f.image.size() * sizeof(f.image[0]));
    if (layout_.velocity) put(pending_, f.velocity.data(), f.velocity.size() * sizeof(f.velocity[0]));
    if (layout_.force) put(pending_, f.force.data(), f.force.size() * sizeof(f.force[0]));
    const std::uint64_t checksum = checksum_of(pending_.data() + start, pending_.size() - start);
    put(pending_, &checksum, checksum_bytes);
    ++frames_;
    if (pending_.size() >= pending_limit) write_pending();
}

void frame_journal::write_pending() {
    // Whole records, after those the file holds.
    const std::uint64_t offset = record_offset(written_frames_);
    std::size_t done = 0;
    while (done < pending_.size()) {
        const ssize_t wrote =
            ::pwrite(fd_, pending_.data() + done, pending_.size() - done, static_cast<off_t>(offset + done));
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote < 0) fail(std::string("cannot write: ") + std::strerror(errno));
        done += std::size_t(wrote);
    }
    pending_.clear();
    written_frames_ = frames_;
}

void frame_journal::sync() {
    write_pending();
    if (::fsync(fd_) != 0) fail(std::string("cannot sync: ") + std::strerror(errno));
}

}  // namespace stokesian::io
