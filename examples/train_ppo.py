#!/usr/bin/env python3
"""Train a driving policy on fleetdyn's path-following task with PPO (PyTorch).

One self-contained file in the spirit of CleanRL's ppo_continuous_action.py: clipped surrogate
objective, generalized advantage estimation, clipped value loss, entropy bonus, minibatch epochs,
per-minibatch advantage normalization, running observation normalization and reward scaling (by
the running spread of the discounted return), a linearly annealed learning rate. The policy is a
Gaussian over the env's three actions (steer [-1, 1], throttle [0, 1], brake [0, 1]) with a
state-independent spread; the sample is clipped to the action box before it reaches the env and
its log-probability is that of the unclipped sample (as CleanRL does).

Data path. On the CUDA backend every step's observations, rewards and flags are device buffers
handed to torch without a copy (`torch.from_dlpack`) and the actions go back as a CUDA tensor the
env reads in place: nothing crosses to the host during a rollout (the env's stream and torch's
are ordered by the DLPack stream protocol, both ways). On the CPU backend the env returns numpy
views of its buffers (`copy=False`; with numpy < 1.25 fresh arrays) and `torch.from_numpy` wraps
them, also without a copy.

Time limits are truncations, not terminal states: where an episode is truncated the value of its
last observation is bootstrapped into the reward (gamma * V(final_obs)).

    PYTHONPATH=build/python python3 examples/train_ppo.py                    # 4096 envs, CUDA when available
    PYTHONPATH=build/python python3 examples/train_ppo.py --device cpu --num-envs 256 --total-steps 3000000
    PYTHONPATH=build/python python3 examples/train_ppo.py --quick --curve curve.csv   # seconds on a CPU

It prints, per update, the env steps so far, the mean undiscounted return of the episodes that
ended in that update and the env steps per second; at the end, the deterministic policy (the
Gaussian's mean, clipped) evaluated on `--eval-envs` fixed episodes (`--eval-seed`, never used for
training) against the untrained policy and the zero action (straight ahead, coasting) on the same
episodes, and the total wall time. `--curve FILE` writes the learning curve as CSV.
"""

from __future__ import annotations

import argparse
import csv
import math
import time
import warnings
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Callable

import numpy as np
import torch
import torch.nn as nn

import fleetdyn


@dataclass
class Config:
    num_envs: int = 4096          # envs stepped together
    total_steps: int = 20_000_000  # env steps (all envs together) of training, in whole updates (at least one)
    rollout: int = 32             # env steps per env per update
    max_seconds: float = 0.0      # stop after the update that passes this wall time (0: no limit)
    time_limit: float = 5.0       # [s] simulated episode length (250 env steps at 50 Hz)
    seed: int = 0
    device: str = "auto"          # auto | cuda | cpu: the env's backend and torch's device
    cpu_threads: int = 0          # the CPU env's threads (0: all)
    torch_threads: int = 1        # CPU: torch's threads during training (0: torch's default); see train()
    lr: float = 3e-4
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    epochs: int = 4               # passes over each rollout
    minibatches: int = 4          # per epoch
    clip_coef: float = 0.2
    clip_vloss: bool = True
    ent_coef: float = 0.0
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    init_log_std: float = -1.0    # log of the initial action spread (0.37)
    hidden: int = 64              # units of each of the two hidden layers (actor and critic)
    eval_envs: int = 256          # evaluation episodes (one per env); 0: no evaluation
    eval_seed: int = 12345        # their seed: the same episodes whatever the training seed
    verbose: bool = True


QUICK = dict(num_envs=64, total_steps=64 * 64 * 40, rollout=64, eval_envs=128)  # ~160k steps

