// Quantities with explicit units, parsed with SimGrid's own unit grammar (xbt_parse_get_*), so that workload
// files and options read like platform files: "1.5ms", "25MB", "10Gbps", "15.7Tf". Values without a unit are
// rejected (except 0), as are negative, infinite and NaN values.
#pragma once

#include "common/xml_source.hpp"

#include <string>

namespace sgdsim {

enum class Quantity { TIME, SIZE, BANDWIDTH, SPEED };

/** The unit of each quantity in SI, for messages ("seconds", "bytes", ...). */
const char* quantity_si_unit(Quantity q);
/** The accepted units, for messages ("use ns, us, ms, s, ..."). */
const char* quantity_valid_units(Quantity q);

/** Parses `text` as a non-negative finite quantity in SI units (s, bytes, bytes/s, flop/s).
 *  On error, throws InputError("<context>: '<text>' <problem>"). */
double parse_quantity(Quantity q, const std::string& text, const std::string& context);

/** Parses attribute `field` of `node`; errors name FILE:LINE, the element and the field. */
double xml_quantity(const XmlSource& src, const pugi::xml_node& node, const char* field, Quantity q);

/** A bandwidth of `Bps` bytes/s for people, in bits as the run header prints it: "%.4g Gbps" (1.25e9 -> "10 Gbps").
 *  Text only: a value written into a platform keeps SimGrid's exact form. */
std::string format_Gbps(double Bps);
/** A time of `s` seconds in microseconds for people: "%.4g us" (5e-05 -> "50 us"). */
std::string format_us(double s);

} // namespace sgdsim
