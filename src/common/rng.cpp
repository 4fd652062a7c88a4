#include "common/rng.hpp"

namespace sgdsim {

namespace {
std::uint64_t splitmix64(std::uint64_t& x)
{
  // Constants from Steele, Lea, Flood: "Fast splittable pseudorandom number generators" (OOPSLA 2014).
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z               = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}
} // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t stream)
{
  std::uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ULL);
  for (auto& s : s_)
    s = splitmix64(x);
}

// xoshiro256** 1.0 (Blackman and Vigna, 2018).
std::uint64_t Rng::next()
{
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t      = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Rng::uniform_index(std::uint64_t n)
{
  // Rejection sampling: draws above the largest multiple of n are redrawn.
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x;
  do {
    x = next();
  } while (x >= limit);
  return x % n;
}

double Rng::uniform01()
{
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

} // namespace sgdsim
