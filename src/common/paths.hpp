// What is at a path the user gave, asked without std::filesystem's exceptions: exists(), is_regular_file() and
// is_directory() throw filesystem_error when the system cannot tell (a name longer than the system allows, a folder
// that may not be searched), which would escape as an internal error instead of an input error (found by the
// fuzz_run_inputs harness: `run --json` with a 300-byte file name).
#pragma once

#include <filesystem>

namespace sgdsim {

enum class PathKind { NONE, REGULAR, DIRECTORY, OTHER };

/** What `path` names, following links: nothing, a regular file, a folder or something else (a device, a pipe...).
 *  Throws InputError naming the path and the system's reason when the system cannot tell. */
PathKind path_kind(const std::filesystem::path& path);

inline bool path_exists(const std::filesystem::path& path)
{
  return path_kind(path) != PathKind::NONE;
}
inline bool is_regular_path(const std::filesystem::path& path)
{
  return path_kind(path) == PathKind::REGULAR;
}
inline bool is_directory_path(const std::filesystem::path& path)
{
  return path_kind(path) == PathKind::DIRECTORY;
}

} // namespace sgdsim