# Allowed ranges of the numeric settings (inclusive), for the messages of bad input.
_RANGES: dict[str, tuple[float, float]] = {
    "num_envs": (1, 10_000_000), "total_steps": (1, 10**12), "rollout": (1, 100_000),
    "max_seconds": (0.0, 1e7), "time_limit": (0.02, 3600.0), "seed": (0, 2**63 - 1), "cpu_threads": (0, 4096),
    "torch_threads": (0, 4096),
    "lr": (1e-8, 1.0), "gamma": (0.0, 1.0), "gae_lambda": (0.0, 1.0), "epochs": (1, 1000),
    "minibatches": (1, 1_000_000), "clip_coef": (1e-6, 10.0), "ent_coef": (0.0, 10.0), "vf_coef": (0.0, 100.0),
    "max_grad_norm": (1e-6, 1e6), "init_log_std": (-10.0, 2.0), "hidden": (1, 65536), "eval_envs": (0, 10_000_000),
    "eval_seed": (0, 2**63 - 1),
}


def check_config(cfg: Config) -> None:
    """ValueError naming the setting, its value and the allowed range or values."""
    for f in fields(cfg):
        v = getattr(cfg, f.name)
        if f.name in _RANGES:
            lo, hi = _RANGES[f.name]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or (f.type == "int" and not isinstance(v, int)):
                raise ValueError(f"{f.name}: expected {'an integer' if f.type == 'int' else 'a number'} "
                                 f"in [{lo}, {hi}], got {v!r}")
            if not (lo <= v <= hi):  # also false for NaN
                raise ValueError(f"{f.name}: {v!r} is outside [{lo}, {hi}]")
    if cfg.device not in ("auto", "cuda", "cpu"):
        raise ValueError(f"device: {cfg.device!r} is not one of 'auto', 'cuda', 'cpu'")
    if cfg.minibatches > cfg.num_envs * cfg.rollout:
        raise ValueError(f"minibatches: {cfg.minibatches} is more than the samples of a rollout "
                         f"(num_envs * rollout = {cfg.num_envs * cfg.rollout})")


def pick_device(name: str) -> torch.device:
    """auto: CUDA when fleetdyn was built with it, a device is usable and torch sees it; else CPU."""
    ok, why = fleetdyn.cuda_available() if fleetdyn.built_with_cuda else (False, "fleetdyn was built without CUDA")
    if ok and not torch.cuda.is_available():
        ok, why = False, f"torch {torch.__version__} sees no CUDA device"
    if name == "cuda" and not ok:
        raise RuntimeError(f"device: 'cuda' was asked for but is not usable: {why}")
    return torch.device("cuda" if name == "cuda" or (name == "auto" and ok) else "cpu")


# numpy reads bool arrays through DLPack from 1.25 on: before that the CPU env's views of its
# buffers (copy=False) fail on the flags, and it returns fresh arrays instead (copy=True).
CPU_VIEWS = tuple(int(v) for v in np.__version__.split(".")[:2]) >= (1, 25)
# The views are read-only (the env owns them); torch warns about that once, but only reads them.
warnings.filterwarnings("ignore", message="The given NumPy array is not writable", category=UserWarning)


def make_env(num_envs: int, device: torch.device, seed: int, time_limit: float, cpu_threads: int) -> fleetdyn.VectorEnv:
    if device.type == "cuda":
        return fleetdyn.VectorEnv(num_envs=num_envs, backend="cuda", seed=seed, time_limit=time_limit)
    return fleetdyn.VectorEnv(num_envs=num_envs, backend="cpu", seed=seed, time_limit=time_limit,
                              cpu_threads=cpu_threads, copy=not CPU_VIEWS)


_dlpack_bool = True  # False once torch has refused a DLPack bool buffer


def as_tensor(x: Any) -> torch.Tensor:
    """A torch view of an env output without a copy: numpy (CPU backend) or a DLPack device buffer.

    Older torch (1.13) imports no DLPack bool ("Unsupported code 6"): the env's flags then come
    through a host copy (BufferView.numpy() waits for the env's stream), one round trip a step."""
    global _dlpack_bool
    if isinstance(x, np.ndarray):
        return torch.from_numpy(x)
    if _dlpack_bool or x.dtype != np.bool_:
        try:
            return torch.from_dlpack(x)
        except RuntimeError:
            if x.dtype != np.bool_:
                raise
            _dlpack_bool = False
    kind, index = x.__dlpack_device__()
    device = torch.device("cuda", index) if kind == 2 else torch.device("cpu")
    return torch.from_numpy(x.numpy()).to(device)


