#include "support/tiny.hpp"
#include "workload/workload_parser.hpp"

#include <gtest/gtest.h>

using namespace sgdsim;

TEST(WorkloadParser, ReadsLayersTensorsUnitsAndMeans)
{
  Workload wl = parse_workload_file(SGDSIM_TEST_DATA "/sampled_workload.xml");
  EXPECT_EQ(wl.name, "sampled");
  EXPECT_EQ(wl.batch, 16);
  EXPECT_EQ(wl.device, "test");
  EXPECT_DOUBLE_EQ(wl.reference_speed, 15.7e12);
  EXPECT_DOUBLE_EQ(wl.ps_update_s, 1e-3);
  ASSERT_EQ(wl.layers.size(), 3u);
  ASSERT_EQ(wl.tensors.size(), 4u);
  // conv: samples (2, 4), (3, 5), (2.5, 4.4) ms -> means 2.5 ms and 4.4667 ms.
  EXPECT_EQ(wl.layers[0].samples.size(), 3u);
  EXPECT_NEAR(wl.layers[0].fwd_s, 2.5e-3, 1e-15);
  EXPECT_NEAR(wl.layers[0].bwd_s, (4 + 5 + 4.4) / 3 * 1e-3, 1e-15);
  // relu: plain attributes are one sample.
  EXPECT_EQ(wl.layers[1].samples.size(), 1u);
  EXPECT_TRUE(wl.layers[1].tensors.empty());
  // Tensors in forward order, with their layer; sizes in SI bytes (kB = 1000 B, MB = 1e6 B).
  EXPECT_EQ(wl.tensors[1].name, "conv.bias");
  EXPECT_DOUBLE_EQ(wl.tensors[1].bytes, 1000);
  EXPECT_EQ(wl.tensors[2].layer, 2);
  EXPECT_DOUBLE_EQ(wl.model_bytes(), 4e6 + 1e3 + 16e6 + 4e3);
  // T_F = 2.5 + 0.5 + 1.25 ms; T_B = 4.4667 + 0.5 + 2.25 ms.
  EXPECT_NEAR(wl.fwd_s(), 4.25e-3, 1e-12);
  EXPECT_NEAR(wl.compute_s(), 4.25e-3 + (13.4 / 3 + 0.5 + 2.25) * 1e-3, 1e-12);
}

TEST(WorkloadParser, BinaryUnitsAndMissingOptionalPsUpdate)
{
  std::string path = tiny::write_file("w.xml", "<workload name='m' batch='1' device='d' reference_speed='1Gf'>"
                                               "<layer name='a' fwd='1us' bwd='0'><tensor name='t' size='2MiB'/>"
                                               "</layer></workload>");
  Workload wl      = parse_workload_file(path);
  EXPECT_DOUBLE_EQ(wl.tensors[0].bytes, 2.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(wl.layers[0].bwd_s, 0.0); // a bare 0 is accepted in every unit
  EXPECT_DOUBLE_EQ(wl.ps_update_s, 0.0);
}

TEST(WorkloadParser, ShippedResNet50HasTheExactTorchvisionTensors)
{
  // [torchvision] ResNet-50: 161 parameter tensors, 25,557,032 parameters, fp32 (4 bytes each).
  Workload wl = parse_workload_file(SGDSIM_SOURCE_DIR "/workloads/resnet50-v100-b32.xml");
  EXPECT_EQ(wl.tensors.size(), 161u);
  EXPECT_DOUBLE_EQ(wl.model_bytes(), 25557032.0 * 4);
  EXPECT_EQ(wl.batch, 32);
  // The step time is calibrated to 367 img/s on a V100 (the file's provenance): 32 / 367 = 87.19 ms.
  EXPECT_NEAR(wl.compute_s(), 32.0 / 367.0, 158 * 2 * 0.05e-9);
  // Times are written to 0.1 ns (4 decimals of us): 158 layers x 3 roundings of 0.05 ns at most.
  EXPECT_NEAR(wl.bwd_s(), 2 * wl.fwd_s(), 158 * 3 * 0.05e-9);
}
