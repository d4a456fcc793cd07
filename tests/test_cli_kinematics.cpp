// `fleetdyn kinematics` in-process (kinematics_command): the CSV's shape and conventions (header,
// rows, travel, design zeros, left/right mirror, motion ratio against the CSV's own spring
// lengths, steering), its input checks and exit codes, the files it writes, and the SVG plot.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "host/cli/kinematics_job.h"
#include "host/cli/run_job.h"
#include "host/output/svg_plot.h"
#include "tests/file_test_util.h"

namespace fleetdyn {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::read_text;

const char* const kHeader =
    "corner,travel_m,camber_deg,toe_in_deg,wheel_x_m,wheel_y_m,wheel_z_m,spring_length_m,shock_length_m,motion_ratio";
enum Col { kTravel, kCamber, kToe, kX, kY, kZ, kSpring, kShock, kMotionRatio, kNumbers };

struct Row {
  std::string corner;
  std::vector<double> v;  // the numeric columns, in Col order
};
struct Table {
  std::string header;
  std::vector<Row> rows;
  std::vector<Row> corner(const std::string& name) const {
    std::vector<Row> r;
    for (const Row& row : rows) {
      if (row.corner == name) r.push_back(row);
    }
    return r;
  }
};

// The tiny CSV reader: header line, then "NAME,number,...". Fails the test on a malformed line.
Table parse_csv(const std::string& text) {
  Table t;
  std::istringstream in(text);
  std::getline(in, t.header);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    Row r;
    std::getline(cells, r.corner, ',');
    std::string cell;
    while (std::getline(cells, cell, ',')) r.v.push_back(std::stod(cell));
    EXPECT_EQ(r.v.size(), static_cast<size_t>(kNumbers)) << line;
    if (r.v.size() != static_cast<size_t>(kNumbers)) r.v.resize(kNumbers, std::nan(""));
    t.rows.push_back(r);
  }
  return t;
}

size_t count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

class CliKinematics : public test::ScratchFolderTest {
 protected:
  CliKinematics() : ScratchFolderTest("fleetdyn_kin_test_", false) {}

  int run(const KinematicsOptions& o) {
    out_.str("");
    err_.str("");
    return kinematics_command(o, out_, err_);
  }
  // Runs to stdout and parses the CSV; fails the test on a non-zero exit.
  Table table(const KinematicsOptions& o) {
    EXPECT_EQ(run(o), kExitOk) << err_.str();
    return parse_csv(out_.str());
  }

  std::ostringstream out_, err_;
};

TEST_F(CliKinematics, HeaderIsExactlyTheSpecifiedOne) {
  const Table t = table(KinematicsOptions{});
  EXPECT_EQ(t.header, kHeader);
  EXPECT_EQ(err_.str(), "");
}

TEST_F(CliKinematics, DefaultRangeGivesFourCornersOf25TravelsInOrder) {
  const Table t = table(KinematicsOptions{});  // -0.12 .. 0.12 step 0.01: 25 travels
  ASSERT_EQ(t.rows.size(), 4u * 25u);
  const char* const corners[] = {"FL", "FR", "RL", "RR"};
  for (size_t i = 0; i < t.rows.size(); ++i) EXPECT_EQ(t.rows[i].corner, corners[i / 25]) << "row " << i;
}

TEST_F(CliKinematics, RowCountIncludesToOnlyWhenOnTheGrid) {
  KinematicsOptions o;
  o.from = 0.0, o.to = 0.1, o.step = 0.03;  // 0, 0.03, 0.06, 0.09
  EXPECT_EQ(table(o).corner("RL").size(), 4u);
  o.from = -0.05, o.to = 0.05, o.step = 0.025;  // both ends
  EXPECT_EQ(table(o).corner("RL").size(), 5u);
  o.from = -0.02, o.to = 0.12, o.step = 0.02;  // (to - from) / step = 6.999999999999999 in doubles
  const std::vector<Row> rows = table(o).corner("RL");
  ASSERT_EQ(rows.size(), 8u);  // `to` is still kept
  EXPECT_NEAR(rows.back().v[kTravel], 0.12, 1e-15);
}

