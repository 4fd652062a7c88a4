// src/sim/worker.cpp: a worker of ps-sync / ps-async. Each step executes the per-layer DAG (docs/models.md §4):
// downlink of each tensor (from the PS that holds it, in forward order), forward of layer i once its tensors
// arrived and layer i-1 is done, backward in reverse order, uplink of each gradient once its layer's backward is
// done. One compute stream; one transfer at a time per PS connection; PS connections run concurrently.
// Without overlap: all downlinks, then all compute, then all uplinks.

#include "sim/worker.hpp"

#include "sim/ack_coupling.hpp"
#include "sim/connections.hpp"
#include "workload/step_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <deque>

XBT_LOG_EXTERNAL_CATEGORY(sgdsim);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(sgdsim_worker, sgdsim, "Workers of the parameter-server architectures");

namespace sg4 = simgrid::s4u;

namespace sgdsim {

PsWorker::PsWorker(const SimContext& ctx, StepRecorder& recorder, int rank)
    : ctx_(ctx), recorder_(recorder), rank_(rank), rng_(ctx.scenario.seed, static_cast<std::uint64_t>(rank)),
      flow_rng_(ctx.scenario.seed, (std::uint64_t{1} << 32) + static_cast<std::uint64_t>(rank))
{
  const auto n_ps = static_cast<int>(ctx_.ps_tensors.size());
  for (int p = 0; p < n_ps; p++) {
    if (ctx_.hierarchical_ps()) { // the node's relay stands for the PS
      downlinks_.push_back(sg4::Mailbox::by_name(relay_down_mailbox(p, rank_)));
      uplinks_.push_back(sg4::Mailbox::by_name(relay_up_mailbox(p, rank_)));
      continue;
    }
    downlinks_.push_back(sg4::Mailbox::by_name(downlink_mailbox(p, rank_)));
    uplinks_.push_back(sg4::Mailbox::by_name(ctx_.scenario.sharing == Sharing::FCFS ? uplink_mailbox_fcfs(p)
                                                                                    : uplink_mailbox(p, rank_)));
  }
  arrived_.assign(ctx_.workload.tensors.size(), 0);
  prefetched_.assign(ctx_.ps_tensors.size(), 0);
}

void PsWorker::operator()()
{
  const bool async = ctx_.scenario.arch == Arch::PS_ASYNC;
  // Async workers go on past their measured steps until every worker has measured its own: see StepRecorder.
  // With hierarchical PS the GPUs of a node must stop after the same step, since their relay waits for every GPU's
  // gradients: one that stopped would leave the others waiting forever (SimGrid then ended the run on a "deadlock").
  // The first GPU of a node that would stop runs this one more step and the node stops after it: the others are at
  // most at this step, as a GPU cannot finish a step before the relay has forwarded it every GPU's parameters.
  int* node_steps = async && ctx_.hierarchical_ps()
                        ? &ctx_.node_steps[static_cast<std::size_t>(rank_ / ctx_.scenario.gpus_per_node)]
                        : nullptr;
  for (int step = 0;; step++) {
    const bool done = step >= ctx_.total_steps() && (!async || recorder_.all_measured());
    if (node_steps) {
      if (done && *node_steps < 0)
        *node_steps = step + 1;
      if (*node_steps >= 0 && step >= *node_steps)
        break;
    } else if (done) {
      break;
    }
    run_step();
  }
}

bool PsWorker::layer_ready(int layer) const
{
  for (int t : ctx_.workload.layers[static_cast<std::size_t>(layer)].tensors)
    if (!arrived_[static_cast<std::size_t>(t)])
      return false;
  return true;
}

// --flow-spread-in/out (docs/models.md §10.6): this step's sharing weight of the worker's connections into its PS and
// out of it. With network/weight-S at 0, SimGrid's LV08 weighs a flow by 1 / (its route's latency) against the
// other flows of a link; the streams leave every link's latency at 0, and a link of the worker's own gets
// kWeightLatencyS x exp(-spread x u): weight exp(spread x u). 1 us is small beside any transfer (the latency is
// also paid once per message: at most 7.4 us at the largest spread) and far above SimGrid's 1 ns precision.
void PsWorker::draw_flow_weights()
{
  const auto w       = static_cast<std::size_t>(rank_);
  const double u_in  = 2 * flow_rng_.uniform01() - 1;
  const double u_out = 2 * flow_rng_.uniform01() - 1;
  for (sg4::Link* link : ctx_.weight_links_in[w])
    link->set_latency(kWeightLatencyS * std::exp(-ctx_.scenario.flow_spread_in * u_in));
  ctx_.out_weight_latency_s[w] = kWeightLatencyS * std::exp(-ctx_.scenario.flow_spread_out * u_out);
  set_pull_weight(ctx_, rank_); // a first pull under way keeps its weight (two PS: one may release before this step)
}

// With per-variable reads (docs/models.md §10.13) the parameters of the next step arrive during this one, as the PS
// releases each tensor: the step ends once they all have (the last step too), and the next step's forward starts once
// every parameter is there. A PS's tensors reach a worker in the order it released them, and the next step's only after
// this step's (the PS releases them after this worker's gradients).
void PsWorker::run_step()
{
  if (!ctx_.weight_links_in.empty())
    draw_flow_weights();
  const Workload& wl   = ctx_.workload;
  const bool overlap   = ctx_.scenario.overlap;
  const auto n_ps      = ctx_.ps_tensors.size();
  const int n_layers   = static_cast<int>(wl.layers.size());
  const auto n_tensors = static_cast<int>(wl.tensors.size());
  draw_step_times(ctx_.workload, rng_, ctx_.scenario.compute_jitter_cv, fwd_s_, bwd_s_);
  std::fill(arrived_.begin(), arrived_.end(), 0);

  const bool per_variable = ctx_.scenario.ps_reads_per_variable;
  // Per PS, the tensors received for this step (with per-variable reads: those received during the last step) and
  // for the next one (per-variable reads only).
  std::vector<std::size_t> dl_next(n_ps, 0);
  std::vector<std::size_t> dl_ahead(n_ps, 0);
  int arrived_ahead = 0;
  std::vector<sg4::CommPtr> dl_comm(n_ps);
  std::vector<TensorMsg*> dl_payload(n_ps, nullptr);
  std::vector<std::deque<int>> ul_queue(n_ps);
  std::vector<sg4::CommPtr> ul_comm(n_ps);
  std::vector<int> ul_tensor(n_ps, -1);
  int arrived_count = 0;
  if (per_variable)
    for (std::size_t p = 0; p < n_ps; p++) {
      dl_next[p] = prefetched_[p];
      arrived_count += static_cast<int>(prefetched_[p]);
    }
  int uplinks_done = 0;
  int next_fwd     = 0;
  int next_bwd     = n_layers - 1;
  sg4::ExecPtr exec;
  bool exec_is_fwd = true;

  auto post_downlink = [&](std::size_t p) {
    const std::size_t shard = ctx_.ps_tensors[p].size();
    if (dl_next[p] < shard || (per_variable && dl_ahead[p] < shard)) {
      dl_comm[p] = downlinks_[p]->get_async<TensorMsg>(&dl_payload[p]);
      track_ack_coupling(dl_comm[p], static_cast<int>(p), false);
    }
  };
  for (std::size_t p = 0; p < n_ps; p++)
    post_downlink(p);

  auto start_exec = [&](double ref_s, bool fwd) {
    // Compute times are given on the reference device; a host of another speed scales them (README "Compute").
    exec        = sg4::this_actor::exec_init(ref_s * wl.reference_speed);
    exec_is_fwd = fwd;
    exec->start();
  };

  std::vector<sg4::ActivityPtr> pending;
  std::vector<int> tags; // -1: exec; 2p: downlink from PS p; 2p+1: uplink to PS p
  while (uplinks_done < n_tensors || (per_variable && arrived_ahead < n_tensors)) {
    if (!exec) {
      if (next_fwd < n_layers) {
        if (overlap && !per_variable ? layer_ready(next_fwd) : arrived_count == n_tensors)
          start_exec(fwd_s_[static_cast<std::size_t>(next_fwd)], true);
      } else if (next_bwd >= 0) {
        start_exec(bwd_s_[static_cast<std::size_t>(next_bwd)], false);
      }
    }
    const bool backward_done = next_bwd < 0 && !exec;
    for (std::size_t p = 0; p < n_ps; p++) {
      if (ul_comm[p] || ul_queue[p].empty() || (!overlap && !backward_done))
        continue;
      int t = ul_queue[p].front();
      ul_queue[p].pop_front();
      ul_tensor[p] = t;
      ul_comm[p]   = uplinks_[p]->put_async(ctx_.message(rank_, t),
                                            static_cast<std::uint64_t>(wl.tensors[static_cast<std::size_t>(t)].bytes));
      track_ack_coupling(ul_comm[p], static_cast<int>(p), true);
    }

    pending.clear();
    tags.clear();
    if (exec) {
      pending.push_back(exec);
      tags.push_back(-1);
    }
    for (std::size_t p = 0; p < n_ps; p++) {
      if (dl_comm[p]) {
        pending.push_back(dl_comm[p]);
        tags.push_back(static_cast<int>(2 * p));
      }
      if (ul_comm[p]) {
        pending.push_back(ul_comm[p]);
        tags.push_back(static_cast<int>(2 * p + 1));
      }
    }
    xbt_assert(!pending.empty(), "worker %d: nothing to wait for with %d of %d uplinks done (a scheduling bug)", rank_,
               uplinks_done, n_tensors);
    const ssize_t done = sg4::Activity::wait_any(pending);
    const int tag      = tags[static_cast<std::size_t>(done)];
    if (tag == -1) {
      account_.add_compute(exec->get_start_time(), exec->get_finish_time());
      if (recorder_.timeline_enabled()) {
        const int layer = exec_is_fwd ? next_fwd : next_bwd;
        recorder_.worker_op(rank_, "compute",
                            (exec_is_fwd ? "fwd " : "bwd ") + wl.layers[static_cast<std::size_t>(layer)].name,
                            exec->get_start_time(), exec->get_finish_time());
      }
      if (exec_is_fwd) {
        next_fwd++;
      } else {
        // The gradients of this layer are ready: queue them for their PS, in backward order.
        const auto& tensors = wl.layers[static_cast<std::size_t>(next_bwd)].tensors;
        for (auto it = tensors.rbegin(); it != tensors.rend(); ++it)
          ul_queue[static_cast<std::size_t>(ctx_.tensor_ps[static_cast<std::size_t>(*it)])].push_back(*it);
        next_bwd--;
      }
      exec = nullptr;
    } else if (tag % 2 == 0) {
      auto p = static_cast<std::size_t>(tag / 2);
      // In shard order; with per-variable reads in the order the PS released them, from its shard.
      const bool ahead   = per_variable && dl_next[p] == ctx_.ps_tensors[p].size();
      const int expected = per_variable ? (dl_payload[p] ? dl_payload[p]->tensor : -1) : ctx_.ps_tensors[p][dl_next[p]];
      xbt_assert(dl_payload[p] && dl_payload[p]->tensor == expected && dl_payload[p]->worker == rank_ &&
                     ctx_.tensor_ps[static_cast<std::size_t>(expected)] == static_cast<int>(p),
                 "worker %d: expected tensor %d from PS %zu, received %d", rank_, expected, p,
                 dl_payload[p] ? dl_payload[p]->tensor : -1);
      account_.add_comm(dl_comm[p]->get_start_time(), dl_comm[p]->get_finish_time());
      if (recorder_.timeline_enabled())
        recorder_.worker_op(rank_, "downlink", wl.tensors[static_cast<std::size_t>(expected)].name,
                            dl_comm[p]->get_start_time(), dl_comm[p]->get_finish_time());
      if (ahead) {
        dl_ahead[p]++;
        arrived_ahead++;
      } else {
        arrived_[static_cast<std::size_t>(expected)] = 1;
        arrived_count++;
        dl_next[p]++;
      }
      dl_comm[p] = nullptr;
      post_downlink(p);
    } else {
      auto p = static_cast<std::size_t>(tag / 2);
      account_.add_comm(ul_comm[p]->get_start_time(), ul_comm[p]->get_finish_time());
      if (recorder_.timeline_enabled())
        recorder_.worker_op(rank_, "uplink", wl.tensors[static_cast<std::size_t>(ul_tensor[p])].name,
                            ul_comm[p]->get_start_time(), ul_comm[p]->get_finish_time());
      ul_comm[p] = nullptr;
      uplinks_done++;
    }
  }
  prefetched_      = dl_ahead;
  const double now = sg4::Engine::get_clock();
  recorder_.end_step(rank_, now, account_.close_window(step_begin_s_, now));
  XBT_DEBUG("worker %d: step ends at %.9f", rank_, now);
  step_begin_s_ = now;
}

} // namespace sgdsim
