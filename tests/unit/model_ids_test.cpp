// The catalog of analytic model ids (the CSV columns of a sweep) is exactly what predict() can emit.
#include "analytic/predict.hpp"
#include "analytic/prediction.hpp"

#include <algorithm>
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
