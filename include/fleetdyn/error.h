// The library's exception: one clear message, naming the file, line and field where it applies.
#pragma once

#include <stdexcept>
#include <string>

namespace fleetdyn {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace fleetdyn
