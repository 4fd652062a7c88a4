#include "common/atomic_file.hpp"

#include "common/input_error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <unistd.h>

namespace sgdsim {

void write_file_atomically(const std::string& path, const std::string& content)
{
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
