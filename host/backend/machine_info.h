// What machine a benchmark ran on, for the results files.
#pragma once

#include <fstream>
#include <string>

namespace fleetdyn {

// The CPU's model name from /proc/cpuinfo, "unknown" where there is none.
inline std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      const size_t begin = line.find_first_not_of(" \t", colon + 1);
      return begin == std::string::npos ? std::string() : line.substr(begin);
    }
  }
  return "unknown";
}

}  // namespace fleetdyn
