// Table, JSON and JUnit XML of a reference check (check_report.hpp).
#include "check_report.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "stokesian/io/json_text.hpp"

namespace stokesian::cli {

namespace {

using regression::check_row;
using regression::run_check;

std::string fit(const std::string& text, std::size_t width) {
    if (text.size() <= width) return text + std::string(width - text.size(), ' ');
    return text.substr(0, width - 1) + "~";
}

std::string xml_escaped(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default:
                // XML 1.0 forbids most control characters even escaped.
                if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
        }
    }
    return out;
}

std::size_t failures(const run_check& c) {
    return static_cast<std::size_t>(
        std::count_if(c.rows.begin(), c.rows.end(), [](const check_row& r) { return r.failed(); }));
}

std::size_t skips(const run_check& c) {
    return static_cast<std::size_t>(
        std::count_if(c.rows.begin(), c.rows.end(), [](const check_row& r) { return r.skipped; }));
}

std::size_t not_checked(const std::vector<run_check>& checks) {
    return static_cast<std::size_t>(
        std::count_if(checks.begin(), checks.end(), [](const run_check& c) { return !c.checked(); }));
}

}  // namespace

void print_check_table(std::ostream& out, const std::vector<run_check>& checks) {
    // Room for "260000000 steps, every 1000th" (run.length of the nightly's longest runs).
    constexpr std::size_t value_width = 30;
    std::size_t run_width = 3, observable_width = 10;
    for (const run_check& c : checks)
        for (const check_row& r : c.rows) {
            run_width = std::max(run_width, r.run.size());
            observable_width = std::max(observable_width, r.observable.size());
        }
    run_width = std::min<std::size_t>(run_width, 36);
    observable_width = std::min<std::size_t>(observable_width, 60);
    out << fit("run", run_width) << "  " << fit("observable", observable_width) << "  " << fit("observed", value_width)
        << "  " << fit("reference", value_width) << "  " << fit("tolerance", 24) << "  verdict\n";
    std::size_t rows = 0, failed = 0, skipped = 0, runs_failed = 0;
    for (const run_check& c : checks) {
        if (!c.note.empty()) out << "# " << c.run << ": " << c.note << "\n";
        for (const check_row& r : c.rows) {
            ++rows;
            failed += r.failed() ? 1 : 0;
            skipped += r.skipped ? 1 : 0;
            out << fit(r.run, run_width) << "  " << fit(r.observable, observable_width) << "  "
                << fit(r.observed, value_width) << "  " << fit(r.reference, value_width) << "  " << fit(r.tolerance, 24)
                << "  " << (r.failed() ? "FAIL" : r.verdict()) << "\n";
            if (!r.passed && !r.detail.empty()) out << "    -> " << r.detail << "\n";
        }
        if (!c.entry.empty() && c.checked())
            out << "# " << c.run << ": final state " << (c.bitwise_identical ? "bit for bit" : "not bitwise")
                << " the reference run's\n";
        runs_failed += c.passed() ? 0 : 1;
    }
    out << checks.size() << " runs, " << rows << " checks: " << rows - failed - skipped << " passed, "
        << (skipped ? std::to_string(skipped) + " skipped (nothing to compare), " : "") << failed << " failed"
        << (failed ? " (" + std::to_string(runs_failed) + " runs with failures)" : "");
    if (const std::size_t unchecked = not_checked(checks))
        out << "; " << unchecked << " runs not checked (their reference does not apply)";
    out << "\n";
}

std::string check_json(const std::vector<run_check>& checks, const io::json& provenance) {
    io::json runs = io::json::array();
    std::size_t failed = 0, skipped = 0, rows = 0;
    for (const run_check& c : checks) {
        io::json run{{"run", c.run},
                     {"result_file", c.result_file},
                     {"reference_file", c.reference_file},
                     {"entry", c.entry},
                     {"note", c.note},
                     {"reference_mismatch", c.reference_mismatch},
                     {"bitwise_identical", c.bitwise_identical},
                     {"passed", c.passed()},
                     {"provenance", io::json_object(c.provenance)},
                     {"reference_provenance", io::json_object(c.reference_provenance)},
                     {"checks", io::json::array()}};
        for (const check_row& r : c.rows) {
            ++rows;
            failed += r.failed() ? 1 : 0;
            skipped += r.skipped ? 1 : 0;
            run["checks"].push_back({{"observable", r.observable},
                                     {"kind", r.kind},
                                     {"observed", r.observed},
                                     {"reference", r.reference},
                                     {"tolerance", r.tolerance},
                                     {"verdict", r.verdict()},
                                     {"ratio", r.ratio},
                                     {"detail", r.detail}});
        }
        runs.push_back(std::move(run));
    }
    const io::json document{{"runs", std::move(runs)},
                            {"checks", rows},
                            {"failed", failed},
                            {"skipped", skipped},
                            {"not_checked", not_checked(checks)},
                            {"passed", failed == 0},
                            {"provenance", provenance}};
    return io::json_text(document);
}

std::string check_junit(const std::vector<run_check>& checks) {
    std::ostringstream out;
    // A run whose reference does not apply was not checked: its one row is an error (the test could
    // not be made), not a failure.
    std::size_t tests = 0, failed = 0, skipped = 0, errors = 0;
    for (const run_check& c : checks) {
        tests += c.rows.size();
        (c.checked() ? failed : errors) += failures(c);
        skipped += skips(c);
    }
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << "<testsuites name=\"stokesian reference check\" tests=\"" << tests << "\" failures=\"" << failed
        << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\">\n";
    for (const run_check& c : checks) {
        out << "  <testsuite name=\"" << xml_escaped(c.run) << "\" tests=\"" << c.rows.size() << "\" failures=\""
            << (c.checked() ? failures(c) : 0) << "\" errors=\"" << (c.checked() ? 0 : failures(c)) << "\" skipped=\""
            << skips(c) << "\">\n";
        for (const check_row& r : c.rows) {
            out << "    <testcase classname=\"stokesian.reference." << xml_escaped(c.run) << "\" name=\""
                << xml_escaped(r.observable) << "\" time=\"0\">\n";
            const std::string summary = "observed " + r.observed + ", reference " + r.reference + ", tolerance " +
                                        r.tolerance + " (" + r.kind + ")";
            if (r.skipped)  // compared nothing: a CI system shows it as skipped, never as passed
                out << "      <skipped message=\"" << xml_escaped(r.detail) << "\"/>\n";
            else if (r.failed() && !c.checked())
                out << "      <error message=\"" << xml_escaped(c.reference_mismatch) << "\">" << xml_escaped(summary)
                    << "</error>\n";
            else if (r.failed())
                out << "      <failure message=\"" << xml_escaped(summary) << "\">" << xml_escaped(r.detail)
                    << "</failure>\n";
            else
                out << "      <system-out>" << xml_escaped(summary + (r.detail.empty() ? "" : "; " + r.detail))
                    << "</system-out>\n";
            out << "    </testcase>\n";
        }
        out << "  </testsuite>\n";
    }
    out << "</testsuites>\n";
    return out.str();
}

}  // namespace stokesian::cli
