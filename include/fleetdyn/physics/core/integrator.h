// Integration settings of a batch: the same for every vehicle, every model.
#pragma once

namespace fleetdyn {

template <class T>
struct IntegratorSettings {
  T step;                // [s] outer step (one call of the model's step function)
  int substeps;          // classic RK4 substeps per outer step
  bool requery_contact;  // strut: true queries the terrain at every RK4 stage (default), false
                         // once per step (ce always queries at every stage)
};

}  // namespace fleetdyn
