#include "workload/ps_split.hpp"

#include <algorithm>

namespace sgdsim {

std::vector<int> split_tensors(const Workload& wl, int ps, PsSplit split)
{
  std::vector<int> owner(wl.tensors.size(), 0);
  if (split == PsSplit::ROUND_ROBIN) {
    for (std::size_t t = 0; t < owner.size(); t++)
      owner[t] = static_cast<int>(t % static_cast<std::size_t>(ps));
    return owner;
  }
  // Greedy LPT: largest tensors first (ties by forward order), each to the least loaded PS (ties: lowest rank).
  std::vector<std::size_t> order(wl.tensors.size());
  for (std::size_t t = 0; t < order.size(); t++)
    order[t] = t;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return wl.tensors[a].bytes > wl.tensors[b].bytes; });
  std::vector<double> load(static_cast<std::size_t>(ps), 0.0);
  for (std::size_t t : order) {
    auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    owner[t]   = static_cast<int>(least);
    load[least] += wl.tensors[t].bytes;
  }
  return owner;
}

} // namespace sgdsim
