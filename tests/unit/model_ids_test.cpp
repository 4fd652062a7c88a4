// The catalog of analytic model ids (the CSV columns of a sweep) is exactly what predict() can emit.
#include "analytic/predict.hpp"
#include "analytic/prediction.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <set>

using namespace sgdsim;

namespace {
Workload two_layer_workload()
{
  Workload wl;
  wl.name            = "two";
  wl.batch           = 32;
  wl.reference_speed = 1e9;
  wl.layers          = {Layer{"a", {{0.01, 0.02}}, 0.01, 0.02, {0}}, Layer{"b", {{0.01, 0.02}}, 0.01, 0.02, {1}}};
  wl.tensors         = {Tensor{"a.w", 10e6, 0}, Tensor{"b.w", 20e6, 1}};
  return wl;
}
} // namespace

TEST(ModelIds, PredictEmitsExactlyTheCatalog)
{
  const Workload wl = two_layer_workload();
  std::set<std::string> seen;
  for (Arch arch : {Arch::PS_SYNC, Arch::PS_ASYNC, Arch::RING})
    for (bool overlap : {false, true})
      for (Sharing sharing : {Sharing::FAIR, Sharing::FCFS, Sharing::HYBRID})
        for (double fusion_bytes : {0.0, 16e6})
          for (bool ada : {false, true})
            for (Collective coll : {Collective::RING, Collective::HALVING_DOUBLING}) {
              AnalyticInputs in;
              in.workload                     = &wl;
              in.scenario.arch                = arch;
              in.scenario.workers             = 4;
              in.scenario.ps                  = arch == Arch::RING ? 0 : 1;
              in.scenario.overlap             = overlap;
              in.scenario.sharing             = sharing;
              in.scenario.fusion_buffer_bytes = fusion_bytes;
              in.scenario.ada_fusion          = ada && fusion_bytes > 0;
              in.scenario.collective          = coll;
              in.net                          = NetworkParams{1e9, 1e300, 0};
              for (const Prediction& p : predict(in)) {
                EXPECT_NE(std::find(kAnalyticModelIds.begin(), kAnalyticModelIds.end(), p.model),
                          kAnalyticModelIds.end())
                    << "predict() emits '" << p.model << "', missing from kAnalyticModelIds";
                seen.insert(p.model);
              }
            }
  for (std::string_view id : kAnalyticModelIds)
    EXPECT_TRUE(seen.count(std::string(id))) << "kAnalyticModelIds lists '" << id << "', which predict() never emits";
}

namespace {
// Layer a: one tensor of 10 MB; layer b: two of 10 MB; T_F 20 ms, T_B 40 ms, M = 30 MB.
Workload three_tensor_workload()
{
  Workload wl          = two_layer_workload();
  wl.layers[1].tensors = {1, 2};
  wl.tensors           = {Tensor{"a.w", 10e6, 0}, Tensor{"b.w", 10e6, 1}, Tensor{"b.b", 10e6, 1}};
  return wl;
}

// ring-eq11 on K = 4, B = 1 GB/s, 10 us per message.
double eq11_step_s(AllreduceUnit unit, int in_flight, double fusion_bytes = 0)
{
  static const Workload wl = three_tensor_workload();
  AnalyticInputs in;
  in.workload                       = &wl;
  in.scenario.arch                  = Arch::RING;
  in.scenario.workers               = 4;
  in.scenario.ps                    = 0;
  in.scenario.overlap               = false;
  in.scenario.allreduce_unit        = unit;
  in.scenario.fusion_buffer_bytes   = fusion_bytes;
  in.scenario.collectives_in_flight = in_flight;
  in.net                            = NetworkParams{1e9, 1e300, 10e-6};
  for (const Prediction& p : predict(in))
    if (p.model == "ring-eq11")
      return p.step_time_s;
  return -1;
}
} // namespace

TEST(RingModels, CountTheCallsTheSimulationMakes)
{
  // 0.06 s of compute + 2 * 3/4 * 30 MB / 1 GB/s, plus 2(K-1) = 6 messages of 10 us per call.
  const double base = 0.06 + 1.5 * 30e6 / 1e9, call = 6 * 10e-6;
  EXPECT_NEAR(eq11_step_s(AllreduceUnit::TENSOR, 1), base + 3 * call, 1e-12) << "3 tensors: 3 calls";
  EXPECT_NEAR(eq11_step_s(AllreduceUnit::LAYER, 1), base + 2 * call, 1e-12) << "2 layers: 2 calls";
  EXPECT_NEAR(eq11_step_s(AllreduceUnit::BUCKET, 1), base + 2 * call, 1e-12)
      << "the first bucket (1 MiB) closes on b.b; the second (25 MiB) holds b.w and a.w";
  EXPECT_NEAR(eq11_step_s(AllreduceUnit::TENSOR, 2), base + 2 * call, 1e-12) << "two in flight: 3 calls in 2 rounds";
  EXPECT_NEAR(eq11_step_s(AllreduceUnit::LAYER, 1, 64e6), base + 1 * call, 1e-12) << "one fused buffer";
}

TEST(RingModels, ABareAllreduceHasNoNotANumber)
{
  // One 128 MiB tensor and no compute (the validation cases of bare all-reduces): CSF's and PerfEstimator's factors
  // scale a compute time that is 0 (0/0): they give no answer; every step emitted is finite and positive.
  Workload wl;
  wl.name            = "bare";
  wl.batch           = 1;
  wl.reference_speed = 1e9;
  wl.layers          = {Layer{"buffer", {{0, 0}}, 0, 0, {0}}};
  wl.tensors         = {Tensor{"buffer", 134217728.0, 0}};
  AnalyticInputs in;
  in.workload         = &wl;
  in.scenario.arch    = Arch::RING;
  in.scenario.workers = 4;
  in.scenario.ps      = 0;
  in.scenario.overlap = true;
  in.net              = NetworkParams{1e9, 1e300, 1e-3};
  std::set<std::string> seen;
  for (const Prediction& p : predict(in)) {
    EXPECT_TRUE(std::isfinite(p.step_time_s) && p.step_time_s > 0) << p.model << ": " << p.step_time_s;
    seen.insert(p.model);
  }
  EXPECT_FALSE(seen.count("csf"));
  EXPECT_FALSE(seen.count("perfestimator"));
  EXPECT_TRUE(seen.count("osf") && seen.count("ring-eq11")) << "the models with an answer still give it";
}