def env_action(a: torch.Tensor) -> Any:
    """What env.step takes: the CUDA tensor itself (read in place) or a numpy view of a CPU one."""
    return a if a.is_cuda else a.numpy()


def step_env(env: fleetdyn.VectorEnv, actions: torch.Tensor):
    """One env step as torch tensors: obs, reward, terminated, truncated, and the ended episodes'
    (has_final, final_obs, final_return), the last three None in a CPU step where none ended."""
    obs, reward, terminated, truncated, info = env.step(env_action(actions))
    obs_t, rew_t = as_tensor(obs), as_tensor(reward)
    term_t, trunc_t = as_tensor(terminated).bool(), as_tensor(truncated).bool()
    if not info:  # CPU: no episode ended in this step
        return obs_t, rew_t, term_t, trunc_t, None, None, None
    return (obs_t, rew_t, term_t, trunc_t, as_tensor(info["_final_obs"]).bool(), as_tensor(info["final_obs"]),
            as_tensor(info["final_info"]["episode"]["r"]))


class RunningMeanStd:
    """Mean and variance of a stream of batches (parallel Welford), on the training device."""

    def __init__(self, shape: tuple[int, ...], device: torch.device):
        self.mean = torch.zeros(shape, dtype=torch.float64, device=device)
        self.var = torch.ones(shape, dtype=torch.float64, device=device)
        self.count = 1e-4

    def update(self, x: torch.Tensor) -> None:
        x = x.double()
        n = x.shape[0]
        batch_mean = x.mean(0)
        batch_var = (x - batch_mean).pow(2).mean(0)
        delta = batch_mean - self.mean
        total = self.count + n
        self.mean = self.mean + delta * (n / total)
        self.var = (self.var * self.count + batch_var * n + delta.pow(2) * (self.count * n / total)) / total
        self.count = total


class ObsNormalizer:
    def __init__(self, size: int, device: torch.device, clip: float = 10.0):
        self.rms = RunningMeanStd((size,), device)
        self.clip = clip

    def __call__(self, obs: torch.Tensor, update: bool) -> torch.Tensor:
        if update:
            self.rms.update(obs)
        z = (obs - self.rms.mean.float()) / torch.sqrt(self.rms.var.float() + 1e-8)
        return z.clamp(-self.clip, self.clip)


class RewardScaler:
    """Divides rewards by the running spread of the discounted return (gymnasium's NormalizeReward)."""

    def __init__(self, num_envs: int, gamma: float, device: torch.device):
        self.ret = torch.zeros(num_envs, dtype=torch.float64, device=device)
        self.rms = RunningMeanStd((), device)
        self.gamma = gamma

    def __call__(self, reward: torch.Tensor, done: torch.Tensor) -> torch.Tensor:
        self.ret = self.ret * self.gamma + reward.double()
        self.rms.update(self.ret)
        self.ret = torch.where(done, torch.zeros_like(self.ret), self.ret)
        return reward / torch.sqrt(self.rms.var.float() + 1e-8)


def layer(n_in: int, n_out: int, std: float = math.sqrt(2.0)) -> nn.Linear:
    lin = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


class Agent(nn.Module):
    def __init__(self, obs_size: int, hidden: int, init_log_std: float):
        super().__init__()
        self.critic = nn.Sequential(layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
                                    layer(hidden, 1, std=1.0))
        self.actor_mean = nn.Sequential(layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh(),
                                        layer(hidden, 3, std=0.01))
        self.actor_log_std = nn.Parameter(torch.full((1, 3), init_log_std))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x).squeeze(-1)

    def act(self, x: torch.Tensor, action: torch.Tensor | None = None):
        """(action, log-probability, entropy, value); samples an action unless one is given."""
        mean = self.actor_mean(x)
        dist = torch.distributions.Normal(mean, self.actor_log_std.expand_as(mean).exp(), validate_args=False)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action).sum(-1), dist.entropy().sum(-1), self.value(x)


def clip_action(a: torch.Tensor, low: torch.Tensor, high: torch.Tensor) -> torch.Tensor:
    return torch.max(torch.min(a, high), low).contiguous()


