// The only source of randomness in sgdsim: xoshiro256** seeded through splitmix64. Its sequence is defined
// here, not by the standard library, so results are identical on every platform (docs/design.md "Determinism").
#pragma once

#include <cstdint>

namespace sgdsim {

class Rng {
public:
  /** A generator for (seed, stream): each worker gets its own stream, so draws do not depend on actor order. */
  Rng(std::uint64_t seed, std::uint64_t stream);
  std::uint64_t next();
  /** Uniform integer in [0, n), without modulo bias; n > 0. */
  std::uint64_t uniform_index(std::uint64_t n);
  /** Uniform double in [0, 1) with 53 random bits. */
  double uniform01();

private:
  std::uint64_t s_[4];
};

} // namespace sgdsim
