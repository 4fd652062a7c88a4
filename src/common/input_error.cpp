#include "common/input_error.hpp"

namespace sgdsim {

namespace {
std::string format(const std::string& file, int line, const std::string& message)
{
  if (file.empty())
    return message;
  if (line <= 0)
    return file + ": " + message;
  return file + ":" + std::to_string(line) + ": " + message;
}
} // namespace

InputError::InputError(std::string file, int line, const std::string& message)
    : std::runtime_error(format(file, line, message)), file_(std::move(file)), line_(line)
{
}

InputError::InputError(const std::string& message) : std::runtime_error(message) {}

} // namespace sgdsim
