// stokesian: the command-line tool. Each subcommand lives in its own file (cmd_*.cpp) and
// registers itself here.
#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <thread>

#include "commands.hpp"
#include "options_deprecated.hpp"
#include "process_ranks.hpp"
#include "stokesian/core/errors.hpp"
#include "stokesian/core/version.hpp"
#include "stokesian/mpi/mpi_communicator.hpp"

namespace {
// "PATH: cannot create directories (Not a directory)" from libstdc++'s "filesystem error: cannot
// create directories: Not a directory [PATH]".
std::string filesystem_error_line(const std::filesystem::filesystem_error& e) {
    std::string operation = e.what();
    const std::string prefix = "filesystem error: ";
    if (operation.rfind(prefix, 0) == 0) operation.erase(0, prefix.size());
    const std::string reason = e.code().message();
    if (const std::size_t at = operation.find(": " + reason); at != std::string::npos) operation.erase(at);
    std::string line = e.path1().string();
    if (!e.path2().empty()) line += " -> " + e.path2().string();
    return (line.empty() ? "" : line + ": ") + operation + " (" + reason + ")";
}

// One line in one write: std::cerr is unbuffered, so `cerr << a << b` is several writes, and under
// mpirun another process's output (mpirun's own MPI_ABORT notice) can land between them and cut the
// line in two. One write of a short line to a pipe is never split (POSIX: PIPE_BUF, 4096 bytes).
void say(const std::string& line) {
    std::cerr << line + "\n";
    std::cerr.flush();
}

// The line of rank `rank` of several, where it is not rank 0's: the rank named.
std::string rank_line(unsigned rank, const std::string& line) {
    return "stokesian (rank " + std::to_string(rank) + "): " + line;
}

// Bad input that rank 0 meets too (every rank parses the same arguments; what a rank cannot
// prepare for rank 0's run all ranks decide together: run/rank_protocol.hpp): its line is rank 0's
// to print before its MPI_Abort ends every rank. Waiting a little lets it. Should this rank still be
// here, rank 0 did not meet it after all: the line is this rank's to say, naming it, before it ends
// them -- a line late rather than none. The wait is only how long rank 0 gets to speak first: its
// abort ends this rank in well under a second, so a generous wait costs nothing where rank 0 speaks
// and keeps a loaded host from printing the line twice.
void leave_line_to_rank_zero(stokesian::communicator& ranks, const std::string& line) {
    std::this_thread::sleep_for(std::chrono::seconds(10));
    say(rank_line(ranks.rank(), line));
}

// An error's one line and exit code. Across MPI ranks the line is rank 0's to print (the other
// ranks read no input: what they meet there, rank 0 meets too), except an error of the program
// (`input` false), which its rank names; then every rank ends at once (MPI_Abort): a rank left
// waiting in a collective call would hang.
int fail(int code, const std::string& line, bool input) {
    stokesian::communicator& ranks = stokesian::cli::process_ranks();
    if (ranks.size() < 2) {
        say("stokesian: " + line);
        return code;
    }
    if (ranks.leads()) say("stokesian: " + line);
    else if (!input) say(rank_line(ranks.rank(), line));
    if (!ranks.leads() && input) leave_line_to_rank_zero(ranks, line);
    ranks.abort(code);  // [[noreturn]], which GCC does not see through the virtual call
    return code;
}

int run(CLI::App& app) {
    try {
        for (const CLI::App* sub : app.get_subcommands())
            if (sub->get_name() != "run") stokesian::cli::require_one_rank(sub->get_name().c_str());
        const int status = stokesian::cli::run_selected(app);
        stokesian::cli::print_deprecation_notes(std::cerr);
        return status;
    } catch (const stokesian::input_error& e) {
        return fail(2, e.what(), true);
    } catch (const std::invalid_argument& e) {
        return fail(2, e.what(), true);
    } catch (const std::filesystem::filesystem_error& e) {
        // Not a directory, permission denied, read-only, no space: the environment's to fix.
        return fail(2, filesystem_error_line(e), true);
    } catch (const std::bad_alloc&) {
        return fail(2, "out of memory: the request needs more memory than this machine gives the process", false);
    } catch (const std::exception& e) {
        const int code = fail(1, std::string("error: ") + e.what(), false);
        stokesian::cli::print_deprecation_notes(std::cerr);  // not after bad input (exit 2): one line there
        return code;
    }
}
}  // namespace

int main(int argc, char** argv) {
    // A write past the file size limit (ulimit -f, as CI runners set) raises SIGXFSZ, whose default
    // action kills the process without a word; ignored, the write fails with EFBIG instead, which
    // every writer reports in one line naming the file and what is kept (io/hdf5_failure.hpp).
    std::signal(SIGXFSZ, SIG_IGN);
    CLI::App app{"stokesian: reproducibility and regression-test toolkit for GPU Stokesian dynamics"};
    app.set_version_flag("--version", std::string("stokesian ") + stokesian::git_describe());
    app.require_subcommand(1);
    // One line, as for every other bad input (exit code 2 below).
    app.failure_message(
        [](const CLI::App*, const CLI::Error& e) { return "stokesian: " + std::string(e.what()) + "\n"; });
    stokesian::cli::set_invocation(argc, argv);
    stokesian::cli::register_commands(app);
    try {
        // Several ranks (mpirun -n R): MPI_Init before anything else reads argv.
        stokesian::cli::start_process_ranks(argc, argv);
    } catch (const stokesian::input_error& e) {
        if (stokesian::mpi::launched_rank() == 0) say(std::string("stokesian: ") + e.what());
        return 2;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // Usage errors exit with 2 (CLI11's own codes are for --help/--version); every rank parses
        // the same arguments, rank 0 alone answers.
        stokesian::communicator& ranks = stokesian::cli::process_ranks();
        const int code = ranks.leads() ? app.exit(e) : e.get_exit_code();
        if (code != 0 && ranks.size() > 1) {
            if (!ranks.leads()) leave_line_to_rank_zero(ranks, e.what());
            ranks.abort(2);
        }
        stokesian::cli::stop_process_ranks();
        return code == 0 ? 0 : 2;
    }
    const int status = run(app);
    stokesian::cli::stop_process_ranks();
    return status;
}
