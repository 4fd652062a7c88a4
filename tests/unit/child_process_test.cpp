// The children of validate and sweep (cli/child_process.hpp): forked, logged, their statuses; and exit_status_of,
// which gives a child's error the line and code `sgdsim run` would.
#include "cli/child_process.hpp"
#include "cli/exit_status.hpp"
#include "common/input_error.hpp"
#include "common/text_file.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <stdexcept>
#include <unistd.h>

using namespace sgdsim;
namespace fs = std::filesystem;

namespace {
struct TempDir {
  fs::path path;
  TempDir()
  {
    char tmpl[] = "/tmp/sgdsim-child-test-XXXXXX";
    if (mkdtemp(tmpl) == nullptr)
      throw std::runtime_error("mkdtemp");
    path = tmpl;
  }
  ~TempDir() { fs::remove_all(path); }
};

// A child command: "ok TEXT" prints TEXT and ends 0, "code N" ends N, "input" and "throw" raise what `run` may.
int fake_command(const std::vector<std::string>& args)
{
  return exit_status_of([&]() -> int {
    if (args.at(0) == "ok") {
      std::cout << args.at(1) << "\n";
      std::cerr << "to stderr\n";
      return 0;
    }
    if (args.at(0) == "code")
      return std::stoi(args.at(1));
    if (args.at(0) == "input")
      throw InputError("p.xml", 3, "bandwidth '-1Gbps': must be positive\nsecond line");
    throw std::runtime_error("boom");
  });
}
} // namespace

TEST(ChildProcess, EachJobRunsInAChildWithItsOwnLogAndStatus)
{
  TempDir dir;
  const std::vector<ChildJob> jobs = {{{"ok", "first"}, (dir.path / "0.log").string()},
                                      {{"code", "3"}, (dir.path / "1.log").string()},
                                      {{"input"}, (dir.path / "2.log").string()},
                                      {{"throw"}, (dir.path / "3.log").string()},
                                      {{"ok", "last"}, (dir.path / "4.log").string()}};
  std::map<std::size_t, int> statuses;
  const pid_t parent = getpid();
  run_children(fake_command, jobs, 2, [&](std::size_t index, int status) {
    EXPECT_EQ(getpid(), parent) << "on_exit runs in the parent";
    statuses[index] = status;
  });
  EXPECT_EQ(statuses, (std::map<std::size_t, int>{{0, 0}, {1, 3}, {2, 2}, {3, 1}, {4, 0}}));
  EXPECT_EQ(read_text_file(jobs[0].log_path), "first\nto stderr\n");
  EXPECT_EQ(read_text_file(jobs[1].log_path), "");
  EXPECT_EQ(read_text_file(jobs[2].log_path),
            "sgdsim: error: p.xml:3: bandwidth '-1Gbps': must be positive second line\n");
  EXPECT_EQ(read_text_file(jobs[3].log_path), "sgdsim: internal error: boom\n");
  EXPECT_EQ(read_text_file(jobs[4].log_path), "last\nto stderr\n");
}

TEST(ChildProcess, AnExceptionInAChildNeverUnwindsTheParentsFrames)
{
  TempDir dir;
  const fs::path marker = dir.path / "unwound";
  struct OnUnwind { // a child that unwound through this frame would write the marker
    fs::path path;
    bool armed = true;
    ~OnUnwind()
    {
      if (armed)
        write_marker();
    }
    void write_marker() const { std::ofstream(path) << "unwound"; }
  } guard{marker};
  const ChildMain throws = [](const std::vector<std::string>&) -> int { throw std::runtime_error("raw"); };
  int seen               = -1;
  run_children(throws, {{{"x"}, (dir.path / "x.log").string()}}, 1, [&](std::size_t, int status) { seen = status; });
  guard.armed = false;
  EXPECT_EQ(seen, 1);
  EXPECT_FALSE(fs::exists(marker));
}

TEST(ChildProcess, AnUnwritableLogEndsTheChildWith127)
{
  int seen = -1;
  run_children(fake_command, {{{"ok", "x"}, "/nonexistent-folder/x.log"}}, 1,
               [&](std::size_t, int status) { seen = status; });
  EXPECT_EQ(seen, 127);
}

TEST(ChildProcess, WhatTheParentBufferedIsWrittenOnce)
{
  TempDir dir;
  const fs::path out = dir.path / "parent.out";
  // The parent's stdout is a file here, so that its buffer is what a fork would copy.
  std::FILE* f = std::fopen(out.c_str(), "w");
  ASSERT_NE(f, nullptr);
  const int saved = dup(1);
  std::cout.flush();
  std::fflush(stdout);
  dup2(fileno(f), 1);
  std::cout << "parent line\n"; // buffered, not flushed
  run_children(fake_command, {{{"ok", "child"}, (dir.path / "c.log").string()}}, 1, [](std::size_t, int) {});
  std::cout.flush();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::fclose(f);
  EXPECT_EQ(read_text_file(out.string()), "parent line\n");
  EXPECT_EQ(read_text_file((dir.path / "c.log").string()), "child\nto stderr\n");
}
