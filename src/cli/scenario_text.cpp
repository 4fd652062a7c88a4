// `sgdsim run --print-scenario`: the resolved options as a scenario file that reproduces the run.
#include "cli/options.hpp"

#include <sstream>

namespace sgdsim {

std::string scenario_file_text(const RunOptions& opts)
{
  const Scenario& sc = opts.scenario;
  std::ostringstream out;
  out.precision(15); // enough for the decimal values users write, without binary noise
  out << "# sgdsim scenario (sgdsim run --scenario FILE)\n";
  out << "platform = " << opts.platform << "\n";
  out << "workload = " << opts.workload << "\n";
  if (!opts.deployment.empty())
    out << "deployment = " << opts.deployment << "\n";
  if (!opts.background.empty())
    out << "background = " << opts.background << "\n";
  out << "arch = " << to_string(sc.arch) << "\n";
  out << "workers = " << sc.workers << "\n";
  if (sc.is_ps())
    out << "ps = " << sc.ps << "\n";
  out << "overlap = " << (sc.overlap ? "on" : "off") << "\n";
  if (sc.is_ps()) {
    out << "framework = " << sc.framework << "\n";
    out << "sharing = " << to_string(sc.sharing) << "\n";
    out << "ps-split = " << to_string(sc.ps_split) << "\n";
    out << "stream = " << (sc.stream ? "on" : "off") << "\n";
    if (sc.ps_reads_per_variable)
      out << "ps-reads = per-variable\n";
    if (sc.release_quantum_s != 0)
      out << "release-quantum = " << sc.release_quantum_s << "s\n";
    if (sc.message_overhead_s != 0)
      out << "message-overhead = " << sc.message_overhead_s << "s\n";
    if (sc.message_s_per_byte != 0)
      out << "message-overhead-per-byte = " << sc.message_s_per_byte << "s\n";
    if (sc.receive_s_per_byte != 0)
      out << "receive-overhead-per-byte = " << sc.receive_s_per_byte << "s\n";
    if (sc.flow_spread_in != 0)
      out << "flow-spread-in = " << sc.flow_spread_in << "\n";
    if (sc.flow_spread_out != 0)
      out << "flow-spread-out = " << sc.flow_spread_out << "\n";
    if (sc.first_pull_weight() != 1)
      out << "first-pull-weight = " << sc.first_pull_weight() << "\n";
    if (sc.ack_coupled())
      out << "ack-coupling-in = " << sc.ack_coupling_in << "\nack-coupling-out = " << sc.ack_coupling_out << "\n";
    if (sc.ack_coupling_exponent_in != 1)
      out << "ack-coupling-exponent-in = " << sc.ack_coupling_exponent_in << "\n";
    if (sc.ack_coupling_exponent_out != 1)
      out << "ack-coupling-exponent-out = " << sc.ack_coupling_exponent_out << "\n";
    for (const StartOrderOption& option : kStartOrderOptions)
      if (const std::optional<double>& g = sc.*option.field)
        out << option.name << " = " << *g << "\n";
    if (sc.ack_coupling_offered_load)
      out << "ack-coupling-offered-load = on\n";
  } else {
    out << "collective = " << to_string(sc.collective) << "\n";
    if (sc.collective == Collective::HIERARCHICAL)
      out << "gpus-per-node = " << sc.gpus_per_node << "\n";
    if (sc.collective == Collective::TREE)
      out << "pipeline-chunks = " << sc.pipeline_chunks << "\n";
    if (sc.collective == Collective::RING || sc.collective == Collective::HIERARCHICAL)
      out << "ring-mode = " << to_string(sc.ring_mode) << "\n";
    out << "framework = " << sc.framework << "\n";
    out << "allreduce-unit = " << to_string(sc.unit()) << "\n";
    if (sc.unit() == AllreduceUnit::BUCKET) {
      out << "bucket-size = " << sc.bucket_bytes << "B\n";
      out << "first-bucket-size = " << sc.first_bucket_bytes << "B\n";
    }
    out << "collectives-in-flight = " << sc.collectives_in_flight << "\n";
    out << "sockets-per-peer = " << sc.sockets_per_peer << "\n";
    if (sc.connection_rate_Bps > 0)
      out << "connection-rate = " << sc.connection_rate_Bps << "Bps\n";
    out << "ring-slice = " << sc.ring_slice_bytes << "B\n";
    if (sc.ring_slice_bytes > 0)
      out << "ring-slices-in-flight = " << sc.ring_slices_in_flight << "\n";
    if (sc.ring_min_slices_per_step > 1)
      out << "ring-min-slices = " << sc.ring_min_slices_per_step << "\n";
    if (sc.egress_fifo)
      out << "egress-fifo = on\nfifo-wait = " << to_string(sc.fifo_wait) << "\n";
    if (sc.unit() == AllreduceUnit::FUSION) {
      out << "fusion-buffer = " << sc.fusion_buffer_bytes << "B\n";
      out << "fusion-batches = " << to_string(sc.fusion_batches) << "\n";
      if (sc.fusion_batches == FusionBatches::READY) // buffers of launched tensors wait for no timeout
        out << "fusion-timeout = " << sc.fusion_timeout_s << "s\n";
    }
    if (sc.ada_fusion)
      out << "ada-fusion = true\n";
    out << "allreduce-overhead = " << sc.allreduce_overhead_s << "s\n";
    out << "measured-allreduce = " << (sc.measured_allreduce ? "on" : "off") << "\n";
    if (sc.measured_allreduce) {
      out << "measured-sizes = " << (sc.measured_sizes ? "on" : "off") << "\n";
      out << "measured-node-window = " << sc.measured_node_window << "\n";
      if (!sc.allreduce_queued_time.empty()) {
        out << "in-flight-cost = " << to_string(sc.in_flight_cost) << "\n";
        if (sc.in_flight_cost == InFlightCost::PAIRED)
          out << "uncovered-gain = " << to_string(sc.uncovered_gain) << "\n";
      }
    }
    out << "message-overhead = " << sc.message_overhead_s << "s\n";
    out << "reduce-cost-per-byte = " << sc.reduce_s_per_byte << "s\n";
  }
  out << "steps = " << sc.steps << "\n";
  out << "warmup = " << sc.warmup << "\n";
  out << "seed = " << sc.seed << "\n";
  if (sc.compute_jitter_cv != 0)
    out << "compute-jitter = " << sc.compute_jitter_cv << "\n";
  for (const std::string& c : opts.user_cfg)
    out << "cfg = " << c << "\n";
  for (const std::string& l : opts.log_settings)
    out << "log = " << l << "\n";
  if (opts.rho_t != 0.6)
    out << "rho-t = " << opts.rho_t << "\n";
  if (opts.tensor_overhead_s != 0)
    out << "tensor-overhead = " << opts.tensor_overhead_s << "s\n";
  if (opts.tensor_overhead_s_per_byte != 0)
    out << "tensor-overhead-per-byte = " << opts.tensor_overhead_s_per_byte << "s\n";
  return out.str();
}

} // namespace sgdsim
