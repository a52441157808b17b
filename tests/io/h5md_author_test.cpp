// The H5MD author name (issue #17 item 4): from --author, else $STOKESIAN_AUTHOR, else the account;
// a name given must be one line of valid UTF-8 of at most max_author_bytes bytes, and a bad one is
// one input_error line that names its source and never repeats the bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "stokesian/core/errors.hpp"
#include "stokesian/io/provenance.hpp"

using namespace stokesian;

namespace {

// The environment variable set for one test, restored afterwards.
class AuthorName : public ::testing::Test {
protected:
    void SetUp() override {
        if (const char* v = std::getenv("STOKESIAN_AUTHOR")) saved_ = v;
        ::unsetenv("STOKESIAN_AUTHOR");
    }
    void TearDown() override {
        if (saved_) ::setenv("STOKESIAN_AUTHOR", saved_->c_str(), 1);
        else ::unsetenv("STOKESIAN_AUTHOR");
    }
    std::optional<std::string> saved_;
};

std::string error_of(const std::optional<std::string>& given) {
    try {
        (void)io::h5md_author(given);
    } catch (const input_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_F(AuthorName, ValidNamesAreTakenAsGiven) {
    EXPECT_EQ(io::h5md_author(std::string("Ada Lovelace")), "Ada Lovelace");
    const std::string unicode = "J\xC3\xBCrgen \xCE\xBC \xF0\x9F\x94\xAC";  // two-, two- and four-byte sequences
    EXPECT_EQ(io::h5md_author(unicode), unicode);
    EXPECT_EQ(io::h5md_author(std::string(io::max_author_bytes, 'a')), std::string(io::max_author_bytes, 'a'));
}

TEST_F(AuthorName, InvalidNamesAreOneLineErrorsNamingTheOption) {
    const std::string bad[] = {
        "\xFF",              // never a UTF-8 byte
        "ab\xC0\xAF",        // overlong '/'
        "\xED\xA0\x80",      // a surrogate
        "\xE2\x82",          // truncated sequence
        "\xF4\x90\x80\x80",  // above U+10FFFF
        "line\nbreak",       // control character
        "tab\there",
        "",  // empty
        std::string(io::max_author_bytes + 1, 'a'),
    };
    for (const std::string& name : bad) {
        const std::string error = error_of(name);
        EXPECT_NE(error.find("--author"), std::string::npos) << error;
        EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 0) << error;
        if (name.size() > 1) EXPECT_EQ(error.find(name), std::string::npos) << "the raw bytes are repeated: " << error;
    }
    EXPECT_NE(error_of("\xFF").find("UTF-8"), std::string::npos);
    EXPECT_NE(error_of("line\nbreak").find("control character"), std::string::npos);
    EXPECT_NE(error_of(std::string(io::max_author_bytes + 1, 'a')).find("at most"), std::string::npos);
}

TEST_F(AuthorName, TheEnvironmentVariableIsTheDefaultAndIsCheckedToo) {
    ::setenv("STOKESIAN_AUTHOR", "CI robot", 1);
    EXPECT_EQ(io::h5md_author(std::nullopt), "CI robot");
    EXPECT_EQ(io::h5md_author(std::string("Ada")), "Ada");  // the option wins
    ::setenv("STOKESIAN_AUTHOR", "bad\xFF", 1);
    const std::string error = error_of(std::nullopt);
    EXPECT_NE(error.find("STOKESIAN_AUTHOR"), std::string::npos) << error;
    EXPECT_NE(error.find("UTF-8"), std::string::npos) << error;
}

TEST_F(AuthorName, WithoutOptionOrVariableTheAccountNameOrUnknown) {
    const std::string account = io::user_name();
    const std::string author = io::h5md_author(std::nullopt);
    EXPECT_TRUE(author == account || author == "unknown") << author;
    EXPECT_FALSE(author.empty());
}
