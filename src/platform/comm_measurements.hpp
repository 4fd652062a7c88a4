// Measured transfer and all-reduce times, as `sgdsim calibrate` reads them from a microbenchmark's CSV file
// (README "Calibration"; docs/measure.md for the kit's columns).
#pragma once

#include <string>
#include <vector>

namespace sgdsim {

/** One measured time: `bytes` moved (one message, or one all-reduce's buffer) among `nodes` ranks. */
struct CommMeasurement {
  int nodes     = 2;
  double bytes  = 0;
  double time_s = 0;
  int line      = 0; // in the CSV, for the report
};

/** Reads measurements from a CSV file with a header. Size column: `size_column` or the first of size_bytes, bytes,
 *  *_B, *_KB / *_KiB (x 1024), *_MB / *_MiB (x 2^20); time column: `time_column` or the first of time_s, *_s, *_ms
 *  (x 1e-3); nodes column: `nodes` (2 if absent). `where`: COLUMN=VALUE or COLUMN=LO..HI (a number within, either
 *  bound left out at will) filters, all of which a row must meet.
 *  Throws InputError naming the file, line and column: not a regular file, a column named twice, a row of another
 *  number of cells than the header, a size, time or node count that is not a positive finite number (node counts:
 *  whole, at most kMaxWorkers). */
std::vector<CommMeasurement> read_comm_measurements(const std::string& path, const std::vector<std::string>& where,
                                                    const std::string& size_column = "",
                                                    const std::string& time_column = "");

} // namespace sgdsim
