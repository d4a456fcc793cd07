// A scenario's heightfield file: CSV heights read with bounded memory (heightfield_file.h).
#include "host/scenario/heightfield_file.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace fleetdyn {
namespace {

constexpr size_t kMaxHeightfieldLine = size_t{16} << 20;  // one row of a heightfield file
constexpr size_t kMaxHeightfieldSamples = 200000000;      // as a rough road's

// std::getline that stops at `cap` characters (false at the end of the input; a longer line sets
// *too_long), so a file without line ends (a device, a binary file) cannot exhaust memory.
bool getline_capped(std::istream& in, std::string& line, size_t cap, bool* too_long) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  for (;;) {
    const int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) return !line.empty();
    if (c == '\n') return true;
    if (line.size() >= cap) {
      *too_long = true;
      return false;
    }
    line.push_back(static_cast<char>(c));
  }
}

}  // namespace

// Heightfield CSV: rows along y, columns along x; '#' comments and blank lines skipped.
void load_heightfield(const yaml_input::Ctx& ctx, const YAML::Node& at, const std::string& path, TerrainSpec& t) {
  std::ifstream in(path);
  if (!in) ctx.fail(at, "terrain.file", "cannot open heightfield file '" + path + "'");
  std::string line;
  int line_no = 0, nx = -1, ny = 0;
  bool too_long = false;
  while (getline_capped(in, line, kMaxHeightfieldLine, &too_long)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    std::vector<double> row;
    std::stringstream cells(line);
    std::string cell;
    int col = 0;
    while (std::getline(cells, cell, ',')) {
      ++col;
      const size_t b = cell.find_first_not_of(" \t"), e = cell.find_last_not_of(" \t");
      const std::string v = b == std::string::npos ? std::string() : cell.substr(b, e - b + 1);
      char* end = nullptr;
      const double h = v.empty() ? 0.0 : std::strtod(v.c_str(), &end);
      if (v.empty() || end != v.c_str() + v.size() || !std::isfinite(h)) {
        ctx.fail(at, "terrain.file",
                 path + ":" + std::to_string(line_no) + ": column " + std::to_string(col) + ": '" + v +
                     "' is not a number");
      }
      row.push_back(h);
    }
    if (!line.empty() && line.back() == ',') {
      ctx.fail(at, "terrain.file", path + ":" + std::to_string(line_no) + ": trailing comma (empty last column)");
    }
    if (nx < 0) {
      nx = static_cast<int>(row.size());
    } else if (static_cast<int>(row.size()) != nx) {
      ctx.fail(at, "terrain.file",
               path + ":" + std::to_string(line_no) + ": ragged heightfield: row has " + std::to_string(row.size()) +
                   " values, the first row has " + std::to_string(nx));
    }
    t.heightfield.insert(t.heightfield.end(), row.begin(), row.end());
    ++ny;
    if (t.heightfield.size() > kMaxHeightfieldSamples) {
      ctx.fail(at, "terrain.file", path + ": more than " + std::to_string(kMaxHeightfieldSamples) + " heights");
    }
  }
  if (too_long) {
    ctx.fail(at, "terrain.file",
             path + ":" + std::to_string(line_no + 1) + ": line longer than " + std::to_string(kMaxHeightfieldLine) +
                 " characters (is it a heightfield CSV file?)");
  }
  if (ny == 0) ctx.fail(at, "terrain.file", "heightfield file '" + path + "' has no rows of heights");
  t.desc.hf_nx = nx;
  t.desc.hf_ny = ny;
}

}  // namespace fleetdyn
