#include "common/xml_source.hpp"

#include "common/text_file.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <sstream>

namespace sgdsim {

namespace {
std::string join(std::initializer_list<const char*> names)
{
  std::string out;
  for (const char* n : names) {
    if (!out.empty())
      out += ", ";
    out += n;
  }
  return out;
}
} // namespace

XmlSource::XmlSource(std::string path) : path_(std::move(path))
{
  buffer_ = read_text_file(path_);
  // Names flow into the JSON output, which must be UTF-8; SimGrid's parser decodes no other encoding either.
  check_utf8_text(path_, buffer_);
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < buffer_.size(); i++)
    if (buffer_[i] == '\n')
      line_starts_.push_back(i + 1);

  pugi::xml_parse_result result = doc_.load_buffer(buffer_.data(), buffer_.size(), pugi::parse_default);
  if (!result) {
    auto offset = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, result.offset));
    auto it     = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    throw InputError(path_, static_cast<int>(it - line_starts_.begin()), std::string("XML: ") + result.description());
  }
}

pugi::xml_node XmlSource::root(const char* expected) const
{
  pugi::xml_node root = doc_.document_element();
  if (!root)
    throw InputError(path_, 0, std::string("XML: the file has no root element (expected <") + expected + ">)");
  if (std::strcmp(root.name(), expected) != 0)
    fail(root, std::string("unexpected root element (expected <") + expected + ">)");
  return root;
}

int XmlSource::line_of(const pugi::xml_node& node) const
{
  std::ptrdiff_t offset = node.offset_debug();
  if (offset < 0)
    return 0;
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), static_cast<std::size_t>(offset));
  return static_cast<int>(it - line_starts_.begin());
}

std::string XmlSource::describe(const pugi::xml_node& node)
{
  std::string out = std::string("<") + node.name();
  if (pugi::xml_attribute name = node.attribute("name"))
    out += std::string(" name='") + name.value() + "'";
  else if (pugi::xml_attribute id = node.attribute("id")) // SimGrid's elements are named by id
    out += std::string(" id='") + id.value() + "'";
  return out + ">";
}

void XmlSource::fail(const pugi::xml_node& node, const std::string& problem) const
{
  throw InputError(path_, line_of(node), describe(node) + ": " + problem);
}

void XmlSource::fail_value(const pugi::xml_node& node, const char* field, const std::string& problem) const
{
  fail(node, std::string("attribute '") + field + "': '" + node.attribute(field).value() + "' " + problem);
}

void XmlSource::check_attributes(const pugi::xml_node& node, std::initializer_list<const char*> known) const
{
  for (pugi::xml_attribute attr : node.attributes()) {
    bool found =
        std::any_of(known.begin(), known.end(), [&](const char* k) { return std::strcmp(k, attr.name()) == 0; });
    if (!found)
      fail(node, std::string("unknown attribute '") + attr.name() + "' (known: " + join(known) + ")");
  }
}

void XmlSource::check_children(const pugi::xml_node& node, std::initializer_list<const char*> known) const
{
  for (pugi::xml_node child : node.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
      std::string text = child.value();
      if (text.find_first_not_of(" \t\r\n") != std::string::npos)
        fail(node, "unexpected text '" + text.substr(0, 40) + "'");
      continue;
    }
    if (child.type() != pugi::node_element)
      continue;
    bool found =
        std::any_of(known.begin(), known.end(), [&](const char* k) { return std::strcmp(k, child.name()) == 0; });
    if (!found) {
      std::string list = known.size() == 0 ? std::string("none") : join(known);
      fail(child,
           std::string("unknown element <") + child.name() + "> inside " + describe(node) + " (known: " + list + ")");
    }
  }
}

std::string XmlSource::required(const pugi::xml_node& node, const char* field) const
{
  pugi::xml_attribute attr = node.attribute(field);
  if (!attr)
    fail(node, std::string("missing attribute '") + field + "'");
  if (attr.value()[0] == '\0')
    fail_value(node, field, "is empty");
  return attr.value();
}

std::optional<std::string> XmlSource::optional(const pugi::xml_node& node, const char* field) const
{
  pugi::xml_attribute attr = node.attribute(field);
  if (!attr)
    return std::nullopt;
  if (attr.value()[0] == '\0')
    fail_value(node, field, "is empty");
  return std::string(attr.value());
}

long XmlSource::required_int(const pugi::xml_node& node, const char* field, long min, long max) const
{
  std::string text = required(node, field);
  long value       = 0;
  auto [end, ec]   = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    fail_value(node, field, "is not an integer");
  if (value < min || value > max)
    fail_value(node, field, "is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return value;
}

} // namespace sgdsim
