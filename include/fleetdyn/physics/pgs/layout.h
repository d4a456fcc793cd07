// Where the pgs core keeps one system's numbers: structure-of-arrays, component-major
// (array[j * stride + system]), so consecutive GPU threads read consecutive addresses. The
// state and the reports use stride = system_count; the scratch has its own stride (the CUDA
// backend: system_count; a CPU worker: 1, its own small block).
#pragma once

#include "fleetdyn/physics/core/config.h"

namespace fleetdyn {
namespace pgs {

// One component-major column set seen from one system.
template <class T>
struct Strided {
  T* base;
  int stride;
  int index;
  FLEETDYN_FN T& operator[](int j) const { return base[static_cast<long long>(j) * stride + index]; }
};

// State components per body: position (3) [m], orientation quaternion w,x,y,z (4), linear
// velocity (3) [m/s], angular velocity (3) [rad/s], all in the world frame.
constexpr int kBodyStateSize = 13;
enum BodyField : int { kPx = 0, kPy, kPz, kQw, kQx, kQy, kQz, kVx, kVy, kVz, kWx, kWy, kWz };

// State of a system: bodies, then the last step's row impulses [N s] (warm start), then time [s].
FLEETDYN_FN int state_size(int body_count, int row_count) { return kBodyStateSize * body_count + row_count + 1; }
FLEETDYN_FN int body_field(int body, int field) { return kBodyStateSize * body + field; }
FLEETDYN_FN int impulse_field(int body_count, int row) { return kBodyStateSize * body_count + row; }
FLEETDYN_FN int time_field(int body_count, int row_count) { return kBodyStateSize * body_count + row_count; }

// Per-system report components (stride = system_count).
enum ReportField : int {
  kReportResidualBilateral = 0,    // [m/s, rad/s] max |J v1 - target| over bilateral rows after the solve
  kReportResidualComplementarity,  // [m/s, rad/s] max natural-map residual over unilateral and friction rows
  kReportDrift,                    // [m, rad] max |C| over bilateral rows at the start of the step
  kReportPenetration,              // [m] max penetration (contact) or over-stretch (tether) at the start of the step
  kReportFieldCount
};

// Scratch per row: J (12: a linear, a angular, b linear, b angular), M^-1 J^T (12), the
// effective mass 1 / (J M^-1 J^T + compliance), the target velocity, the bounds, the impulse
// and the row's compliance (velocity per impulse; 0 for rigid rows, see joints.h emit_row).
constexpr int kRowScratchSize = 30;
enum RowField : int { kJ = 0, kMinvJt = 12, kEffMass = 24, kTarget, kLower, kUpper, kLambda, kCompliance };
// Scratch per body: velocity (3), angular velocity (3), inverse mass per axis (3), inverse world
// inertia (6: xx, yy, zz, xy, xz, yz).
constexpr int kBodyScratchSize = 15;
enum BodyScratchField : int { kSv = 0, kSw = 3, kSInvMass = 6, kSInvInertia = 9 };
FLEETDYN_FN int scratch_size(int body_count, int row_count) {
  return kRowScratchSize * row_count + kBodyScratchSize * body_count;
}
FLEETDYN_FN int row_scratch(int row, int field) { return kRowScratchSize * row + field; }
FLEETDYN_FN int body_scratch(int row_count, int body, int field) {
  return kRowScratchSize * row_count + kBodyScratchSize * body + field;
}

}  // namespace pgs
}  // namespace fleetdyn
