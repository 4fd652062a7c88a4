// Reading whole text files and splitting CSV lines: shared by the XML readers, the calibration's measurements, the
// sweep and the validation runner.
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

/** Throws InputError naming `path` if it exists and is not a regular file: a folder, a device such as /dev/zero
 *  (which never ends) or a named pipe (which blocks until a writer comes) is no input file. */
void check_regular_input(const std::string& path);

/** The whole file (check_regular_input first). Throws InputError naming it if it cannot be read. */
std::string read_text_file(const std::string& path);

/** Throws InputError naming `path` and the line if `content` is not UTF-8 text: a NUL byte (UTF-16 or a binary
 *  file) or a byte sequence that is not UTF-8 (Latin-1, for instance). */
void check_utf8_text(const std::string& path, const std::string& content);

/** The last line of the file that is not empty ("" if none or unreadable): a failed child's error message. */
std::string last_nonempty_line(const std::string& path);

/** The fields of one CSV line (RFC 4180 quoting: a quoted field may hold commas; "" inside quotes is a quote; a
 *  trailing carriage return is dropped). */
std::vector<std::string> split_csv_line(const std::string& line);

} // namespace sgdsim
