// Reading whole text files and splitting CSV lines: shared by the XML readers, the calibration's measurements, the
// sweep and the validation runner.
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

/** The whole file. Throws InputError naming it if it cannot be read. */
std::string read_text_file(const std::string& path);

/** The last line of the file that is not empty ("" if none or unreadable): a failed child's error message. */
std::string last_nonempty_line(const std::string& path);

/** The fields of one CSV line (RFC 4180 quoting: a quoted field may hold commas; "" inside quotes is a quote; a
 *  trailing carriage return is dropped). */
std::vector<std::string> split_csv_line(const std::string& line);

} // namespace sgdsim