@torch.no_grad()
def evaluate(policy: Callable[[torch.Tensor], torch.Tensor], cfg: Config, device: torch.device) -> np.ndarray:
    """Undiscounted returns of one episode in each of cfg.eval_envs envs (seed cfg.eval_seed: the
    same tracks, vehicles and starts for every policy) driven by policy(raw observations)."""
    env = make_env(cfg.eval_envs, device, cfg.eval_seed, cfg.time_limit, cfg.cpu_threads)
    try:
        obs, _ = env.reset(seed=cfg.eval_seed)
        obs_t = as_tensor(obs)
        returns = torch.zeros(env.num_envs, dtype=torch.float64, device=device)
        running = torch.ones(env.num_envs, dtype=torch.bool, device=device)
        for k in range(env.max_episode_steps + 1):
            obs_t, rew, _, _, has_final, _, _ = step_env(env, policy(obs_t))
            returns += torch.where(running, rew.double(), torch.zeros_like(returns))
            if has_final is not None:
                running &= ~has_final
            if k % 25 == 24 and not bool(running.any()):
                break
        if bool(running.any()):
            raise RuntimeError("evaluate: an episode outlived the env's time limit")
        return returns.cpu().numpy()
    finally:
        env.close()


def summarize(x: np.ndarray) -> str:
    se = x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    return f"{x.mean():8.2f} +- {se:5.2f}"


def train(cfg: Config) -> dict[str, Any]:
    """Runs PPO; returns the learning curve, the evaluation returns and the trained agent.

    On the CPU, torch runs on cfg.torch_threads threads (restored afterwards): the networks are
    small, the env's own thread pool does the heavy work, and torch's idle worker threads
    spinning beside it slowed training up to 8x on a loaded 2-core machine."""
    check_config(cfg)
    device = pick_device(cfg.device)
    threads_before = torch.get_num_threads()
    if device.type == "cpu" and cfg.torch_threads > 0:
        torch.set_num_threads(cfg.torch_threads)
    try:
        return _train(cfg, device)
    finally:
        torch.set_num_threads(threads_before)


