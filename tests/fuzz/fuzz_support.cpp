#include "fuzz_support.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace sgdsim::fuzz {

namespace {
std::string make_scratch_dir()
{
  // $TMPDIR, else /dev/shm: in memory, as every execution writes its files anew.
  const char* tmp     = std::getenv("TMPDIR");
  std::string base    = tmp != nullptr && *tmp != '\0' ? tmp : ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  std::string pattern = base + "/sgdsim-fuzz-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    std::fprintf(stderr, "fuzz harness: cannot make a scratch folder %s: %s\n", pattern.c_str(), std::strerror(errno));
    std::abort();
  }
  return pattern;
}

void remove_scratch_dir()
{
  std::error_code ec;
  std::filesystem::remove_all(scratch_dir(), ec);
}
} // namespace

const std::string& scratch_dir()
{
  // Never destroyed, so that remove_scratch_dir, run at exit, can still read it.
  static const std::string* dir = [] {
    auto* d = new std::string(make_scratch_dir());
    std::atexit(remove_scratch_dir);
    return d;
  }();
  return *dir;
}

std::string write_scratch_file(const std::string& name, std::string_view data)
{
  const std::string path = scratch_dir() + "/" + name;
  // POSIX calls rather than a stream: this runs once per file and execution, millions of times. Overwritten in place
  // and cut to size, not truncated to 0 first: on ext4, closing a file truncated to 0 and rewritten flushes it to
  // disk (auto_da_alloc), which made a disk-backed $TMPDIR 10 to 30 times slower.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT, 0600);
  bool ok      = fd >= 0;
  for (std::size_t done = 0; ok && done < data.size();) {
    const ssize_t n = ::pwrite(fd, data.data() + done, data.size() - done, static_cast<off_t>(done));
    ok              = n > 0;
    done += ok ? static_cast<std::size_t>(n) : 0;
  }
  ok = ok && ::ftruncate(fd, static_cast<off_t>(data.size())) == 0;
  if (fd >= 0)
    ::close(fd);
  if (!ok) {
    std::fprintf(stderr, "fuzz harness: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
    std::abort();
  }
  return path;
}

std::string remove_scratch_file(const std::string& name)
{
  const std::string path = scratch_dir() + "/" + name;
  ::unlink(path.c_str());
  return path;
}

std::map<std::string, std::string> split_sections(std::string_view data)
{
  constexpr std::string_view kMarker = "=== ";
  std::map<std::string, std::string> sections;
  std::string* current = &sections[""];
  std::size_t pos      = 0;
  while (pos < data.size()) {
    std::size_t end             = data.find('\n', pos);
    end                         = end == std::string_view::npos ? data.size() : end + 1;
    const std::string_view line = data.substr(pos, end - pos);
    if (line.substr(0, kMarker.size()) == kMarker) {
      std::string_view name = line.substr(kMarker.size());
      while (!name.empty() && (name.back() == '\n' || name.back() == '\r' || name.back() == ' '))
        name.remove_suffix(1);
      current = &sections[std::string(name)];
      current->clear();
    } else {
      current->append(line);
    }
    pos = end;
  }
  return sections;
}

void finding(const std::string& what)
{
  std::fprintf(stderr, "==sgdsim-fuzz== FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

} // namespace sgdsim::fuzz
