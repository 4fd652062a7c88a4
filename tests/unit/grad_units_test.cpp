// The all-reduce units of a step (workload/grad_units.hpp) and the framework profiles that choose them
// (common/frameworks.hpp): expectations worked out by hand from PyTorch DDP's bucketing rule.
#include "common/frameworks.hpp"
#include "common/input_error.hpp"
#include "workload/grad_units.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

using namespace sgdsim;

namespace {
constexpr double kMiB = 1024.0 * 1024;

// Layers in forward order; each entry lists its tensors' sizes (empty: no parameters).
Workload workload_of(const std::vector<std::vector<double>>& layers)
{
  Workload wl;
  for (std::size_t l = 0; l < layers.size(); l++) {
    Layer layer;
    layer.name = std::to_string(l);
    for (double bytes : layers[l]) {
      layer.tensors.push_back(static_cast<int>(wl.tensors.size()));
      wl.tensors.push_back(Tensor{std::to_string(wl.tensors.size()), bytes, static_cast<int>(l)});
    }
    wl.layers.push_back(layer);
  }
  return wl;
}

std::vector<double> bytes_of(const std::vector<GradUnit>& units)
{
  std::vector<double> out;
  for (const GradUnit& u : units)
    out.push_back(u.bytes);
  return out;
}

std::vector<int> ready_of(const std::vector<GradUnit>& units)
{
  std::vector<int> out;
  for (const GradUnit& u : units)
    out.push_back(u.ready_layer);
  return out;
}
} // namespace

TEST(GradUnits, TensorUnitsFollowTheBackwardOrder)
{
  // Layer 1 has no parameters. Backward: layer 2 (tensors 3 then 2, reversed as autograd produces them), then 0.
  const Workload wl = workload_of({{10, 20}, {}, {30, 40}});
  const auto units  = plan_grad_units(wl, AllreduceUnit::TENSOR, 25 * kMiB, kMiB);
  EXPECT_EQ(bytes_of(units), (std::vector<double>{40, 30, 20, 10}));
  EXPECT_EQ(ready_of(units), (std::vector<int>{2, 2, 0, 0}));
}

TEST(GradUnits, LayerUnitsSkipLayersWithoutParameters)
{
  const Workload wl = workload_of({{10, 20}, {}, {30, 40}});
  const auto units  = plan_grad_units(wl, AllreduceUnit::LAYER, 25 * kMiB, kMiB);
  EXPECT_EQ(bytes_of(units), (std::vector<double>{70, 30}));
  EXPECT_EQ(ready_of(units), (std::vector<int>{2, 0}));
}

TEST(GradUnits, DdpBucketsCloseOnceTheyReachTheirLimit)
{
  // Backward order of the tensors: 0.6 (layer 3), 0.6 (layer 2), 10 (layer 1), 20 (layer 1), 5 (layer 0), in MiB.
  // DDP: the first bucket (limit 1 MiB) closes at 1.2 MiB after the second tensor; the next one (limit 25 MiB)
  // takes 10 then 20 and closes at 30 MiB, over its limit; the last tensor stays in a bucket of its own.
  const Workload wl = workload_of({{5 * kMiB}, {20 * kMiB, 10 * kMiB}, {0.6 * kMiB}, {0.6 * kMiB}});
  const auto units  = plan_grad_units(wl, AllreduceUnit::BUCKET, 25 * kMiB, kMiB);
  EXPECT_EQ(bytes_of(units), (std::vector<double>{1.2 * kMiB, 30 * kMiB, 5 * kMiB}));
  EXPECT_EQ(ready_of(units), (std::vector<int>{2, 1, 0})) << "a bucket waits for its lowest layer";
}

TEST(GradUnits, OneHugeBucketHoldsEverything)
{
  const Workload wl = workload_of({{1}, {2}, {3}});
  const auto units  = plan_grad_units(wl, AllreduceUnit::BUCKET, 1e12, 1e12);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].bytes, 6);
  EXPECT_EQ(units[0].ready_layer, 0);
  EXPECT_TRUE(plan_grad_units(wl, AllreduceUnit::FUSION, 1, 1).empty()) << "fusion is decided at run time";
}

