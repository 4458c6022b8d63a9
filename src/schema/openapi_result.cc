#include "schema/openapi_result.h"

#include "schema/go_values.h"

namespace kube::schema {

using json = nlohmann::json;

Issue InvalidType(const std::string& path, std::string_view type_name, const json& value) {
  std::string msg = path + " in body must be of type " + std::string(type_name);
  if (value.is_string()) msg += ": " + GoQuote(value.get_ref<const std::string&>());
  return Make(Code::kInvalidType, path, std::move(msg), value);
}

// apiextensions' kubeOpenAPIResultToFieldErrors.
FieldError ToFieldError(const Issue& e, const std::string& root) {
  const std::string base = root.empty() ? "<nil>" : root;
  FieldError out;
  if (e.code == Code::kComposite || e.code == Code::kPlain) {
    out.type = FieldError::Type::kInvalid;
    out.field = base;
    out.value = "\"\"";
    out.detail = e.message;
    return out;
  }
  std::string_view name = e.name;
  if (name.substr(0, 1) == ".") name.remove_prefix(1);
  out.field = name.empty() || e.name == "." ? base : root.empty() ? std::string(name) : root + "." + std::string(name);
  switch (e.code) {
    case Code::kRequired:
      out.type = FieldError::Type::kRequired;
      break;
    case Code::kEnum: {
      out.type = FieldError::Type::kNotSupported;
      out.value = GoValue(e.value);
      std::string supported;
      for (const auto& v : *e.values) {
        if (!supported.empty()) supported += ", ";
        supported += GoQuote(v.is_string() ? v.get<std::string>() : GoJson(v));
      }
      if (!supported.empty()) out.detail = "supported values: " + supported;
      break;
    }
    case Code::kTooLong:
      out.type = FieldError::Type::kTooLong;
      out.detail = "may not be more than " + std::to_string(e.limit) + (e.limit == 1 ? " byte" : " bytes");
      break;
    case Code::kMaxItems:
    case Code::kTooManyProperties:
      out.type = FieldError::Type::kTooMany;
      out.value = GoValue(e.value);
      out.detail = "must have at most " + std::to_string(e.limit) + (e.limit == 1 ? " item" : " items");
      break;
    case Code::kInvalidType:
      out.type = FieldError::Type::kTypeInvalid;
      out.value = e.value.is_null() ? "\"\"" : GoValue(e.value);
      out.detail = e.message;
      break;
    default:
      out.type = FieldError::Type::kInvalid;
      out.value = e.value.is_null() ? "\"\"" : GoValue(e.value);
      out.detail = e.message;
  }
  return out;
}

}  // namespace kube::schema
