#include "common/suggest.hpp"

#include <algorithm>

namespace sgdsim {

namespace {
// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours (the typos
// people make) each count one.
std::size_t edit_distance(const std::string& a, const std::string& b)
{
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); i++)
    d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); j++)
    d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); i++)
    for (std::size_t j = 1; j <= b.size(); j++) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string strip_dashes(const std::string& s)
{
  std::size_t i = 0;
  while (i < s.size() && s[i] == '-')
    i++;
  return s.substr(i);
}
} // namespace

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates)
{
  const std::string bare = strip_dashes(name);
  if (bare.empty())
    return "";
  std::string best;
  std::size_t best_distance = std::string::npos;
  for (const std::string& c : candidates) {
    const std::string cb = strip_dashes(c);
    if (cb.size() < 2) // short options are one letter: any letter is "close" to any other
      continue;
    const bool prefix = cb.rfind(bare, 0) == 0 || bare.rfind(cb, 0) == 0;
    // A typo: one edit in a name of up to 4 letters, two up to 9, three beyond; or a prefix either way.
    const std::size_t allowed = std::min<std::size_t>(3, 1 + cb.size() / 5);
    // The distance is at least the difference of the lengths: a long unknown name (a line of a scenario file) is
    // answered without a table of its length per candidate (300 KB took 4 s).
    const std::size_t length_gap = bare.size() > cb.size() ? bare.size() - cb.size() : cb.size() - bare.size();
    if (!prefix && length_gap > allowed)
      continue;
    std::size_t d = prefix ? 1 : edit_distance(bare, cb);
    if (d <= allowed && d < best_distance) {
      best          = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates)
{
  const std::string c = closest_name(name, candidates);
  return c.empty() ? "" : ", did you mean " + c + "?";
}

} // namespace sgdsim