TEST_F(CliKinematics, TravelColumnIsTheRequestedGridAndTheWheelCentreHeightChange) {
  KinematicsOptions o;
  o.from = -0.1, o.to = 0.08, o.step = 0.02;
  const Table t = table(o);
  for (const char* c : {"FL", "FR", "RL", "RR"}) {
    const std::vector<Row> rows = t.corner(c);
    ASSERT_EQ(rows.size(), 10u) << c;
    double z0 = std::nan("");
    for (const Row& r : rows) {
      if (std::fabs(r.v[kTravel]) < 1e-12) z0 = r.v[kZ];
    }
    ASSERT_TRUE(std::isfinite(z0)) << c << ": no travel-0 row";
    for (size_t i = 0; i < rows.size(); ++i) {
      const double travel = o.from + static_cast<double>(i) * o.step;
      EXPECT_NEAR(rows[i].v[kTravel], travel, 1e-9) << c << " row " << i;
      EXPECT_NEAR(rows[i].v[kZ] - z0, travel, 1e-9) << c << " row " << i;
    }
  }
}

TEST_F(CliKinematics, DesignPositionHasZeroCamberAndToe) {
  const Table t = table(KinematicsOptions{});
  int found = 0;
  for (const Row& r : t.rows) {
    if (std::fabs(r.v[kTravel]) > 1e-12) continue;
    ++found;
    EXPECT_NEAR(r.v[kCamber], 0.0, 1e-9) << r.corner;
    EXPECT_NEAR(r.v[kToe], 0.0, 1e-9) << r.corner;
  }
  EXPECT_EQ(found, 4);
}

TEST_F(CliKinematics, RightSideMirrorsLeftSide) {
  const Table t = table(KinematicsOptions{});
  for (const auto& pair : {std::make_pair("FL", "FR"), std::make_pair("RL", "RR")}) {
    const std::vector<Row> left = t.corner(pair.first), right = t.corner(pair.second);
    ASSERT_EQ(left.size(), right.size());
    for (size_t i = 0; i < left.size(); ++i) {
      const std::string where = std::string(pair.first) + "/" + pair.second + " row " + std::to_string(i);
      for (int c : {kTravel, kCamber, kToe, kX, kZ, kSpring, kShock, kMotionRatio}) {
        EXPECT_NEAR(left[i].v[c], right[i].v[c], 1e-9) << where << " column " << c;
      }
      EXPECT_NEAR(left[i].v[kY], -right[i].v[kY], 1e-9) << where;
      EXPECT_GT(left[i].v[kY], 0.5) << where;  // the left wheel is on +y (ISO: y left)
    }
  }
}

TEST_F(CliKinematics, MotionRatioIsTheSpringCompressionPerWheelTravelInTheCsv) {
  KinematicsOptions o;
  o.step = 0.0025;  // central-difference truncation ~ h^2/6 |L'''| < 2e-5 over the default range
  const Table t = table(o);
  for (const char* c : {"FL", "FR", "RL", "RR"}) {
    const std::vector<Row> rows = t.corner(c);
    ASSERT_GE(rows.size(), 3u);
    for (size_t i = 1; i + 1 < rows.size(); ++i) {
      const double dl = rows[i + 1].v[kSpring] - rows[i - 1].v[kSpring];
      const double dz = rows[i + 1].v[kTravel] - rows[i - 1].v[kTravel];
      EXPECT_GT(rows[i].v[kMotionRatio], 0.0) << c << " row " << i;  // the spring shortens in bump
      EXPECT_NEAR(rows[i].v[kMotionRatio], -dl / dz, 1e-4) << c << " travel " << rows[i].v[kTravel];
    }
  }
}

