// Result<T>: a value or the Diagnostic that explains why there is none (TorchLean's Except).
#pragma once

#include <utility>
#include <variant>

#include "spec/diagnostic.hpp"

namespace nnref {

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Diagnostic error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Diagnostic& error() const& { return std::get<1>(v_); }
  Diagnostic&& error() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Diagnostic> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Diagnostic error) : error_(std::move(error)), ok_(false) {}
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Diagnostic& error() const& { return error_; }
  Diagnostic&& error() && { return std::move(error_); }

 private:
  Diagnostic error_;
  bool ok_ = true;
};

using Status = Result<void>;

}  // namespace nnref
