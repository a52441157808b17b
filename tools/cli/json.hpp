#pragma once
// A minimal streaming JSON writer for --json outputs (strings escaped, doubles with 17
// significant digits, non-finite numbers as null).
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

namespace stokesian::cli {

class json_writer {
public:
    explicit json_writer(std::ostream& out) : out_(out) {}

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }
    void key(const std::string& k) {
        separate();
        write_string(k);
        out_ << ':';
        after_key_ = true;
    }
    void value(const std::string& v) {
        separate();
        write_string(v);
    }
    void value(const char* v) { value(std::string(v)); }
    void value(double v) {
        separate();
        if (!std::isfinite(v)) {
            out_ << "null";
            return;
        }
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        out_ << buf;
    }
    void value(bool v) {
        separate();
        out_ << (v ? "true" : "false");
    }
    template <class T>
    void field(const std::string& k, const T& v) {
        key(k);
        value(v);
    }

private:
    void open(char c) {
        separate();
        out_ << c;
        first_.push_back(true);
    }
    void close(char c) {
        out_ << c;
        first_.pop_back();
    }
    void separate() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (!first_.empty()) {
            if (!first_.back()) out_ << ',';
            first_.back() = false;
        }
    }
    void write_string(const std::string& s) {
        out_ << '"';
        for (unsigned char c : s) {
            switch (c) {
                case '"': out_ << "\\\""; break;
                case '\\': out_ << "\\\\"; break;
                case '\n': out_ << "\\n"; break;
                case '\t': out_ << "\\t"; break;
                case '\r': out_ << "\\r"; break;
                default:
                    if (c < 0x20) {
                        char buf[8];
                        std::snprintf(buf, sizeof buf, "\\u%04x", c);
                        out_ << buf;
                    } else {
                        out_ << c;
                    }
            }
        }
        out_ << '"';
    }

    std::ostream& out_;
    std::vector<bool> first_;
    bool after_key_ = false;
};

}  // namespace stokesian::cli