TEST_F(CliKinematics, SteeringTurnsTheFrontWheelsLeftAndLeavesTheRearAlone) {
  const Table straight = table(KinematicsOptions{});
  KinematicsOptions o;
  o.steer = 0.3;
  const Table turned = table(o);
  ASSERT_EQ(turned.rows.size(), straight.rows.size());
  for (size_t i = 0; i < turned.rows.size(); ++i) {
    const Row &a = straight.rows[i], &b = turned.rows[i];
    ASSERT_EQ(a.corner, b.corner);
    EXPECT_NEAR(b.v[kZ], a.v[kZ], 1e-9) << b.corner << " row " << i;  // travel is still from the design height
    if (b.corner == "FL") {
      EXPECT_LT(b.v[kToe], a.v[kToe] - 5.0) << i;  // turned left: the left wheel toes out
    } else if (b.corner == "FR") {
      EXPECT_GT(b.v[kToe], a.v[kToe] + 5.0) << i;  // and the right wheel toes in
    }
    if (b.corner == "RL" || b.corner == "RR") {
      for (int c = 0; c < kNumbers; ++c)
        EXPECT_NEAR(b.v[c], a.v[c], 1e-12) << b.corner << " row " << i << " column " << c;
    }
  }
}

TEST_F(CliKinematics, BadInputReturns2WithAMessageAndWritesNothing) {
  struct Case {
    const char* what;
    void (*change)(KinematicsOptions&);
    std::vector<const char*> message;
  };
  const Case cases[] = {
      {"step 0", [](KinematicsOptions& o) { o.step = 0.0; }, {"--step", "> 0"}},
      {"negative step", [](KinematicsOptions& o) { o.step = -0.01; }, {"--step"}},
      {"from > to", [](KinematicsOptions& o) { o.from = 0.1, o.to = -0.1; }, {"--from", "--to"}},
      {"from = to", [](KinematicsOptions& o) { o.from = 0.1, o.to = 0.1; }, {"--from", "--to"}},
      {"NaN travel", [](KinematicsOptions& o) { o.to = std::nan(""); }, {"finite"}},
      {"too many rows", [](KinematicsOptions& o) { o.step = 1e-7; }, {"too many rows", "100000"}},
      {"unknown preset", [](KinematicsOptions& o) { o.preset = "m1a1"; }, {"unknown preset 'm1a1'", "hmmwv"}},
      {"plot without out", [](KinematicsOptions& o) { o.plot = true; }, {"--plot", "--out"}},
      {"unreachable travel", [](KinematicsOptions& o) { o.to = 2.0; }, {"corner FL", "wheel travel", "reach"}},
      {"unreachable rebound", [](KinematicsOptions& o) { o.from = -2.0; }, {"corner FL", "-2 m", "reach"}},
      {"steer too large", [](KinematicsOptions& o) { o.steer = -0.8; }, {"--steer", "-0.8 rad", "1.5"}},
      {"steer NaN",
       [](KinematicsOptions& o) { o.steer = std::numeric_limits<double>::quiet_NaN(); },
       {"--steer", "finite"}},
  };
  for (const Case& c : cases) {
    KinematicsOptions o;
    o.out = (dir_ / "k.csv").string();
    if (std::string(c.what) == "plot without out") o.out.reset();
    c.change(o);
    EXPECT_EQ(run(o), kExitBadInput) << c.what;
    const std::string e = err_.str();
    EXPECT_TRUE(contains(e, "fleetdyn kinematics: ")) << c.what << ": " << e;
    for (const char* m : c.message) EXPECT_TRUE(contains(e, m)) << c.what << ": '" << m << "' not in: " << e;
    EXPECT_EQ(count(e, "\n"), 1u) << c.what << ": one line: " << e;
    EXPECT_EQ(out_.str(), "") << c.what;
    EXPECT_FALSE(fs::exists(dir_)) << c.what << ": bad input created files";
  }
}

TEST_F(CliKinematics, OutFileCreatesFoldersAndHoldsWhatStdoutWouldShow) {
  const std::string on_stdout = [&] {
    EXPECT_EQ(run(KinematicsOptions{}), kExitOk);
    return out_.str();
  }();
  KinematicsOptions o;
  o.out = (dir_ / "a" / "b" / "hmmwv.csv").string();
  ASSERT_EQ(run(o), kExitOk) << err_.str();
  EXPECT_EQ(read_text(*o.out), on_stdout);
  EXPECT_TRUE(contains(out_.str(), *o.out)) << out_.str();
  EXPECT_FALSE(fs::exists(dir_ / "a" / "b" / "hmmwv.svg"));  // no plot unless asked
  for (const auto& e : fs::directory_iterator(dir_ / "a" / "b")) EXPECT_EQ(e.path().filename(), "hmmwv.csv");
}

