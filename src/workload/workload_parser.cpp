#include "workload/workload_parser.hpp"

#include "common/units.hpp"
#include "common/xml_source.hpp"

#include <map>

namespace sgdsim {

namespace {
// Element and attribute names: used both for the lookup and in the messages.
constexpr const char* kWorkload       = "workload";
constexpr const char* kLayer          = "layer";
constexpr const char* kTensor         = "tensor";
constexpr const char* kSample         = "sample";
constexpr const char* kName           = "name";
constexpr const char* kBatch          = "batch";
constexpr const char* kDevice         = "device";
constexpr const char* kReferenceSpeed = "reference_speed";
constexpr const char* kPsUpdate       = "ps_update";
constexpr const char* kFwd            = "fwd";
constexpr const char* kBwd            = "bwd";
constexpr const char* kSize           = "size";

// Batch sizes beyond this are certainly typos (the largest published per-device batches are ~64k examples).
constexpr long kMaxBatch = 1L << 20;

LayerSample parse_times(const XmlSource& src, const pugi::xml_node& node)
{
  return LayerSample{xml_quantity(src, node, kFwd, Quantity::TIME), xml_quantity(src, node, kBwd, Quantity::TIME)};
}
} // namespace

Workload parse_workload_file(const std::string& path)
{
  XmlSource src(path);
  pugi::xml_node root = src.root(kWorkload);
  src.check_attributes(root, {kName, kBatch, kDevice, kReferenceSpeed, kPsUpdate});
  src.check_children(root, {kLayer});

  Workload wl;
  wl.source_file     = path;
  wl.name            = src.required(root, kName);
  wl.batch           = static_cast<int>(src.required_int(root, kBatch, 1, kMaxBatch));
  wl.device          = src.required(root, kDevice);
  wl.reference_speed = xml_quantity(src, root, kReferenceSpeed, Quantity::SPEED);
  if (wl.reference_speed <= 0)
    src.fail_value(root, kReferenceSpeed, "must be positive");
  if (src.optional(root, kPsUpdate))
    wl.ps_update_s = xml_quantity(src, root, kPsUpdate, Quantity::TIME);

  std::map<std::string, int> layer_lines;
  std::map<std::string, int> tensor_lines;
  for (pugi::xml_node xlayer : root.children(kLayer)) {
    src.check_attributes(xlayer, {kName, kFwd, kBwd});
    src.check_children(xlayer, {kTensor, kSample});
    Layer layer;
    layer.name = src.required(xlayer, kName);
    if (auto [it, fresh] = layer_lines.emplace(layer.name, src.line_of(xlayer)); !fresh)
      src.fail(xlayer, "duplicate layer name (first defined at line " + std::to_string(it->second) + ")");

    bool has_times = xlayer.attribute(kFwd) || xlayer.attribute(kBwd);
    for (pugi::xml_node xsample : xlayer.children(kSample)) {
      src.check_attributes(xsample, {kFwd, kBwd});
      src.check_children(xsample, {});
      layer.samples.push_back(parse_times(src, xsample));
    }
    if (has_times && !layer.samples.empty())
      src.fail(xlayer, "give either the attributes 'fwd' and 'bwd' or <sample> elements, not both");
    if (!has_times && layer.samples.empty())
      src.fail(xlayer, "missing attribute 'fwd' (or <sample fwd=... bwd=...> elements)");
    if (has_times)
      layer.samples.push_back(parse_times(src, xlayer));
    for (const LayerSample& s : layer.samples) {
      layer.fwd_s += s.fwd_s / static_cast<double>(layer.samples.size());
      layer.bwd_s += s.bwd_s / static_cast<double>(layer.samples.size());
    }

    const int layer_index = static_cast<int>(wl.layers.size());
    for (pugi::xml_node xtensor : xlayer.children(kTensor)) {
      src.check_attributes(xtensor, {kName, kSize});
      src.check_children(xtensor, {});
      Tensor tensor;
      tensor.name = src.required(xtensor, kName);
      if (auto [it, fresh] = tensor_lines.emplace(tensor.name, src.line_of(xtensor)); !fresh)
        src.fail(xtensor, "duplicate tensor name (first defined at line " + std::to_string(it->second) + ")");
      tensor.bytes = xml_quantity(src, xtensor, kSize, Quantity::SIZE);
      if (tensor.bytes < 1)
        src.fail_value(xtensor, kSize, "must be at least 1 byte");
      tensor.layer = layer_index;
      layer.tensors.push_back(static_cast<int>(wl.tensors.size()));
      wl.tensors.push_back(std::move(tensor));
    }
    wl.layers.push_back(std::move(layer));
  }
  if (wl.layers.empty())
    src.fail(root, "the model is empty (no <layer>)");
  if (wl.tensors.empty())
    src.fail(root, "the model has no parameter tensors (no <tensor> in any <layer>)");
  return wl;
}

} // namespace sgdsim
