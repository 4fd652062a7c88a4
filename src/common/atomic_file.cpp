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
  if (ec || st.type() == fs::file_type::not_found || st.type() == fs::file_type::regular)
    return;
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