TEST(GradUnits, HorovodBuffersOfLaunchedTensorsStayWithinTheBuffer)
{
  // Backward order of the tensors: 30, 20 (layer 3), 40 (layer 2), 100 (layer 1), 5, 5 (layer 0); Q = 64.
  // Horovod's coordinator: 30 + 20 = 50 fits, + 40 would pass 64, so 40 starts the next buffer; 100 is above Q and
  // goes alone; 5 + 5 share the last. Each buffer waits for its lowest layer.
  const Workload wl = workload_of({{5, 5}, {100}, {40}, {20, 30}});
  const auto units  = plan_grad_units(wl, AllreduceUnit::FUSION, 25 * kMiB, kMiB, 64);
  EXPECT_EQ(bytes_of(units), (std::vector<double>{50, 40, 100, 10}));
  EXPECT_EQ(ready_of(units), (std::vector<int>{3, 2, 1, 0}));
  // A buffer exactly full still takes the tensor that fills it.
  EXPECT_EQ(bytes_of(plan_grad_units(workload_of({{14}, {50}}), AllreduceUnit::FUSION, 1, 1, 64)),
            (std::vector<double>{64}));
}

TEST(Frameworks, ProfilesSetTheFrameworksDefaults)
{
  Scenario sc;
  apply_framework(find_framework("pytorch-ddp-gloo", true, "--framework"), sc);
  EXPECT_EQ(sc.unit(), AllreduceUnit::BUCKET);
  EXPECT_EQ(sc.bucket_bytes, 25 * kMiB);
  EXPECT_EQ(sc.first_bucket_bytes, kMiB);
  EXPECT_EQ(sc.collectives_in_flight, 2) << "ProcessGroupGloo runs collectives on 2 threads";
  apply_framework(find_framework("horovod", true, "--framework"), sc);
  EXPECT_EQ(sc.unit(), AllreduceUnit::FUSION);
  EXPECT_EQ(sc.fusion_buffer_bytes, 128 * kMiB);
  EXPECT_EQ(sc.fusion_timeout_s, 1e-3);
  EXPECT_EQ(sc.collectives_in_flight, 1);
  EXPECT_EQ(sc.fusion_batches, FusionBatches::SCHEDULED) << "Horovod fuses tensors as the framework launches them";
  apply_framework(find_framework("horovod-0.20", true, "--framework"), sc);
  EXPECT_EQ(sc.fusion_buffer_bytes, 64 * kMiB);
  EXPECT_EQ(sc.fusion_timeout_s, 5e-3);
  EXPECT_EQ(sc.fusion_batches, FusionBatches::SCHEDULED);
  apply_framework(find_framework("none", true, "--framework"), sc);
  EXPECT_EQ(sc.unit(), AllreduceUnit::LAYER) << "a profile without fusion clears the previous buffer";
  EXPECT_EQ(sc.fusion_batches, FusionBatches::READY);
  EXPECT_EQ(sc.framework, "none");
}

