// The shipped workload catalog (workloads/, made by tools/make_workload.py --catalog): every file parses, its
// tensors add up to the published parameter count, and its single-device step matches the measurement that
// calibrated it (workloads/sources/calibration.csv).
#include "common/text_file.hpp"
#include "workload/workload_parser.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

using namespace sgdsim;
namespace fs = std::filesystem;

namespace {
const fs::path kWorkloads = fs::path(SGDSIM_SOURCE_DIR) / "workloads";

std::vector<std::map<std::string, std::string>> read_csv(const fs::path& path)
{
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split_csv_line(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> f = split_csv_line(line);
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < f.size(); i++)
      row[header[i]] = f[i];
    rows.push_back(row);
  }
  return rows;
}

double parameters(const Workload& wl)
{
  return wl.model_bytes() / 4; // fp32
}
} // namespace

TEST(Catalog, EveryShippedWorkloadParses)
{
  int n = 0;
  for (const auto& entry : fs::directory_iterator(kWorkloads))
    if (entry.path().extension() == ".xml") {
      EXPECT_NO_THROW(parse_workload_file(entry.path().string())) << entry.path();
      n++;
    }
  EXPECT_GE(n, 16 * 5) << "16 models on 5 devices";
}

TEST(Catalog, ParameterCountsAreThePublishedOnes)
{
  // CNNs: torchvision's own Weights.meta["num_params"] (the params_meta column, written with the layer tables
  // of workloads/sources/torchvision), e.g. ResNet-50 25,557,032 and VGG-16 138,357,544.
  std::map<std::string, double> expected;
  for (const auto& row : read_csv(kWorkloads / "sources" / "torchvision" / "summary.csv"))
    expected[row.at("model")] = std::stod(row.at("params_meta"));
  ASSERT_EQ(expected.size(), 13u);
  EXPECT_EQ(expected["resnet50"], 25557032);
  EXPECT_EQ(expected["vgg16"], 138357544);
  // Transformers: sum of p.numel() over Hugging Face's bert-base-uncased and bert-large-uncased BertModel
  // (encoder and pooler) and gpt2 (GPT2LMHeadModel, LM head tied to the token embedding).
  expected["bert-base"]  = 109482240;
  expected["bert-large"] = 335141888;
  expected["gpt2"]       = 124439808;
  int checked            = 0;
  for (const auto& entry : fs::directory_iterator(kWorkloads)) {
    if (entry.path().extension() != ".xml")
      continue;
    Workload wl = parse_workload_file(entry.path().string());
    ASSERT_TRUE(expected.count(wl.name)) << entry.path() << ": model " << wl.name << " has no reference count";
    EXPECT_EQ(parameters(wl), expected[wl.name]) << entry.path();
    checked++;
  }
  EXPECT_GE(checked, 80);
}

TEST(Catalog, SingleDeviceThroughputMatchesItsCalibration)
{
  // A file's throughput on its own device: batch / (T_F + T_B). The measurement that calibrated it must be
  // matched within 1% (the fit); the other measurements of the same pair (another framework or batch) are
  // printed, not asserted: tools/make_workload.py --report shows them all.
  int fitted = 0;
  for (const auto& row : read_csv(kWorkloads / "sources" / "calibration.csv")) {
    Workload wl           = parse_workload_file((kWorkloads / row.at("file")).string());
    const double modelled = wl.batch / (wl.fwd_s() + wl.bwd_s());
    const double measured = std::stod(row.at("measured_examples_per_s"));
    const double rel      = (modelled - measured) / measured;
    if (row.at("calibrates_file") == "yes") {
      EXPECT_LT(std::fabs(rel), 0.01) << row.at("file") << ": " << modelled << " examples/s vs " << measured;
      fitted++;
    } else {
      std::printf("  %s: %.1f examples/s, %+.1f%% vs %s\n", row.at("file").c_str(), modelled, 100 * rel,
                  row.at("source").c_str());
    }
  }
  EXPECT_GE(fitted, 16);
}
