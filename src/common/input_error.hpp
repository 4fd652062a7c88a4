// The one error type for bad user input (files, options). Its what() is the whole message in the shape
// "FILE:LINE: where: problem" (docs/design.md "Errors"), so the CLI prints it as is and exits with status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace sgdsim {

class InputError : public std::runtime_error {
public:
  /** An error at a line of a file; line 0 means "the file as a whole" and is left out of the message. */
  InputError(std::string file, int line, const std::string& message);
  /** An error without a file (a command-line option, for instance). */
  explicit InputError(const std::string& message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }

private:
  std::string file_;
  int line_ = 0;
};

} // namespace sgdsim
