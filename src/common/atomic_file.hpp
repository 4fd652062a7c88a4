// Output files are written atomically (a temporary file in the same folder, then rename), so a crash or a
// full disk never leaves half a result where a previous one was.
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

/** Throws InputError "LABEL PATH: ..." if `path` exists and is not a regular file (a directory, device, FIFO,
 *  socket, or a symbolic link): sgdsim replaces only regular files, even with --force, so that an output path can
 *  never swap out /dev/null or a link the user keeps; and if `path` does not exist, if its folder does not exist or
 *  is not writable, so that a result is never computed for nothing. */
void check_replaceable_output(const std::string& label, const std::string& path);

/** Throws InputError "LABEL PATH: is an input file ..." if `path` is one of `inputs` (the same file, whatever the
 *  path's spelling), so that an output never replaces what the command reads. */
void check_not_an_input(const std::string& label, const std::string& path, const std::vector<std::string>& inputs);

/** Writes `content` to `path` atomically (check_replaceable_output first). Throws InputError if the folder is not
 *  writable. */
void write_file_atomically(const std::string& path, const std::string& content);

} // namespace sgdsim
