#include "cli/exit_status.hpp"

#include "common/input_error.hpp"

#include <cctype>
#include <exception>
#include <iostream>

namespace sgdsim {

// An error is one line (docs/design.md "Errors"): SimGrid's messages may hold line breaks (a ParseError lists the
// existing netpoints on a line of its own), which become spaces, and other control characters, which become '?'; a
// message beyond kMaxErrorChars is cut, so that a list of a quarter million hosts does not flood the terminal.
std::string one_line(const std::string& message)
{
  constexpr std::size_t kMaxErrorChars = 2000;
  std::string out;
  for (std::size_t i = 0; i < message.size(); i++) {
    if (message[i] != '\n' && message[i] != '\r') {
      // Other control characters (a NUL or an escape quoted from a binary file) would garble the terminal.
      out += std::iscntrl(static_cast<unsigned char>(message[i])) && message[i] != '\t' ? '?' : message[i];
      continue;
    }
    while (i + 1 < message.size() && std::isspace(static_cast<unsigned char>(message[i + 1])))
      i++;
    if (i + 1 < message.size() && !out.empty() && out.back() != ' ')
      out += ' ';
  }
  if (out.size() > kMaxErrorChars)
    out = out.substr(0, kMaxErrorChars)
              .append(" ... (")
              .append(std::to_string(out.size() - kMaxErrorChars))
              .append(" more characters)");
  return out;
}

int exit_status_of(const std::function<int()>& command)
{
  try {
    return command();
  } catch (const InputError& e) {
    std::cerr << "sgdsim: error: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "sgdsim: internal error: " << one_line(e.what()) << "\n";
    return 1;
  }
}

} // namespace sgdsim
