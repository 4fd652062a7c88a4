// Asynchronous SGD with parameter servers, coarse model (docs/models.md §1, [LI22] §2.1): a closed queueing network
// solved by mean value analysis. Workers with identical service times are grouped into one class per type, so the
// exact recursion runs over prod_t (K_t + 1) states; beyond `max_states` the Bard-Schweitzer approximation is used.
#pragma once

#include <cstddef>
#include <vector>

namespace sgdsim {

/** A group of exchangeable workers. */
struct MvaWorkerType {
  int count    = 1;
  double fwd_s = 0; // S^F
  double bwd_s = 0; // S^B; the compute service time is S^W = S^F + S^B
};

struct MvaInputs {
  std::vector<MvaWorkerType> types;
  double transfer_s     = 0; // M/B: service time of the uplink and downlink stations
  double min_transfer_s = 0; // M/cap with a per-flow cap (0: none): a transfer never takes less than this
  double update_s       = 0; // T_S: service time of the PS update station (processor sharing)
};

enum class NetworkDiscipline { PS, FCFS };

struct MvaSolution {
  double steps_per_s          = 0;     // X(K), summed over all workers
  double downlink_utilization = 0;     // rho of the downlink station
  bool approximate            = false; // Bard-Schweitzer instead of the exact recursion
  std::size_t states          = 0;
  std::vector<double> t_up_s;   // per type: residence time at U at full population
  std::vector<double> t_down_s; // per type: residence time at D
  std::vector<double> cycle_s;  // per type: time of one step of one worker
};

/** Default bound on the exact recursion's state count: about 0.25 us per state and 4 solves per prediction keep the
 *  exact solution under ~5 ms (bench/analytic_bench); beyond, Bard-Schweitzer (tested within 5% of exact). */
constexpr std::size_t kMvaMaxStates = 20000;

/** Solves eq. (1)-(4) with U and D as processor sharing or FCFS stations and S as processor sharing. */
MvaSolution solve_mva(const MvaInputs& in, NetworkDiscipline net, std::size_t max_states = kMvaMaxStates);

struct AsyncMvaResult {
  double steps_per_s = 0;
  bool used_fcfs     = false; // eq. 5: FCFS when its utilization is at most rho_T
  double rho_fcfs    = 0;
  MvaSolution fcfs;
  MvaSolution ps;
};

/** Eq. 5 (hybrid with threshold rho_T), and with `overlap` the correction of eq. 6 (solve, replace the compute
 *  time by max(0, S^F - T^D) + max(0, S^B - T^U), solve again). */
AsyncMvaResult ps_async_mva(const MvaInputs& in, double rho_t, bool overlap, std::size_t max_states = kMvaMaxStates);

} // namespace sgdsim
