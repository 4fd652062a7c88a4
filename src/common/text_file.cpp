#include "common/text_file.hpp"

#include "common/input_error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sgdsim {

void check_regular_input(const std::string& path)
{
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec); // follows links: a link to a regular file is one
  if (ec || st.type() == fs::file_type::not_found || st.type() == fs::file_type::regular)
    return; // a missing file is reported by the reader, with the reason
  const char* what = st.type() == fs::file_type::directory                                        ? "a folder"
                     : st.type() == fs::file_type::fifo                                           ? "a named pipe"
                     : st.type() == fs::file_type::socket                                         ? "a socket"
                     : st.type() == fs::file_type::block || st.type() == fs::file_type::character ? "a device"
                                                                                                  : "a special file";
  throw InputError(path, 0, std::string("not a regular file (") + what + "): give the path of a regular file");
}

std::string read_text_file(const std::string& path)
{
  check_regular_input(path);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, 0, std::string("cannot read the file: ") + std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

void check_utf8_text(const std::string& path, const std::string& content)
{
  if (content.rfind("\xFF\xFE", 0) == 0 || content.rfind("\xFE\xFF", 0) == 0)
    throw InputError(path, 1, "UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8");
  int line = 1;
  for (std::size_t i = 0; i < content.size();) {
    const auto c = static_cast<unsigned char>(content[i]);
    if (c == '\n')
      line++;
    if (c == 0)
      throw InputError(path, line, "not a text file: it holds NUL bytes (UTF-16 or binary); save it as UTF-8 text");
    // The length of the UTF-8 sequence this byte starts (RFC 3629), 0 if it starts none.
    const std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool valid               = length > 0 && i + length <= content.size();
    for (std::size_t k = 1; valid && k < length; k++)
      valid = (static_cast<unsigned char>(content[i + k]) >> 6) == 0x2;
    if (!valid) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(c));
      throw InputError(path, line,
                       std::string("not UTF-8 text: byte ") + byte +
                           " starts no UTF-8 character (Latin-1? "
                           "save it as UTF-8)");
    }
    i += length;
  }
}

std::string last_nonempty_line(const std::string& path)
{
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty())
      last = line;
  return last;
}

std::vector<std::string> split_csv_line(const std::string& line)
{
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); i++) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"'; // an escaped quote
      i++;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else if (c != '\r' || i + 1 != line.size()) {
      out.back() += c;
    }
  }
  return out;
}

} // namespace sgdsim