def _train(cfg: Config, device: torch.device) -> dict[str, Any]:
    torch.manual_seed(cfg.seed)
    say = print if cfg.verbose else (lambda *a, **k: None)
    start = time.perf_counter()

    env = make_env(cfg.num_envs, device, cfg.seed, cfg.time_limit, cfg.cpu_threads)
    n, t_len = env.num_envs, cfg.rollout
    obs_size = env.single_observation_space.shape[0]
    low = torch.tensor(np.asarray(env.single_action_space.low), dtype=torch.float32, device=device)
    high = torch.tensor(np.asarray(env.single_action_space.high), dtype=torch.float32, device=device)
    agent = Agent(obs_size, cfg.hidden, cfg.init_log_std).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.lr, eps=1e-5)
    normalize = ObsNormalizer(obs_size, device)
    scale_reward = RewardScaler(n, cfg.gamma, device)
    say(f"PPO on {env!r}, {env.device_name}; torch {torch.__version__} on {device}; "
        f"{obs_size} observations, episodes of {env.max_episode_steps} env steps")

    batch = n * t_len
    updates = max(1, cfg.total_steps // batch)
    minibatch = max(1, batch // cfg.minibatches)
    obs_buf = torch.zeros((t_len, n, obs_size), device=device)
    act_buf = torch.zeros((t_len, n, 3), device=device)
    logp_buf = torch.zeros((t_len, n), device=device)
    rew_buf = torch.zeros((t_len, n), device=device)
    done_buf = torch.zeros((t_len, n), device=device)
    val_buf = torch.zeros((t_len, n), device=device)

    untrained_state = {k: v.clone() for k, v in agent.state_dict().items()}

    obs, _ = env.reset(seed=cfg.seed)
    next_obs = normalize(as_tensor(obs), update=True)
    next_done = torch.zeros(n, device=device)
    curve: list[tuple[int, float, float]] = []
    env_steps = 0
    for update in range(1, updates + 1):
        t0 = time.perf_counter()
        if cfg.anneal_lr:
            optimizer.param_groups[0]["lr"] = cfg.lr * (1.0 - (update - 1.0) / updates)
        ep_sum = torch.zeros((), dtype=torch.float64, device=device)
        ep_count = torch.zeros((), dtype=torch.float64, device=device)
        for t in range(t_len):
            obs_buf[t] = next_obs
            done_buf[t] = next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs_t, rew, term, trunc, has_final, final_obs, final_ret = step_env(env, clip_action(action, low, high))
            done = term | trunc
            reward = scale_reward(rew, done)
            if has_final is not None:
                # Bootstrap truncated episodes from their last observation (frozen statistics).
                with torch.no_grad():
                    v_final = agent.value(normalize(final_obs, update=False))
                bootstrap = has_final & trunc & ~term
                reward = reward + torch.where(bootstrap, cfg.gamma * v_final, torch.zeros_like(v_final))
                ep_sum += torch.where(has_final, final_ret.double(), torch.zeros((), dtype=torch.float64,
                                                                                 device=device)).sum()
                ep_count += has_final.sum()
            rew_buf[t] = reward
            next_obs = normalize(obs_t, update=True)  # copies out of the env's buffer
            next_done = done.float()
        env_steps += batch

        with torch.no_grad():  # generalized advantage estimation
            next_value = agent.value(next_obs)
            adv = torch.zeros_like(rew_buf)
            last = torch.zeros(n, device=device)
            for t in reversed(range(t_len)):
                not_done = 1.0 - (next_done if t == t_len - 1 else done_buf[t + 1])
                v_next = next_value if t == t_len - 1 else val_buf[t + 1]
                delta = rew_buf[t] + cfg.gamma * v_next * not_done - val_buf[t]
                last = delta + cfg.gamma * cfg.gae_lambda * not_done * last
                adv[t] = last
            ret = adv + val_buf

        b_obs, b_act = obs_buf.reshape(batch, obs_size), act_buf.reshape(batch, 3)
        b_logp, b_adv = logp_buf.reshape(batch), adv.reshape(batch)
        b_ret, b_val = ret.reshape(batch), val_buf.reshape(batch)
        clip_fracs = []
        for _ in range(cfg.epochs):
            perm = torch.randperm(batch, device=device)
            for s in range(0, batch, minibatch):
                idx = perm[s:s + minibatch]
                _, logp, entropy, value = agent.act(b_obs[idx], b_act[idx])
                log_ratio = logp - b_logp[idx]
                ratio = log_ratio.exp()
                with torch.no_grad():
                    clip_fracs.append(((ratio - 1.0).abs() > cfg.clip_coef).float().mean())
                mb_adv = b_adv[idx]
                if len(idx) > 1:
                    mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio,
                                    -mb_adv * ratio.clamp(1.0 - cfg.clip_coef, 1.0 + cfg.clip_coef)).mean()
                if cfg.clip_vloss:
                    v_clipped = b_val[idx] + (value - b_val[idx]).clamp(-cfg.clip_coef, cfg.clip_coef)
                    v_loss = 0.5 * torch.max((value - b_ret[idx]) ** 2, (v_clipped - b_ret[idx]) ** 2).mean()
                else:
                    v_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = pg_loss - cfg.ent_coef * entropy.mean() + cfg.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
                optimizer.step()

        count = int(ep_count.item())  # host read-backs: only here, once per update
        mean_return = float(ep_sum.item()) / count if count else float("nan")
        wall = time.perf_counter() - start
        curve.append((env_steps, wall, mean_return))
        fps = batch / (time.perf_counter() - t0)
        say(f"update {update:4d}/{updates}  env steps {env_steps:11,d}  mean return {mean_return:8.2f} "
            f"({count:6d} episodes)  {fps:10,.0f} steps/s  clip {torch.stack(clip_fracs).mean().item():.3f}  "
            f"std {agent.actor_log_std.exp().mean().item():.3f}  {wall:7.1f} s", flush=True)
        if cfg.max_seconds and wall >= cfg.max_seconds:
            break
    env.close()
    train_seconds = time.perf_counter() - start

    result: dict[str, Any] = {"curve": curve, "agent": agent, "normalizer": normalize, "env_steps": env_steps,
                              "train_seconds": train_seconds, "device": str(device), "config": asdict(cfg)}
    if cfg.eval_envs > 0:
        trained = agent_policy(agent, normalize, low, high)
        frozen = Agent(obs_size, cfg.hidden, cfg.init_log_std).to(device)
        frozen.load_state_dict(untrained_state)
        untrained = agent_policy(frozen, normalize, low, high)
        zero = torch.zeros((cfg.eval_envs, 3), device=device)
        result["eval_zero"] = evaluate(lambda o: zero, cfg, device)
        result["eval_untrained"] = evaluate(untrained, cfg, device)
        result["eval_trained"] = evaluate(trained, cfg, device)
    result["total_seconds"] = time.perf_counter() - start

    if cfg.verbose:
        print_summary(result)
    return result


def print_summary(result: dict[str, Any]) -> None:
    """The run's outcome: training returns of the first and last updates with finished episodes,
    the deterministic evaluation against the baselines, the times."""
    cfg = result["config"]
    finished = [c[2] for c in result["curve"] if not math.isnan(c[2])]
    if finished:
        print(f"mean return of the training episodes that ended in an update: first such update {finished[0]:.2f}, "
              f"last {finished[-1]:.2f}")
    if "eval_trained" in result:
        print(f"deterministic evaluation, {cfg['eval_envs']} episodes of seed {cfg['eval_seed']} "
              "(mean +- standard error):")
        print(f"  zero action (straight, coasting) {summarize(result['eval_zero'])}")
        print(f"  untrained policy                 {summarize(result['eval_untrained'])}")
        print(f"  trained policy                   {summarize(result['eval_trained'])}")
    print(f"{result['env_steps']:,} env steps of training in {result['train_seconds']:.1f} s on {result['device']}; "
          f"total wall time {result['total_seconds']:.1f} s", flush=True)


def agent_policy(agent: Agent, normalize: ObsNormalizer, low: torch.Tensor, high: torch.Tensor):
    """The deterministic policy: the Gaussian's mean, clipped, on observations normalized by the
    (frozen) running statistics."""
    return lambda obs: clip_action(agent.actor_mean(normalize(obs, update=False)), low, high)


def write_curve(path: str, curve: list[tuple[int, float, float]]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["env_steps", "wall_s", "mean_return"])
        for steps, wall, ret in curve:
            w.writerow([steps, f"{wall:.3f}", "" if math.isnan(ret) else f"{ret:.4f}"])


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    defaults = Config()
    for f in fields(Config):
        if f.name == "verbose":
            continue
        flag = "--" + f.name.replace("_", "-")
        default = getattr(defaults, f.name)
        if isinstance(default, bool):
            ap.add_argument(flag, action=argparse.BooleanOptionalAction, default=None)
        elif f.name == "device":
            ap.add_argument(flag, choices=["auto", "cuda", "cpu"], default=None)
        else:
            ap.add_argument(flag, type=type(default), default=None, metavar=type(default).__name__.upper(),
                            help=f"default {default}")
    ap.add_argument("--quick", action="store_true",
                    help="a small run for a CPU: " + ", ".join(f"{k}={v}" for k, v in QUICK.items()))
    ap.add_argument("--curve", help="write the learning curve (env_steps, wall_s, mean_return) to this CSV file")
    ap.add_argument("--quiet", action="store_true", help="print only the final summary")
    args = ap.parse_args(argv)
    cfg = replace(defaults, **QUICK) if args.quick else defaults
    given = {f.name: getattr(args, f.name) for f in fields(Config) if f.name != "verbose"}
    cfg = replace(cfg, **{k: v for k, v in given.items() if v is not None}, verbose=not args.quiet)
    try:
        check_config(cfg)
    except ValueError as e:  # "field: message" -> "--field: message"
        field, message = str(e).split(":", 1)
        ap.error(f"--{field.replace('_', '-')}:{message}")
    try:
        pick_device(cfg.device)
    except RuntimeError as e:
        ap.error(f"--{e}")
    result = train(cfg)
    if args.quiet:
        print_summary(result)
    if args.curve:
        write_curve(args.curve, result["curve"])
        if cfg.verbose:
            print(f"learning curve: {args.curve}")
    return result


if __name__ == "__main__":
    main()
