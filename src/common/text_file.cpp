#include "common/text_file.hpp"

#include "common/input_error.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace sgdsim {

std::string read_text_file(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, 0, std::string("cannot read the file: ") + std::strerror(errno));
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
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
