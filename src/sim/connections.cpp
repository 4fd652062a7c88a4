#include "sim/connections.hpp"

#include "common/input_error.hpp"
#include "platform/platform_params.hpp"

#include <algorithm>
#include <map>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

namespace sg4 = simgrid::s4u;

namespace sgdsim {

// PS connections as TCP streams (docs/models.md §10.5): each route's latency moves from the links, where SimGrid
// pays it before every message's bytes, to the PS's actors, which add it once to a burst of messages. Every
// transfer of a PS architecture is a message of a PS connection, so no link keeps a latency. The route from the
// PS to the client stands for both directions (the platforms' routes are symmetric).
void make_streams(sg4::Engine& engine, const Placement& placement, SimContext& ctx)
{
  const double factor  = simgrid::config::get_value<double>("network/latency-factor");
  ctx.stream_latency_s = per_ps_client(engine, placement, ctx, [factor](sg4::Host* ps, sg4::Host* client) {
    double route_s = 0;
    if (client != ps) {
      std::vector<sg4::Link*> links;
      ps->route_to(client, links, &route_s);
    }
    return route_s * factor;
  });
  for (sg4::Link* link : engine.get_all_links())
    link->set_latency(0);
}

// --flow-spread-in/out (docs/models.md §10.6): each worker's connections get their sharing weight through the latency
// of a link only they cross: the first link of the worker's route to each PS (in), the last of each route back (out).
// A link that another worker's connections cross as well, or none, would weigh them all alike: an input error.
void find_weight_links(sg4::Engine& engine, const Placement& placement, SimContext& ctx, const std::string& platform)
{
  std::map<sg4::Link*, int> owner; // link -> worker
  const Scenario& sc = ctx.scenario;
  auto option        = [&](const char* dir) {
    return sc.flow_spread_in > 0 || sc.flow_spread_out > 0 ? std::string("--flow-spread-") + dir
                                                                  : std::string("--first-pull-weight");
  };
  auto own = [&](sg4::Link* link, int w, const char* dir) {
    auto [it, fresh] = owner.emplace(link, w);
    if (!fresh && it->second != w)
      throw InputError(platform, 0,
                       option(dir) + " needs a link of its own per worker, next to it on its routes to the PS: link '" +
                           link->get_name() + "' is on those of workers " + std::to_string(it->second) + " and " +
                           std::to_string(w));
  };
  for (int w = 0; w < ctx.scenario.workers; w++) {
    sg4::Host* me = ctx.worker_host_ptrs[static_cast<std::size_t>(w)];
    std::vector<sg4::Link*> in_links, out_links;
    for (const std::string& h : placement.ps_hosts) {
      sg4::Host* ps = engine.host_by_name(h);
      std::vector<sg4::Link*> up, down;
      me->route_to(ps, up, nullptr);
      ps->route_to(me, down, nullptr);
      if (up.empty() || down.empty())
        throw InputError(platform, 0,
                         option("in/out") + ": worker " + std::to_string(w) + " is on the host of a PS (" + h +
                             "): its connection to it crosses no link to weigh");
      own(up.front(), w, "in");
      own(down.back(), w, "out");
      if (std::find(in_links.begin(), in_links.end(), up.front()) == in_links.end())
        in_links.push_back(up.front());
      if (std::find(out_links.begin(), out_links.end(), down.back()) == out_links.end())
        out_links.push_back(down.back());
    }
    ctx.weight_links_in.push_back(std::move(in_links));
    ctx.weight_links_out.push_back(std::move(out_links));
  }
  ctx.out_weight_latency_s.assign(static_cast<std::size_t>(ctx.scenario.workers), kWeightLatencyS);
  ctx.first_pulls.assign(static_cast<std::size_t>(ctx.scenario.workers), 0);
}

void set_pull_weight(const SimContext& ctx, int w)
{
  const auto i         = static_cast<std::size_t>(w);
  const double weight  = ctx.first_pulls[i] > 0 ? ctx.scenario.first_pull_weight() : 1;
  const double latency = ctx.out_weight_latency_s[i] / weight;
  for (sg4::Link* link : ctx.weight_links_out[i])
    link->set_latency(latency);
}

// The connections a ring message between two hosts is cut over (docs/models.md §10.9). Cutting a message changes
// its rate only where a lone flow is capped (a FATPIPE link narrower than the route's narrowest shared link, between
// ring neighbours on two hosts; the caps of the shipped platforms are the same on every route between hosts) or
// where other all-reduces' flows share its links (several in flight): elsewhere each link of a ring carries one
// message at a time, and N flows of bytes / N on one route end together with the one flow of the bytes; the messages
// of a tree or of halving-doubling that share a link are all cut alike, so their shares stay as they were. There the
// collectives send one flow per message and the ring keeps its step replay (which emulates one flow per chunk; the
// dispatcher sends parts too).
int effective_ring_sockets(const SimContext& ctx)
{
  const Scenario& sc = ctx.scenario;
  if (sc.sockets_per_peer <= 1)
    return 1;
  if (ctx.lanes() > 1)
    return sc.sockets_per_peer;
  const int stride = sc.ring_stride();
  const int n      = sc.workers / stride;
  for (int i = 0; i < n; i++) {
    const sg4::Host* from = ctx.worker_host_ptrs[static_cast<std::size_t>(i * stride)];
    const sg4::Host* to   = ctx.worker_host_ptrs[static_cast<std::size_t>((i + 1) % n * stride)];
    if (from == to)
      continue;
    const RouteInfo r = route_info(from, to);
    if (r.flow_cap_Bps < r.bottleneck_Bps) // a cap that binds a lone flow
      return sc.sockets_per_peer;
    if (sc.connection_rate_Bps > 0 && sc.connection_rate_Bps < r.bottleneck_Bps) // a connection's rate binds it
      return sc.sockets_per_peer;
  }
  return 1;
}

// Whether the run's ring is sliced (docs/models.md §10.10): sliced ring options, and some all-reduce whose chunk spans
// more than one slice (the largest call: the largest planned unit, or with fusion the buffer or the largest layer),
// or a FIFO egress, which only the sliced ring's dispatcher models (§10.12). Where every chunk fits in one slice,
// slices forward whole chunks once arrived, as the ring dispatcher does with the links' latencies: it runs those,
// faster.
bool ring_sliced_run(const Workload& wl, const Scenario& sc, const std::vector<GradUnit>& units)
{
  if (!sc.ring_sliced())
    return false;
  const int members    = sc.workers / sc.ring_stride();
  double largest_bytes = 0;
  if (sc.fusion_at_run_time()) { // buffers decided during the run: at most Q, or a layer above Q
    largest_bytes = std::min(sc.fusion_buffer_bytes, wl.model_bytes());
    for (std::size_t l = 0; l < wl.layers.size(); l++)
      largest_bytes = std::max(largest_bytes, wl.layer_bytes(l));
  } else
    for (const GradUnit& u : units)
      largest_bytes = std::max(largest_bytes, u.bytes);
  return members > 1 &&
         (largest_bytes / members > sc.ring_slice_bytes || sc.egress_fifo || sc.ring_min_slices_per_step > 1);
}

// A sliced steps-mode ring (docs/models.md §10.10): each ring connection is a stream whose latency its actors add to
// each slice, so the route latencies move from the links to ctx.ring_latency_s, per worker to its right neighbour
// (the leaders' ring of the hierarchical all-reduce: its leaders'). No link keeps a latency: the hierarchical
// all-reduce's phases inside a node and background flows lose theirs.
void make_ring_streams(sg4::Engine& engine, SimContext& ctx)
{
  const Scenario& sc  = ctx.scenario;
  const double factor = simgrid::config::get_value<double>("network/latency-factor");
  const int stride    = sc.ring_stride();
  const int n         = sc.workers / stride;
  ctx.ring_latency_s.assign(static_cast<std::size_t>(sc.workers), 0.0);
  for (int i = 0; i < n; i++) {
    sg4::Host* from = ctx.worker_host_ptrs[static_cast<std::size_t>(i * stride)];
    sg4::Host* to   = ctx.worker_host_ptrs[static_cast<std::size_t>((i + 1) % n * stride)];
    double route_s  = 0;
    if (from != to) {
      std::vector<sg4::Link*> links;
      from->route_to(to, links, &route_s);
    }
    ctx.ring_latency_s[static_cast<std::size_t>(i * stride)] = route_s * factor;
  }
  for (sg4::Link* link : engine.get_all_links())
    link->set_latency(0);
}

} // namespace sgdsim
