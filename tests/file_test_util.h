// Helpers shared by the tests that read and write files: whole-file text, substring checks,
// and scratch folders (per test, per process, under the temporary folder).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace fleetdyn {
namespace test {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A path for one test under the temporary folder, `suite`-specific and per process: removed if
// it was there, its parent created (the folder itself is left to the caller or the run).
inline std::filesystem::path fresh_path(const std::string& suite, const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path p = fs::temp_directory_path() / ("fleetdyn_test_" + suite + "_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  fs::create_directories(p.parent_path());
  return p;
}

// A fixture whose dir_ is a folder of its own for each test (prefix, process id, test name):
// removed before the test (and created, when `create`) and removed after it.
class ScratchFolderTest : public ::testing::Test {
 protected:
  explicit ScratchFolderTest(std::string prefix, bool create = true) : prefix_(std::move(prefix)), create_(create) {}
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           (prefix_ + std::to_string(::getpid()) + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    if (create_) std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
  bool create_;
};

}  // namespace test
}  // namespace fleetdyn
