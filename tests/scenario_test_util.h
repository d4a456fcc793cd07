// Shared by the scenario tests: the ScenarioError a malformed scenario text gives.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "host/scenario/scenario.h"

namespace fleetdyn {
namespace test {

// A malformed scenario and its one documented error: file (or the scenario's text), line, field,
// and a fragment of the message.
struct Malformed {
  const char* file;
  int line;
  const char* field;
  const char* fragment;
};

// The ScenarioError of parsing `text` as file `path` (fails the test if it parses).
inline ScenarioError parse_error(const std::string& text, const std::string& path = "inline.yaml") {
  try {
    parse_scenario(text, path);
  } catch (const ScenarioError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a ScenarioError for:\n" << text;
  return ScenarioError(path, -1, "", "no error");
}

}  // namespace test
}  // namespace fleetdyn