TEST_F(CliKinematics, UnwritableOutIsAFailureNamingTheFile) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "blocker") << "a file, not a folder";
  KinematicsOptions o;
  o.out = (dir_ / "blocker" / "k.csv").string();
  EXPECT_EQ(run(o), kExitFailure);
  EXPECT_TRUE(contains(err_.str(), *o.out)) << err_.str();
}

TEST_F(CliKinematics, PlotWritesAnSvgBesideTheCsv) {
  KinematicsOptions o;
  o.out = (dir_ / "kin.csv").string();
  o.plot = true;
  o.steer = 0.25;
  ASSERT_EQ(run(o), kExitOk) << err_.str();
  const fs::path svg_path = dir_ / "kin.svg";
  ASSERT_TRUE(fs::exists(svg_path));
  EXPECT_TRUE(contains(out_.str(), svg_path.string())) << out_.str();
  const std::string svg = read_text(svg_path);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u) << svg.substr(0, 80);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  // Balanced elements (a cheap well-formedness check for what the writer emits).
  EXPECT_EQ(count(svg, "<g "), count(svg, "</g>"));
  EXPECT_EQ(count(svg, "<text"), count(svg, "</text>"));
  EXPECT_EQ(count(svg, "<svg"), 1u);
  // Four panels, each with one line per corner.
  const size_t panels = count(svg, "<g class=\"panel\">");
  EXPECT_EQ(panels, 4u);
  EXPECT_EQ(count(svg, "<path"), 4u * panels);
  size_t at = svg.find("<g class=\"panel\">");
  while (at != std::string::npos) {
    const size_t end = svg.find("</g>", at);
    const std::string panel = svg.substr(at, end - at);
    for (const char* c : {"FL", "FR", "RL", "RR"}) {
      EXPECT_EQ(count(panel, std::string("<path data-series=\"") + c + "\""), 1u) << c;
    }
    at = svg.find("<g class=\"panel\">", end);
  }
  for (const char* title :
       {"wheel travel [mm]", "camber [deg]", "toe-in [deg]", "spring length [mm]", "motion ratio [-]"}) {
    EXPECT_TRUE(contains(svg, title)) << title;
  }
  EXPECT_TRUE(contains(svg, "preset hmmwv")) << "title names the preset";
  EXPECT_TRUE(contains(svg, "steering 0.25 rad")) << "title names the steering angle";
  EXPECT_FALSE(contains(svg, "nan")) << "no non-finite coordinates";
}

TEST(SvgPlot, NiceTicksCoverTheDataWithRoundSteps) {
  const std::vector<double> t = nice_ticks(-120.0, 120.0);
  ASSERT_GE(t.size(), 4u);
  EXPECT_DOUBLE_EQ(t.front(), -150.0);
  EXPECT_DOUBLE_EQ(t.back(), 150.0);
  EXPECT_DOUBLE_EQ(t[1] - t[0], 50.0);
  for (const auto& range : {std::make_pair(0.4266, 0.5091), std::make_pair(-5.517, 2.44), std::make_pair(193.2, 360.7)}) {
    const std::vector<double> ticks = nice_ticks(range.first, range.second);
    EXPECT_LE(ticks.front(), range.first);
    EXPECT_GE(ticks.back(), range.second);
    EXPECT_GE(ticks.size(), 4u);
    EXPECT_LE(ticks.size(), 10u);
    const double step = ticks[1] - ticks[0];
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    EXPECT_TRUE(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 || std::fabs(mantissa - 5) < 1e-9) << step;
  }
  const std::vector<double> flat = nice_ticks(3.0, 3.0);  // a constant still gets an axis
  EXPECT_LT(flat.front(), 3.0);
  EXPECT_GT(flat.back(), 3.0);
  EXPECT_EQ(format_tick(-1e-17, 0.02), "0.00");
  EXPECT_EQ(format_tick(0.44, 0.02), "0.44");
  EXPECT_EQ(format_tick(-150.0, 50.0), "-150");
}

}  // namespace
}  // namespace fleetdyn
