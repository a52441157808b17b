#pragma once
// The frame journal "<output>.frames": every trajectory frame of a run, appended raw to a plain
// file beside the output, the crash-consistent copy of the trajectory that --resume rebuilds the
// output from (engine/docs/reliability.md).
//
// Why: an HDF5 1.10 file written without SWMR is not safe to reopen after a kill (HDF5 rewrites
// its metadata in place; a kill leaves a mix of old and new blocks: "addr overflow", "bad object
// header version"). The journal is only ever appended to: bytes once synced are never written
// again, so the records a checkpoint counts (synced before the checkpoint was written) are intact
// whatever the kill did to the HDF5 partial output or to the journal's unsynced tail.
//
// Layout (native byte order: the journal lives beside its run, on the machine that writes it):
//   header  "STKFRMS2", uint64 byte-order mark 0x0102030405060708, uint64 particles N,
//           uint64 fields (1 image, 2 velocity, 4 force)
//   record  uint64 index, int64 step, double time, position [N,3] double, then the fields present:
//           image [N,3] int32, velocity [N,3] double, force [N,3] double; then uint64 checksum:
//           FNV-1a 64 (core/digest.hpp) of the record's bytes before it
// Every record has the same size, so record k starts at header + k * record size. The checksum
// makes any damaged record detectable: the checkpoint's digest covers only the last counted frame,
// and a resume copies every counted one into the output. A journal of another format (its magic
// differs) is not this run's and is refused.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "stokesian/core/digest.hpp"
#include "stokesian/core/engine.hpp"

namespace stokesian::io {

// What a frame of this run's trajectory holds (the same fields the H5MD writer writes).
struct journal_layout {
    std::size_t particles = 0;
    bool image = false;
    bool velocity = false;
    bool force = false;
};

// "<output>.frames".
std::filesystem::path frame_journal_path_for(const std::filesystem::path& output);
// Removes a journal (a missing one is fine).
void remove_frame_journal(const std::filesystem::path& path) noexcept;

class frame_journal {
public:
    // A fresh run: creates the journal, replacing one a previous run left. Throws
    // std::runtime_error naming the file when it cannot be created.
    frame_journal(const std::filesystem::path& path, const journal_layout& layout);
    // A resumed run: opens the journal of the interrupted run and checks it without writing: the
    // header fits `layout`, it holds at least `frames` whole records, record k has index k and its
    // checksum, and the last of them is the frame the checkpoint recorded (`last_frame_digest`, trajectory_digest).
    // Throws input_error of one line naming the journal otherwise.
    frame_journal(const std::filesystem::path& path, const journal_layout& layout, std::uint64_t frames,
                  const std::string& last_frame_digest);
    ~frame_journal();
    frame_journal(const frame_journal&) = delete;
    frame_journal& operator=(const frame_journal&) = delete;

    // Record `index` (< frames()) into `f` (step, time and the layout's fields); a record whose
    // checksum does not match is an input_error naming the journal.
    void read(std::uint64_t index, frame& f) const;
    // Cuts the file back to the records counted so far: a resumed run drops what the interrupted
    // run wrote after its checkpoint (no checkpoint names those bytes).
    void cut_to_frames();
    // Appends a frame (buffered; sync() makes it durable).
    void append(const frame& f);
    // Writes the buffered records and fsyncs: every frame appended so far survives a kill.
    void sync();
    std::uint64_t frames() const { return frames_; }

private:
    std::uint64_t record_offset(std::uint64_t index) const;
    // Reads record `index` whole into `record`; false when it is short or its checksum does not match.
    bool read_intact_record(std::uint64_t index, std::vector<unsigned char>& record) const;
    void write_pending();
    void fail(const std::string& why) const;  // throws std::runtime_error naming the file

    std::filesystem::path path_;
    journal_layout layout_;
    int fd_ = -1;
    std::uint64_t record_bytes_ = 0;
    std::uint64_t frames_ = 0;          // records in the file and the buffer
    std::uint64_t written_frames_ = 0;  // records in the file
    std::vector<unsigned char> pending_;
};

}  // namespace stokesian::io
