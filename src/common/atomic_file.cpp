#include "common/atomic_file.hpp"

#include "common/input_error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace sgdsim {

void check_replaceable_output(const std::string& label, const std::string& path)
{
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (ec && st.type() != fs::file_type::not_found)
    return; // write_file_atomically reports it with the reason (a missing path sets `ec` too)
  if (st.type() == fs::file_type::not_found || st.type() == fs::file_type::regular) {
    // The folder, where the temporary file goes, is checked now, not when the result is written after the run
    // (issue #21, class 1).
    const fs::path given  = fs::path(path).parent_path();
    const fs::path folder = given.empty() ? fs::path(".") : given;
    if (!fs::is_directory(folder, ec))
      throw InputError(label + (label.empty() ? "" : " ") + path + ": the folder " + folder.string() +
                       (fs::exists(folder, ec) ? " is not a folder" : " does not exist"));
    if (::access(folder.c_str(), W_OK) != 0)
      throw InputError(label + (label.empty() ? "" : " ") + path + ": the folder " + folder.string() +
                       " is not writable");
    return;
  }
  const char* what = st.type() == fs::file_type::directory ? "a directory"
                     : st.type() == fs::file_type::symlink ? "a symbolic link"
                     : st.type() == fs::file_type::fifo    ? "a FIFO"
                     : st.type() == fs::file_type::socket  ? "a socket"
                     : st.type() == fs::file_type::block || st.type() == fs::file_type::character
                         ? "a device"
                         : "not a regular file";
  throw InputError(label + (label.empty() ? "" : " ") + path + ": exists and is " + what +
                   "; sgdsim replaces only regular files, even with --force: choose another path");
}

void check_not_an_input(const std::string& label, const std::string& path, const std::vector<std::string>& inputs)
{
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const std::string& in : inputs)
    if (!in.empty() && fs::equivalent(in, path, ec) && !ec)
      throw InputError(label + (label.empty() ? "" : " ") + path +
                       ": is an input file of this command; choose another output file");
}

void write_file_atomically(const std::string& path, const std::string& content)
{
  check_replaceable_output("", path);
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw InputError(path, 0, std::string("cannot write the output file: ") + std::strerror(errno));
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw InputError(path, 0, "cannot write the output file (disk full?)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    std::remove(tmp.c_str());
    throw InputError(path, 0, std::string("cannot write the output file: ") + std::strerror(err));
  }
}

} // namespace sgdsim
