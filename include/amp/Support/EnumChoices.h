//===- EnumChoices.h - one table per closed option choice -------*- C++ -*-===//
//
// A closed choice (a precision, a cast dialect, a loss-scaling mode, a
// target) is written once, as a table of `clEnumValN` entries. That table is
// the option modifier of every command-line and pass option taking the
// choice (a bad value fails at option parsing and lists the valid ones), and
// it parses and prints the choice where it comes from elsewhere (a policy
// file, a diagnostic).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_SUPPORT_ENUMCHOICES_H
#define AMP_SUPPORT_ENUMCHOICES_H

#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>

namespace mlir::amp {

/// The choices of an enum option: a view of a table of
/// `clEnumValN(EnumT::X, "name", "description")`.
template <typename EnumT>
class EnumChoices {
public:
  template <size_t N>
  constexpr EnumChoices(const llvm::cl::OptionEnumValue (&table)[N])
      : table(table), size(N) {}

  /// As an option modifier, like `llvm::cl::values(...)`.
  template <typename Opt>
  void apply(Opt &option) const {
    for (const llvm::cl::OptionEnumValue &choice : entries())
      option.getParser().addLiteralOption(
          choice.Name, static_cast<EnumT>(choice.Value), choice.Description);
  }

  std::optional<EnumT> parse(llvm::StringRef name) const {
    for (const llvm::cl::OptionEnumValue &choice : entries())
      if (choice.Name == name)
        return static_cast<EnumT>(choice.Value);
    return std::nullopt;
  }

  /// "a, b or c", for error messages.
  std::string describe() const {
    std::string text;
    for (size_t i = 0; i < size; ++i) {
      if (i > 0)
        text += i + 1 == size ? " or " : ", ";
      text += table[i].Name.str();
    }
    return text;
  }

private:
  llvm::ArrayRef<llvm::cl::OptionEnumValue> entries() const {
    return {table, size};
  }

  const llvm::cl::OptionEnumValue *table;
  size_t size;
};

/// The parser of an enum option: like llvm::cl's, but a bad value is
/// refused with the list of valid ones ("'f17' is not one of f16, bf16").
template <typename EnumT>
class ChoiceParser : public llvm::cl::parser<EnumT> {
public:
  using llvm::cl::parser<EnumT>::parser;

  bool parse(llvm::cl::Option &option, llvm::StringRef argName,
             llvm::StringRef arg, EnumT &value) {
    std::string choices;
    for (const auto &choice : this->Values) {
      if (choice.Name == arg) {
        value = choice.V.getValue();
        return false;
      }
      choices += (choices.empty() ? "" : ", ") + choice.Name.str();
    }
    return option.error("'" + arg + "' is not one of " + choices, argName);
  }

  /// For printing pass pipelines (what MLIR's option parser provides).
  std::optional<llvm::StringRef> findArgStrForValue(const EnumT &value) {
    for (const auto &choice : this->Values)
      if (choice.V.compare(value))
        return choice.Name;
    return std::nullopt;
  }
};

} // namespace mlir::amp

/// Makes pass and pipeline options of type `EnumT` (a fully qualified name)
/// parse with amp::ChoiceParser.
#define AMP_DECLARE_CHOICE_OPTION(EnumT)                                       \
  template <>                                                                  \
  struct mlir::detail::PassOptions::GenericOptionParser<EnumT>                 \
      : public ::mlir::amp::ChoiceParser<EnumT> {                              \
    using ::mlir::amp::ChoiceParser<EnumT>::ChoiceParser;                      \
  };

#endif // AMP_SUPPORT_ENUMCHOICES_H
