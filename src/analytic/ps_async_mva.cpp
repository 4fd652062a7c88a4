#include "analytic/ps_async_mva.hpp"

#include <algorithm>
#include <cmath>

namespace sgdsim {

namespace {
enum Station { U = 0, S = 1, D = 2, kStations = 3 };

// Residence time at a network station (U or D) of service time s. n_types / rho_types: per type queue length
// and utilization at this station with one job of the arriving type removed (population n - e_k).
double network_time(NetworkDiscipline net, double s, double min_s, const std::vector<double>& n_types,
                    const std::vector<double>& rho_types)
{
  double t;
  if (net == NetworkDiscipline::PS) {
    double n = 0;
    for (double x : n_types)
      n += x;
    t = s * (1 + n); // eq. 1
  } else {
    double wait = 0;
    for (std::size_t j = 0; j < n_types.size(); j++)
      wait += s * (n_types[j] - 0.5 * rho_types[j]); // eq. 2 (network service times do not depend on the type)
    t = s + wait;
  }
  return std::max(t, min_s);
}

MvaSolution solve_exact(const MvaInputs& in, NetworkDiscipline net, const std::vector<double>& service_w,
                        std::size_t states)
{
  const std::size_t types = in.types.size();
  std::vector<std::size_t> radix(types);
  for (std::size_t t = 0; t < types; t++)
    radix[t] = static_cast<std::size_t>(in.types[t].count) + 1;
  // stride[t]: index distance of e_t in the mixed-radix numbering of population vectors.
  std::vector<std::size_t> stride(types, 1);
  for (std::size_t t = 1; t < types; t++)
    stride[t] = stride[t - 1] * radix[t - 1];

  const double s_net = in.transfer_s;
  std::vector<double> nvals(states * types * kStations, 0.0);
  std::vector<double> rvals(states * types * kStations, 0.0);
  std::vector<std::size_t> pop(types, 0);
  std::vector<double> n_at(types), rho_at(types);
  MvaSolution sol;
  sol.states = states;
  sol.t_up_s.assign(types, 0);
  sol.t_down_s.assign(types, 0);
  sol.cycle_s.assign(types, 0);

  for (std::size_t idx = 1; idx < states; idx++) {
    // Population vector of idx (increment of the mixed-radix counter).
    for (std::size_t t = 0; t < types; t++) {
      if (++pop[t] < radix[t])
        break;
      pop[t] = 0;
    }
    for (std::size_t t = 0; t < types; t++) {
      if (pop[t] == 0)
        continue;
      const std::size_t prev = idx - stride[t]; // n - e_t
      double t_station[kStations];
      for (int l : {U, D}) {
        for (std::size_t j = 0; j < types; j++) {
          n_at[j]   = nvals[(prev * types + j) * kStations + static_cast<std::size_t>(l)];
          rho_at[j] = rvals[(prev * types + j) * kStations + static_cast<std::size_t>(l)];
        }
        t_station[l] = network_time(net, s_net, in.min_transfer_s, n_at, rho_at);
      }
      double n_s = 0;
      for (std::size_t j = 0; j < types; j++)
        n_s += nvals[(prev * types + j) * kStations + S];
      t_station[S]       = in.update_s * (1 + n_s); // eq. 1, the update station is always PS
      const double cycle = service_w[t] + t_station[U] + t_station[S] + t_station[D];
      const double x     = cycle > 0 ? static_cast<double>(pop[t]) / cycle : 0; // X_t(n), class population n_t
      for (int l : {U, S, D}) {
        nvals[(idx * types + t) * kStations + static_cast<std::size_t>(l)] = x * t_station[l]; // Little
        rvals[(idx * types + t) * kStations + static_cast<std::size_t>(l)] = x * (l == S ? in.update_s : s_net);
      }
      if (idx == states - 1) {
        sol.steps_per_s += x;
        sol.downlink_utilization += x * s_net;
        sol.t_up_s[t]   = t_station[U];
        sol.t_down_s[t] = t_station[D];
        sol.cycle_s[t]  = cycle;
      }
    }
  }
  return sol;
}

// Bard-Schweitzer: N_j(K - e_t) ~ N_j(K) * (K_j - [j == t]) / K_j, iterated to a fixed point.
MvaSolution solve_schweitzer(const MvaInputs& in, NetworkDiscipline net, const std::vector<double>& service_w)
{
  const std::size_t types = in.types.size();
  std::vector<double> n(types * kStations, 0.0), rho(types * kStations, 0.0);
  for (std::size_t t = 0; t < types; t++)
    for (int l : {U, S, D})
      n[t * kStations + static_cast<std::size_t>(l)] = in.types[t].count / 4.0;
  MvaSolution sol;
  sol.approximate = true;
  sol.t_up_s.assign(types, 0);
  sol.t_down_s.assign(types, 0);
  sol.cycle_s.assign(types, 0);
  std::vector<double> n_at(types), rho_at(types), x(types);
  // Fixed-point iterations: 10,000 is far beyond what these small networks need to converge to 1e-12.
  for (int iter = 0; iter < 10000; iter++) {
    double change = 0;
    std::vector<double> new_n(types * kStations), new_rho(types * kStations);
    for (std::size_t t = 0; t < types; t++) {
      double t_station[kStations];
      for (int l : {U, S, D}) {
        for (std::size_t j = 0; j < types; j++) {
          const double k_j   = in.types[j].count;
          const double scale = j == t ? (k_j - 1) / k_j : 1.0;
          n_at[j]            = n[j * kStations + static_cast<std::size_t>(l)] * scale;
          rho_at[j]          = rho[j * kStations + static_cast<std::size_t>(l)] * scale;
        }
        if (l == S) {
          double total = 0;
          for (double v : n_at)
            total += v;
          t_station[l] = in.update_s * (1 + total);
        } else {
          t_station[l] = network_time(net, in.transfer_s, in.min_transfer_s, n_at, rho_at);
        }
      }
      const double cycle = service_w[t] + t_station[U] + t_station[S] + t_station[D];
      x[t]               = cycle > 0 ? in.types[t].count / cycle : 0;
      for (int l : {U, S, D}) {
        new_n[t * kStations + static_cast<std::size_t>(l)]   = x[t] * t_station[l];
        new_rho[t * kStations + static_cast<std::size_t>(l)] = x[t] * (l == S ? in.update_s : in.transfer_s);
      }
      sol.t_up_s[t]   = t_station[U];
      sol.t_down_s[t] = t_station[D];
      sol.cycle_s[t]  = cycle;
    }
    for (std::size_t i = 0; i < n.size(); i++)
      change = std::max(change, std::abs(new_n[i] - n[i]));
    n   = new_n;
    rho = new_rho;
    if (change < 1e-12)
      break;
  }
  for (std::size_t t = 0; t < types; t++) {
    sol.steps_per_s += x[t];
    sol.downlink_utilization += x[t] * in.transfer_s;
  }
  return sol;
}

MvaSolution solve_with_compute(const MvaInputs& in, NetworkDiscipline net, const std::vector<double>& service_w,
                               std::size_t max_states)
{
  std::size_t states = 1;
  bool too_many      = false;
  for (const MvaWorkerType& t : in.types) {
    const auto r = static_cast<std::size_t>(t.count) + 1;
    if (states > max_states / r) {
      too_many = true;
      break;
    }
    states *= r;
  }
  return too_many ? solve_schweitzer(in, net, service_w) : solve_exact(in, net, service_w, states);
}
} // namespace

MvaSolution solve_mva(const MvaInputs& in, NetworkDiscipline net, std::size_t max_states)
{
  std::vector<double> service_w;
  for (const MvaWorkerType& t : in.types)
    service_w.push_back(t.fwd_s + t.bwd_s);
  return solve_with_compute(in, net, service_w, max_states);
}

AsyncMvaResult ps_async_mva(const MvaInputs& in, double rho_t, bool overlap, std::size_t max_states)
{
  auto hybrid = [&](const std::vector<double>& service_w) {
    AsyncMvaResult r;
    r.fcfs        = solve_with_compute(in, NetworkDiscipline::FCFS, service_w, max_states);
    r.ps          = solve_with_compute(in, NetworkDiscipline::PS, service_w, max_states);
    r.rho_fcfs    = r.fcfs.downlink_utilization;
    r.used_fcfs   = r.rho_fcfs <= rho_t; // eq. 5
    r.steps_per_s = r.used_fcfs ? r.fcfs.steps_per_s : r.ps.steps_per_s;
    return r;
  };
  std::vector<double> service_w;
  for (const MvaWorkerType& t : in.types)
    service_w.push_back(t.fwd_s + t.bwd_s);
  AsyncMvaResult first = hybrid(service_w);
  if (!overlap)
    return first;
  const MvaSolution& chosen = first.used_fcfs ? first.fcfs : first.ps;
  for (std::size_t t = 0; t < in.types.size(); t++) // eq. 6
    service_w[t] =
        std::max(0.0, in.types[t].fwd_s - chosen.t_down_s[t]) + std::max(0.0, in.types[t].bwd_s - chosen.t_up_s[t]);
  return hybrid(service_w);
}

} // namespace sgdsim
