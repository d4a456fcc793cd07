// How many pgs vehicles share a block of the vehicle kernel (kernels/pgs_vehicle_kernel.cuh): each
// vehicle's solver scratch sits in the block's dynamic shared memory, so the device's opt-in
// limit per block bounds it. Plain C++ (no CUDA), so the CPU tests check the choice.
#pragma once

#include <cstddef>
#include <string>

#include "fleetdyn/error.h"

namespace fleetdyn {

// Lanes of a warp per vehicle: the vehicle's widest row color has 5 rows (a chassis row, and per
// corner a row of its upright), so 8 lanes take any color in one pass.
constexpr int kPgsLanesPerVehicle = 8;
// Vehicles of a full one-warp block.
constexpr int kPgsMaxVehiclesPerBlock = 32 / kPgsLanesPerVehicle;

// The vehicles per block, in [1, kPgsMaxVehiclesPerBlock]: as many as the opt-in shared memory
// per block (cudaDevAttrMaxSharedMemoryPerBlockOptin) holds, at most a full warp's. Throws when
// not even one vehicle's scratch fits.
inline int pgs_vehicles_per_block(std::size_t scratch_bytes_per_vehicle, std::size_t shared_bytes_optin) {
  if (scratch_bytes_per_vehicle == 0) return kPgsMaxVehiclesPerBlock;
  if (scratch_bytes_per_vehicle > shared_bytes_optin) {
    throw Error("pgs vehicle kernel: a vehicle's solver scratch needs " + std::to_string(scratch_bytes_per_vehicle) +
                " B of shared memory per block, the device allows at most " + std::to_string(shared_bytes_optin) +
                " B (cudaDevAttrMaxSharedMemoryPerBlockOptin)");
  }
  const std::size_t fit = shared_bytes_optin / scratch_bytes_per_vehicle;
  return fit < static_cast<std::size_t>(kPgsMaxVehiclesPerBlock) ? static_cast<int>(fit) : kPgsMaxVehiclesPerBlock;
}

}  // namespace fleetdyn
