// Output files are written atomically (a temporary file in the same folder, then rename), so a crash or a
// full disk never leaves half a result where a previous one was.
#pragma once

#include <string>

namespace sgdsim {

/** Writes `content` to `path` atomically. Throws InputError if the folder is not writable. */
void write_file_atomically(const std::string& path, const std::string& content);

} // namespace sgdsim
