// The PS's gradient rules (src/sim/ps_rules.hpp), which the PS actor and the PS dispatcher both follow, checked
// apart from any simulation: who is released, when, and after which update; and the order in which gradients are
// handed over.

#include "sim/ps_rules.hpp"

#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <utility>
#include <vector>

using namespace sgdsim;

namespace {
struct Log {
  std::vector<std::pair<int, double>> updates;  // (tensor, from date)
  std::vector<std::pair<int, double>> releases; // (worker, due date)
};

// An update that lasts 1 s from its arrival, so that a release date tells which update it followed.
void land(PsGradientRules& rules, Log& log, int worker, int tensor, double arrival_s)
{
  rules.land(
      worker, tensor, arrival_s,
      [&log](int t, double now_s) {
        log.updates.emplace_back(t, now_s);
        return now_s + 1.0;
      },
      [&log](int w, double date_s) { log.releases.emplace_back(w, date_s); });
}
} // namespace

TEST(PsGradientRules, SyncUpdatesATensorOnceAllWorkersSentItAndReleasesEveryoneAfterTheShard)
{
  // 3 workers, a shard of tensors {0, 2} out of 3, 2 steps.
  PsGradientRules rules(true, 3, 2, 3, 2);
  Log log;
  land(rules, log, 0, 2, 1.0);
  land(rules, log, 1, 2, 2.0);
  EXPECT_TRUE(log.updates.empty()); // 2 of 3 gradients of tensor 2
  land(rules, log, 2, 0, 3.0);
  land(rules, log, 2, 2, 4.0);
  ASSERT_EQ(log.updates, (std::vector<std::pair<int, double>>{{2, 4.0}}));
  EXPECT_TRUE(log.releases.empty()); // tensor 0 still lacks 2 gradients
  land(rules, log, 0, 0, 5.0);
  land(rules, log, 1, 0, 6.0);
  ASSERT_EQ(log.updates, (std::vector<std::pair<int, double>>{{2, 4.0}, {0, 6.0}}));
  // Every worker is released when the shard's last update ends.
  EXPECT_EQ(log.releases, (std::vector<std::pair<int, double>>{{0, 7.0}, {1, 7.0}, {2, 7.0}}));
  EXPECT_EQ(rules.rounds(), 1);

  // The second (last) round updates the same way but releases nobody: the workers have run their steps.
  log = Log{};
  for (int t : {0, 2})
    for (int w = 0; w < 3; w++)
      land(rules, log, w, t, 10.0 + w);
  EXPECT_EQ(log.updates.size(), 2u);
  EXPECT_TRUE(log.releases.empty());
  EXPECT_EQ(rules.rounds(), 2);
}

TEST(PsGradientRules, AsyncAppliesEachGradientAndReleasesAWorkerOnceItsShardIsApplied)
{
  PsGradientRules rules(false, 2, 2, 2, 5);
  Log log;
  land(rules, log, 0, 1, 1.0);
  land(rules, log, 1, 1, 1.5);
  EXPECT_EQ(log.updates.size(), 2u); // each gradient is applied on its own
  EXPECT_TRUE(log.releases.empty());
  land(rules, log, 1, 0, 2.0);
  EXPECT_EQ(log.releases, (std::vector<std::pair<int, double>>{{1, 3.0}})); // worker 1 only, after its update
  land(rules, log, 0, 0, 4.0);
  EXPECT_EQ(log.releases, (std::vector<std::pair<int, double>>{{1, 3.0}, {0, 5.0}}));
  // The counts start again for the next step.
  land(rules, log, 1, 1, 6.0);
  EXPECT_EQ(log.releases.size(), 2u);
  land(rules, log, 1, 0, 7.0);
  EXPECT_EQ(log.releases.back(), (std::pair<int, double>{1, 8.0}));
}

TEST(ComputedUpdateQueue, UpdatesRunOneAtATimeInArrivalOrder)
{
  ComputedUpdateQueue q(2e9); // 2 Gflop/s
  EXPECT_EQ(q.push(1e9, 1.0), (std::pair<double, double>{1.0, 1.5}));
  EXPECT_EQ(q.push(2e9, 1.2), (std::pair<double, double>{1.5, 2.5})); // waits for the first
  EXPECT_EQ(q.push(1e9, 3.0), (std::pair<double, double>{3.0, 3.5})); // the CPU was idle
}

TEST(ArrivalOrder, HandsOverInArrivalOrderOnceNothingOnTheWireCanComeFirst)
{
  // Latencies of 1 and 3 s to the PS: a gradient arriving at A is handed over from A - 1.
  ArrivalOrder<char> held(1.0);
  EXPECT_EQ(held.next_due_s(), std::numeric_limits<double>::infinity());
  held.push(13.0, 'a'); // last byte at 10, over the 3 s route
  held.push(12.0, 'b'); // last byte at 11, over the 1 s route: arrives first
  EXPECT_EQ(held.next_due_s(), 11.0);
  EXPECT_FALSE(held.pop_due(10.5, 1e-9)); // a gradient sent before 11 over the 1 s route would arrive before b
  const auto b = held.pop_due(11.0, 1e-9);
  ASSERT_TRUE(b);
  EXPECT_EQ(*b, (std::pair<double, char>{12.0, 'b'}));
  EXPECT_FALSE(held.pop_due(11.0, 1e-9)); // a is due at 12
  EXPECT_TRUE(held.pop_due(12.0 - 1e-10, 1e-9)) << "within the timing precision, as a sleep ends";
  EXPECT_EQ(held.next_due_s(), std::numeric_limits<double>::infinity());
  // Equal arrival dates go in the order they were held.
  held.push(5.0, 'x');
  held.push(5.0, 'y');
  held.push(4.0, 'z');
  std::string order;
  while (auto g = held.pop_due(10.0, 1e-9))
    order += g->second;
  EXPECT_EQ(order, "zxy");
}
