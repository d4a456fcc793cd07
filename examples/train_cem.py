#!/usr/bin/env python3
"""Train a linear driving policy on fleetdyn's path-following task with the cross-entropy method.

numpy only (plus the fleetdyn module). Every generation samples `population` policies around the
current mean, runs each on `episodes` envs of one VectorEnv (population * episodes envs stepped
together), keeps the best `elite_fraction` and refits the sampling distribution to them. The
policy is linear in the standardized observation x (each feature's mean and spread taken from the
untrained policy's episodes): steer = clip(w_s . x + b_s, -1, 1), pedal p = w_p . x + b_p with
throttle = clip(p, 0, 1) and brake = clip(-p, 0, 1).

Before and after training, the mean policy is evaluated on the same `eval_envs` fresh episodes
(a seed no generation used); the script prints both mean returns with their standard errors.

    PYTHONPATH=build/python python3 examples/train_cem.py                 # under a minute on 2 cores
    PYTHONPATH=build/python python3 examples/train_cem.py --generations 8 --population 24

An episode here is `horizon` env steps (time_limit = horizon * 0.02 s at the default 50 Hz
control) or shorter when the vehicle leaves the road or rolls over; its return is the sum of the
task's rewards (progress along the track, minus lateral/heading error, harsh-input and crash
penalties).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import fleetdyn


def run_episodes(env: fleetdyn.VectorEnv, weights: np.ndarray, seed: int, horizon: int,
                 obs_mean: np.ndarray, obs_scale: np.ndarray):
    """One episode per env, env e driven by the linear policy weights[e] (shape [2, obs + 1]: steer
    and pedal rows) on observations standardized by obs_mean / obs_scale. Returns (episode
    returns, end reasons, observations seen) per env."""
    n = env.num_envs
    obs, _ = env.reset(seed=seed)
    returns = np.zeros(n)
    running = np.ones(n, dtype=bool)
    reasons = np.full(n, "time_limit", dtype=object)
    actions = np.zeros((n, 3), dtype=np.float32)
    seen = []
    for _ in range(horizon):
        seen.append(obs[running])
        x = (obs - obs_mean) / obs_scale
        z = np.einsum("eao,eo->ea", weights[:, :, :-1], x) + weights[:, :, -1]
        actions[:, 0] = np.clip(z[:, 0], -1.0, 1.0)   # steer
        actions[:, 1] = np.clip(z[:, 1], 0.0, 1.0)    # pedal > 0: throttle
        actions[:, 2] = np.clip(-z[:, 1], 0.0, 1.0)   # pedal < 0: brake
        obs, reward, _, _, info = env.step(actions)
        returns += np.where(running, reward, 0.0)
        if info:
            ended = info["_final_obs"] & running
            reasons[ended] = info["end_reason"][ended]
            running &= ~info["_final_obs"]
        if not running.any():
            break
    return returns, reasons, np.concatenate(seen)


def evaluate(theta: np.ndarray, eval_envs: int, seed: int, horizon: int, threads: int, obs_mean, obs_scale):
    """Returns of the policy theta on eval_envs fresh episodes (seeded: the same tracks, vehicles
    and starts for every theta evaluated with this seed)."""
    env = fleetdyn.VectorEnv(num_envs=eval_envs, backend="cpu", seed=seed, cpu_threads=threads,
                             time_limit=horizon * 0.02)
    try:
        weights = np.broadcast_to(theta, (eval_envs,) + theta.shape)
        return run_episodes(env, weights, seed, horizon, obs_mean, obs_scale)
    finally:
        env.close()


def train(generations: int = 20, population: int = 48, episodes: int = 4, horizon: int = 250,
          elite_fraction: float = 0.25, sigma0: float = 0.3, eval_envs: int = 256, seed: int = 0,
          threads: int = 0, verbose: bool = True) -> dict:
    rng = np.random.default_rng(seed)
    env = fleetdyn.VectorEnv(num_envs=population * episodes, backend="cpu", seed=seed, cpu_threads=threads,
                             time_limit=horizon * 0.02)
    obs_size = env.single_observation_space.shape[0]
    shape = (2, obs_size + 1)  # steer and pedal rows
    mean = np.zeros(shape)
    std = np.full(shape, sigma0)
    n_elite = max(2, int(round(population * elite_fraction)))
    eval_seed = 10_000 + seed  # never used by a generation (those use seed + 1 + g)

    start = time.perf_counter()
    # The untrained policy (zero weights: straight ahead, coasting), whose observations also set
    # the standardization (mean and spread of every feature; constant ones get scale 1).
    zeros_mean, ones_scale = np.zeros(obs_size), np.ones(obs_size)
    before, _, seen = evaluate(mean, eval_envs, eval_seed, horizon, threads, zeros_mean, ones_scale)
    obs_mean = seen.mean(axis=0)
    obs_scale = np.where(seen.std(axis=0) > 1e-3, seen.std(axis=0), 1.0)
    history = []
    for g in range(generations):
        thetas = mean + std * rng.standard_normal((population,) + shape)
        thetas[0] = mean  # keep the current mean in the race
        weights = np.repeat(thetas, episodes, axis=0)
        returns, _, _ = run_episodes(env, weights, seed + 1 + g, horizon, obs_mean, obs_scale)
        fitness = returns.reshape(population, episodes).mean(axis=1)
        elite = thetas[np.argsort(fitness)[-n_elite:]]
        mean = elite.mean(axis=0)
        std = elite.std(axis=0) + 0.02  # noise floor against premature collapse
        history.append(float(fitness.mean()))
        if verbose:
            print(f"generation {g + 1:3d}: population mean return {fitness.mean():8.2f}, "
                  f"best {fitness.max():8.2f}, elite mean {np.sort(fitness)[-n_elite:].mean():8.2f} "
                  f"({time.perf_counter() - start:5.1f} s)", flush=True)
    env.close()
    after, reasons, _ = evaluate(mean, eval_envs, eval_seed, horizon, threads, obs_mean, obs_scale)
    elapsed = time.perf_counter() - start
    steps = (generations * population * episodes + 2 * eval_envs) * horizon  # upper bound (early ends stop sooner)
    result = {
        "before_mean": float(before.mean()),
        "before_se": float(before.std(ddof=1) / np.sqrt(len(before))),
        "after_mean": float(after.mean()),
        "after_se": float(after.std(ddof=1) / np.sqrt(len(after))),
        "before": before,
        "after": after,
        "after_end_reasons": {str(k): int(v) for k, v in zip(*np.unique(reasons.astype(str), return_counts=True))},
        "history": history,
        "policy": mean,
        "obs_mean": obs_mean,
        "obs_scale": obs_scale,
        "seconds": elapsed,
        "max_env_steps": steps,
    }
    if verbose:
        print(f"mean return before {result['before_mean']:.2f} +- {result['before_se']:.2f}, "
              f"after {result['after_mean']:.2f} +- {result['after_se']:.2f} "
              f"({eval_envs} evaluation episodes each; {elapsed:.1f} s)")
        print("evaluation episodes ended by:", result["after_end_reasons"])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--generations", type=int, default=20)
    ap.add_argument("--population", type=int, default=48)
    ap.add_argument("--episodes", type=int, default=4, help="episodes (envs) per candidate policy")
    ap.add_argument("--horizon", type=int, default=250, help="env steps per episode (50 Hz)")
    ap.add_argument("--eval-envs", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0, help="CPU threads (0: all)")
    ap.add_argument("--save", help="write the trained policy (and the observation standardization) to this .npz file")
    args = ap.parse_args()
    result = train(args.generations, args.population, args.episodes, args.horizon, eval_envs=args.eval_envs,
                   seed=args.seed, threads=args.threads)
    if args.save:
        np.savez(args.save, policy=result["policy"], obs_mean=result["obs_mean"], obs_scale=result["obs_scale"])


if __name__ == "__main__":
    main()
