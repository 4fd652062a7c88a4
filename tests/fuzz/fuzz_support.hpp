// What the libFuzzer harnesses share (docs/fuzzing.md): the parsers read files by path, so each harness writes its
// input to a scratch folder of its own; a multi-file input is one container of named sections; and one rule decides
// what is a finding: an InputError is the expected answer to bad input, anything else that escapes is a bug.
#pragma once

#include "common/input_error.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <string>
#include <string_view>

namespace sgdsim::fuzz {

/** The process's scratch folder, made on first use under $TMPDIR (or /tmp) and removed at exit. */
const std::string& scratch_dir();

/** Writes `data` to scratch_dir()/name, replacing it, and returns its path. */
std::string write_scratch_file(const std::string& name, std::string_view data);

/** Removes scratch_dir()/name if it exists (a section absent from this input) and returns its path. */
std::string remove_scratch_file(const std::string& name);

/** The sections of a container input: a line "=== NAME" starts section NAME, which runs to the next such line; text
 *  before the first one is the section "" (a later section of the same name replaces an earlier one). */
std::map<std::string, std::string> split_sections(std::string_view data);

/** Reports a finding the sanitizers cannot see (an invariant of accepted input broken): prints it and aborts, which
 *  libFuzzer records as a crash with the input. */
[[noreturn]] void finding(const std::string& what);

/** Runs `check`: an InputError is a fine outcome; any other exception is a finding, named with its message. */
template <class F>
void expect_input_errors_only(F&& check)
{
  try {
    check();
  } catch (const InputError&) {
    // the parsers' documented answer to bad input
  } catch (const std::exception& e) {
    finding(std::string("an exception other than InputError: ") + e.what());
  }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size)
{
  return {reinterpret_cast<const char*>(data), size};
}

} // namespace sgdsim::fuzz
