"""fleetdyn: batched ground-vehicle dynamics on CPU and GPU, from Python.

Two APIs (python/README.md has the details):

* ``fleetdyn.VectorEnv``: a reinforcement-learning vector environment with the Gymnasium vector
  API (same-step autoreset), numpy arrays on the CPU backend and zero-copy DLPack device buffers
  on CUDA::

      env = fleetdyn.VectorEnv(num_envs=256, task="path_following", seed=0)
      obs, info = env.reset(seed=0)
      obs, reward, terminated, truncated, info = env.step(actions)   # actions float32 (256, 3)

* ``fleetdyn.Batch``: the plain simulation API (many vehicles of one model, strut or ce)::

      batch = fleetdyn.Batch(100, model="strut", params={"tire.mu": 0.8})
      batch.set_initial_conditions(speed=15.0)
      batch.set_inputs(steer=0.2, throttle=0.3)
      batch.step(2000)
      snap = batch.snapshots()        # dict of numpy arrays

* ``fleetdyn.run_study``: a Monte Carlo study (a scenario with a ``study:`` section) as
  ``fleetdyn run`` runs it, from a scenario file or dict, resumable::

      samples, summary, out = fleetdyn.run_study("scenarios/fishhook_mc.yaml", samples=200, out="mc")

Errors reported by the C++ library are raised as ``fleetdyn.Error`` (a ``RuntimeError``) with
the library's message unchanged.
"""

from ._fleetdyn import (  # noqa: F401  (re-exported)
    END_REASON_NAMES,
    METRIC_NAMES,
    Batch,
    BufferView,
    CeParams,
    Error,
    StrutParams,
    VehicleDefinition,
    __version__,
    built_with_cuda,
    ce_default_step,
    ce_param_fields,
    circle_path,
    cuda_available,
    default_observations,
    env_randomizable_params,
    has_scenarios,
    hmmwv_ce_params,
    hmmwv_params,
    hmmwv_vehicle,
    load_vehicle,
    metric_names,
    observation_features,
    scenario_info,
    strut_default_step,
    vector_env_config_defaults,
    vehicle_param_fields,
    vehicle_preset,
    vehicle_preset_names,
)
from ._spaces import BoxDescription  # noqa: F401
from ._study import StudyResult, run_study  # noqa: F401
from ._vector_env import VectorEnv  # noqa: F401

__all__ = [
    "Batch",
    "BoxDescription",
    "BufferView",
    "CeParams",
    "END_REASON_NAMES",
    "Error",
    "METRIC_NAMES",
    "VectorEnv",
    "StrutParams",
    "StudyResult",
    "VehicleDefinition",
    "built_with_cuda",
    "ce_default_step",
    "ce_param_fields",
    "circle_path",
    "cuda_available",
    "default_observations",
    "env_randomizable_params",
    "has_scenarios",
    "hmmwv_ce_params",
    "hmmwv_params",
    "hmmwv_vehicle",
    "load_vehicle",
    "metric_names",
    "observation_features",
    "run_study",
    "scenario_info",
    "strut_default_step",
    "vector_env_config_defaults",
    "vehicle_param_fields",
    "vehicle_preset",
    "vehicle_preset_names",
]
