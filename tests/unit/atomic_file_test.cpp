// Output files replace only regular files (issue #21 class 1): a FIFO, a symbolic link or a directory at the output
// path is refused and left as it was, even though the write is an atomic rename that could replace any of them.
#include "common/atomic_file.hpp"
#include "common/input_error.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>

using namespace sgdsim;
namespace fs = std::filesystem;

TEST(AtomicFile, ReplacesARegularFile)
{
  const fs::path p = fs::path(testing::TempDir()) / "atomic_regular.txt";
  std::ofstream(p) << "old";
  write_file_atomically(p.string(), "new");
  std::ifstream in(p);
  std::string got;
  in >> got;
  EXPECT_EQ(got, "new");
}

TEST(AtomicFile, NeverReplacesAFifoALinkOrAFolder)
{
  const fs::path dir = fs::path(testing::TempDir()) / "atomic_special";
  fs::remove_all(dir);
  fs::create_directories(dir / "folder");
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  std::ofstream(dir / "target") << "kept";
  fs::create_symlink(dir / "target", dir / "link");
  for (const char* name : {"fifo", "link", "folder"}) {
    EXPECT_THROW(write_file_atomically((dir / name).string(), "x"), InputError) << name;
    EXPECT_THROW(check_replaceable_output("-o", (dir / name).string()), InputError) << name;
  }
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(dir / "fifo")));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir / "link")));
  EXPECT_TRUE(fs::is_directory(dir / "folder"));
  std::ifstream in(dir / "target");
  std::string got;
  in >> got;
  EXPECT_EQ(got, "kept");
  EXPECT_NO_THROW(check_replaceable_output("-o", (dir / "absent").string()));
}

TEST(AtomicFile, RefusesAMissingFolderAndAnInputUpFront)
{
  const fs::path dir = fs::path(testing::TempDir()) / "atomic_up_front";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "in.csv") << "size_bytes,time_s\n";
  try {
    check_replaceable_output("--json", (dir / "nowhere" / "out.json").string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
  // The same file under another spelling is still the input.
  const std::string same = (dir / "." / "in.csv").string();
  EXPECT_THROW(check_not_an_input("-o", same, {"", (dir / "in.csv").string()}), InputError);
  EXPECT_NO_THROW(check_not_an_input("-o", (dir / "out.xml").string(), {(dir / "in.csv").string()}));
}
