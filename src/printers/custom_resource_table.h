// Table output for custom resources, as kube's CRD table convertor builds it
// (apiextensions-apiserver registry/customresource/tableconvertor).
//
// Columns: Name (format "name") first, then the served version's additionalPrinterColumns in
// order (name, type, format, priority, description defaulting to "Custom resource definition
// column (in JSONPath format): <jsonPath>"). Only when a version declares no columns does kube
// serve its default: one Age column of type "date" on .metadata.creationTimestamp; a version with
// columns gets no Age column unless it declares one.
//
// Cells: each column's jsonPath is evaluated as the JSONPath template "{<jsonPath>}" with missing
// keys allowed, and only the first value of the first result is used. No value, an evaluation
// error, or a value of the wrong JSON type gives a null cell. By column type:
//   string  - the value printed as JSONPath prints it (objects and arrays as JSON, numbers as Go's
//             %v); a JSON null prints "<no value>";
//   integer - integers as they are, floats truncated; number - any number;
//   boolean - booleans;
//   date    - a string timestamp rendered by the server as the age since then ("5m", "3d"),
//             "<unknown>" for an empty or zero time, "<invalid>" when it is not RFC 3339.
//
// If a column's jsonPath does not parse, kube keeps the columns before it, drops that one and
// the rest, and logs `unrecognized column definition "<jsonPath>"`; Build reports that message.
//
// Thread-safety: a built table is immutable and may be used from several threads.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "printers/jsonpath.h"
#include "printers/printers.h"

namespace kube::printers {

class CustomResourceTable final : public TablePrinter {
 public:
  // `additional_printer_columns`: the version's array (absent/null/empty: kube's default Age
  // column). `error` (optional) receives the parse failure, "" when every column parsed.
  static CustomResourceTable Build(const nlohmann::json& additional_printer_columns, std::string* error = nullptr);
  // The /scale subresource's table for a CRD version: Desired (.spec.replicas) when the scale
  // subresource has a specReplicasPath, Available (.status.replicas) when it has a
  // statusReplicasPath, then Age; evaluated against the autoscaling/v1 Scale object.
  static CustomResourceTable BuildForScale(const nlohmann::json& version);

  const std::vector<Column>& columns() const { return columns_; }
  const std::vector<Column>& Columns() const override { return columns_; }
  std::vector<nlohmann::json> Cells(const nlohmann::json& object, std::chrono::system_clock::time_point now) const override;

  // The metav1.Table for `objects`, with the same envelope, row objects and includeObject
  // handling as printers::BuildTable.
  nlohmann::json BuildTable(const std::vector<const nlohmann::json*>& objects, const std::string& list_resource_version,
                            std::string_view include_object, std::chrono::system_clock::time_point now) const;

 private:
  std::vector<Column> columns_;      // Name first
  std::vector<JsonPath> paths_;      // one per column after Name
};

}  // namespace kube::printers
