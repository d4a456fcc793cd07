#!/usr/bin/env python3
"""Env-steps per second of fleetdyn.VectorEnv from Python (the issue's benchmark setting: 4096 envs,
10 physics steps per env step).

    PYTHONPATH=build/python python3 examples/bench_vector_env.py --backend cpu
    PYTHONPATH=build/python python3 examples/bench_vector_env.py --backend cuda   # torch actions on the device if torch is installed

Actions are constant (steer 0.1, throttle 0.3) and held in the backend's memory (a numpy array on
the CPU; a torch CUDA tensor on CUDA when torch is importable, else a numpy array copied each
step). On CUDA, steps are only enqueued: the timing ends with a synchronize().
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import fleetdyn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--num-envs", type=int, default=4096)
    ap.add_argument("--decimation", type=int, default=10)
    ap.add_argument("--steps", type=int, default=200, help="timed env steps")
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--model", default="strut")
    ap.add_argument("--task", default="path_following")
    ap.add_argument("--json", action="store_true", help="print one JSON line")
    args = ap.parse_args()

    env = fleetdyn.VectorEnv(num_envs=args.num_envs, model=args.model, task=args.task, backend=args.backend,
                             decimation=args.decimation, seed=0)
    n = env.num_envs
    actions = np.zeros((n, 3), dtype=np.float32)
    actions[:, 0], actions[:, 1] = 0.1, 0.3
    action_memory = "host"
    if env.backend == "cuda":
        try:
            import torch

            actions = torch.from_numpy(actions).cuda()
            action_memory = "device"
        except ImportError:
            pass
    env.reset(seed=0)
    for _ in range(args.warmup):
        env.step(actions)
    env.synchronize()
    t0 = time.perf_counter()
    for _ in range(args.steps):
        env.step(actions)
    env.synchronize()
    seconds = time.perf_counter() - t0
    rate = n * args.steps / seconds
    result = {
        "num_envs": n, "decimation": args.decimation, "model": args.model, "task": args.task,
        "backend": env.backend, "device": env.device_name, "actions": action_memory,
        "env_steps": n * args.steps, "seconds": round(seconds, 4), "env_steps_per_s": round(rate),
        "physics_steps_per_s": round(rate * args.decimation),
    }
    env.close()
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['env_steps_per_s']:,} env-steps/s ({n} envs x {args.steps} steps in {seconds:.3f} s, "
              f"decimation {args.decimation}, {result['backend']} on {result['device']}, actions in {action_memory} memory)")


if __name__ == "__main__":
    main()
