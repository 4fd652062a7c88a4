// --ack-coupling-in/out (sim/ack_coupling.hpp, docs/models.md §10.6): flows through a hub's NIC in both directions
// at once, each bounded by its rate alone / (G x the flows the other way), against closed forms. SimGrid runs in a
// forked child (one engine per process, docs/design.md, SimGrid fact 1), on CM02 without ACK traffic (as the
// options set it) and a 1 GB/s star: a flow alone moves 100 MB in 0.1 s.
#include "sim/ack_coupling.hpp"
#include "support/tiny.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <simgrid/s4u.hpp>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace sgdsim;
namespace sg4 = simgrid::s4u;

namespace {
constexpr double kMB = 1e6;
int kPayload         = 0; // what every message carries (SimGrid refuses to send nullptr)

// prefix + i (GCC 12's -Wrestrict misfires on a literal + std::to_string at -O3).
std::string named(const char* prefix, std::size_t i)
{
  std::string s(prefix);
  s += std::to_string(i);
  return s;
}

struct Flow {
  int client;    // host h<client>; the hub is h0
  bool into_hub; // client -> hub, else hub -> client
  double bytes;
  double start_s      = 0;
  bool after_previous = false; // its sender posts it as the list's previous flow ends (start_s: its receiver's date)
};

// The start-order laws a test sets (AckCoupling::set_law, exponent 1); 0: left as the law of flows started together.
struct Laws {
  double late_in = 0, late_out = 0, established_in = 0, established_out = 0;
  bool offered_load = false; // AckCoupling::scale_by_offered_load
};

// Starts every flow at its start date and returns each one's end date, in order (-1 where the child failed).
std::vector<double> end_dates(const std::vector<Flow>& flows, double g_in, double g_out, bool couple = true,
                              double e_in = 1, double e_out = 1, Laws laws = {})
{
  const std::string platform = tiny::star_platform(9, "1GBps");
  const std::string out      = tiny::temp_dir() + "/ack_coupling_ends.txt";
  const pid_t pid            = fork();
  if (pid == 0) {
    int argc                = 3;
    std::string args[]      = {"ack_coupling_test", "--cfg=network/model:CM02", "--cfg=network/crosstraffic:0"};
    std::vector<char*> argv = {args[0].data(), args[1].data(), args[2].data(), nullptr};
    sg4::Engine engine(&argc, argv.data());
    engine.load_platform(platform);
    std::optional<AckCoupling> coupling;
    if (couple)
      coupling.emplace(1, g_in, g_out, e_in, e_out);
    using Order = AckCoupling::StartOrder;
    for (auto [into_hub, order, g] : {std::tuple{true, Order::LATE, laws.late_in},
                                      {false, Order::LATE, laws.late_out},
                                      {true, Order::ESTABLISHED, laws.established_in},
                                      {false, Order::ESTABLISHED, laws.established_out}})
      if (couple && g > 0)
        coupling->set_law(into_hub, order, g, 1);
    if (couple)
      coupling->scale_by_offered_load(laws.offered_load);
    std::vector<double> ends(flows.size(), -1);
    std::vector<sg4::SemaphorePtr> sent;
    for (std::size_t i = 0; i < flows.size(); i++)
      sent.push_back(sg4::Semaphore::create(0));
    for (std::size_t i = 0; i < flows.size(); i++) {
      const Flow f        = flows[i];
      const std::string c = named("h", static_cast<std::size_t>(f.client));
      sg4::Mailbox* mb    = sg4::Mailbox::by_name(named("flow", i));
      sg4::Actor::create(named("send", i), engine.host_by_name(f.into_hub ? c : "h0"), [mb, f, &sent, i] {
        if (f.after_previous && i > 0)
          sent[i - 1]->acquire();
        else
          sg4::this_actor::sleep_for(f.start_s);
        sg4::CommPtr comm = mb->put_async(&kPayload, static_cast<std::uint64_t>(f.bytes));
        track_ack_coupling(comm, 0, f.into_hub);
        comm->wait();
        sent[i]->release();
      });
      sg4::Actor::create(named("recv", i), engine.host_by_name(f.into_hub ? "h0" : c), [mb, f, &ends, i] {
        sg4::this_actor::sleep_for(f.start_s);
        int* data         = nullptr;
        sg4::CommPtr comm = mb->get_async<int>(&data);
        track_ack_coupling(comm, 0, f.into_hub);
        comm->wait();
        ends[i] = sg4::Engine::get_clock();
      });
    }
    engine.run();
    std::ofstream file(out);
    for (double e : ends)
      file << e << "\n";
    file.close();
    _exit(file ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::vector<double> ends(flows.size(), -1);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    std::ifstream file(out);
    for (double& e : ends)
      file >> e;
  }
  return ends;
}
} // namespace

TEST(AckCoupling, BoundIsTheRateAloneOverGTimesTheReverseFlows)
{
  EXPECT_DOUBLE_EQ(ack_coupled_bound(100, 0.8, 2), 100 / 1.6);
  EXPECT_DOUBLE_EQ(ack_coupled_bound(100, 0.5, 3), 100 / 1.5);
  EXPECT_DOUBLE_EQ(ack_coupled_bound(100, 0.8, 1), 100) << "0.8 x 1 flow: no slower than alone";
  EXPECT_DOUBLE_EQ(ack_coupled_bound(100, 2, 0), 100) << "nothing the other way";
}

TEST(AckCoupling, TheExponentDividesByTheOwnFlowsToOneMinusIt)
{
  // 4 flows each way, G 0.5: with exponent 1 each flow's bound is alone / 2 (the 4 flows' share, C / 4, is below
  // it: no slowdown); with exponent 0.5 alone / (2 x 4^0.5) = alone / 4, the share itself; with 0, alone / 8.
  EXPECT_DOUBLE_EQ(ack_coupled_bound(100, 0.5, 4, 4, 1), 100 / 2.0);
  EXPECT_DOUBLE_EQ(ack_coupled_bound(100, 0.5, 4, 4, 0.5), 100 / 4.0);
  EXPECT_DOUBLE_EQ(ack_coupled_bound(100, 0.5, 4, 4, 0), 100 / 8.0);
  EXPECT_DOUBLE_EQ(ack_coupled_bound(100, 0.5, 3, 1, 0.3), 100 / 1.5) << "one flow its way: the exponent is moot";
  EXPECT_DOUBLE_EQ(ack_coupled_bound(100, 0.25, 2, 4, 0.5), 100) << "0.25 x 2 x 2 = 1: no slower than alone";
}

TEST(AckCoupling, ManyFlowsEachWayWithAnExponent)
{
  // 4 clients each send 100 MB to the hub while the hub sends 100 MB to 4 others (C / 4 each way: 0.4 s alone).
  // The flows out, slowed max(1, 0.8 x 4 / 4) = 1 (G_out 0.8, exponent 1), end at 0.4 s. G_in 0.5, exponent 0: the
  // flows in are slowed max(1, 0.5 x 4 / 4^0) = 2 while the flows out run, each bounded at C / 8 (50 MB by 0.4 s),
  // then share C: the other 50 MB at C / 4 end at 0.6 s. With exponent 1 in, nothing slows.
  std::vector<Flow> flows;
  for (int c = 1; c <= 4; c++)
    flows.push_back({c, true, 100 * kMB});
  for (int c = 5; c <= 8; c++)
    flows.push_back({c, false, 100 * kMB});
  const std::vector<double> ends = end_dates(flows, 0.5, 0.8, true, 0, 1);
  ASSERT_EQ(ends.size(), 8U);
  EXPECT_NEAR(ends[0], 0.6, 1e-9);
  EXPECT_NEAR(ends[3], 0.6, 1e-9);
  EXPECT_NEAR(ends[4], 0.4, 1e-9);
  const std::vector<double> lone = end_dates(flows, 0.5, 0.8, true, 1, 1);
  EXPECT_NEAR(lone[0], 0.4, 1e-9) << "exponent 1: 0.5 x 4 / 4 < 1";
}

TEST(AckCoupling, AFlowOutOfTheHubBesideFlowsIntoIt)
{
  // Two clients send 100 MB to the hub (C / 2 each: 0.2 s) while the hub sends 100 MB out. G_out 0.8 x 2 flows in:
  // the flow out runs at C / 1.6 and ends at 0.16 s (without the coupling 0.1 s; SimGrid's ACK traffic gives
  // C / 2.05, 0.205 s). G_in 0.5 x 1 flow out is below 1: the flows in are not slowed.
  const std::vector<Flow> flows  = {{1, true, 100 * kMB}, {2, true, 100 * kMB}, {3, false, 100 * kMB}};
  const std::vector<double> ends = end_dates(flows, 0.5, 0.8);
  EXPECT_NEAR(ends[2], 0.16, 1e-9);
  EXPECT_NEAR(ends[0], 0.2, 1e-9);
  EXPECT_NEAR(ends[1], 0.2, 1e-9);
  const std::vector<double> free = end_dates(flows, 0.5, 0.8, false);
  EXPECT_NEAR(free[2], 0.1, 1e-9) << "without the coupling the directions are independent";
}

TEST(AckCoupling, AFlowIntoTheHubBesideFlowsOutOfIt)
{
  // The hub sends 100 MB to three clients (C / 3 each: 0.3 s) while a fourth sends it 100 MB: G_in 0.5 x 3 flows
  // out holds that flow to C / 1.5, 0.15 s; G_out 0.8 x 1 flow in leaves the flows out alone.
  const std::vector<double> ends =
      end_dates({{1, false, 100 * kMB}, {2, false, 100 * kMB}, {3, false, 100 * kMB}, {4, true, 100 * kMB}}, 0.5, 0.8);
  EXPECT_NEAR(ends[3], 0.15, 1e-9);
  EXPECT_NEAR(ends[0], 0.3, 1e-9);
}

TEST(AckCoupling, ACouplingOfZeroLeavesThatDirectionAlone)
{
  // G_out 0 (campaign 2026-12-06g's incast-mixed under CUBIC: the flows out kept their rate beside up to 7 flows
  // in): the flow out of the hub beside two flows in runs at C and ends at 0.1 s, as without a coupling, while
  // G_in 0.5 x 1 flow out leaves the flows in alone (0.2 s); and G_in 0.5 still holds a flow in beside three out.
  const std::vector<double> ends =
      end_dates({{1, true, 100 * kMB}, {2, true, 100 * kMB}, {3, false, 100 * kMB}}, 0.5, 0);
  EXPECT_NEAR(ends[2], 0.1, 1e-9);
  EXPECT_NEAR(ends[0], 0.2, 1e-9);
  const std::vector<double> in =
      end_dates({{1, false, 100 * kMB}, {2, false, 100 * kMB}, {3, false, 100 * kMB}, {4, true, 100 * kMB}}, 0.5, 0);
  EXPECT_NEAR(in[3], 0.15, 1e-9);
}

TEST(AckCoupling, TheBoundFollowsTheFlowsAsTheyEnd)
{
  // Two flows in (50 and 100 MB) and 100 MB out, G_out 0.8. Until the 50 MB flow ends at 0.1 s the flow out runs at
  // C / 1.6 (62.5 MB); beside one flow in (0.8 < 1) it runs at C: the remaining 37.5 MB end at 0.1375 s.
  const std::vector<double> ends =
      end_dates({{1, true, 50 * kMB}, {2, true, 100 * kMB}, {3, false, 100 * kMB}}, 0.5, 0.8);
  EXPECT_NEAR(ends[0], 0.1, 1e-9);
  EXPECT_NEAR(ends[2], 0.1375, 1e-9);
  EXPECT_NEAR(ends[1], 0.15, 1e-9);
}

TEST(AckCoupling, AFlowThatCrossesNoNicIsNotCounted)
{
  // The hub sends 100 MB to itself (SimGrid's loopback, 10 GB/s: no NIC) while a client sends it 100 MB. Were the
  // loopback flow counted as a flow out of the hub, G_in 2 would hold the client's flow to C / 2 for its 10 ms (0.105
  // s); it is not: 0.1 s.
  const std::vector<double> ends = end_dates({{1, true, 100 * kMB}, {0, false, 100 * kMB}}, 2, 0.8);
  EXPECT_NEAR(ends[0], 0.1, 1e-9);
  EXPECT_GT(ends[1], 0) << "the loopback flow ends";
}

TEST(AckCoupling, AFlowStartedBesideAnEstablishedOneTakesTheLateLaw)
{
  // The hub sends 100 MB to client 1 from 0 (0.1 s alone); client 2 sends it 50 MB from 0.02 s. G_in 0.5 x 1 flow
  // out is below 1: started together the flow in would run at C and end at 0.07 s. Started late, with the late G_in
  // 2 it is held to C / 2 until the flow out ends at 0.1 s (40 MB), then runs its last 10 MB at C: 0.11 s. The flow
  // out, established, keeps the law of flows started together (G_out 0.8 x 1 < 1): 0.1 s.
  const std::vector<Flow> flows  = {{1, false, 100 * kMB, 0}, {2, true, 50 * kMB, 0.02}};
  const std::vector<double> late = end_dates(flows, 0.5, 0.8, true, 1, 1, Laws{.late_in = 2});
  EXPECT_NEAR(late[1], 0.11, 1e-9);
  EXPECT_NEAR(late[0], 0.1, 1e-9);
  const std::vector<double> unset = end_dates(flows, 0.5, 0.8);
  EXPECT_NEAR(unset[1], 0.07, 1e-9) << "without the late law a late flow takes the law of flows started together";
}

TEST(AckCoupling, TheFlowAnotherJoinsTakesTheEstablishedLaw)
{
  // The same flows with the established G_out 2 instead: the flow out is held to C / 2 from 0.02 s, while the flow
  // in runs (at C: G_in 0.5 x 1 < 1, 50 MB to 0.07 s): 20 MB by 0.02 s, 45 MB by 0.07 s, its last 55 MB at C: 0.125 s.
  const std::vector<double> ends = end_dates({{1, false, 100 * kMB, 0}, {2, true, 50 * kMB, 0.02}}, 0.5, 0.8, true, 1,
                                             1, Laws{.established_out = 2});
  EXPECT_NEAR(ends[0], 0.125, 1e-9);
  EXPECT_NEAR(ends[1], 0.07, 1e-9);
}

TEST(AckCoupling, FlowsStartedTogetherTakeNeitherLaw)
{
  // The mirror started late: client 1 sends the hub 100 MB from 0, the hub sends client 2 50 MB from 0.02 s with the
  // late G_out 2: 0.11 s. Started at the same date as the flow in, the flow out is neither late nor established:
  // the law of flows started together (G_out 0.8 x 1 < 1) leaves it at C, 0.05 s, and the flow in (not established
  // either) at 0.1 s.
  const std::vector<double> late =
      end_dates({{1, true, 100 * kMB, 0}, {2, false, 50 * kMB, 0.02}}, 0.5, 0.8, true, 1, 1, Laws{.late_out = 2});
  EXPECT_NEAR(late[1], 0.11, 1e-9);
  const std::vector<double> together = end_dates({{1, true, 100 * kMB, 0}, {2, false, 50 * kMB, 0}}, 0.5, 0.8, true, 1,
                                                 1, Laws{.late_out = 2, .established_in = 2});
  EXPECT_NEAR(together[1], 0.05, 1e-9);
  EXPECT_NEAR(together[0], 0.1, 1e-9);
}

TEST(AckCoupling, AConnectionKeepsItsStartOrderAcrossBackToBackMessages)
{
  // The hub sends client 1 two messages of 50 MB on one connection, the second as the first ends (0.05 s), while
  // client 2 sends it 400 MB from 0.02 s. The connection's episode began before the flow in: the second message is
  // not late (the law of flows started together, G_out 0.8 x 1 < 1: at C, 0.1 s). After a pause of an RTO or more
  // (AckCoupling::kEpisodeIdleS) the connection starts a new episode, late beside the flow in: the late G_out 2
  // holds a message sent at 0.3 s to C / 2, 0.4 s.
  const Laws laws{.late_out = 2};
  const std::vector<double> streamed = end_dates(
      {{1, false, 50 * kMB, 0}, {1, false, 50 * kMB, 0.05}, {2, true, 400 * kMB, 0.02}}, 0.5, 0.8, true, 1, 1, laws);
  EXPECT_NEAR(streamed[1], 0.1, 1e-9);
  const std::vector<double> idle = end_dates(
      {{1, false, 50 * kMB, 0}, {1, false, 50 * kMB, 0.3}, {2, true, 400 * kMB, 0.02}}, 0.5, 0.8, true, 1, 1, laws);
  EXPECT_NEAR(idle[1], 0.4, 1e-9);
}

TEST(AckCoupling, OfferedLoadIsTheBytesGivenBeforeNowOverTheRateAloneTimesTheEpisode)
{
  // An episode from 0 at 1 GB/s given 30 MB, the last 10 MB at 0.03 s: at 0.03 s the 20 MB given before over
  // 0.03 s at 1 GB/s, two thirds; at 0.04 s all 30 MB over 0.04 s, 0.75.
  const AckCoupling::Pace pace{0, 30 * kMB, 0.03, 10 * kMB, 1e9};
  EXPECT_NEAR(AckCoupling::offered_load(pace, 0.03), 2.0 / 3, 1e-12);
  EXPECT_NEAR(AckCoupling::offered_load(pace, 0.04), 0.75, 1e-12);
  EXPECT_EQ(AckCoupling::offered_load(pace, 0), 1) << "no time passed: taken as backlogged";
  EXPECT_EQ(AckCoupling::offered_load(AckCoupling::Pace{0, 0, -1, 0, 0}, 0.1), 0) << "a connection never used";
}

TEST(AckCoupling, TheLoadScaledDivisorLosesTheLawsShareTimesTheLoadSquared)
{
  // A law of 2 takes half the rate: at load 0.5 a quarter of that, 1 / (1 - 0.125) = 8 / 7; at load 1 or more, all.
  EXPECT_NEAR(AckCoupling::load_scaled_divisor(2, 0.5), 8.0 / 7, 1e-12);
  EXPECT_EQ(AckCoupling::load_scaled_divisor(2, 1), 2);
  EXPECT_EQ(AckCoupling::load_scaled_divisor(2, 3), 2);
  EXPECT_EQ(AckCoupling::load_scaled_divisor(2, 0), 1);
  EXPECT_EQ(AckCoupling::load_scaled_divisor(0.8, 1), 0.8) << "a law that takes nothing stays one";
}

namespace {
// Client `client` sends the hub `count` messages of 10 MB, 0.02 s apart from `first_s` (0.01 s each at C: half the
// link offered).
std::vector<Flow> paced_in(int client, int count, double first_s)
{
  std::vector<Flow> flows;
  for (int i = 0; i < count; i++)
    flows.push_back({client, true, 10 * kMB, first_s + 0.02 * i});
  return flows;
}
} // namespace

TEST(AckCoupling, PacedFlowsInCostTheEstablishedFlowOutByTheirLoadSquared)
{
  // The hub sends client 1 100 MB from 0; client 2 sends it five messages of 10 MB at 0.02, 0.04, ... 0.10 s (each at
  // C: G_in 0.5 x 1 < 1). The established G_out 2 holds the flow out to C / 2 while a message runs: 20 MB by 0.02 s,
  // then 15 MB per 0.02 s, 80 MB by 0.10 s, 85 MB by 0.11 s, its last 15 MB at C: 0.125 s. With the offered load, the
  // first message (no pace yet: backlogged) takes the whole law, 25 MB by 0.03 s; from the second the flows in offer
  // half the link (10 MB given before over 0.02 s), the flow out loses a quarter of the law's half, rate 7/8 C while a
  // message runs: 18.75 MB per 0.02 s, 100 MB at 0.11 s.
  std::vector<Flow> flows = paced_in(2, 5, 0.02);
  flows.insert(flows.begin(), Flow{1, false, 100 * kMB, 0});
  const std::vector<double> full = end_dates(flows, 0.5, 0.8, true, 1, 1, Laws{.established_out = 2});
  EXPECT_NEAR(full[0], 0.125, 1e-9);
  const std::vector<double> scaled =
      end_dates(flows, 0.5, 0.8, true, 1, 1, Laws{.established_out = 2, .offered_load = true});
  EXPECT_NEAR(scaled[0], 0.11, 1e-9);
  EXPECT_NEAR(scaled[5], 0.11, 1e-9) << "the flows in keep their rate";
}

TEST(AckCoupling, AFlowOutStartedLateTakesItsLawOnlyBesideABackloggedConnection)
{
  // Client 1 sends the hub five messages of 10 MB, 0.02 s apart from 0; the hub sends client 1 50 MB from 0.025 s,
  // late (the second message runs). The late G_out 2 holds it to C / 2 while a message runs: 2.5 MB by 0.03 s, then
  // 15 MB per 0.02 s, 47.5 MB by 0.09 s, 50 MB at 0.0925 s. With the offered load, its own connection's flows in
  // offer 20 MB over 0.025 s, below the link: not backlogged, it takes the law of flows started together (G_out
  // 0.8 x 1 < 1), at C: 0.075 s. Beside 100 MB given at once (0.1 s at C) the connection is backlogged and the law
  // holds: C / 2 from 0.03 s to 0.1 s (35 MB), then C: 0.115 s.
  std::vector<Flow> flows = paced_in(1, 5, 0);
  flows.push_back({1, false, 50 * kMB, 0.025});
  EXPECT_NEAR(end_dates(flows, 0.5, 0.8, true, 1, 1, Laws{.late_out = 2})[5], 0.0925, 1e-9);
  EXPECT_NEAR(end_dates(flows, 0.5, 0.8, true, 1, 1, Laws{.late_out = 2, .offered_load = true})[5], 0.075, 1e-9);
  const std::vector<Flow> backlogged = {{1, true, 100 * kMB, 0}, {1, false, 50 * kMB, 0.03}};
  EXPECT_NEAR(end_dates(backlogged, 0.5, 0.8, true, 1, 1, Laws{.late_out = 2, .offered_load = true})[1], 0.115, 1e-9);
}

TEST(AckCoupling, AConnectionWhoseMessagesQueueIsBackloggedBelowTheLink)
{
  // Clients 1 and 2 each send the hub five messages of 10 MB, each as the one before it ends (half the link each:
  // 0.02 s a message, the last ends at 0.1 s). The hub sends client 1 30 MB from 0.025 s, late; client 1's connection
  // has then given 20 MB over 0.025 s, 0.8 of the link, but its messages queue: backlogged, the late G_out 2 x 2 flows
  // in holds the flow out to C / 4 until 0.1 s (18.75 MB), then C: 0.11125 s, with the offered load as without it.
  std::vector<Flow> flows;
  for (int client : {1, 2})
    for (int i = 0; i < 5; i++)
      flows.push_back({client, true, 10 * kMB, 0, i > 0});
  flows.push_back({1, false, 30 * kMB, 0.025});
  EXPECT_NEAR(end_dates(flows, 0.5, 0.8, true, 1, 1, Laws{.late_out = 2})[10], 0.11125, 1e-9);
  EXPECT_NEAR(end_dates(flows, 0.5, 0.8, true, 1, 1, Laws{.late_out = 2, .offered_load = true})[10], 0.11125, 1e-9);
}
