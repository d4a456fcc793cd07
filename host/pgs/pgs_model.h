// Host side of the pgs model: checks a PgsModelDef, lays out its constraint rows and converts
// it to the core's arrays (physics/pgs/model.h) in the batch's precision.
#pragma once

#include <vector>

#include "fleetdyn/pgs.h"
#include "fleetdyn/physics/pgs/layout.h"
#include "fleetdyn/physics/pgs/model.h"

namespace fleetdyn {

template <class T>
struct PgsModelData {
  std::vector<pgs::Body<T>> bodies;
  std::vector<pgs::Joint<T>> joints;
  std::vector<pgs::Contact<T>> contacts;
  std::vector<pgs::Spring<T>> springs;
  std::vector<pgs::RowInfo> rows;
  std::vector<int> sweep_order;  // rows grouped by color (ModelView::sweep_order)
  std::vector<int> color_begin;  // color_count + 1 entries
  pgs::Ground<T> ground{};
  pgs::Settings<T> settings{};

  // A view into these vectors (valid while they live and are not resized).
  pgs::ModelView<T> view() const;
};

// Throws fleetdyn::Error naming the first bad field.
void validate_pgs_model(const PgsModelDef& model, const PgsSolverSettings& settings);

template <class T>
PgsModelData<T> build_pgs_model(const PgsModelDef& model, const PgsSolverSettings& settings);

std::vector<PgsRowDesc> pgs_row_descs(const PgsModelDef& model);

// Greedy coloring of the rows: each row takes the first color none of whose rows touches its
// bodies (any body index >= 0, kinematic ones too; the world touches nothing). Fills
// sweep_order (rows by color, table order within a color) and color_begin.
void color_pgs_rows(const std::vector<pgs::RowInfo>& rows, int body_count, std::vector<int>* sweep_order,
                    std::vector<int>* color_begin);

// One system's state (layout.h) for the given body states at `time`, impulses zero; kinematic
// bodies placed on their motion law.
std::vector<double> pgs_system_state(const PgsModelDef& model, const std::vector<PgsBodyState>& bodies, int row_count,
                                     double time);
std::vector<PgsBodyState> pgs_initial_bodies(const PgsModelDef& model);

}  // namespace fleetdyn