TEST(Frameworks, RingProfilesSetTheirSlices)
{
  // docs/models.md §10.10: NCCL's 1 MiB slices, 4 in flight (NCCL_STEPS / ALLREDUCE_SLICESTEPS); Gloo's ring
  // segments of at most 1 MiB, 2 in flight (gloo/allreduce.h); sgdsim's own profile keeps whole chunks.
  Scenario sc;
  sc.arch = Arch::RING;
  for (const char* nccl : {"pytorch-ddp", "horovod", "horovod-0.20", "nccl"}) {
    apply_framework(find_framework(nccl, true, "--framework"), sc);
    EXPECT_EQ(sc.ring_slice_bytes, kMiB) << nccl;
    EXPECT_EQ(sc.ring_slices_in_flight, 4) << nccl;
  }
  for (const char* gloo : {"pytorch-ddp-gloo", "gloo"}) {
    apply_framework(find_framework(gloo, true, "--framework"), sc);
    EXPECT_EQ(sc.ring_slice_bytes, kMiB) << gloo;
    EXPECT_EQ(sc.ring_slices_in_flight, 2) << gloo;
  }
  apply_framework(find_framework("none", true, "--framework"), sc);
  EXPECT_EQ(sc.ring_slice_bytes, 0);
  EXPECT_EQ(sc.ring_slices_in_flight, 1);
  apply_framework(find_framework("gloo", true, "--framework"), sc);
  EXPECT_EQ(sc.unit(), AllreduceUnit::TENSOR) << "bare calls: one all-reduce per tensor";
  EXPECT_EQ(sc.collectives_in_flight, 1);
}

TEST(Frameworks, PsProfilesSetTheSharing)
{
  Scenario sc;
  sc.arch = Arch::PS_SYNC;
  apply_framework(find_framework("tf-ps", false, "--framework"), sc);
  EXPECT_EQ(sc.sharing, Sharing::HYBRID) << "[LI22]'s hybrid, measured on TensorFlow's gRPC PS";
  EXPECT_EQ(sc.framework, "tf-ps");
  EXPECT_EQ(sc.message_s_per_byte, 0);
  EXPECT_EQ(sc.receive_s_per_byte, 0);
  // TensorFlow <= 1.3 (docs/models.md §10.5): one receive thread per process at 0.9 GB/s, 1.111 ns per byte; between
  // machines 150 MB/s per tensor stream on a 10 Gbit/s link, so 6.667 ns per byte in all, less the link's own 0.8 ns
  // and the receive thread's: 4.756 ns per connection. The wire shared fairly.
  apply_framework(find_framework("tf-ps-1.3", false, "--framework"), sc);
  EXPECT_EQ(sc.sharing, Sharing::FAIR);
  EXPECT_NEAR(sc.receive_s_per_byte, 1.1111e-9, 1e-13);
  EXPECT_NEAR(sc.message_s_per_byte, 4.7556e-9, 1e-13);
  apply_framework(find_framework("none", false, "--framework"), sc);
  EXPECT_EQ(sc.sharing, Sharing::FAIR);
  EXPECT_EQ(sc.message_s_per_byte, 0) << "a profile without a per-byte cost clears the previous one";
  EXPECT_EQ(sc.receive_s_per_byte, 0);
}

TEST(Frameworks, UnknownNameListsTheValidOnes)
{
  try {
    find_framework("tensorflow", true, "--framework");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--framework 'tensorflow': unknown framework for --arch ring (valid: none, "
                                     "pytorch-ddp, pytorch-ddp-gloo, horovod, horovod-0.20, nccl, gloo)");
  }
  try {
    find_framework("horovod", false, "--framework");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--framework 'horovod': unknown framework for the PS architectures (valid: none, tf-ps, tf-ps-1.3)");
  }
}

TEST(Frameworks, EveryProfileIsNamedOnceAndSaysWhetherItRunsOnNccl)
{
  // The profiles are rows of designated initializers over defaults: a row that forgot its name, its summary or its
  // NCCL flag would silently take the default.
  std::set<std::pair<bool, std::string>> seen;
  std::set<std::string> on_nccl;
  for (const FrameworkProfile& p : framework_profiles()) {
    EXPECT_STRNE(p.name, "");
    EXPECT_STRNE(p.summary, "") << p.name;
    EXPECT_TRUE(seen.emplace(p.for_ring, p.name).second) << "twice: " << p.name;
    if (p.nccl)
      on_nccl.insert(p.name);
  }
  EXPECT_EQ(on_nccl, (std::set<std::string>{"pytorch-ddp", "horovod", "horovod-0.20", "nccl"}));
  EXPECT_EQ(seen.size(), 10u);
}
