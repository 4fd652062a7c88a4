#include "common/scenario.hpp"

#include "common/input_error.hpp"

#include <utility>

namespace sgdsim {

namespace {
template <class E>
struct Named {
  const char* word;
  E value;
};

constexpr Named<Arch> kArchs[] = {{"ps-async", Arch::PS_ASYNC}, {"ps-sync", Arch::PS_SYNC}, {"ring", Arch::RING}};
constexpr Named<Collective> kCollectives[] = {{"ring", Collective::RING},
                                              {"tree", Collective::TREE},
                                              {"halving-doubling", Collective::HALVING_DOUBLING},
                                              {"hierarchical", Collective::HIERARCHICAL}};
constexpr Named<RingMode> kRingModes[]     = {{"steps", RingMode::STEPS}, {"stream", RingMode::STREAM}};
constexpr Named<Sharing> kSharings[] = {{"fair", Sharing::FAIR}, {"fcfs", Sharing::FCFS}, {"hybrid", Sharing::HYBRID}};
constexpr Named<InFlightCost> kInFlightCosts[] = {
    {"same", InFlightCost::SAME}, {"each", InFlightCost::EACH}, {"paired", InFlightCost::PAIRED}};
constexpr Named<UncoveredGain> kUncoveredGains[] = {{"rate", UncoveredGain::RATE}, {"waits", UncoveredGain::WAITS}};
constexpr Named<FifoWait> kFifoWaits[]           = {
              {"average", FifoWait::AVERAGE}, {"exact", FifoWait::EXACT}, {"phase", FifoWait::PHASE}};
constexpr Named<PsSplit> kPsSplits[] = {{"round-robin", PsSplit::ROUND_ROBIN}, {"balanced", PsSplit::BALANCED}};
constexpr Named<bool> kOnOff[]       = {{"on", true}, {"off", false}};
constexpr Named<AllreduceUnit> kAllreduceUnits[] = {{"tensor", AllreduceUnit::TENSOR},
                                                    {"layer", AllreduceUnit::LAYER},
                                                    {"bucket", AllreduceUnit::BUCKET},
                                                    {"fusion", AllreduceUnit::FUSION}};
constexpr Named<FusionBatches> kFusionBatches[]  = {{"ready", FusionBatches::READY},
                                                    {"scheduled", FusionBatches::SCHEDULED}};

template <class E, std::size_t N>
const char* word_of(const Named<E> (&table)[N], E value)
{
  for (const auto& entry : table)
    if (entry.value == value)
      return entry.word;
  return "?";
}

template <class E, std::size_t N>
std::optional<E> value_named(const Named<E> (&table)[N], const std::string& word)
{
  for (const auto& entry : table)
    if (word == entry.word)
      return entry.value;
  return std::nullopt;
}

template <class E, std::size_t N>
E parse_word(const Named<E> (&table)[N], const std::string& word, const std::string& context, const char* kind)
{
  if (const std::optional<E> value = value_named(table, word))
    return *value;
  std::string valid;
  for (const auto& entry : table)
    valid += (valid.empty() ? "" : ", ") + std::string(entry.word);
  throw InputError(context + " '" + word + "': unknown " + kind + " (valid: " + valid + ")");
}
} // namespace

AllreduceUnit Scenario::unit() const
{
  return fusion_buffer_bytes > 0 ? AllreduceUnit::FUSION : allreduce_unit;
}

const char* to_string(Arch a)
{
  return word_of(kArchs, a);
}
const char* to_string(Sharing s)
{
  return word_of(kSharings, s);
}
const char* to_string(InFlightCost c)
{
  return word_of(kInFlightCosts, c);
}
const char* to_string(UncoveredGain g)
{
  return word_of(kUncoveredGains, g);
}
const char* to_string(FifoWait w)
{
  return word_of(kFifoWaits, w);
}
const char* to_string(PsSplit s)
{
  return word_of(kPsSplits, s);
}
const char* to_string(Collective c)
{
  return word_of(kCollectives, c);
}
const char* to_string(AllreduceUnit u)
{
  return word_of(kAllreduceUnits, u);
}
const char* to_string(FusionBatches b)
{
  return word_of(kFusionBatches, b);
}
const char* to_string(RingMode m)
{
  return word_of(kRingModes, m);
}

Arch parse_arch(const std::string& word, const std::string& context)
{
  return parse_word(kArchs, word, context, "architecture");
}
Sharing parse_sharing(const std::string& word, const std::string& context)
{
  return parse_word(kSharings, word, context, "link sharing");
}
PsSplit parse_ps_split(const std::string& word, const std::string& context)
{
  return parse_word(kPsSplits, word, context, "PS split");
}
Collective parse_collective(const std::string& word, const std::string& context)
{
  return parse_word(kCollectives, word, context, "collective");
}
AllreduceUnit parse_allreduce_unit(const std::string& word, const std::string& context)
{
  return parse_word(kAllreduceUnits, word, context, "all-reduce unit");
}
FusionBatches parse_fusion_batches(const std::string& word, const std::string& context)
{
  return parse_word(kFusionBatches, word, context, "fusion batching");
}
RingMode parse_ring_mode(const std::string& word, const std::string& context)
{
  return parse_word(kRingModes, word, context, "ring mode");
}
bool parse_on_off(const std::string& word, const std::string& context)
{
  return parse_word(kOnOff, word, context, "value");
}
std::optional<InFlightCost> in_flight_cost_named(const std::string& word)
{
  return value_named(kInFlightCosts, word);
}
std::optional<UncoveredGain> uncovered_gain_named(const std::string& word)
{
  return value_named(kUncoveredGains, word);
}
std::optional<FifoWait> fifo_wait_named(const std::string& word)
{
  return value_named(kFifoWaits, word);
}

std::vector<std::string> ideal_network_cfg()
{
  return {"network/model:CM02", "network/crosstraffic:0"};
}

} // namespace sgdsim
