// An XML input file held in memory with its line table, so that every error can name FILE:LINE (docs/design.md
// "Errors"). All sgdsim XML readers (workloads, deployments) go through this class; none formats messages itself.
#pragma once

#include "common/input_error.hpp"

#include <initializer_list>
#include <optional>
#include <pugixml.hpp>
#include <string>
#include <vector>

namespace sgdsim {

class XmlSource {
public:
  /** Reads and parses `path`. Throws InputError if the file cannot be read or is not well-formed XML. */
  explicit XmlSource(std::string path);

  const std::string& path() const { return path_; }
  const pugi::xml_document& doc() const { return doc_; }
  /** The root element; throws InputError if it is not named `expected`. */
  pugi::xml_node root(const char* expected) const;

  /** 1-based line of a node in the file. */
  int line_of(const pugi::xml_node& node) const;
  /** "<layer name='conv1'>", "<link id='l1'>" (SimGrid's elements), or "<layer>" when the node has neither. */
  static std::string describe(const pugi::xml_node& node);

  /** Throws "FILE:LINE: <elem name='x'>: problem". */
  [[noreturn]] void fail(const pugi::xml_node& node, const std::string& problem) const;
  /** Throws "FILE:LINE: <elem name='x'>: attribute 'field': 'value' problem". */
  [[noreturn]] void fail_value(const pugi::xml_node& node, const char* field, const std::string& problem) const;

  /** Fails on any attribute of `node` not in `known`, listing the known ones. */
  void check_attributes(const pugi::xml_node& node, std::initializer_list<const char*> known) const;
  /** Fails on any child element of `node` not in `known`, and on any non-blank text. */
  void check_children(const pugi::xml_node& node, std::initializer_list<const char*> known) const;

  /** The value of a required attribute; fails if it is missing or empty. */
  std::string required(const pugi::xml_node& node, const char* field) const;
  /** The value of an optional attribute, if present (an empty value is an error). */
  std::optional<std::string> optional(const pugi::xml_node& node, const char* field) const;

  /** A required integer attribute within [min, max]. */
  long required_int(const pugi::xml_node& node, const char* field, long min, long max) const;

private:
  std::string path_;
  std::string buffer_;
  std::vector<std::size_t> line_starts_;
  pugi::xml_document doc_;
};

} // namespace sgdsim
