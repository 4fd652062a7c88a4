#include "common/paths.hpp"

#include "common/input_error.hpp"

#include <filesystem>

namespace sgdsim {

PathKind path_kind(const std::filesystem::path& path)
{
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  switch (st.type()) {
  case fs::file_type::not_found:
    return PathKind::NONE;
  case fs::file_type::regular:
    return PathKind::REGULAR;
  case fs::file_type::directory:
    return PathKind::DIRECTORY;
  case fs::file_type::none: // the status could not be read
    throw InputError(path.string(), 0, "cannot use this path: " + ec.message());
  default:
    return PathKind::OTHER;
  }
}

} // namespace sgdsim
